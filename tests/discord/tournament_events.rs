//! Whole tournaments through the fake Discord, every game ended by a real command or button in
//! its thread (a resignation, or a draw offered and accepted): a round robin of five played to
//! the end and checked against standings worked out by hand, a Swiss event of nine over four
//! rounds with a withdrawal in round 3, and a restart of the bot in the middle of a round.

use crate::support::bot_harness::{assert_board, is_post_in, organiser, BotHarness};
use crate::support::fake_discord::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const HALL: u64 = 62;
const ORG: u64 = 900_000_000_000_000_300;

/// The entrants, in the order they join: their seats (seeds) are these indexes.
const PLAYERS: [(u64, &str); 9] = [
    (900_000_000_000_000_301, "Astrid"),
    (900_000_000_000_000_302, "Birger"),
    (900_000_000_000_000_303, "Carl"),
    (900_000_000_000_000_304, "Dagny"),
    (900_000_000_000_000_305, "Eirik"),
    (900_000_000_000_000_306, "Frida"),
    (900_000_000_000_000_307, "Gorm"),
    (900_000_000_000_000_308, "Hild"),
    (900_000_000_000_000_309, "Ivar"),
];

const SETTINGS: &[(&str, &str)] = &[
    ("AI_TT_MB", "4"),
    ("CLOCK_INTERVAL_SECS", "1"),
    ("DEFAULT_TIME_CONTROL", "none"),
];

fn who(seat: usize) -> Who {
    Who::member(PLAYERS[seat].0, PLAYERS[seat].1)
}

fn mention(seat: usize) -> String {
    format!("<@{}>", PLAYERS[seat].0)
}

fn seat_of(id: u64) -> usize {
    PLAYERS
        .iter()
        .position(|p| p.0 == id)
        .unwrap_or_else(|| panic!("{id} is no entrant"))
}

/// The entrants a text mentions, in order.
fn mentioned(text: &str) -> Vec<usize> {
    text.split("<@")
        .skip(1)
        .filter_map(|s| s.split('>').next()?.parse().ok())
        .map(seat_of)
        .collect()
}

/// A standings image: a PNG that decodes, wider than tall only for a crosstable's sake.
fn standings_image(r: &BotRequest) -> image::DynamicImage {
    let png = r.file("standings.png").expect("the standings image");
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
    assert!(img.width() > 200 && img.height() > 100);
    img
}

/// How many threads the bot has made.
fn threads_made(h: &BotHarness) -> usize {
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/threads"))
        .count()
}

/// How a game ends: the attackers or the defenders win (the other resigns), or it is drawn
/// (the attacker offers, the defender accepts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Won(usize),
    Drawn,
}

/// One game of a match as its thread shows it.
#[derive(Debug, Clone)]
struct Leg {
    thread: u64,
    /// 1 or 2: the match's first attacks in game 1.
    leg: u32,
    attacker: usize,
    defender: usize,
}

/// A round as the hall and the threads show it.
#[derive(Debug)]
struct Round {
    post: BotRequest,
    /// The matches to play, (first, second) in the post's order.
    matches: Vec<(usize, usize)>,
    bye: Option<usize>,
    legs: Vec<Leg>,
}

impl Round {
    /// The two games of the match of `a` and `b`, game 1 first.
    fn legs_of(&self, a: usize, b: usize) -> [&Leg; 2] {
        let mut legs: Vec<&Leg> = self
            .legs
            .iter()
            .filter(|l| [l.attacker, l.defender] == [a, b] || [l.attacker, l.defender] == [b, a])
            .collect();
        legs.sort_by_key(|l| l.leg);
        legs.try_into()
            .unwrap_or_else(|_| panic!("two games of {a} and {b}"))
    }
}

/// A tournament run through the fake Discord.
struct Event<'a> {
    h: &'a BotHarness,
    name: &'static str,
    /// Its number, as the organiser's answer gives it (set by [`Event::started`]).
    id: u64,
}

