//! Gateway shards: the `SHARDS` setting starts its range (and, unset, Discord's recommended
//! count) against a fake Discord whose guilds' events go only to their shard.

mod support;

use serde_json::json;
use support::bot_harness::BotHarness;
use support::fake_discord::*;
use tablut_bot::tafl::{Game, Rules};

const ASTRID: u64 = 900_000_000_000_000_501;
const BIRGER: u64 = 900_000_000_000_000_502;

fn astrid() -> Who {
    Who::member(ASTRID, "Astrid")
}

fn birger() -> Who {
    Who::member(BIRGER, "Birger")
}

/// `/move notation` by `who` in `channel`; returns the interaction id.
fn send_move(fake: &FakeDiscord, who: &Who, channel: u64, notation: &str) -> u64 {
    fake.command(
        who,
        channel,
        "move",
        None,
        json!([{"name": "notation", "type": 3, "value": notation}]),
        &[],
    )
}

/// The move a message announces (`… played **e1-e3** …`).
fn played(content: &str) -> Option<String> {
    let rest = &content[content.find("played **")? + "played **".len()..];
    Some(rest[..rest.find("**")?].to_string())
}

/// A legal move after `moves` that does not end the game, varied with the ply so that no
/// position repeats.
fn next_move(moves: &[String]) -> String {
    let mut game = Game::new(Rules::default());
    for m in moves {
        game.play_text(m).unwrap();
    }
    let legal = game.position().legal_moves_sorted();
    let quiet: Vec<_> = legal
        .into_iter()
        .filter(|&mv| {
            let mut after = game.clone();
            after.play(mv).unwrap();
            !after.outcome().is_over()
        })
        .collect();
    quiet[(moves.len() * 7 + 3) % quiet.len()].to_string()
}

#[test]
fn the_fakes_ready_and_guild_create_read_as_serenitys_events() {
    let ready = support::fake_discord::ready_json(2, 3, &[guild_on_shard(2, 3, 0)]);
    let ready: serenity::model::gateway::Ready = serde_json::from_value(ready).unwrap();
    assert_eq!(ready.shard.map(|s| (s.id.0, s.total)), Some((2, 3)));
    assert_eq!(ready.guilds.len(), 1);
    let guild = guild_on_shard(1, 4, 5);
    assert_eq!(shard_of(guild, 4), 1);
    let create = support::fake_discord::guild_json(guild, &[41, 42]);
    let guild: serenity::model::guild::Guild = serde_json::from_value(create).unwrap();
    assert_eq!(guild.channels.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_runs_the_shards_its_setting_names_and_gets_only_their_guilds() {
    let h =
        BotHarness::start_sharded(2, &[("SHARDS", "1/2"), ("DEFAULT_TIME_CONTROL", "none")]).await;
    let fake = &h.fake;
    let (ours, theirs) = (guild_on_shard(1, 2, 0), guild_on_shard(0, 2, 0));
    fake.add_guild(ours, &[21]);
    fake.add_guild(theirs, &[20]);
    assert_eq!(fake.identified_shards(), vec![[1, 2]], "shard 1 of 2 only");
    // A command in the other shard's guild reaches no process of this one: it waits in
    // shard 0's session, which nobody opened.
    let elsewhere = fake.command(&astrid(), 20, "tablut", Some("games"), json!([]), &[]);
    let (_, started) = fake
        .challenge_accepted(21, &astrid(), &birger(), json!([]))
        .await;
    assert!(
        started.content().contains("Your move"),
        "{}",
        started.content()
    );
    let id = send_move(fake, &astrid(), 21, &next_move(&[]));
    let answer = fake.callback(id).await;
    assert!(played(&answer.content()).is_some(), "{}", answer.content());
    assert!(!fake.shard_connected(0));
    let prefix = format!("/api/v10/interactions/{elsewhere}/");
    assert!(
        fake.requests().iter().all(|r| !r.path.starts_with(&prefix)),
        "the other shard's interaction was never answered here"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unset_the_process_runs_discords_recommended_count_of_shards() {
    // serenity waits 5 s between two IDENTIFYs of one process.
    let h = BotHarness::start_sharded(2, &[("DEFAULT_TIME_CONTROL", "none")]).await;
    let fake = &h.fake;
    let mut shards = fake.identified_shards();
    shards.sort();
    assert_eq!(shards, vec![[0, 2], [1, 2]]);
    for shard in 0..2 {
        let guild = guild_on_shard(shard, 2, 1);
        let channel = 30 + u64::from(shard);
        fake.add_guild(guild, &[channel]);
        fake.challenge_accepted(channel, &astrid(), &birger(), json!([]))
            .await;
        let id = send_move(fake, &astrid(), channel, &next_move(&[]));
        let answer = fake.callback(id).await;
        assert!(played(&answer.content()).is_some(), "{}", answer.content());
    }
}
