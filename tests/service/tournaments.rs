//! Tournaments on both backends: a round robin and a Swiss event played to the end by
//! resignations and agreed draws (each match game's thread "made" by the test, as the
//! dispatcher makes it), standings checked against values worked out by hand, withdrawals,
//! cancelling, a restart in the middle of a round, every refusal changing nothing.

use crate::support::fixture::{
    config, organiser, player, tournament_request as request, Fixture, GUILD, HALL,
};
use tablut_bot::both_backends;
use tablut_bot::service::tournament::*;
use tablut_bot::service::*;

/// Thread ids: a match game's thread is this plus its slot.
const THREADS: u64 = 1_000_000;

/// The hall's notices' news, in order.
async fn news(s: &Service, channel: u64) -> Vec<(String, News)> {
    s.probe()
        .notices_in(channel)
        .await
        .unwrap()
        .into_iter()
        .map(|n| {
            let payload: Payload = serde_json::from_str(&n.payload).unwrap();
            (n.kind, payload.news.unwrap())
        })
        .collect()
}

/// Opens the threads owed (as the dispatcher does), returning the games started.
async fn open_threads(s: &Service) -> Vec<(MatchGame, GameInfo)> {
    let mut opened = Vec::new();
    for (_, n) in news(s, HALL).await {
        if let News::Tournament(TournamentNews::Thread(game)) = n {
            let thread = THREADS + game.slot as u64;
            if let Some(info) = s.tournaments().open_game(&game, thread).await.unwrap() {
                assert_eq!(info.place.channel, thread);
                assert!(info.rated);
                opened.push((game, info));
            }
        }
    }
    opened
}

/// Plays every game started: `result(game)` gives the first seat's points in the
/// game (2 a win, 1 a draw agreed, 0 a loss), by resignation or an agreed draw.
async fn play(s: &Service, games: &[(MatchGame, GameInfo)], result: impl Fn(&MatchGame) -> u8) {
    for (game, info) in games {
        let thread = info.place.channel;
        let (first, second) = (&game.first, &game.second);
        match result(game) {
            2 => drop(s.games().resign(thread, second.id, None).await.unwrap()),
            0 => drop(s.games().resign(thread, first.id, None).await.unwrap()),
            _ => {
                s.games().offer_draw(thread, first.id, None).await.unwrap();
                s.games()
                    .respond_to_draw(thread, second.id, true, None)
                    .await
                    .unwrap();
            }
        }
    }
}

fn row<'a>(standings: &'a [StandingRow], who: &User) -> &'a StandingRow {
    standings.iter().find(|r| r.user.id == who.id).unwrap()
}

