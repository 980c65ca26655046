//! A tournament read and shown: its info, its standings and pairings, the standings image.

use super::{
    Crosstable, PairingView, StandingRow, Standings, Tiebreak, TournamentFormat, TournamentId,
    TournamentInfo, TournamentRefusal, TournamentStatus, Tournaments,
};
use crate::render::standings::{Cell, Column, Row, StandingsTable, CROSSTABLE_MAX};
use crate::service::error::ServiceError;
use crate::service::stored::tournaments::{
    self as stored, StoredEntrant, StoredMatch, StoredTournament,
};
use crate::service::types::{worded, Caption, Captions, GuildId, Heading, Player, User};
use crate::store::tournaments as rows;
use crate::store::{AnyExecutor, Backend, Connection};
use crate::tafl::Rules;
use crate::tournament::{self as pairing, MatchResult};

/// A tournament as it stands: its info, its rounds' pairings, its standings.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentView {
    pub info: TournamentInfo,
    /// Each round's pairings, round 1 first.
    pub rounds: Vec<Vec<PairingView>>,
    pub standings: Vec<StandingRow>,
    pub crosstable: Option<Crosstable>,
}

impl TournamentView {
    /// Its standings, to draw.
    pub fn drawn(&self) -> Standings<'_> {
        Standings {
            tournament: &self.info,
            rows: &self.standings,
            crosstable: self.crosstable.as_ref(),
        }
    }
}

/// What is read of a tournament to show it or change it, decoded in `stored/`.
pub(super) struct LoadedTournament {
    pub tournament: StoredTournament,
    pub entrants: Vec<StoredEntrant>,
}

impl LoadedTournament {
    pub(super) async fn read(
        conn: &mut Connection,
        id: TournamentId,
    ) -> Result<LoadedTournament, ServiceError> {
        let tournament = stored::by_id(&mut *conn, id)
            .await?
            .ok_or(TournamentRefusal::NoTournament)?;
        let entrants = stored::entrants(&mut *conn, id).await?;
        Ok(LoadedTournament {
            tournament,
            entrants,
        })
    }

    /// [`LoadedTournament::read`] with the tournament's row locked until the transaction ends
    /// ([`rows::lock`]): how a transaction that changes the tournament reads it first.
    pub(super) async fn lock(
        conn: &mut Connection,
        backend: Backend,
        id: TournamentId,
    ) -> Result<LoadedTournament, ServiceError> {
        if !rows::lock(&mut *conn, backend, id).await? {
            return Err(TournamentRefusal::NoTournament.into());
        }
        LoadedTournament::read(conn, id).await
    }

    pub(super) fn status(&self) -> Result<TournamentStatus, ServiceError> {
        self.tournament.status()
    }

    pub(super) fn format(&self) -> TournamentFormat {
        self.tournament.format()
    }

    /// The rules its games are played under.
    pub(super) fn rules(&self) -> Result<Rules, ServiceError> {
        self.tournament.rules()
    }

    /// The seated entrants by seat.
    pub(super) fn seated(&self) -> Vec<&StoredEntrant> {
        let mut seated: Vec<&StoredEntrant> =
            self.entrants.iter().filter(|e| e.seat.is_some()).collect();
        seated.sort_by_key(|e| e.seat);
        seated
    }

    /// The seats withdrawn.
    pub(super) fn withdrawn(&self) -> Vec<usize> {
        self.seated()
            .iter()
            .filter(|e| e.withdrawn_round.is_some())
            .filter_map(|e| e.seat.map(|s| s as usize))
            .collect()
    }

    pub(super) fn user_at(&self, seat: i64) -> User {
        self.entrants
            .iter()
            .find(|e| e.seat == Some(seat))
            .map(|e| e.user.clone())
            .unwrap_or_else(|| User::new(0, String::new()))
    }

    pub(super) fn info(&self) -> Result<TournamentInfo, ServiceError> {
        self.tournament.info(&self.entrants)
    }

    /// The decided matches, as the pairing module reads them.
    pub(super) fn results(matches: &[StoredMatch]) -> Vec<MatchResult> {
        matches
            .iter()
            .filter_map(|m| {
                Some(MatchResult {
                    round: m.round as u32,
                    first: m.first_seat as usize,
                    second: m.second_seat.map(|s| s as usize),
                    first_halves: m.first_halves? as u8,
                    second_halves: m.second_halves? as u8,
                    forfeit: m.forfeit,
                })
            })
            .collect()
    }

