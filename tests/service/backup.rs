//! `tablut-bot backup` while the bot plays: the real binary copies the SQLite database while
//! moves are committed beside it, and the copy, opened as the bot opens a database, holds every
//! move acknowledged before the backup began, and no game at a ply its moves do not reach.

use crate::support::fixture::{challenge_request, Fixture};
use crate::support::until;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use tablut_bot::service::{Answer, Config, Place, User};
use tablut_bot::store;

const ASTRID: u64 = 1;
const BIRGER: u64 = 2;
const CHANNELS: [u64; 3] = [11, 12, 13];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_during_play_holds_every_acknowledged_move() {
    let f = Fixture::sqlite(Config {
        images: false,
        ..Config::default()
    })
    .await;
    let record = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/game-1000-plies.txt"
    ))
    .unwrap();
    let moves: Arc<Vec<String>> = Arc::new(
        tablut_bot::tafl::record::record_tokens(&record)
            .into_iter()
            .map(str::to_string)
            .collect(),
    );
    // Three games played at once, each acknowledging its moves one by one.
    let mut games = Vec::new();
    for channel in CHANNELS {
        let place = Place {
            guild: Some(5),
            channel,
        };
        let request = challenge_request(
            place,
            User::new(ASTRID, "Astrid"),
            User::new(BIRGER, "Birger"),
        );
        let (challenge, _) = f
            .service
            .games()
            .challenge(request, None)
            .await
            .unwrap()
            .done;
        let started = f.service.games().accept(challenge.id, BIRGER, None, None);
        games.push(started.await.unwrap().done.game.id);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged: Arc<Vec<AtomicUsize>> =
        Arc::new(CHANNELS.iter().map(|_| AtomicUsize::new(0)).collect());
    let mut players = Vec::new();
    for (i, channel) in CHANNELS.into_iter().enumerate() {
        let (service, moves, stop, acknowledged) = (
            f.service.clone(),
            moves.clone(),
            stop.clone(),
            acknowledged.clone(),
        );
        players.push(tokio::spawn(async move {
            for (ply, text) in moves.iter().enumerate().take(900) {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let user = if ply % 2 == 0 { ASTRID } else { BIRGER };
                service
                    .games()
                    .play_move(channel, user, text, Answer::None)
                    .await
                    .unwrap_or_else(|e| panic!("ply {}: {text}: {e:?}", ply + 1));
                acknowledged[i].store(ply + 1, Ordering::SeqCst);
            }
        }));
    }
    let total = |a: &[AtomicUsize]| a.iter().map(|n| n.load(Ordering::SeqCst)).sum::<usize>();
    until("moves played in every game", || {
        acknowledged.iter().all(|n| n.load(Ordering::SeqCst) >= 10)
    })
    .await;

    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("backup.db");
    let before: Vec<usize> = acknowledged
        .iter()
        .map(|n| n.load(Ordering::SeqCst))
        .collect();
    let (url, to) = (f.db.url.clone(), copy.clone());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_tablut-bot"))
            .args(["backup", "--database-url", &url])
            .arg(&to)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let during = total(&acknowledged) - before.iter().sum::<usize>();
    stop.store(true, Ordering::SeqCst);
    for player in players {
        player.await.unwrap();
    }
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.starts_with("backed up sqlite://") && said.contains("3 games"),
        "{said}"
    );

    // The copy opens as the bot opens a database (nothing to migrate), and holds at least every
    // move acknowledged before the backup began, as played, each game's row at its last move.
    let copied = store::open(&format!("sqlite://{}", copy.display()))
        .await
        .unwrap();
    for (i, game) in games.iter().enumerate() {
        let stored = store::moves::of_game(&copied, *game).await.unwrap();
        assert!(
            stored.len() >= before[i],
            "game {i}: {} moves in the backup, {} acknowledged before it began",
            stored.len(),
            before[i]
        );
        for (ply, m) in stored.iter().enumerate() {
            assert_eq!(m.ply as usize, ply + 1);
            assert_eq!(m.notation, moves[ply], "game {i}, ply {}", ply + 1);
        }
        let row = store::games::by_id(&copied, *game).await.unwrap().unwrap();
        assert_eq!(row.ply as usize, stored.len(), "game {i}");
    }
    store::close(&copied).await;
    // Moves were committed while the copy was taken (the games went on beside it).
    eprintln!("backup: {during} moves acknowledged while it ran");
    f.service.close().await;
}
