//! A person's data on both backends: what `/tablut privacy` reads out is every row that names
//! them, as stored (held to a scan of every table); `/tablut forget-me` is refused while
//! anything of theirs is under way, and then leaves their id and name nowhere in the database,
//! their opponents' ratings as they were, and their finished games whole. A member's
//! tournaments: read out with their entry, matches and games; forgetting refused while one is
//! not over, then their entry and organising given to the stand-in, the standings as they were.

use crate::support::fixture::{challenge_request, Fixture};
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;
use tablut_bot::bot::messages::{plain_name, FORMER_PLAYER_NAME};
use tablut_bot::both_backends;
use tablut_bot::service::analysis::AnalysisStatus;
use tablut_bot::service::privacy::{StoredAbout, UnderWay, FORGOTTEN_NAME, FORMER_PLAYER};
use tablut_bot::service::puzzle::ReplyTo;
use tablut_bot::service::tournament::{
    MatchGame, Member, PairingView, TournamentFormat, TournamentNews, TournamentRequest,
    TournamentStatus,
};
use tablut_bot::service::*;
use tablut_bot::store::{to_db, Backend};
use tablut_bot::tafl::Variant;

const GUILD: u64 = 900_000_000_000_000_001;
/// Above i64::MAX: stored as a negative number, read out as the id.
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;
/// Her names: in the games and ratings, and the nickname she asks with.
const NAME: &str = "Astrid Kvist";
const NICK: &str = "Kvisten";

fn config() -> Config {
    Config {
        ai_time: [Duration::from_millis(50); 3],
        ai_workers: 1,
        ai_tt_mb: 2,
        ai_game_cooldown: Duration::ZERO,
        analysis_depth: Some(2),
        costly_cooldown: Duration::ZERO,
        images: false,
        ..Config::default()
    }
}

fn place(channel: u64) -> Place {
    Place {
        guild: Some(GUILD),
        channel,
    }
}

fn astrid() -> User {
    User::new(ASTRID, NAME)
}

fn birger() -> User {
    User::new(BIRGER, "Birger")
}

/// Astrid challenges Birger in `channel` (she attacks) and he accepts.
async fn game(s: &Service, channel: u64) -> GameInfo {
    let c = s
        .games()
        .challenge(challenge_request(place(channel), astrid(), birger()), None)
        .await
        .unwrap()
        .done
        .0;
    s.games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap()
        .done
        .game
}

/// Every notice owed, delivered, as the dispatcher would (a channel's next once its earlier
/// one is).
async fn deliver_all(s: &Service) {
    loop {
        let now = s.database_now().await.unwrap() + 24 * 3600 * 1000;
        let claimed = s.outbox().claim(now, 100).await.unwrap();
        if claimed.is_empty() {
            return;
        }
        for notice in claimed {
            s.outbox().news_delivered(&notice, None).await.unwrap();
        }
    }
}

/// The tables of the database, as its backend lists them.
async fn tables(s: &Service) -> Vec<String> {
    let sql = match s.backend() {
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
        Backend::Postgres => {
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() ORDER BY table_name"
        }
    };
    sqlx::query_scalar(sql)
        .fetch_all(s.store().pool())
        .await
        .unwrap()
}

/// Every place in the database that holds `id` (an integer column equal to it as stored, or
/// text holding its digits) or one of `names`: (table, column).
async fn where_held(s: &Service, id: u64, names: &[&str]) -> BTreeSet<(String, String)> {
    use sqlx::{Column, Row};
    let mut found = BTreeSet::new();
    // The migrations applied hold no one (and types the scan does not read).
    for table in tables(s)
        .await
        .into_iter()
        .filter(|t| t != "_sqlx_migrations")
    {
        let rows = sqlx::query(&format!("SELECT * FROM {table}"))
            .fetch_all(s.store().pool())
            .await
            .unwrap();
        for row in rows {
            for (i, column) in row.columns().iter().enumerate() {
                let held = if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
                    v == Some(to_db(id))
                } else if let Ok(Some(text)) = row.try_get::<Option<String>, _>(i) {
                    text.contains(&id.to_string()) || names.iter().any(|n| text.contains(n))
                } else {
                    false
                };
                if held {
                    found.insert((table.clone(), column.name().to_string()));
                }
            }
        }
    }
    found
}