    pub(super) fn standings(&self, matches: &[StoredMatch]) -> Vec<StandingRow> {
        let seated = self.seated();
        let n = seated.len();
        if n == 0 {
            return Vec::new();
        }
        let withdrawn = self.withdrawn();
        let played = LoadedTournament::results(matches);
        pairing::standings(&self.format().pairing(), n, &withdrawn, &played)
            .into_iter()
            .map(|s| StandingRow {
                user: self.user_at(s.seat as i64),
                place: s.place as u32,
                shared: s.shared,
                match_points: s.match_points,
                game_halves: s.game_halves,
                tiebreaks: s.tiebreaks,
                decided_by: s.decided_by,
                withdrawn: s.withdrawn,
            })
            .collect()
    }

    /// A round robin's crosstable, in the standings' order, up to [`CROSSTABLE_MAX`] players.
    pub(super) fn crosstable(&self, matches: &[StoredMatch]) -> Option<Crosstable> {
        let n = self.seated().len();
        if self.format() != TournamentFormat::RoundRobin || n == 0 || n > CROSSTABLE_MAX {
            return None;
        }
        let played = LoadedTournament::results(matches);
        let table = pairing::standings(&self.format().pairing(), n, &self.withdrawn(), &played);
        let order: Vec<usize> = table.iter().map(|s| s.seat).collect();
        Some(pairing::crosstable(&order, &played))
    }

    pub(super) fn pairings(&self, matches: &[StoredMatch], round: i64) -> Vec<PairingView> {
        matches
            .iter()
            .filter(|m| m.round == round)
            .map(|m| PairingView {
                first: self.user_at(m.first_seat),
                second: m.second_seat.map(|s| self.user_at(s)),
                result: m
                    .first_halves
                    .zip(m.second_halves)
                    .map(|(a, b)| (a as u8, b as u8)),
                forfeit: m.forfeit,
            })
            .collect()
    }
}

/// The standings image (a PNG): the tournament's name, the round, and a row a player (place,
/// name, match points, game points, the format's tiebreaks), with a round robin's crosstable.
/// Its headings, the line under the name and the players' names in the words `captions` gives.
pub fn standings_png(s: Standings<'_>, captions: Option<Captions>) -> Vec<u8> {
    let t = s.tournament;
    let heading = |h: Heading| worded(captions, &Caption::Heading(h));
    let breaks: Vec<Tiebreak> = t
        .format
        .pairing()
        .tiebreaks()
        .iter()
        .copied()
        .filter(|&tb| tb != Tiebreak::GamePoints)
        .collect();
    let table = StandingsTable {
        title: t.name.clone(),
        subtitle: worded(
            captions,
            &Caption::StandingsRound {
                round: t.round,
                rounds: t.rounds,
            },
        ),
        place_heading: heading(Heading::Place),
        columns: standings_columns(&breaks, captions),
        rows: standings_rows(s.rows, &breaks, captions),
        crosstable: s.crosstable.map(crosstable_cells),
    };
    crate::render::standings::standings_png(&table)
}

/// The standings' number columns: match points, game points (in halves), then the format's
/// other tiebreaks `breaks`, headed in the words `captions` gives.
fn standings_columns(breaks: &[Tiebreak], captions: Option<Captions>) -> Vec<Column> {
    let heading = |h: Heading| worded(captions, &Caption::Heading(h));
    let mut columns = vec![
        Column {
            heading: heading(Heading::MatchPoints),
            doubled: false,
        },
        Column {
            heading: heading(Heading::Tiebreak(Tiebreak::GamePoints)),
            doubled: true,
        },
    ];
    columns.extend(breaks.iter().map(|&tb| Column {
        heading: heading(Heading::Tiebreak(tb)),
        doubled: tb.doubled(),
    }));
    columns
}

