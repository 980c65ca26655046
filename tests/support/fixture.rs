//! A service on a fresh database, its clock set by hand: what most of the service's tests start
//! from.

use std::sync::Arc;
use std::time::Duration;
use tablut_bot::ai::Level;
use tablut_bot::service::tournament::{Member, TournamentFormat, TournamentRequest};
use tablut_bot::service::{
    AiGameRequest, ChallengeRequest, Config, ManualClock, OutboxTimes, Place, Service, SideChoice,
    TimeControl, User,
};
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::Rules;

/// The time the tests' clocks start at (2027-01-15, in milliseconds since the epoch).
pub(crate) const T0: i64 = 1_800_000_000_000;

/// A service with `config` on a database of its own (kept as long as the fixture is), reading a
/// clock that starts at [`T0`] and moves only when the test moves it.
pub(crate) struct Fixture {
    pub db: TestDb,
    pub clock: ManualClock,
    pub config: Config,
    /// The outbox's times the test set, if it set them (else the service's own).
    pub delivery: Option<OutboxTimes>,
    /// Shared, so that a test can hand it to the tasks it spawns.
    pub service: Arc<Service>,
}

impl Fixture {
    pub(crate) async fn open(db: TestDb, config: Config) -> Fixture {
        Fixture::opened(db, config, None).await
    }

    /// On a SQLite file of its own: for the tests of what does not depend on the backend.
    pub(crate) async fn sqlite(config: Config) -> Fixture {
        let db = TestDb::new(Backend::Sqlite, module_path!())
            .await
            .expect("a SQLite database");
        Fixture::open(db, config).await
    }

    /// With the outbox's times set to `delivery` (as the bot's delivery policy sets them).
    pub(crate) async fn with_delivery(
        db: TestDb,
        config: Config,
        delivery: impl Into<OutboxTimes>,
    ) -> Fixture {
        Fixture::opened(db, config, Some(delivery.into())).await
    }

    async fn opened(db: TestDb, config: Config, delivery: Option<OutboxTimes>) -> Fixture {
        let clock = ManualClock::new(T0);
        let service = Arc::new(open_service(&db, &config, &clock, delivery).await);
        Fixture {
            db,
            clock,
            config,
            delivery,
            service,
        }
    }

    /// Another service on the same database, configuration, outbox times and clock: a second
    /// process.
    pub(crate) async fn another(&self) -> Service {
        open_service(&self.db, &self.config, &self.clock, self.delivery).await
    }

    /// The service closed and another opened in its place, as a restart does.
    pub(crate) async fn reopen(self) -> Fixture {
        self.service.close().await;
        let service = Arc::new(self.another().await);
        Fixture { service, ..self }
    }
}

/// A service on `db` reading `clock`, with the outbox's times `delivery` if given.
async fn open_service(
    db: &TestDb,
    config: &Config,
    clock: &ManualClock,
    delivery: Option<OutboxTimes>,
) -> Service {
    let service = Service::open(&db.url, config.clone(), Arc::new(clock.clone()))
        .await
        .unwrap()
        .with_captions(tablut_bot::bot::messages::caption);
    match delivery {
        Some(delivery) => service.with_delivery(delivery),
        None => service,
    }
}

/// `user` asks for a game against the AI at `level` in `place`, taking `side`: Tablut, untimed,
/// from the opening position.
pub(crate) fn ai_game_request(
    place: Place,
    user: User,
    side: SideChoice,
    level: Level,
) -> AiGameRequest {
    AiGameRequest {
        place,
        user,
        side,
        level,
        rules: Rules::default(),
        time_control: TimeControl::None,
        start: None,
    }
}

/// `challenger` challenges `opponent` (not the bot) in `place`, taking the attackers: Tablut,
/// untimed, rated, from the opening position, without a thread.
pub(crate) fn challenge_request(
    place: Place,
    challenger: User,
    opponent: User,
) -> ChallengeRequest {
    ChallengeRequest {
        place,
        challenger,
        opponent,
        opponent_is_bot: false,
        side: SideChoice::Attackers,
        rules: Rules::default(),
        time_control: TimeControl::None,
        thread: false,
        rated: true,
        start: None,
    }
}

/// The server the tests' games and tournaments are in.
pub(crate) const GUILD: u64 = 900_000_000_000_000_001;

/// A configuration for the tests that draw no image and let the AI search with little memory.
pub(crate) fn config() -> Config {
    Config {
        images: false,
        ai_tt_mb: 4,
        ..Config::default()
    }
}

/// The first of the tests' members' ids: member `PLAYERS + i` is [`player`] `i`.
pub(crate) const PLAYERS: u64 = 18_000_000_000_000_000_000;

/// The tests' members, in order, by name.
const NAMES: [&str; 9] = [
    "Astrid", "Birger", "Carl", "Dagny", "Einar", "Frida", "Gorm", "Hild", "Ivar",
];

/// The tests' `i`-th member (0: Astrid, 1: Birger, 2: Carl, and so on to 8: Ivar).
pub(crate) fn player(i: u64) -> User {
    User::new(PLAYERS + i, NAMES[i as usize])
}

/// The member of id `id`, one of [`player`]'s.
pub(crate) fn user(id: u64) -> User {
    player(id - PLAYERS)
}

/// A member who may organise tournaments (Manage Server): "Org", id 42.
pub(crate) fn organiser() -> Member {
    Member {
        user: User::new(42, "Org"),
        manage_server: true,
        roles: Vec::new(),
    }
}

/// The channel the tests' tournaments are in.
pub(crate) const HALL: u64 = 700;

/// The [`organiser`]'s tournament "Spring Open" in [`HALL`], of `format` with `seats`: rated,
/// Tablut, three days in the bank and six hours a move, started by the organiser.
pub(crate) fn tournament_request(format: TournamentFormat, seats: i64) -> TournamentRequest {
    TournamentRequest {
        guild: GUILD,
        channel: HALL,
        organiser: organiser(),
        name: "Spring Open".into(),
        rules: Rules::default(),
        format,
        time_control: TimeControl::Fischer {
            bank: Duration::from_secs(3 * 86_400),
            increment: Duration::from_secs(6 * 3600),
        },
        rated: true,
        seats,
        signup_for: None,
    }
}
