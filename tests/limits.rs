//! The limits a server expects: per-user rates on commands and button presses (through the real
//! client against the fake Discord), and the caps the database keeps (games against the AI,
//! open challenges, challenges received) under real concurrency on both backends.

mod support;

use serde_json::json;
use std::time::Duration;
use support::bot_harness::BotHarness;
use support::fake_discord::*;

const ASTRID: u64 = 900_000_000_000_000_101;
const BIRGER: u64 = 900_000_000_000_000_102;

fn assert_refused(r: &Recorded, words: &str) {
    assert!(r.ephemeral(), "refusals are private: {:?}", r.json);
    let text = r.content();
    assert!(text.contains(words), "expected '{words}' in '{text}'");
    assert!(!text.contains('\n'), "one line: '{text}'");
}

fn assert_answered(r: &Recorded) {
    let text = r.content();
    assert!(
        !text.contains("try again in"),
        "answered, not refused: '{text}'"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_and_presses_past_a_users_rate_are_refused_with_the_wait() {
    let h = BotHarness::start(&[("COMMANDS_PER_MINUTE", "3"), ("AI_TT_MB", "4")]).await;
    let astrid = Who::member(ASTRID, "Astrid");
    let birger = Who::member(BIRGER, "Birger");
    // Autocomplete is typing, not a use: it does not count.
    for typed in ["e", "e1", "e1-"] {
        let id = h.fake.autocomplete(&astrid, 10, "move", "notation", typed);
        assert_eq!(h.fake.callback(id).await.callback_type(), Some(8));
    }
    // Three uses in a burst (a subcommand counts once, not once per level of /tablut sub).
    for _ in 0..3 {
        let (_, answer) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
        assert_answered(&answer);
        assert!(answer.content().contains("Tablut"), "{}", answer.content());
    }
    // The fourth waits for a use to come back: a minute / 3.
    let (_, refused) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
    assert_refused(&refused, "try again in 20 s");
    // A button press counts as a command does.
    let press = h.fake.click(&astrid, 10, 1, "tablut:lb:0");
    assert_refused(&h.fake.callback(press).await, "try again in 20 s");
    // Each user has their own rate.
    let (_, other) = h.tablut(&birger, 10, "rules", json!([]), &[]).await;
    assert_answered(&other);
    // One use comes back every 20 s.
    h.clock.advance(Duration::from_secs(15));
    let (_, refused) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
    assert_refused(&refused, "try again in 5 s");
    h.clock.advance(Duration::from_secs(5));
    let (_, answer) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
    assert_answered(&answer);
    h.fake.assert_contract();
}