impl Event<'_> {
    /// `/tablut tournament <sub>` with `options`, by `by`; returns what it shows.
    async fn command(&self, by: &Who, sub: &str, options: Value) -> BotRequest {
        self.h.tournament(by, HALL, sub, options).await
    }

    /// Created (`format`: 0 a round robin, 1 a Swiss of `rounds`), and `entrants` seats joined
    /// by the announcement's Join button, in order; then started. Returns the announcement.
    async fn started(&mut self, format: i64, rounds: Option<i64>, entrants: usize) -> u64 {
        let mut options = vec![
            json!({"name": "name", "type": 3, "value": self.name}),
            json!({"name": "format", "type": 4, "value": format}),
            json!({"name": "seats", "type": 4, "value": 16}),
        ];
        options.extend(rounds.map(|r| json!({"name": "rounds", "type": 4, "value": r})));
        let created = self
            .command(&organiser(ORG), "create", Value::Array(options))
            .await;
        assert!(created.ephemeral(), "{}", created.content());
        let number = created.content().split("(tournament #").nth(1).map(|s| {
            s.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        });
        self.id = number.and_then(|n| n.parse().ok()).expect("its number");
        let announced = self
            .h
            .fake
            .expect("the announcement", |r| {
                is_post_in(r, HALL) && r.content().contains(self.name)
            })
            .await;
        let message = announced.created.expect("a message");
        let join = announced
            .button_ids()
            .into_iter()
            .find(|b| b.contains("t-join"))
            .expect("a Join button");
        let edit_path = format!("/api/v10/channels/{HALL}/messages/{message}");
        for seat in 0..entrants {
            let press = self.h.fake.click(&who(seat), HALL, message, &join);
            let answer = self.h.fake.callback(press).await;
            assert!(answer.content().contains("You are in"), "{:?}", answer.json);
            let edit = self
                .h
                .fake
                .expect("the entrant list edited", |r| {
                    r.method == "PATCH" && r.path == edit_path
                })
                .await;
            assert!(edit.content().contains(&format!("({}/16)", seat + 1)));
        }
        let started = self.command(&organiser(ORG), "start", json!([])).await;
        assert!(
            started.content().contains("started"),
            "{}",
            started.content()
        );
        message
    }

    /// Waits for round `number`'s post in the hall (its pairings: `matches` matches and a bye
    /// or none), the two threads of each match (named for the tournament, the round, the
    /// players and the game) and each game's first post in its thread; checks that the sides
    /// are swapped within each match.
    async fn round(&self, number: u32, matches: usize) -> Round {
        let threads_path = format!("/api/v10/channels/{HALL}/threads");
        let mut names = BTreeSet::new();
        for _ in 0..2 * matches {
            let made = self
                .h
                .fake
                .expect("a match game's thread", |r| {
                    r.method == "POST" && r.path == threads_path
                })
                .await;
            let name = made.json["name"].as_str().unwrap().to_string();
            assert!(
                name.starts_with(&format!("{} · R{number} · ", self.name)),
                "{name}"
            );
            assert!(names.insert(name.clone()), "one thread a game: {name}");
        }
        let head = format!("**{}** · round {number} ", self.name);
        let post = self
            .h
            .fake
            .expect(&format!("round {number}'s post"), |r| {
                is_post_in(r, HALL) && r.content().starts_with(&head)
            })
            .await;
        standings_image(&post);
        let (mut paired, mut bye) = (Vec::new(), None);
        for line in post.content().lines().skip(1) {
            match mentioned(line).as_slice() {
                [seat] if line.contains("a bye") => bye = Some(*seat),
                [first, second] => paired.push((*first, *second)),
                other => panic!("a pairing line with {other:?}: {line}"),
            }
        }
        assert_eq!(paired.len(), matches, "{}", post.content());
        let opening = format!("**{}** · round {number} · game ", self.name);
        let mut legs = Vec::new();
        for _ in 0..2 * matches {
            let first = self
                .h
                .fake
                .expect("a match game's first post", |r| {
                    r.method == "POST"
                        && r.path.ends_with("/messages")
                        && !is_post_in(r, HALL)
                        && r.content().starts_with(&opening)
                })
                .await;
            assert_board(&first);
            let content = first.content();
            let leg = content[opening.len()..].chars().next().unwrap();
            let players = mentioned(content.lines().nth(1).unwrap());
            legs.push(Leg {
                thread: first.path.split('/').nth(4).unwrap().parse().unwrap(),
                leg: leg.to_digit(10).unwrap(),
                attacker: players[0],
                defender: players[1],
            });
        }
        let round = Round {
            post,
            matches: paired,
            bye,
            legs,
        };
        // Each match's first attacks in game 1 and defends in game 2, each game in a thread of
        // its own named for it.
        for &(first, second) in &round.matches {
            let [one, two] = round.legs_of(first, second);
            assert_eq!((one.leg, one.attacker, one.defender), (1, first, second));
            assert_eq!((two.leg, two.attacker, two.defender), (2, second, first));
            for l in [one, two] {
                let name = format!(
                    "{} · R{number} · {} – {} · {}/2",
                    self.name, PLAYERS[first].1, PLAYERS[second].1, l.leg
                );
                assert!(names.contains(&name), "{name} in {names:?}");
            }
        }
        let threads: BTreeSet<u64> = round.legs.iter().map(|l| l.thread).collect();
        assert_eq!(threads.len(), 2 * matches, "a thread a game");
        round
    }

    /// `/tablut tournament standings` of this tournament (named by its number, or left out:
    /// the newest), asked by `by`.
    async fn standings(&self, by: &Who, named: bool) -> BotRequest {
        let options = match named {
            true => json!([{"name": "tournament", "type": 3, "value": self.id.to_string()}]),
            false => json!([]),
        };
        self.command(by, "standings", options).await
    }

    /// A player may not pause it (one private line); the organiser does, and the hall is told.
    async fn paused(&self) {
        let refused = self.command(&who(0), "pause", json!([])).await;
        assert!(
            refused.ephemeral()
                && refused
                    .content()
                    .contains("Only a member with Manage Server"),
            "{}",
            refused.content()
        );
        let paused = self.command(&organiser(ORG), "pause", json!([])).await;
        assert!(
            paused.content().contains("is paused"),
            "{}",
            paused.content()
        );
        let head = format!("**{}** is paused by its organiser", self.name);
        self.h
            .fake
            .expect("the pause told in the hall", |r| {
                is_post_in(r, HALL) && r.content().starts_with(&head)
            })
            .await;
    }

    /// The organiser resumes it, and the hall is told.
    async fn resumed(&self) {
        let resumed = self.command(&organiser(ORG), "resume", json!([])).await;
        assert!(resumed.content().contains("runs"), "{}", resumed.content());
        let head = format!("**{}** goes on", self.name);
        self.h
            .fake
            .expect("the resumption told in the hall", |r| {
                is_post_in(r, HALL) && r.content().starts_with(&head)
            })
            .await;
    }

    /// Waits for the post that ends the tournament.
    async fn finished(&self) -> BotRequest {
        let head = format!("**{}** is over.", self.name);
        self.h
            .fake
            .expect("the final post", |r| {
                is_post_in(r, HALL) && r.content().starts_with(&head)
            })
            .await
    }

    /// Ends the game of `leg` by a command in its thread: the loser resigns, or the attacker
    /// offers a draw and the defender presses Accept.
    async fn end(&self, leg: &Leg, end: End) {
        let h = self.h;
        match end {
            End::Won(winner) => {
                assert!(winner == leg.attacker || winner == leg.defender);
                let loser = if winner == leg.attacker {
                    leg.defender
                } else {
                    leg.attacker
                };
                let (_, r) = h
                    .tablut(&who(loser), leg.thread, "resign", json!([]), &[])
                    .await;
                let said = format!(
                    "**{}** resigned. **{}** wins",
                    PLAYERS[loser].1, PLAYERS[winner].1
                );
                assert!(
                    !r.ephemeral() && r.content().contains(&said),
                    "{}",
                    r.content()
                );
            }
            End::Drawn => {
                let (_, offer) = h
                    .tablut(&who(leg.attacker), leg.thread, "draw", json!([]), &[])
                    .await;
                assert!(
                    offer.content().contains("offers a draw"),
                    "{}",
                    offer.content()
                );
                let yes = offer
                    .button_ids()
                    .into_iter()
                    .find(|b| b.contains("draw-yes"))
                    .expect("an Accept button");
                let message = offer.created.unwrap_or(1);
                let press = h.fake.click(&who(leg.defender), leg.thread, message, &yes);
                let r = h.fake.answer(press).await;
                assert!(r.content().contains("Draw agreed"), "{}", r.content());
            }
        }
    }
}