/// A row a player: place, name (in the words `captions` gives), match points, game points and
/// the tiebreaks `breaks` (0 for one the player has none of), whether they withdrew.
fn standings_rows(
    standings: &[StandingRow],
    breaks: &[Tiebreak],
    captions: Option<Captions>,
) -> Vec<Row> {
    standings
        .iter()
        .map(|r| {
            let mut values = vec![r.match_points, r.game_halves];
            values.extend(breaks.iter().map(|tb| {
                r.tiebreaks
                    .iter()
                    .find(|(b, _)| b == tb)
                    .map_or(0, |(_, v)| *v)
            }));
            Row {
                place: r.place as usize,
                shared: r.shared,
                name: worded(captions, &Caption::Name(&Player::User(r.user.clone()))),
                values,
                withdrawn: r.withdrawn,
            }
        })
        .collect()
}

/// A round robin's crosstable as the image's cells: a player's own, a match not played, one
/// forfeited, or the halves each side scored.
fn crosstable_cells(cells: &Crosstable) -> Vec<Vec<Cell>> {
    cells
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, cell)| match (i == j, cell) {
                    (true, _) => Cell::Own,
                    (false, None) => Cell::Unplayed,
                    (false, Some(m)) if m.forfeit => Cell::Forfeit {
                        won: m.halves > m.against,
                    },
                    (false, Some(m)) => Cell::Played {
                        halves: m.halves,
                        against: m.against,
                    },
                })
                .collect()
        })
        .collect()
}

impl Tournaments<'_> {
    /// A tournament of `guild`: the one named by id, or else the newest not over.
    pub async fn find(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
    ) -> Result<TournamentId, ServiceError> {
        find_in(self.core.store.read(), guild, id).await
    }

    /// A tournament as it stands: the one named by id, or else the newest not over, or else
    /// (every one over) the newest, so that its final standings can be asked for.
    pub async fn view(
        self,
        guild: GuildId,
        id: Option<TournamentId>,
    ) -> Result<TournamentView, ServiceError> {
        let pool = self.core.store.read();
        let id = match id {
            Some(_) => find_in(pool, guild, id).await?,
            None => match stored::open_in_guild(pool, guild).await?.first() {
                Some(open) => open.id(),
                None => stored::of_guild(pool, guild, 1)
                    .await?
                    .first()
                    .map(StoredTournament::id)
                    .ok_or(TournamentRefusal::NoTournament)?,
            },
        };
        let tournament = stored::by_id(pool, id)
            .await?
            .ok_or(TournamentRefusal::NoTournament)?;
        let entrants = stored::entrants(pool, id).await?;
        let loaded = LoadedTournament {
            tournament,
            entrants,
        };
        let matches = stored::matches(pool, id).await?;
        let info = loaded.info()?;
        let rounds = (1..=loaded.tournament.round())
            .map(|r| loaded.pairings(&matches, r))
            .collect();
        Ok(TournamentView {
            standings: loaded.standings(&matches),
            crosstable: loaded.crosstable(&matches),
            info,
            rounds,
        })
    }

    /// The standings image of these standings (a notice's, drawn at delivery; or a view's).
    pub async fn draw_standings(self, s: Standings<'_>) -> Result<Vec<u8>, ServiceError> {
        let (info, rows) = (s.tournament.clone(), s.rows.to_vec());
        let crosstable = s.crosstable.cloned();
        let place = self.core.costly_place(None)?;
        let captions = self.core.captions;
        self.core
            .heavy(&place, move || {
                standings_png(
                    Standings {
                        tournament: &info,
                        rows: &rows,
                        crosstable: crosstable.as_ref(),
                    },
                    captions,
                )
            })
            .await
    }

    /// The server's tournaments (the newest first), for the commands' autocomplete.
    pub async fn list(self, guild: GuildId) -> Result<Vec<(TournamentId, String)>, ServiceError> {
        Ok(stored::of_guild(self.core.store.read(), guild, 25)
            .await?
            .iter()
            .map(|t| (t.id(), t.name().to_string()))
            .collect())
    }
}

pub(super) async fn find_in<'e>(
    ex: impl AnyExecutor<'e>,
    guild: GuildId,
    id: Option<TournamentId>,
) -> Result<TournamentId, ServiceError> {
    match id {
        Some(id) => {
            let found = stored::by_id(ex, id).await?;
            match found {
                Some(t) if t.guild() == guild => Ok(t.id()),
                _ => Err(TournamentRefusal::NoTournament.into()),
            }
        }
        None => stored::open_in_guild(ex, guild)
            .await?
            .first()
            .map(StoredTournament::id)
            .ok_or_else(|| TournamentRefusal::NoTournament.into()),
    }
}