both_backends! {
    #[tokio::test]
    async fn a_round_robin_of_three_is_played_to_the_end_with_a_bye_each_round(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let s = &f.service;
        let t = s.tournaments();
        let created = t.create(request(TournamentFormat::RoundRobin, 3)).await.unwrap();
        assert_eq!(created.status, TournamentStatus::SignUp);
        for i in 0..3 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        let started = t.start(GUILD, None, &organiser()).await.unwrap();
        assert_eq!((started.status, started.round, started.rounds), (TournamentStatus::Running, 1, 3));
        // Astrid beats everyone, Birger beats Carl; Birger and Carl draw one game of theirs.
        let strength = |u: &User| 3 - (u.id - player(0).id);
        let mut rounds = 0;
        loop {
            let games = open_threads(s).await;
            if games.is_empty() {
                break;
            }
            rounds += 1;
            // One match a round (two games), the third player's bye.
            assert_eq!(games.len(), 2, "round {rounds}");
            assert!(games.iter().all(|(g, _)| g.round == rounds));
            let legs: Vec<u8> = games.iter().map(|(g, _)| g.leg).collect();
            assert_eq!(legs, [1, 2]);
            // Sides swapped: the first seat attacks in game 1, defends in game 2.
            assert_eq!(games[0].1.attackers.user_id(), Some(games[0].0.first.id));
            assert_eq!(games[1].1.defenders.user_id(), Some(games[1].0.first.id));
            play(s, &games, |g| {
                let (a, b) = (strength(&g.first), strength(&g.second));
                match (a + b, g.leg) {
                    // Birger and Carl: Birger wins game 1, game 2 is drawn.
                    (3, 2) => 1,
                    _ if a > b => 2,
                    _ => 0,
                }
            })
            .await;
        }
        assert_eq!(rounds, 3);
        let view = t.view(GUILD, Some(created.id)).await.unwrap();
        assert_eq!(view.info.status, TournamentStatus::Finished);
        assert_eq!(view.rounds.len(), 3);
        for round in &view.rounds {
            assert_eq!(round.iter().filter(|p| p.second.is_none()).count(), 1, "a bye each round");
        }
        // Worked by hand: Astrid wins both matches (2 + 2) and her bye (2): 6 match points,
        // 4 + 4 + 4 halves. Birger loses to Astrid (0 halves), beats Carl 1½–½ (3 halves),
        // and has a bye (4): 4 match points, 7 halves. Carl: 0 + 1 + 4 halves, 2 match points.
        let st = &view.standings;
        let (a, b, c) = (row(st, &player(0)), row(st, &player(1)), row(st, &player(2)));
        assert_eq!((a.place, a.match_points, a.game_halves), (1, 6, 12));
        assert_eq!((b.place, b.match_points, b.game_halves), (2, 4, 7));
        assert_eq!((c.place, c.match_points, c.game_halves), (3, 2, 5));
        // The standings image: a PNG that decodes, with the crosstable of a round robin.
        assert!(view.crosstable.is_some());
        let png = t.draw_standings(view.drawn()).await.unwrap();
        let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap();
        assert!(img.width() > 400 && img.height() > 100, "{}x{}", img.width(), img.height());
        let hall = news(s, HALL).await;
        let kinds: Vec<&str> = hall.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(kinds.iter().filter(|k| **k == "tournament_round").count(), 3);
        assert_eq!(kinds.iter().filter(|k| **k == "tournament_thread").count(), 6);
        assert_eq!(kinds.last(), Some(&"tournament_finished"));
        let Some((_, News::Tournament(TournamentNews::Finished { standings, .. }))) = hall.last() else {
            panic!("the last post is the end");
        };
        assert_eq!(standings[0].user.id, player(0).id);
        // The tournament's games were rated: Astrid's Tablut rating rose.
        let stats = s.games().stats(GUILD, player(0).id, 0).await.unwrap();
        assert_eq!(stats.games, 4);
        assert!(stats.ratings[0].rating.rating > 1500.0, "{stats:?}");
    }

    #[tokio::test]
    async fn refusals_change_nothing(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let s = &f.service;
        let t = s.tournaments();
        let refused = |e: ServiceError| match e {
            ServiceError::Tournament(r) => r,
            other => panic!("{other:?}"),
        };
        let long = TournamentRequest { name: "x".repeat(200), ..request(TournamentFormat::RoundRobin, 4) };
        assert_eq!(refused(t.create(long).await.unwrap_err()), TournamentRefusal::NameLength { chars: 200 });
        let markup = TournamentRequest { name: "**Open** <@1>".into(), ..request(TournamentFormat::RoundRobin, 4) };
        assert_eq!(refused(t.create(markup).await.unwrap_err()), TournamentRefusal::NameCharacter('*'));
        let huge = request(TournamentFormat::Swiss { rounds: 4 }, 10_000);
        assert_eq!(refused(t.create(huge).await.unwrap_err()), TournamentRefusal::Seats { asked: 10_000, max: 256 });
        let big_robin = request(TournamentFormat::RoundRobin, 33);
        assert_eq!(refused(t.create(big_robin).await.unwrap_err()), TournamentRefusal::Seats { asked: 33, max: 32 });
        let stranger = Member { user: User::new(43, "Member"), manage_server: false, roles: Vec::new() };
        let by_stranger = TournamentRequest { organiser: stranger.clone(), ..request(TournamentFormat::RoundRobin, 2) };
        assert_eq!(refused(t.create(by_stranger).await.unwrap_err()), TournamentRefusal::NotOrganiser);
        assert!(news(s, HALL).await.is_empty(), "nothing written");
        // The organisers' role lets a member without Manage Server organise.
        let role_member = Member { user: User::new(44, "Role"), manage_server: false, roles: vec![77] };
        t.set_organisers(GUILD, &organiser(), Some(77)).await.unwrap();
        assert_eq!(refused(t.set_organisers(GUILD, &role_member, None).await.unwrap_err()), TournamentRefusal::NotManager);
        let by_role = TournamentRequest { organiser: role_member, ..request(TournamentFormat::RoundRobin, 2) };
        let made = t.create(by_role).await.unwrap();
        assert_eq!(refused(t.start(GUILD, None, &organiser()).await.unwrap_err()), TournamentRefusal::TooFew { entrants: 0 });
        t.join(GUILD, None, player(0)).await.unwrap();
        let before = news(s, HALL).await.len();
        assert_eq!(refused(t.join(GUILD, None, player(0)).await.unwrap_err()), TournamentRefusal::AlreadyIn);
        assert_eq!(refused(t.start(GUILD, None, &organiser()).await.unwrap_err()), TournamentRefusal::TooFew { entrants: 1 });
        t.join(GUILD, None, player(1)).await.unwrap();
        assert_eq!(refused(t.join(GUILD, None, player(2)).await.unwrap_err()), TournamentRefusal::Full { seats: 2 });
        assert_eq!(refused(t.withdraw(GUILD, None, player(2).id, None).await.unwrap_err()), TournamentRefusal::NotIn);
        assert_eq!(refused(t.start(GUILD, None, &stranger).await.unwrap_err()), TournamentRefusal::NotOrganiser);
        assert_eq!(refused(t.join(GUILD, Some(made.id + 99), player(3)).await.unwrap_err()), TournamentRefusal::NoTournament);
        // Two joins' edits of the announcement, nothing for the refusals.
        assert_eq!(news(s, HALL).await.len(), before + 1);
        let started = t.start(GUILD, None, &organiser()).await.unwrap();
        assert_eq!(started.status, TournamentStatus::Running);
        assert_eq!(refused(t.join(GUILD, None, player(2)).await.unwrap_err()), TournamentRefusal::Status(TournamentStatus::Running));
        assert_eq!(refused(t.leave(GUILD, None, player(0).id).await.unwrap_err()), TournamentRefusal::SignUpOver);
        // A tournament's game cannot be aborted by its players.
        let games = open_threads(s).await;
        let thread = games[0].1.place.channel;
        let abort = s.games().abort(thread, player(0).id, false, None).await.unwrap_err();
        assert_eq!(refused(abort), TournamentRefusal::TournamentGame);
    }

    #[tokio::test]
    async fn a_swiss_of_five_over_three_rounds_with_a_withdrawal_and_a_restart(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let t = f.service.tournaments();
        let created = t.create(request(TournamentFormat::Swiss { rounds: 3 }, 8)).await.unwrap();
        for i in 0..5 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        t.start(GUILD, None, &organiser()).await.unwrap();
        // Round 1: two matches and a bye. The lower seat wins every game.
        let games = open_threads(&f.service).await;
        assert_eq!(games.len(), 4);
        play(&f.service, &games[..2], |g| if g.first.id < g.second.id { 2 } else { 0 }).await;
        // A restart in the middle of the round: the other match's games go on, and its end
        // pairs round 2.
        let f = f.reopen().await;
        let s = &f.service;
        let t = s.tournaments();
        play(s, &games[2..], |g| if g.first.id < g.second.id { 2 } else { 0 }).await;
        let round2 = open_threads(s).await;
        assert_eq!(round2.len(), 4, "round 2 paired once");
        assert!(round2.iter().all(|(g, _)| g.round == 2));
        // Eve withdraws after round 2 is paired: her games of it are lost, she is not paired
        // again.
        let eve = player(4);
        let info = t.withdraw(GUILD, None, eve.id, None).await.unwrap();
        assert!(info.entrants.iter().any(|e| e.user.id == eve.id && e.withdrawn));
        let left: Vec<_> = round2
            .into_iter()
            .filter(|(g, _)| g.first.id != eve.id && g.second.id != eve.id)
            .collect();
        play(s, &left, |g| if g.first.id < g.second.id { 2 } else { 0 }).await;
        let round3 = open_threads(s).await;
        assert!(!round3.is_empty());
        assert!(round3.iter().all(|(g, _)| g.round == 3 && g.first.id != eve.id && g.second.id != eve.id));
        play(s, &round3, |g| if g.first.id < g.second.id { 2 } else { 0 }).await;
        let view = t.view(GUILD, Some(created.id)).await.unwrap();
        assert_eq!(view.info.status, TournamentStatus::Finished);
        assert_eq!(view.rounds.len(), 3);
        // No rematch, and nobody had two byes.
        let mut met = std::collections::HashSet::new();
        let mut byes = std::collections::HashMap::new();
        for round in &view.rounds {
            for p in round {
                match &p.second {
                    Some(second) => {
                        let key = (p.first.id.min(second.id), p.first.id.max(second.id));
                        assert!(met.insert(key), "a rematch: {key:?}");
                    }
                    None => *byes.entry(p.first.id).or_insert(0) += 1,
                }
            }
        }
        assert!(byes.values().all(|&n| n <= 1), "{byes:?}");
        assert!(row(&view.standings, &eve).withdrawn);
    }

    #[tokio::test]
    async fn cancelling_aborts_the_games_under_way_and_pairs_nothing_more(db: TestDb) {
        let f = Fixture::open(db, config()).await;
        let s = &f.service;
        let t = s.tournaments();
        t.create(request(TournamentFormat::RoundRobin, 4)).await.unwrap();
        for i in 0..4 {
            t.join(GUILD, None, player(i)).await.unwrap();
        }
        t.start(GUILD, None, &organiser()).await.unwrap();
        let games = open_threads(s).await;
        assert_eq!(games.len(), 4);
        // One game finished, the rest under way; paused, then cancelled.
        play(s, &games[..1], |_| 2).await;
        let paused = t.pause(GUILD, None, &organiser()).await.unwrap();
        assert_eq!(paused.status, TournamentStatus::Paused);
        let cancelled = t.cancel(GUILD, None, &organiser()).await.unwrap();
        assert_eq!(cancelled.status, TournamentStatus::Cancelled);
        for (_, info) in &games[1..] {
            let thread = info.place.channel;
            let resigned = s.games().resign(thread, info.attackers.user_id().unwrap(), None).await;
            assert!(matches!(resigned, Err(ServiceError::NoGame | ServiceError::GameOver)), "{resigned:?}");
            let told = news(s, thread).await;
            assert!(matches!(told.last(), Some((_, News::Tournament(TournamentNews::Status(t)))) if t.status == TournamentStatus::Cancelled));
        }
        assert!(open_threads(s).await.is_empty());
        // None open: the standings shown are the newest's, cancelled.
        let view = t.view(GUILD, None).await.unwrap();
        assert_eq!(view.info.status, TournamentStatus::Cancelled);
        let none_open = t.find(GUILD, None).await.unwrap_err();
        assert!(matches!(none_open, ServiceError::Tournament(TournamentRefusal::NoTournament)), "{none_open:?}");
    }
}