/// A count of rows `sql` (with the id bound) selects.
async fn count(s: &Service, sql: &str, id: u64) -> usize {
    sqlx::query_scalar::<_, i64>(sql)
        .bind(to_db(id))
        .fetch_one(s.store().pool())
        .await
        .unwrap() as usize
}

/// Astrid's history on the bot: a rated game she lost by resigning after a draw offer she
/// made was declined, a game she won, a challenge she declined, a game against the AI she
/// resigned, a finished puzzle, the daily puzzle's channel she set, and an analysis she asked
/// for; every notice delivered. Returns the channels of her finished games.
async fn history(s: &Service) -> Vec<u64> {
    // Channel 1: she moves, offers a draw, Birger declines, she resigns.
    game(s, 1).await;
    s.games()
        .play_move(1, ASTRID, "a4-a3", Answer::None)
        .await
        .unwrap();
    s.games()
        .play_move(1, BIRGER, "e3-d3", Answer::None)
        .await
        .unwrap();
    s.games().offer_draw(1, ASTRID, None).await.unwrap();
    s.games()
        .respond_to_draw(1, BIRGER, false, None)
        .await
        .unwrap();
    s.games().resign(1, ASTRID, None).await.unwrap();
    // Channel 2: Birger resigns.
    game(s, 2).await;
    s.games()
        .play_move(2, ASTRID, "a4-a3", Answer::None)
        .await
        .unwrap();
    s.games().resign(2, BIRGER, None).await.unwrap();
    // Channel 3: Birger challenges her, and she declines.
    let c = s
        .games()
        .challenge(challenge_request(place(3), birger(), astrid()), None)
        .await
        .unwrap()
        .done
        .0;
    s.games().decline(c.id, ASTRID, None).await.unwrap();
    // Channel 4: against the AI, resigned.
    let ai = s
        .games()
        .start_ai_game(
            crate::support::fixture::ai_game_request(
                place(4),
                astrid(),
                SideChoice::Defenders,
                tablut_bot::ai::Level::Easy,
            ),
            None,
        )
        .await
        .unwrap()
        .done;
    assert!(ai.game.attackers.is_ai());
    s.games().resign(4, ASTRID, None).await.unwrap();
    // A puzzle, answered until it ends.
    s.puzzles().puzzle(GUILD, &astrid(), None).await.unwrap();
    while s
        .probe()
        .puzzle_player(GUILD, ASTRID)
        .await
        .unwrap()
        .is_none()
    {
        let moves = s
            .puzzles()
            .suggest_moves(GUILD, ASTRID, "", 25)
            .await
            .unwrap();
        s.puzzles()
            .puzzle_move(GUILD, &astrid(), &moves[0], None)
            .await
            .unwrap();
    }
    s.puzzles()
        .set_daily_channel(GUILD, Some(5), ASTRID, None)
        .await
        .unwrap();
    // Her turn notifications: a digest.
    let digest = tablut_bot::service::notify::NotifyMode::Digest;
    s.notifications().set(ASTRID, digest).await.unwrap();
    deliver_all(s).await;
    vec![1, 2, 4]
}

/// The tournament's hall, and its match games' threads (this plus the game's slot).
const HALL: u64 = 700;
const THREADS: u64 = 1_000_000;
const CARL: u64 = 18_000_000_000_000_000_003;

/// A member with Manage Server (Astrid).
fn manager() -> Member {
    Member {
        user: astrid(),
        manage_server: true,
        roles: Vec::new(),
    }
}

/// Opens the match games' threads owed (as the dispatcher does), returning the games started.
async fn open_threads(s: &Service) -> Vec<(MatchGame, GameInfo)> {
    let mut opened = Vec::new();
    for n in s.probe().notices_in(HALL).await.unwrap() {
        let payload: Payload = serde_json::from_str(&n.payload).unwrap();
        if let Some(News::Tournament(TournamentNews::Thread(game))) = payload.news {
            let thread = THREADS + game.slot as u64;
            if let Some(info) = s.tournaments().open_game(&game, thread).await.unwrap() {
                opened.push((game, info));
            }
        }
    }
    opened
}

