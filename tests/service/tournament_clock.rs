//! Tournaments on both backends, beyond a tournament's play: a sign-up that ends at its time
//! (the clock starts the tournament once, whatever the processes, or cancels it with too few
//! entrants and says why), every post of a match game naming its tournament and round (read
//! with the game's row), a
//! thread found again after a lost answer taken by one match game only, and tournament games
//! outside the per-member limits on open games.

use crate::support::fixture::{
    ai_game_request, challenge_request, config, organiser, player, tournament_request, Fixture,
    GUILD, HALL,
};
use std::time::Duration;
use tablut_bot::ai::Level;
use tablut_bot::both_backends;
use tablut_bot::service::tournament::*;
use tablut_bot::service::*;
use tablut_bot::store::games::{self, MatchTagRow};
use tablut_bot::tafl::Side;

/// Thread ids: a match game's thread is this plus its slot.
const THREADS: u64 = 1_000_000;

/// The fixture's tournament, its sign-up open for `signup` if given.
fn request(format: TournamentFormat, seats: i64, signup: Option<Duration>) -> TournamentRequest {
    TournamentRequest {
        signup_for: signup,
        ..tournament_request(format, seats)
    }
}

/// A channel's notices: their kind, news and payload.
async fn notices(s: &Service, channel: u64) -> Vec<(String, News, Payload)> {
    s.probe()
        .notices_in(channel)
        .await
        .unwrap()
        .into_iter()
        .map(|n| {
            let payload: Payload = serde_json::from_str(&n.payload).unwrap();
            (n.kind, payload.news.clone().unwrap(), payload)
        })
        .collect()
}

/// The match games whose threads are owed in the hall.
async fn owed(s: &Service) -> Vec<MatchGame> {
    notices(s, HALL)
        .await
        .into_iter()
        .filter_map(|(_, n, _)| match n {
            News::Tournament(TournamentNews::Thread(game)) => Some(game),
            _ => None,
        })
        .collect()
}

/// Opens the threads owed (as the dispatcher does), returning the games started.
async fn open_threads(s: &Service) -> Vec<(MatchGame, GameInfo)> {
    let mut opened = Vec::new();
    for game in owed(s).await {
        let thread = THREADS + game.slot as u64;
        if let Some(info) = s.tournaments().open_game(&game, thread).await.unwrap() {
            opened.push((game, info));
        }
    }
    opened
}

fn refused(e: ServiceError) -> TournamentRefusal {
    match e {
        ServiceError::Tournament(r) => r,
        other => panic!("{other:?}"),
    }
}

