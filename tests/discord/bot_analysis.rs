//! End to end: `/tablut analysis` through the real serenity/poise client against the fake
//! Discord: the answer, the progress message edited in place, the summary posted with the
//! evaluation graph, asking again answered at once from the stored analysis, the game
//! option's suggestions, and the cooldown replays and analyses share.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use serde_json::json;

const ASTRID: u64 = 900_000_000_000_000_201;
const BIRGER: u64 = 900_000_000_000_000_202;

/// The suggestions (name, value) for `/tablut analysis`'s game option when `who` has typed
/// `typed` in `channel`, checked against Discord's limits (at most 25 choices of at most 100
/// characters).
async fn suggestions(
    h: &BotHarness,
    who: &Who,
    channel: u64,
    typed: &str,
) -> Vec<(String, String)> {
    let id = h
        .fake
        .autocomplete_in(who, channel, "tablut", &[("analysis", 1)], "game", typed);
    let r = h.fake.callback(id).await;
    assert_eq!(r.callback_type(), Some(8), "{:?}", r.json);
    let choices = r.json["data"]["choices"].as_array().unwrap();
    assert!(choices.len() <= 25);
    choices
        .iter()
        .map(|c| {
            let (name, value) = (c["name"].as_str().unwrap(), c["value"].as_str().unwrap());
            assert!(name.chars().count() <= 100 && value.chars().count() <= 100);
            (name.to_string(), value.to_string())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_answered_shown_as_it_goes_and_posted_with_its_graph() {
    let h = BotHarness::start(&[
        ("AI_TT_MB", "4"),
        ("ANALYSIS_MS_PER_PLY", "50"),
        ("DEFAULT_TIME_CONTROL", "none"),
    ])
    .await;
    let (astrid, birger) = (Who::member(ASTRID, "Astrid"), Who::member(BIRGER, "Birger"));
    let (_, r) = h.tablut(&astrid, 30, "analysis", json!([]), &[]).await;
    assert_eq!(r.callback_type(), Some(4), "refused at once: {:?}", r.json);
    assert!(r.ephemeral());
    assert!(
        r.content().contains("No game has finished in this channel"),
        "{}",
        r.content()
    );

    h.challenge_accepted(30, &astrid, (BIRGER, "Birger"), json!([]))
        .await;
    h.play(&astrid, 30, "a4-a3").await;
    h.play(&birger, 30, "e4-d4").await;
    h.tablut(&astrid, 30, "resign", json!([]), &[]).await;

    let (_, r) = h
        .tablut(
            &birger,
            30,
            "analysis",
            json!([{"name": "game", "type": 3, "value": "zzz"}]),
            &[],
        )
        .await;
    assert!(
        r.ephemeral() && r.content().contains("'zzz' is not a game"),
        "{}",
        r.content()
    );

    // The game option's suggestions: the channel's finished games, none from another channel.
    let games = suggestions(&h, &birger, 30, "").await;
    assert_eq!(games.len(), 1, "{games:?}");
    let (label, game) = &games[0];
    assert!(label.contains(&format!("#{game}")), "{label}");
    assert_eq!(suggestions(&h, &birger, 30, "zzz").await, []);
    assert_eq!(suggestions(&h, &birger, 31, "").await, []);

    let (id, r) = h.tablut(&birger, 30, "analysis", json!([]), &[]).await;
    // Acknowledged at once (deferred), then answered.
    let prefix = format!("/api/v10/interactions/{id}/");
    let acknowledged = h
        .fake
        .requests()
        .into_iter()
        .find(|q| q.path.starts_with(&prefix))
        .unwrap();
    assert_eq!(
        acknowledged.callback_type(),
        Some(5),
        "{:?}",
        acknowledged.json
    );
    assert!(
        r.content().contains(&format!("Reviewing game #{game}")),
        "{}",
        r.content()
    );
    assert!(r.content().contains("(2 moves)"), "{}", r.content());
    // The progress, posted once and then edited; then the summary with the graph.
    let path = "/api/v10/channels/30/messages";
    let progress = h
        .fake
        .expect("the progress", |r| {
            r.method == "POST" && r.path == path && r.content().contains("0 of 2 moves")
        })
        .await;
    let message = progress.created.expect("a message made");
    let edited = h
        .fake
        .expect("the progress edited", |r| {
            r.method == "PATCH" && r.path == format!("{path}/{message}")
        })
        .await;
    assert!(
        edited.content().contains("all 2 moves"),
        "{}",
        edited.content()
    );
    let summary = h
        .fake
        .expect("the summary", |r| {
            r.method == "POST" && r.path == path && r.content().contains("Analysis of game")
        })
        .await;
    assert!(
        summary.content().contains("Accuracy: Astrid "),
        "{}",
        summary.content()
    );
    let png = summary.file("analysis.png").expect("the graph");
    let graph = image::load_from_memory(png).unwrap();
    assert_eq!((graph.width(), graph.height()), (1200, 600));

    // Asked again: the stored result, at once, in the answer.
    let (_, again) = h.tablut(&astrid, 30, "analysis", json!([]), &[]).await;
    assert!(!again.ephemeral());
    assert!(
        again.content().contains("Analysis of game"),
        "{}",
        again.content()
    );
    assert_eq!(again.file("analysis.png"), Some(png));

    // Replays and analyses share one cooldown per user (COSTLY_COOLDOWN_SECS, 30 s by
    // default): Astrid, who has just had an analysis, is refused a replay in one private
    // line, before anything is deferred or drawn; Carl, who has asked for nothing, gets his.
    let (_, refused) = h.tablut(&astrid, 30, "replay", json!([]), &[]).await;
    assert_eq!(refused.callback_type(), Some(4), "{:?}", refused.json);
    assert!(refused.ephemeral(), "{:?}", refused.json);
    let text = refused.content();
    assert!(
        text.contains("one at a time: try again in ") && !text.contains('\n'),
        "{text}"
    );
    let carl = Who::member(900_000_000_000_000_203, "Carl");
    let id = h
        .fake
        .command(&carl, 30, "tablut", Some("replay"), json!([]), &[]);
    assert_eq!(
        h.fake.callback(id).await.callback_type(),
        Some(5),
        "deferred"
    );
    let replay = h.fake.followup(id).await;
    assert!(replay.file(".gif").is_some(), "{:?}", replay.json);
    let (_, refused) = h.tablut(&carl, 30, "analysis", json!([]), &[]).await;
    // Refused at once, before anything is acknowledged.
    assert_eq!(refused.callback_type(), Some(4), "{:?}", refused.json);
    assert!(
        refused.ephemeral() && refused.content().contains("try again in "),
        "{}",
        refused.content()
    );
    h.fake.assert_contract();
}