/// The round robin's games, worked out so that ties and tiebreaks matter: for each pair of
/// seats (Astrid 0, Birger 1, Carl 2, Dagny 3, Eirik 4), who won game 1 and game 2 of their
/// match (`None`: drawn).
const ROBIN: [(usize, usize, [Option<usize>; 2]); 10] = [
    // Birger beats Astrid 1½–½.
    (0, 1, [Some(1), None]),
    // Astrid beats Carl 2–0 and Dagny 1½–½, ties Eirik 1–1.
    (0, 2, [Some(0), Some(0)]),
    (0, 3, [None, Some(0)]),
    (0, 4, [Some(0), Some(4)]),
    // Carl beats Birger 2–0; Birger ties Dagny and beats Eirik 2–0.
    (1, 2, [Some(2), Some(2)]),
    (1, 3, [Some(3), Some(1)]),
    (1, 4, [Some(1), Some(1)]),
    // Carl, Dagny and Eirik tie each other: one win each, and Carl–Eirik two draws.
    (2, 3, [Some(2), Some(3)]),
    (2, 4, [None, None]),
    (3, 4, [Some(4), Some(3)]),
];

/// Who won game `leg` of the match of `a` and `b` in [`ROBIN`] (`None`: drawn).
fn robin_winner(a: usize, b: usize, leg: u32) -> Option<usize> {
    let (_, _, games) = ROBIN
        .iter()
        .find(|(x, y, _)| (*x, *y) == (a.min(b), a.max(b)))
        .expect("a pair of the round robin");
    games[leg as usize - 1]
}