/// Whether `user` can be forgotten now: the tournaments under way if refused.
async fn tournaments_under_way(s: &Service, user: User) -> Option<u32> {
    match s.privacy().check_forget(&user).await {
        Ok(()) => None,
        Err(ServiceError::StillUnderWay(u)) => Some(u.tournaments),
        Err(e) => panic!("{e:?}"),
    }
}

/// The tables the read-out has rows in.
fn tables_read_out(stored: &StoredAbout) -> BTreeSet<String> {
    stored
        .tables
        .iter()
        .filter(|t| !t.rows.is_empty())
        .map(|t| t.table.to_string())
        .collect()
}

both_backends! {
#[tokio::test]
async fn what_is_stored_about_a_member_is_read_out_whole_and_forgotten_for_good(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    let s = &*f.service;
    let channels = history(s).await;
    let asking = User::new(ASTRID, NICK);

    // An analysis she asks for runs: she cannot be forgotten until it is done.
    let status = s.analysis().request(1, None, Some(ASTRID)).await.unwrap();
    let AnalysisStatus::Started { game: analysed, .. } = status else {
        panic!("a new analysis, not {status:?}");
    };
    let refused = s.privacy().check_forget(&asking).await.unwrap_err();
    let ServiceError::StillUnderWay(under) = refused else {
        panic!("refused for what is under way, not {refused:?}");
    };
    assert_eq!(under.analyses, 1);
    assert!(s.analysis().run(analysed.id).await.unwrap());
    deliver_all(s).await;
    s.privacy().check_forget(&asking).await.unwrap();

    // The read-out: exactly the tables that hold her id or a name of hers, every row of them.
    let stored = s.privacy().stored(&asking).await.unwrap();
    let json: Value = serde_json::from_slice(&serde_json::to_vec_pretty(&stored).unwrap()).unwrap();
    assert_eq!(json["user"], ASTRID.to_string());
    assert_eq!(json["names"], serde_json::json!([NAME]));
    let held: BTreeSet<String> = where_held(s, ASTRID, &[NAME])
        .await
        .into_iter()
        .map(|(table, _)| table)
        .collect();
    assert_eq!(tables_read_out(&stored), held, "every table that holds her, and no other");
    for (table, sql) in [
        ("players", "SELECT COUNT(*) FROM players WHERE user_id = $1"),
        ("games", "SELECT COUNT(*) FROM games WHERE attacker_user_id = $1 OR defender_user_id = $1"),
        ("moves", "SELECT COUNT(*) FROM moves WHERE user_id = $1"),
        ("challenges", "SELECT COUNT(*) FROM challenges WHERE challenger_id = $1 OR challenged_id = $1"),
        ("draw_offers", "SELECT COUNT(*) FROM draw_offers WHERE offered_by = $1"),
        ("analyses", "SELECT COUNT(*) FROM analyses WHERE requested_by = $1"),
        ("puzzle_players", "SELECT COUNT(*) FROM puzzle_players WHERE user_id = $1"),
        ("puzzle_attempts", "SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = $1"),
        ("puzzle_channels", "SELECT COUNT(*) FROM puzzle_channels WHERE set_by = $1"),
        ("notify_settings", "SELECT COUNT(*) FROM notify_settings WHERE user_id = $1"),
    ] {
        let rows = json["tables"].as_array().unwrap().iter().find(|t| t["table"] == table).unwrap();
        let rows = rows["rows"].as_array().unwrap();
        assert_eq!(rows.len(), count(s, sql, ASTRID).await, "{table}");
        assert!(!rows.is_empty(), "{table}");
    }
    // Read as stored, ids as Discord writes them.
    let games = stored.rows("games");
    assert_eq!(games.len(), 3);
    let (guild, her) = (GUILD.to_string(), ASTRID.to_string());
    assert!(games.iter().all(|g| g["guild_id"] == guild.as_str()));
    assert!(games
        .iter()
        .any(|g| g["defender_user_id"] == her.as_str() && g["attacker_ai_level"] == "easy"));
    let ratings = stored.rows("players");
    assert_eq!(ratings.len(), 1);
    let mine = s.games().stats(GUILD, ASTRID, 5).await.unwrap();
    let tablut = mine.rating(Variant::Tablut).unwrap();
    assert_eq!(ratings[0]["rating"].as_f64(), Some(tablut.rating.rating));
    assert_eq!(ratings[0]["rated_games"], 2);
    assert_eq!(ratings[0]["name"], NAME);
    assert_eq!(stored.rows("moves").len(), 2);
    assert_eq!(stored.rows("moves")[0]["notation"], "a4-a3");
    // The news about her (kept a while after delivery), without any interaction's handle.
    let notices = stored.rows("outbox");
    assert!(notices.len() >= 5, "{notices:?}");
    assert!(notices.iter().all(|n| n["payload"].is_object() && n["payload"].get("answer").is_none()));

    // Under way again: a game, then a challenge as well; each refused, nothing changed.
    let before = where_held(s, ASTRID, &[NAME]).await;
    game(s, 6).await;
    let to = ReplyTo {
        channel: 9,
        answer: Answer::Private(AnswerRef::new("app/token".into())),
    };
    match s.privacy().forget(&asking, Some(&to)).await {
        Err(ServiceError::StillUnderWay(UnderWay { games: 1, challenges: 0, .. })) => {}
        other => panic!("refused for the game under way, not {other:?}"),
    }
    let open = s
        .games()
        .challenge(challenge_request(place(7), astrid(), birger()), None)
        .await
        .unwrap()
        .done
        .0;
    let refused = s.privacy().forget(&asking, Some(&to)).await.unwrap_err();
    let words = tablut_bot::bot::messages::refusal(&refused);
    assert!(words.contains("1 game under way") && words.contains("1 open challenge"), "{words}");
    assert!(!words.contains('\n'), "one line: {words}");
    s.games().cancel(open.id, ASTRID, None).await.unwrap();
    // The game resigned: its news, still owed, names her, and holds it up until delivered.
    s.games().resign(6, ASTRID, None).await.unwrap();
    assert!(matches!(
        s.privacy().check_forget(&asking).await,
        Err(ServiceError::StillUnderWay(UnderWay { games: 0, challenges: 0, notices: 1.., .. }))
    ));
    deliver_all(s).await;
    assert_eq!(count(s, "SELECT COUNT(*) FROM outbox WHERE channel_id = $1", 9).await, 0);
    let after_refusals = where_held(s, ASTRID, &[NAME]).await;
    assert!(before.is_subset(&after_refusals), "nothing forgotten by a refusal");

    // Forgotten: her id and names nowhere; Birger's rating as it was; the games whole.
    let birger_before = s.games().stats(GUILD, BIRGER, 5).await.unwrap();
    let records: Vec<History> = {
        let mut h = Vec::new();
        for &c in &channels {
            h.push(s.games().history(c).await.unwrap());
        }
        h
    };
    let done = s.privacy().forget(&asking, Some(&to)).await.unwrap().done;
    assert_eq!((done.ratings, done.games, done.puzzle_ratings), (1, 4, 1));
    assert!(done.puzzle_tries >= 1 && done.notices >= 5, "{done:?}");
    let left = where_held(s, ASTRID, &[NAME, NICK]).await;
    assert!(left.is_empty(), "her id or name is still in {left:?}");
    let birger_after = s.games().stats(GUILD, BIRGER, 5).await.unwrap();
    assert_eq!(birger_after.ratings, birger_before.ratings);
    assert_eq!(birger_after.games, birger_before.games);
    assert!(birger_after.recent.iter().all(|g| plain_name(&g.opponent) == FORMER_PLAYER_NAME));
    for (&c, before) in channels.iter().zip(&records) {
        let after = s.games().history(c).await.unwrap();
        assert_eq!(after.moves, before.moves, "channel {c}: the same moves");
        assert_eq!(after.position_record, before.position_record);
        assert_eq!(after.game.outcome, before.game.outcome);
        let seat = after.game.side_of(FORMER_PLAYER).expect("the stand-in plays her side");
        assert_eq!(plain_name(after.game.player(seat)), FORMER_PLAYER_NAME);
        assert!(s.games().start_replay(c, None).await.unwrap().draw().await.is_ok());
    }
    // Stored, the stand-in has its id and no name: the bot words it. A seat forgotten by an
    // earlier version, which stored the words as its name, shows the same.
    let seats = |name: &str| {
        format!(
            "SELECT COUNT(*) FROM games WHERE (attacker_user_id = $1 AND attacker_name {name}) \
             OR (defender_user_id = $1 AND defender_name {name})"
        )
    };
    assert!(count(s, &seats("= ''"), FORMER_PLAYER).await > 0);
    assert_eq!(count(s, &seats("<> ''"), FORMER_PLAYER).await, 0);
    for side in ["attacker", "defender"] {
        let old = format!("UPDATE games SET {side}_name = 'a former player' WHERE {side}_user_id = $1");
        sqlx::query(&old).bind(0i64).execute(s.store().pool()).await.unwrap();
    }
    let birger_old = s.games().stats(GUILD, BIRGER, 5).await.unwrap();
    assert!(birger_old.recent.iter().all(|g| plain_name(&g.opponent) == FORMER_PLAYER_NAME));
    let board = s.games().leaderboard(GUILD, Variant::Tablut, 0).await.unwrap();
    assert_eq!(board.lines.iter().map(|l| l.user).collect::<Vec<_>>(), [BIRGER]);
    assert!(s.probe().puzzle_player(GUILD, ASTRID).await.unwrap().is_none());
    // The news that it is done: for her alone, telling what went.
    let notice = s.probe().notice(done.notice.unwrap()).await.unwrap().unwrap();
    assert!(notice.payload.answer.is_private());
    assert_eq!(notice.channel, 9);
    assert!(matches!(notice.news, News::Forgotten(f) if f.games == 4 && f.notice.is_none()));
    // Nothing is left to read out (but that news).
    let stored = s.privacy().stored(&asking).await.unwrap();
    assert!(tables_read_out(&stored).is_empty(), "{stored:?}");
    // Asked again: nothing more to forget.
    let again = s.privacy().forget(&asking, None).await.unwrap().done;
    assert_eq!((again.ratings, again.games, again.others), (0, 0, 0));
}

#[tokio::test]
async fn a_member_s_tournaments_are_read_out_and_given_to_the_stand_in_once_over(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    let s = &*f.service;
    let t = s.tournaments();
    // Astrid names the organisers' role, then makes a round robin of three and enters it.
    t.set_organisers(GUILD, &manager(), Some(77)).await.unwrap();
    let made = t
        .create(TournamentRequest {
            guild: GUILD,
            channel: HALL,
            organiser: manager(),
            name: "Spring Open".into(),
            rules: tablut_bot::tafl::Rules::default(),
            format: TournamentFormat::RoundRobin,
            time_control: TimeControl::None,
            rated: true,
            seats: 3,
            signup_for: None,
        })
        .await
        .unwrap();
    let carl = User::new(CARL, "Carl");
    for who in [astrid(), birger(), carl.clone()] {
        t.join(GUILD, None, who).await.unwrap();
    }
    // In sign-up, running: each of them refused, the refusal worded in one line.
    assert_eq!(tournaments_under_way(s, astrid()).await, Some(1));
    let refused = s.privacy().forget(&birger(), None).await.unwrap_err();
    let words = tablut_bot::bot::messages::refusal(&refused);
    assert!(words.contains("1 tournament not over") && !words.contains('\n'), "{words}");
    t.start(GUILD, None, &manager()).await.unwrap();
    assert_eq!(tournaments_under_way(s, carl.clone()).await, Some(1));
    // Played to the end: the lower id wins every game.
    loop {
        let games = open_threads(s).await;
        if games.is_empty() {
            break;
        }
        for (game, info) in games {
            let loser = game.first.id.max(game.second.id);
            s.games().resign(info.place.channel, loser, None).await.unwrap();
        }
    }
    let before = t.view(GUILD, Some(made.id)).await.unwrap();
    assert_eq!(before.info.status, TournamentStatus::Finished);
    deliver_all(s).await;

    // The read-out: the tournament (she organised and entered it), her entry as stored, her
    // matches (the bye too) and their games.
    let stored = s.privacy().stored(&astrid()).await.unwrap();
    let tournaments = stored.rows("tournaments");
    assert_eq!(tournaments.len(), 1);
    assert_eq!(tournaments[0]["name"], "Spring Open");
    assert_eq!(tournaments[0]["status"], "finished");
    assert_eq!(tournaments[0]["organiser_id"], ASTRID.to_string());
    let entry = stored.rows("tournament_entrants");
    assert_eq!(entry.len(), 1);
    assert_eq!(entry[0]["user_id"], ASTRID.to_string());
    assert_eq!(entry[0]["name"], NAME);
    assert!(entry[0]["withdrawn_round"].is_null());
    let seat = entry[0]["seat"].as_i64().unwrap();
    let hers = |p: &PairingView| {
        p.first.id == ASTRID || p.second.as_ref().is_some_and(|u| u.id == ASTRID)
    };
    let matches: Vec<_> = before.rounds.iter().flatten().filter(|p| hers(p)).collect();
    assert_eq!(matches.len(), 3, "two matches and a bye");
    let read_matches = stored.rows("tournament_matches");
    assert_eq!(read_matches.len(), matches.len());
    assert!(read_matches
        .iter()
        .all(|m| m["first_seat"] == seat || m["second_seat"] == seat));
    // Her matches' results as stored: she won every game of both.
    for m in read_matches.iter().filter(|m| !m["second_seat"].is_null()) {
        let mine = if m["first_seat"] == seat { "first_halves" } else { "second_halves" };
        assert_eq!(m[mine], 4, "{m:?}");
    }
    let read_games = stored.rows("tournament_games");
    assert_eq!(read_games.len(), 4, "two games a match, none for the bye");
    let played: BTreeSet<String> = stored
        .rows("games")
        .iter()
        .map(|g| g["id"].to_string())
        .collect();
    assert!(read_games.iter().all(|g| played.contains(&g["game_id"].to_string())));
    assert_eq!(stored.rows("tournament_organisers").len(), 1);
    assert_eq!(stored.rows("tournament_organisers")[0]["role_id"], "77");
    assert_eq!(stored.names, [NAME]);
    // Every table that holds her id or name, and the matches and games of her seat.
    let mut held: BTreeSet<String> = where_held(s, ASTRID, &[NAME])
        .await
        .into_iter()
        .map(|(table, _)| table)
        .collect();
    held.extend(["tournament_matches".to_string(), "tournament_games".to_string()]);
    assert_eq!(tables_read_out(&stored), held);

    // Over: Astrid and then Birger forgotten, both the stand-in in one tournament.
    let done = s.privacy().forget(&astrid(), None).await.unwrap().done;
    assert_eq!(done.games, 4);
    assert!(done.others >= 3, "her entry, her organising, the role setting: {done:?}");
    s.privacy().forget(&birger(), None).await.unwrap();
    for (who, name) in [(ASTRID, NAME), (BIRGER, "Birger")] {
        let left = where_held(s, who, &[name]).await;
        assert!(left.is_empty(), "{who} is still in {left:?}");
    }
    // The standings as they were, the two forgotten under the stand-in's name.
    let after = t.view(GUILD, Some(made.id)).await.unwrap();
    assert_eq!(after.info.organiser, FORMER_PLAYER);
    assert_eq!(after.standings.len(), before.standings.len());
    for (a, b) in after.standings.iter().zip(&before.standings) {
        assert_eq!((a.place, a.match_points, a.game_halves), (b.place, b.match_points, b.game_halves));
        match b.user.id {
            CARL => assert_eq!(a.user, b.user),
            _ => assert_eq!((a.user.id, a.user.name.as_str()), (FORMER_PLAYER, FORGOTTEN_NAME)),
        }
    }
    assert_eq!(after.crosstable, before.crosstable);
    let words = tablut_bot::bot::messages::tournaments::standings_text(&after);
    assert!(words.contains(FORMER_PLAYER_NAME) && !words.contains("<@0>"), "{words}");
    let png = t.draw_standings(after.drawn()).await.unwrap();
    assert!(image::load_from_memory_with_format(&png, image::ImageFormat::Png).is_ok());
    // Carl, not forgotten, keeps his entry; nothing of Astrid's is left to read out.
    let carl_rows = count(s, "SELECT COUNT(*) FROM tournament_entrants WHERE user_id = $1", CARL).await;
    assert_eq!(carl_rows, 1);
    assert!(tables_read_out(&s.privacy().stored(&astrid()).await.unwrap()).is_empty());
}
}
