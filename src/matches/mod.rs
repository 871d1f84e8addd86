//! Persisted matches: seats and their tokens, the kept history, takebacks,
//! resignation and forks.
//!
//! - [`domain`]: the typed match (status, seats, offers, versions).
//! - [`id`]: match ids, seat tokens and invites, and their hashes.
//! - [`create`]: new matches: create, join, fork.
//! - [`command`]: the one path of a seat's command: read, [`decide`],
//!   write, tell.
//! - [`decide`]: the match's decisions (play, takebacks, resign, draws,
//!   claims, flags, invitations), apart from storage and HTTP.
//! - [`moves`]: playing a move: the rules, then the decision.
//! - [`line`]: a xiangqi match's line since the last capture, which the
//!   repetition rules and the move limit judge.
//! - [`clock`]: time controls, clocks and the flag-fall rule; [`sweeper`]
//!   ends the matches whose flag fell without anyone asking.
//! - [`computer`]: the computer in a duel's seat, answering by itself.
//! - [`read`]: the match view and its history.
//! - [`record`]: a match's full record and its headers; `record_io`: the
//!   record as the exports read it, and a solo match made from a file.
//! - [`error`]: [`MatchError`], turned into problems at the edge.
//!
//! Each operation reads the match, decides (with the rules, through
//! [`crate::games`]) and writes once, guarded by the version it read
//! (`storage::matches::write`); the HTTP layer only parses and maps.

pub mod clock;
mod command;
pub mod computer;
mod create;
mod decide;
pub mod domain;
mod error;
pub mod events;
pub mod hub;
pub mod id;
mod invite;
mod line;
mod live;
pub mod lobby;
mod moves;
pub mod presence;
mod read;
pub mod record;
mod record_io;
pub mod retention;
mod sweeper;
mod views;

pub use crate::storage::Runner;
pub use clock::{Clock, Millis, TimeControl};
pub use command::{Effect, SeatCommand};
pub use computer::Computer;
pub use domain::{
    KeptMove, Match, MatchEnd, MatchStatus, Mode, NameError, Parent, Seat, SeatName, SeatSlot,
    Timestamp, UndoOffer, Version, HISTORY_CAP, NAME_MAX,
};
pub use error::{ClaimRefusal, MatchError, Missing, Refused};
pub use id::{InvalidMatchId, MatchId, Secret, SecretHash};
pub use live::{Feed, Frame, Item, Live};
pub use read::{match_page_url, move_names, Snapshot};
pub use record::MatchRecord;
pub use record_io::{FileHeaders, KeptRecord};

use sqlx::AnyConnection;

use crate::configuration::LiveSettings;
use crate::storage::{Database, StorageError};

/// A request's seat token, if it sent one (`Authorization: Bearer …`).
#[derive(Debug, Clone)]
pub struct Token(pub Option<Secret>);

/// What `If-Match` asks of a write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// No `If-Match`, or `*`.
    Any,
    /// One of these versions (an `If-Match` list names several).
    OneOf(Vec<Version>),
}

impl Precondition {
    /// What a guarded write that lost its race answers: `stale-version`
    /// when the caller named a version (whatever it is now, it is not the
    /// one read), `write-conflict` otherwise.
    pub fn lost_race(&self) -> MatchError {
        match self {
            Precondition::OneOf(asked) => MatchError::Stale {
                asked: asked.clone(),
                current: None,
            },
            Precondition::Any => MatchError::Conflict,
        }
    }

    /// Refuses a match whose version the precondition does not name.
    ///
    /// # Errors
    ///
    /// [`MatchError::Stale`].
    pub fn check(&self, m: &Match) -> Result<(), MatchError> {
        match self {
            Precondition::OneOf(asked) if !asked.contains(&m.version) => Err(MatchError::Stale {
                asked: asked.clone(),
                current: Some(m.version),
            }),
            Precondition::Any | Precondition::OneOf(_) => Ok(()),
        }
    }
}

/// What an operation answers: the match view, its id and version.
#[derive(Debug)]
pub struct Outcome {
    /// The match view, serialized.
    pub view: Vec<u8>,
    /// The match id.
    pub id: MatchId,
    /// The version now.
    pub version: Version,
}

/// The persisted-match service.
#[derive(Debug, Clone)]
pub struct Matches {
    db: Database,
    hub: hub::Hub,
    presence: presence::Presence,
    seek_holds: lobby::Holds,
    recent: events::RecentEvents,
    live: LiveSettings,
    alarm: sweeper::Alarm,
    computer: computer::Seating,
}

impl Matches {
    /// The service over a database.
    pub fn new(db: Database, live: LiveSettings) -> Matches {
        let hub = hub::Hub::default();
        Matches {
            presence: presence::Presence::new(db.clone(), hub.clone(), live.presence_grace),
            db,
            hub,
            seek_holds: lobby::Holds::default(),
            recent: events::RecentEvents::default(),
            live,
            alarm: sweeper::Alarm::default(),
            computer: computer::Seating::default(),
        }
    }