both_backends! {
    #[tokio::test]
    async fn a_signup_that_ends_starts_the_tournament_once_whatever_the_processes(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let s = &f.service;
        let t = s.tournaments();
        let created = t
            .create(request(TournamentFormat::RoundRobin, 8, Some(Duration::from_secs(2 * 3600))))
            .await
            .unwrap();
        assert_eq!(created.signup_until, Some(f.clock.database_now_ms() + 2 * 3_600_000));
        for i in 0..3 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        // Before its end, the clock leaves it alone.
        f.clock.advance(Duration::from_secs(2 * 3600 - 1));
        assert!(t.start_due().await.unwrap().is_empty());
        assert!(owed(s).await.is_empty());
        t.join(GUILD, None, player(3)).await.unwrap();
        // At its end, two processes' clocks look at once: one starts it.
        f.clock.advance(Duration::from_secs(1));
        let other = f.another().await;
        let (a, b) = tokio::join!(t.start_due(), other.tournaments().start_due());
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.len() + b.len(), 1, "started once: {a:?} {b:?}");
        let started = a.into_iter().chain(b).next().unwrap();
        assert_eq!(started.id, created.id);
        assert_eq!((started.status, started.round, started.rounds), (TournamentStatus::Running, 1, 3));
        assert!(t.start_due().await.unwrap().is_empty(), "nothing more to start");
        // Round 1 of four players: two matches, four threads owed, one round post; the
        // announcement edited without its buttons.
        let hall = notices(s, HALL).await;
        let count = |kind: &str| hall.iter().filter(|(k, _, _)| k == kind).count();
        assert_eq!(count("tournament_thread"), 4);
        assert_eq!(count("tournament_round"), 1);
        let (_, last_edit, payload) = hall.iter().rfind(|(k, _, _)| k == "tournament_entrants").unwrap();
        assert!(matches!(last_edit, News::Tournament(TournamentNews::Announced(i)) if i.status == TournamentStatus::Running));
        assert!(payload.buttons.is_none(), "no Join once started");
        // The sign-up is over: a join or a start by hand is refused and changes nothing.
        assert_eq!(refused(t.join(GUILD, None, player(4)).await.unwrap_err()), TournamentRefusal::Status(TournamentStatus::Running));
        assert_eq!(refused(t.start(GUILD, None, &organiser()).await.unwrap_err()), TournamentRefusal::Status(TournamentStatus::Running));
        assert_eq!(notices(s, HALL).await.len(), hall.len());
        other.close().await;
    }

    #[tokio::test]
    async fn a_signup_that_ends_with_one_entrant_cancels_the_tournament_and_says_why(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let s = &f.service;
        let t = s.tournaments();
        let created = t
            .create(request(TournamentFormat::RoundRobin, 8, Some(Duration::from_secs(60))))
            .await
            .unwrap();
        t.join(GUILD, None, player(0)).await.unwrap();
        f.clock.advance(Duration::from_secs(60));
        let done = t.start_due().await.unwrap();
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].status, TournamentStatus::Cancelled);
        let hall = notices(s, HALL).await;
        let (kind, last, _) = hall.last().unwrap();
        assert_eq!(kind, "tournament_status");
        assert!(matches!(last, News::Tournament(TournamentNews::NotStarted { tournament, entrants: 1 }) if tournament.id == created.id));
        let (_, _, edit) = hall.iter().rfind(|(k, _, _)| k == "tournament_entrants").unwrap();
        assert!(edit.buttons.is_none(), "no Join once cancelled");
        assert!(owed(s).await.is_empty());
        assert!(t.start_due().await.unwrap().is_empty(), "cancelled once");
        assert_eq!(notices(s, HALL).await.len(), hall.len());
        assert_eq!(refused(t.join(GUILD, Some(created.id), player(1)).await.unwrap_err()), TournamentRefusal::Status(TournamentStatus::Cancelled));
    }

    #[tokio::test]
    async fn a_swiss_whose_signup_ends_with_few_entrants_plays_the_rounds_they_allow(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let t = f.service.tournaments();
        t.create(request(TournamentFormat::Swiss { rounds: 5 }, 16, Some(Duration::from_secs(3600))))
            .await
            .unwrap();
        for i in 0..3 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        f.clock.advance(Duration::from_secs(3600));
        let done = t.start_due().await.unwrap();
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].status, TournamentStatus::Running);
        assert_eq!(done[0].format, TournamentFormat::Swiss { rounds: 2 });
        assert_eq!((done[0].round, done[0].rounds), (1, 2));
        assert_eq!(owed(&f.service).await.len(), 2, "one match and a bye");
    }

    #[tokio::test]
    async fn every_post_of_a_tournament_game_names_its_tournament_and_round(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let s = &f.service;
        let t = s.tournaments();
        let created = t.create(request(TournamentFormat::RoundRobin, 2, None)).await.unwrap();
        for i in 0..2 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        t.start(GUILD, None, &organiser()).await.unwrap();
        let games = open_threads(s).await;
        assert_eq!(games.len(), 2);
        let (game, info) = &games[0];
        let tag = MatchTag { tournament: created.id, name: "Spring Open".into(), round: 1, leg: game.leg };
        assert_eq!(info.tournament.as_ref(), Some(&tag));
        let thread = info.place.channel;
        // Each query of a game's row reads its tournament game with it.
        let pool = s.store().pool();
        let stored = MatchTagRow {
            tournament: created.id,
            name: "Spring Open".into(),
            round: 1,
            leg: i64::from(game.leg),
        };
        let user = info.player(Side::Attackers).user_id().unwrap();
        let rows = [
            games::by_id(pool, info.id).await.unwrap(),
            games::active_in_channel(pool, thread).await.unwrap(),
            games::latest_in_channel(pool, thread).await.unwrap(),
            games::active_in_guild(pool, GUILD).await.unwrap().into_iter().find(|g| g.id == info.id),
            games::all_active(pool).await.unwrap().into_iter().find(|g| g.id == info.id),
            games::active_of_user(pool, user).await.unwrap().into_iter().find(|g| g.id == info.id),
        ];
        for row in rows {
            assert_eq!(row.expect("the game is found").tournament.as_ref(), Some(&stored));
        }
        // A move, a draw offered and declined, a resignation.
        let mover = info.player(info.turn).user_id().unwrap();
        let text = match info.turn {
            Side::Attackers => "a4-a3",
            Side::Defenders => "e3-d3",
        };
        let moved = s.games().play_move(thread, mover, text, Answer::None).await.unwrap().done;
        assert_eq!(moved.game.tournament.as_ref(), Some(&tag));
        let other = info.player(moved.game.turn).user_id().unwrap();
        let (offered, _) = s.games().offer_draw(thread, other, None).await.unwrap().done;
        assert_eq!(offered.tournament.as_ref(), Some(&tag));
        s.games().respond_to_draw(thread, mover, false, None).await.unwrap();
        s.games().resign(thread, mover, None).await.unwrap();
        let posts = notices(s, thread).await;
        let kinds: Vec<&str> = posts.iter().map(|(k, _, _)| k.as_str()).collect();
        assert_eq!(kinds, ["game_started", "move", "ended"]);
        for (kind, news, _) in &posts {
            let named = news.game().and_then(|g| g.tournament.as_ref());
            assert_eq!(named, Some(&tag), "{kind}: {news:?}");
        }
        // A game that is no tournament's names none.
        let place = Place { guild: Some(GUILD), channel: 5 };
        let (challenge, _) = s
            .games()
            .challenge(challenge_request(place, player(2), player(3)), None)
            .await
            .unwrap()
            .done;
        let started = s.games().accept(challenge.id, player(3).id, None, None).await.unwrap().done;
        assert_eq!(started.game.tournament, None);
        let row = games::by_id(pool, started.game.id).await.unwrap().unwrap();
        assert_eq!(row.tournament, None);
    }

    #[tokio::test]
    async fn tournament_games_do_not_count_against_the_limits_on_open_games(db: TestDb) {
        let config = Config { ai_games_per_user: 1, open_challenges_per_user: 1, ..config() };
        let f = Fixture::open(db, config).await;
        let s = &f.service;
        let t = s.tournaments();
        t.create(request(TournamentFormat::RoundRobin, 2, None)).await.unwrap();
        let astrid = player(0);
        for i in 0..2 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        // Astrid has a game against the AI and a challenge open: her limits are reached.
        let ai_place = Place { guild: Some(GUILD), channel: 11 };
        let ai_game = ai_game_request(ai_place, astrid.clone(), SideChoice::Attackers, Level::Easy);
        s.games().start_ai_game(ai_game, None).await.unwrap();
        let place = Place { guild: Some(GUILD), channel: 12 };
        s.games().challenge(challenge_request(place, astrid.clone(), player(2)), None).await.unwrap();
        // Her tournament's two games start all the same.
        t.start(GUILD, None, &organiser()).await.unwrap();
        assert_eq!(open_threads(s).await.len(), 2);
        // And they do not count: once her AI game and her challenge are over, she may open one
        // of each again, her two tournament games under way.
        let limit = |e: ServiceError| matches!(e, ServiceError::TooManyAiGames(1) | ServiceError::TooManyOpenChallenges { open: 1, .. });
        let place = Place { guild: Some(GUILD), channel: 13 };
        let second_ai = ai_game_request(place, astrid.clone(), SideChoice::Attackers, Level::Easy);
        let refused = s.games().start_ai_game(second_ai.clone(), None).await.unwrap_err();
        assert!(limit(refused), "the AI game counts");
        s.games().abort(11, astrid.id, false, None).await.unwrap();
        f.clock.advance(Duration::from_secs(60));
        s.games().start_ai_game(second_ai, None).await.unwrap();
        let place = Place { guild: Some(GUILD), channel: 14 };
        let refused = s.games().challenge(challenge_request(place, astrid.clone(), player(3)), None).await.unwrap_err();
        assert!(limit(refused), "the challenge counts");
    }

    #[tokio::test]
    async fn a_thread_found_again_is_taken_by_one_match_game(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let s = &f.service;
        let t = s.tournaments();
        t.create(request(TournamentFormat::RoundRobin, 2, None)).await.unwrap();
        for i in 0..2 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        t.start(GUILD, None, &organiser()).await.unwrap();
        let owed = owed(s).await;
        let (one, two) = (owed[0].slot, owed[1].slot);
        const FOUND: u64 = 77;
        assert_eq!(t.thread_of(one).await.unwrap(), None);
        assert_eq!(t.adopt_thread(one, &[FOUND]).await.unwrap(), Some(FOUND));
        assert_eq!(t.thread_of(one).await.unwrap(), Some(FOUND));
        // Another match game never takes it; the first keeps it.
        assert_eq!(t.adopt_thread(two, &[FOUND]).await.unwrap(), None);
        assert_eq!(t.thread_of(two).await.unwrap(), None);
        assert_eq!(t.adopt_thread(one, &[78]).await.unwrap(), Some(FOUND));
        assert_eq!(t.adopt_thread(two, &[FOUND, 79]).await.unwrap(), Some(79));
    }
}