/// Each round of a round robin of five: the Berger table for six (FIDE Handbook C.05), whose
/// sixth number is the bye: the matches (the first named attacks in game 1) and the bye.
const BERGER_5: [([(usize, usize); 2], usize); 5] = [
    // 1–6 2–5 3–4
    ([(1, 4), (2, 3)], 0),
    // 6–4 5–3 1–2
    ([(4, 2), (0, 1)], 3),
    // 2–6 3–1 4–5
    ([(2, 0), (3, 4)], 1),
    // 6–5 1–4 2–3
    ([(0, 3), (1, 2)], 4),
    // 3–6 4–2 5–1
    ([(3, 1), (4, 0)], 2),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_five_is_played_to_the_end_and_ranked_by_sonneborn_berger() {
    let h = BotHarness::start(SETTINGS).await;
    let mut event = Event {
        h: &h,
        name: "Round Table",
        id: 0,
    };
    event.started(0, None, 5).await;
    let mut games = 0;
    for (number, (table, bye)) in (1..).zip(BERGER_5) {
        let round = event.round(number, 2).await;
        assert!(
            round
                .post
                .content()
                .contains(&format!("round {number} of 5")),
            "{}",
            round.post.content()
        );
        assert_eq!(
            round.matches, table,
            "round {number}: the Berger table's pairings"
        );
        assert_eq!(
            round.bye,
            Some(bye),
            "round {number}: the Berger table's bye"
        );
        for (i, leg) in round.legs.iter().enumerate() {
            if number == 3 && i == 3 {
                event.paused().await;
            }
            let end = match robin_winner(leg.attacker, leg.defender, leg.leg) {
                Some(winner) => End::Won(winner),
                None => End::Drawn,
            };
            event.end(leg, end).await;
            games += 1;
        }
        if number == 3 {
            // Paused, round 3's end pairs nothing; resumed, round 4 is paired.
            h.outbox_settled().await;
            assert_eq!(threads_made(&h), 12, "no thread of round 4 while paused");
            event.resumed().await;
        }
    }
    assert_eq!(games, 20, "10 matches of two games");
    // Worked by hand. Every player has one bye: 2 match points and 2 game points.
    //
    //            matches (game points)                       MP  GP   SB (opponents' MP)
    // Birger:  A W 1½, C L 0, D T 1, E W 2, bye 2          7   6½  A 7 + D 5/2 + E 5 = 14½
    // Astrid:  B L ½, C W 2, D W 1½, E T 1, bye 2          7   7   C 6 + D 5 + E 5/2 = 13½
    // Carl:    A L 0, B W 2, D T 1, E T 1, bye 2           6   6   B 7 + D 5/2 + E 5/2 = 12
    // Dagny:   A L ½, B T 1, C T 1, E T 1, bye 2           5   5½  B 7/2 + C 6/2 + E 5/2 = 9
    // Eirik:   A T 1, B L 0, C T 1, D T 1, bye 2           5   5   A 7/2 + C 6/2 + D 5/2 = 9
    //
    // Birger and Astrid tie on match points: Sonneborn-Berger puts Birger first, though
    // Astrid has more game points. Dagny and Eirik tie on both: game points decide.
    let last = event.finished().await;
    assert_eq!(
        last.content(),
        format!(
            "**Round Table** is over. The winner: {} with 7 match points, ahead on \
             Sonneborn-Berger! The final standings are attached.",
            mention(1)
        )
    );
    standings_image(&last);
    h.outbox_settled().await;
    // Asked for without naming it, once it is over: its final standings.
    let standings = event.standings(&who(4), false).await;
    assert!(
        !standings.ephemeral()
            && standings
                .content()
                .starts_with("**Round Table** · final standings."),
        "{}",
        standings.content()
    );
    let lines: Vec<String> = standings
        .content()
        .lines()
        .skip(1)
        .map(String::from)
        .collect();
    assert_eq!(
        lines,
        [
            "1. Birger: 7 match points (6½ game points, Sonneborn-Berger 14½)",
            "2. Astrid: 7 match points (7 game points, Sonneborn-Berger 13½)",
            "3. Carl: 6 match points (6 game points, Sonneborn-Berger 12)",
            "4. Dagny: 5 match points (5½ game points, Sonneborn-Berger 9)",
            "5. Eirik: 5 match points (5 game points, Sonneborn-Berger 9)",
        ]
    );
    assert!(standings.content().contains("ahead on Sonneborn-Berger"));
    standings_image(&standings);
    // Twenty games, each in a thread of its own, and no round more than five.
    assert_eq!(threads_made(&h), 20);
    let rounds = h
        .fake
        .shown(HALL)
        .into_iter()
        .filter(|r| r.content().contains(" is paired: "))
        .count();
    assert_eq!(rounds, 5);
}

/// What the Swiss test keeps of the results it chose, to check the bot's pairings and
/// standings against: each seat's match points, game points (halves), byes and opponents.
#[derive(Debug, Default)]
struct Tally {
    points: BTreeMap<usize, u32>,
    halves: BTreeMap<usize, u32>,
    byes: BTreeMap<usize, u32>,
    met: BTreeMap<usize, Vec<usize>>,
}

impl Tally {
    fn bye(&mut self, seat: usize) {
        *self.points.entry(seat).or_default() += 2;
        *self.halves.entry(seat).or_default() += 4;
        *self.byes.entry(seat).or_default() += 1;
    }

    /// A match of `a` and `b` with `a`'s game points in halves (`b` has the rest of 4).
    fn played(&mut self, a: usize, b: usize, a_halves: u32) {
        let (ap, bp) = match a_halves {
            3 | 4 => (2, 0),
            2 => (1, 1),
            _ => (0, 2),
        };
        *self.points.entry(a).or_default() += ap;
        *self.points.entry(b).or_default() += bp;
        *self.halves.entry(a).or_default() += a_halves;
        *self.halves.entry(b).or_default() += 4 - a_halves;
        self.met.entry(a).or_default().push(b);
        self.met.entry(b).or_default().push(a);
    }

    fn have_met(&self, a: usize, b: usize) -> bool {
        self.met.get(&a).is_some_and(|m| m.contains(&b))
    }

    fn points(&self, seat: usize) -> u32 {
        self.points.get(&seat).copied().unwrap_or(0)
    }

    fn halves(&self, seat: usize) -> u32 {
        self.halves.get(&seat).copied().unwrap_or(0)
    }

    /// The sum of the match points of the opponents met, and the same without the highest and
    /// the lowest (none with fewer than three).
    fn buchholz(&self, seat: usize) -> (u32, u32) {
        let mut scores: Vec<u32> = self.met[&seat].iter().map(|&o| self.points(o)).collect();
        scores.sort_unstable();
        let all = scores.iter().sum();
        let median = match scores.len() {
            0..=2 => 0,
            n => scores[1..n - 1].iter().sum(),
        };
        (all, median)
    }

    /// Who the bye is owed to: of the `active` seats without one, the lowest ranked for the
    /// pairing (by match points, then game points, then seed).
    fn bye_owed(&self, active: &[usize]) -> usize {
        let mut ranked: Vec<usize> = active
            .iter()
            .copied()
            .filter(|s| !self.byes.contains_key(s))
            .collect();
        ranked.sort_by_key(|&s| (std::cmp::Reverse((self.points(s), self.halves(s))), s));
        *ranked.last().unwrap()
    }
}

/// The Swiss event's games: in round `round`, the match of seats `a < b` (by seed) goes by
/// `(a + b + round) % 4`: 0 the lower seed wins both games, 1 each wins one, 2 the higher
/// seed wins both, 3 the higher seed wins one and the other is drawn. Returns the winner of
/// each game (`None`: drawn) and `a`'s game points in halves.
fn swiss_games(round: u32, a: usize, b: usize) -> ([Option<usize>; 2], u32) {
    let (a, b) = (a.min(b), a.max(b));
    match (a + b + round as usize) % 4 {
        0 => ([Some(b), Some(b)], 0),
        1 => ([Some(a), Some(b)], 2),
        2 => ([Some(a), Some(a)], 4),
        _ => ([Some(a), None], 3),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_nine_over_four_rounds_pairs_no_rematch_and_forfeits_a_withdrawal() {
    let h = BotHarness::start(SETTINGS).await;
    let mut event = Event {
        h: &h,
        name: "Winter Swiss",
        id: 0,
    };
    event.started(1, Some(4), 9).await;
    let mut tally = Tally::default();
    let mut active: Vec<usize> = (0..9).collect();
    let mut withdrawn = None;
    for number in 1..=4 {
        let matches = active.len() / 2;
        let round = event.round(number, matches).await;
        assert!(round
            .post
            .content()
            .contains(&format!("round {number} of 4")));
        // Everyone still in is paired once: no rematch, and the bye (an odd number left) to
        // the lowest ranked who has not had one.
        let mut seated: Vec<usize> = round.matches.iter().flat_map(|&(a, b)| [a, b]).collect();
        seated.extend(round.bye);
        seated.sort_unstable();
        assert_eq!(seated, active, "round {number}: everyone still in, once");
        for &(a, b) in &round.matches {
            assert!(
                !tally.have_met(a, b),
                "round {number}: a rematch of {a} and {b}"
            );
        }
        match active.len() % 2 {
            1 => assert_eq!(
                round.bye,
                Some(tally.bye_owed(&active)),
                "round {number}'s bye"
            ),
            _ => assert_eq!(round.bye, None),
        }
        if let Some(seat) = round.bye {
            tally.bye(seat);
        }
        let mut matches = round.matches.clone();
        let quitting = (number == 3).then(|| matches.remove(0));
        for (a, b) in matches {
            let (winners, a_halves) = swiss_games(number, a, b);
            for (leg, winner) in round.legs_of(a, b).into_iter().zip(winners) {
                let end = winner.map_or(End::Drawn, End::Won);
                event.end(leg, end).await;
            }
            let a_halves = if a < b { a_halves } else { 4 - a_halves };
            tally.played(a, b, a_halves);
        }
        if let Some((quitter, other)) = quitting {
            // The top board's first withdraws in round 3 after drawing game 1 of the match,
            // the last match of the round still open: the game played stands, game 2 (under
            // way) is lost, and the withdrawal's transaction pairs round 4 without them.
            let [one, two] = round.legs_of(quitter, other);
            event.end(one, End::Drawn).await;
            let out = event.command(&who(quitter), "withdraw", json!([])).await;
            assert!(
                out.ephemeral() && out.content().starts_with("You are out of **Winter Swiss**"),
                "{}",
                out.content()
            );
            let told = h
                .fake
                .expect("the withdrawal in the hall", |r| {
                    is_post_in(r, HALL) && r.content().contains("withdrew from")
                })
                .await;
            assert!(
                told.content().starts_with(PLAYERS[quitter].1),
                "{}",
                told.content()
            );
            let aborted = h
                .fake
                .expect("game 2's end in its thread", |r| is_post_in(r, two.thread))
                .await;
            assert!(
                aborted.content().contains("withdrew"),
                "{}",
                aborted.content()
            );
            // Game 2 is over: a resignation there is refused.
            let (_, late) = h
                .tablut(&who(other), two.thread, "resign", json!([]), &[])
                .await;
            assert!(
                late.ephemeral()
                    && (late.content().contains("no game") || late.content().contains("is over")),
                "{}",
                late.content()
            );
            // Withdrawing twice: one private line.
            let again = event.command(&who(quitter), "withdraw", json!([])).await;
            assert!(
                again.ephemeral() && again.content().contains("withdrew already"),
                "{}",
                again.content()
            );
            // ½ + 0 for the quitter, 1½ for the other: a won match.
            tally.played(quitter, other, 1);
            active.retain(|&s| s != quitter);
            withdrawn = Some(quitter);
        }
    }
    let quitter = withdrawn.unwrap();
    let last = event.finished().await;
    standings_image(&last);
    h.outbox_settled().await;
    // The final standings: every line's match points, game points and Buchholz scores as the
    // test counted them, best first; the withdrawn player's marked.
    let standings = event.standings(&who(quitter), true).await;
    let lines: Vec<String> = standings
        .content()
        .lines()
        .skip(1)
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 9, "{}", standings.content());
    let mut last_key = None;
    for line in &lines {
        let seat = seat_of_line(line);
        let (points, halves) = (tally.points(seat), tally.halves(seat));
        let (buchholz, median) = tally.buchholz(seat);
        let out = if seat == quitter { ", withdrawn" } else { "" };
        let game_points = match halves % 2 {
            1 if halves == 1 => "½".to_string(),
            1 => format!("{}½", halves / 2),
            _ => (halves / 2).to_string(),
        };
        let expected = format!(
            ": {points} match points ({game_points} game points, Buchholz {buchholz}, \
             median Buchholz {median}{out})"
        );
        assert!(line.ends_with(&expected), "{line} (expected {expected})");
        let key = (points, buchholz, median, halves);
        assert!(last_key.is_none_or(|k| k >= key), "in order: {lines:?}");
        last_key = Some(key);
    }
    let winner = seat_of_line(&lines[0]);
    assert!(
        last.content().contains(&format!(
            "The winner: {} with {} match points",
            mention(winner),
            tally.points(winner)
        )),
        "{}",
        last.content()
    );
}

fn seat_of_line(line: &str) -> usize {
    PLAYERS
        .iter()
        .position(|p| line.contains(&format!(". {}: ", p.1)))
        .unwrap_or_else(|| panic!("a player's line: {line}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_in_the_middle_of_a_round_goes_on_and_pairs_the_next_round() {
    let mut h = BotHarness::start(SETTINGS).await;
    let mut event = Event {
        h: &h,
        name: "Night Cup",
        id: 0,
    };
    event.started(0, None, 4).await;
    let round = event.round(1, 2).await;
    let legs = round.legs.clone();
    // One game ends, then the bot restarts with three games under way.
    event.end(&legs[0], End::Won(legs[0].attacker)).await;
    h.outbox_settled().await;
    h.restart().await;
    let event = Event {
        h: &h,
        name: "Night Cup",
        id: 1,
    };
    for leg in &legs[1..3] {
        event.end(leg, End::Won(leg.defender)).await;
    }
    // The last game of the round ends and the bot restarts at once, while the next round's
    // threads and posts are owed: the new process makes each of them, once.
    event.end(&legs[3], End::Drawn).await;
    h.restart().await;
    let event = Event {
        h: &h,
        name: "Night Cup",
        id: 1,
    };
    let next = event.round(2, 2).await;
    assert!(next.post.content().contains("round 2 of 3"));
    h.outbox_settled().await;
    assert_eq!(threads_made(&h), 8, "four games a round, a thread each");
    let rounds = h
        .fake
        .shown(HALL)
        .into_iter()
        .filter(|r| r.content().contains(" is paired: "))
        .count();
    assert_eq!(rounds, 2, "round 2 posted once");
    // The new round's games go on as any game: one ends by a resignation.
    let leg = &next.legs[0];
    event.end(leg, End::Won(leg.attacker)).await;
}