    /// Starts what live play runs in the background: on PostgreSQL, hearing
    /// the changes other instances make (see [`hub::Hub::listen`]); seat
    /// presence; the lobby's sweeper, which closes seeks that expired or
    /// were left; and the clocks' sweeper, which ends the matches whose flag
    /// fell.
    ///
    /// # Errors
    ///
    /// When PostgreSQL cannot be listened to, or presence not started.
    pub async fn start_live(&mut self) -> anyhow::Result<()> {
        if self.db.is_shared() {
            let url = self.db.url().to_owned();
            self.hub.listen(&url).await?;
        }
        self.presence =
            presence::Presence::new(self.db.clone(), self.hub.clone(), self.live.presence_grace);
        self.presence.start().await?;
        lobby::sweep(self.db.clone(), self.hub.clone());
        self.start_sweeper();
        self.start_computer();
        Ok(())
    }

    /// A match and its seats.
    async fn load(
        conn: &mut AnyConnection,
        id: MatchId,
    ) -> Result<(Match, Vec<SeatSlot>), MatchError> {
        crate::storage::matches::load(conn, id)
            .await?
            .ok_or(MatchError::UnknownMatch(id))
    }

    /// The database pool's connections: how many it holds, how many idle.
    pub fn pool_use(&self) -> (u32, usize) {
        let pool = self.db.pool();
        (pool.size(), pool.num_idle())
    }

    /// Where this service's operations run (see [`Runner`]).
    pub fn runner(&self) -> Runner {
        self.db.runner()
    }

    /// The seat of match `id` whose token is `token`.
    ///
    /// # Errors
    ///
    /// `UnknownMatch`, `NoToken`/`NotASeat`; storage errors.
    pub async fn authenticate(&self, id: MatchId, token: &Token) -> Result<Seat, MatchError> {
        let (_, seats) = Self::load(&mut *self.db.acquire().await?, id).await?;
        seat_of(&seats, token)
    }

    /// A match and its kept moves, from one snapshot.
    async fn load_history(
        conn: &mut AnyConnection,
        id: MatchId,
    ) -> Result<(Match, Vec<KeptMove>), MatchError> {
        crate::storage::matches::with_history(conn, id)
            .await?
            .ok_or(MatchError::UnknownMatch(id))
    }

    /// Loads a match for a write by a seat: the token must be one of its
    /// seats', and `If-Match` must name its version. A match whose flag
    /// fell by `now` is ended by timeout first (whether or not a sweeper has
    /// got to it), and the request is refused with that end (`refused` says
    /// what could not be done).
    async fn load_seated(
        &self,
        conn: &mut AnyConnection,
        id: MatchId,
        token: &Token,
        pre: &Precondition,
        refused: Refused,
        now: Timestamp,
    ) -> Result<(Match, Vec<SeatSlot>, Seat), MatchError> {
        let (mut m, seats) = Self::load(conn, id).await?;
        let seat = seat_of(&seats, token)?;
        if self.settle_flag(conn, &mut m, &seats, now).await? {
            return Err(MatchError::Finished {
                refused,
                status: m.status,
            });
        }
        pre.check(&m)?;
        Ok((m, seats, seat))
    }

    /// Writes `m` as it now stands (the caller has set `updated_at`),
    /// mapping a lost race to `stale-version` when the caller named a
    /// version and `write-conflict` otherwise. `m.version` is the version
    /// read; it is the new one afterwards. The event names the seat's
    /// display name from `seats`.
    #[allow(clippy::too_many_arguments)]
    async fn write(
        &self,
        conn: &mut AnyConnection,
        m: &mut Match,
        seats: &[SeatSlot],
        pre: &Precondition,
        truncate_after: Option<i64>,
        moves: &[KeptMove],
        change: events::Change,
    ) -> Result<(), MatchError> {
        let backend = self.db.backend();
        let event = events::MatchEvent::new(m, seats, m.version.next(), change);
        match crate::storage::matches::write(
            conn,
            backend,
            m.version,
            m,
            truncate_after,
            moves,
            &event,
        )
        .await
        {
            Ok(version) => {
                m.version = version;
                self.recent.keep(m.id, event);
                self.published(m.id, version);
                if m.deadline().is_some() {
                    // A new deadline may come before the one the sweeper
                    // sleeps until.
                    self.alarm.ring();
                }
                if m.status.is_ongoing() && seats.iter().any(|s| s.computer.is_some()) {
                    // The computer may have something to do now.
                    self.computer.ring();
                }
                Ok(())
            }
            Err(StorageError::Conflict) => Err(pre.lost_race()),
            Err(e) => Err(e.into()),
        }
    }
}

impl Matches {
    /// Tells the streams of a write that has committed.
    fn published(&self, id: MatchId, version: Version) {
        self.hub.publish(hub::Signal::Match(id, version));
    }
}

/// The seat whose token the request carries. Every seat is compared, so
/// the time taken does not tell which.
fn seat_of(seats: &[SeatSlot], token: &Token) -> Result<Seat, MatchError> {
    let presented = token.0.as_ref().ok_or(MatchError::NoToken)?;
    let mut found = None;
    for s in seats {
        if let Some(stored) = &s.token {
            if presented.matches(stored) {
                found = Some(s.seat);
            }
        }
    }
    found.ok_or(MatchError::NotASeat)
}
