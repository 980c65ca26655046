//! A service on a fresh database, its clock set by hand: what most of the service's tests start
//! from.

use std::sync::Arc;
use tablut_bot::ai::Level;
use tablut_bot::service::{
    AiGameRequest, ChallengeRequest, Config, ManualClock, Place, Service, SideChoice, TimeControl,
    User,
};
use tablut_bot::store::testdb::TestDb;
use tablut_bot::tafl::Rules;

/// The time the tests' clocks start at (2027-01-15, in milliseconds since the epoch).
pub const T0: i64 = 1_800_000_000_000;

/// A service with `config` on a database of its own (kept as long as the fixture is), reading a
/// clock that starts at [`T0`] and moves only when the test moves it.
pub struct Fixture {
    pub db: TestDb,
    pub clock: ManualClock,
    pub config: Config,
    pub service: Service,
}

impl Fixture {
    pub async fn open(db: TestDb, config: Config) -> Fixture {
        let clock = ManualClock::new(T0);
        let service = Service::open(&db.url, config.clone(), Arc::new(clock.clone()))
            .await
            .unwrap();
        Fixture {
            db,
            clock,
            config,
            service,
        }
    }

    /// Another service on the same database, configuration and clock: a second process.
    pub async fn another(&self) -> Service {
        Service::open(
            &self.db.url,
            self.config.clone(),
            Arc::new(self.clock.clone()),
        )
        .await
        .unwrap()
    }

    /// The service closed and another opened in its place, as a restart does.
    pub async fn reopen(self) -> Fixture {
        self.service.close().await;
        let service = self.another().await;
        Fixture { service, ..self }
    }
}

/// `user` asks for a game against the AI at `level` in `place`, taking `side`: Tablut, untimed,
/// from the opening position.
pub fn ai_game_request(place: Place, user: User, side: SideChoice, level: Level) -> AiGameRequest {
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
pub fn challenge_request(place: Place, challenger: User, opponent: User) -> ChallengeRequest {
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
