//! New matches and new seats: `create`, `join` and `fork`.

use qipan_rules::AnyPosition;

use super::clock::{Clock, ClockError, TimeControl};
use super::computer::{Computer, ComputerError};
use super::decide;
use super::events::{Change, EventKind, MatchEvent};
use super::line;
use super::read::{invite_view, Shown};
use super::{
    seat_of, Match, MatchError, MatchId, MatchStatus, Matches, Mode, Outcome, Parent, Seat,
    SeatName, SeatSlot, Secret, Timestamp, Token, Version,
};
use crate::games;
use crate::storage::matches as store;
use crate::storage::StorageError;
use crate::wire::matches::{CreateRequest, ForkRequest};
use crate::wire::StartQuery;

impl Matches {
    /// `POST /v1/matches`
    ///
    /// # Errors
    ///
    /// `UnknownGame`, `FromWithStart`, `SoloOnly`, `UnknownSeat`,
    /// `InvalidName`, `InvalidClock`, `Computer`; the game's refusal of a code,
    /// variant, seed or size; storage errors.
    #[tracing::instrument(skip_all, fields(game = %req.game))]
    pub async fn create(&self, req: &CreateRequest, base: &str) -> Result<Outcome, MatchError> {
        let kind = games::kind(&req.game).map_err(|_| MatchError::UnknownGame(req.game.clone()))?;
        let start_params = req.variant.is_some() || req.seed.is_some() || req.size.is_some();
        let (position, line) = match (&req.from, &req.import) {
            (Some(_), Some(_)) => return Err(MatchError::FromWithStart { field: "import" }),
            (Some(_), None) | (None, Some(_)) if start_params => {
                let field = if req.from.is_some() { "from" } else { "import" };
                return Err(MatchError::FromWithStart { field });
            }
            (Some(code), None) => (games::decode(kind, code, "from")?, None),
            (None, Some(body)) => {
                let imported = games::import(kind, body).map_err(MatchError::Import)?;
                (imported.position, imported.line)
            }
            (None, None) => {
                let query = StartQuery {
                    variant: req.variant.clone(),
                    seed: req.seed,
                    size: req.size,
                };
                (games::start(kind, &query)?.0, None)
            }
        };
        let mode = match req.mode {
            Some(mode) => mode.into(),
            None if kind.players().len() > 1 => Mode::Duel,
            None => Mode::Solo,
        };
        if mode == Mode::Duel && kind.players().len() < 2 {
            return Err(MatchError::SoloOnly(kind));
        }
        let all = Seat::all(kind, mode);
        let mine = match (&req.seat, mode) {
            (Some(name), _) => Seat::parse(kind, name)
                .filter(|s| all.contains(s))
                .ok_or_else(|| MatchError::UnknownSeat {
                    given: name.clone(),
                    game: kind,
                    mode,
                    seats: all.clone(),
                })?,
            (None, Mode::Duel) => Seat::Side(position.to_move()),
            (None, Mode::Solo) => Seat::Solo,
        };
        let computer = req
            .computer
            .as_ref()
            .map(|c| {
                let computer = Computer::parse(c)?;
                if mode != Mode::Duel {
                    return Err(ComputerError::NoOtherSeat { game: kind, mode });
                }
                Ok(computer)
            })
            .transpose()
            .map_err(MatchError::Computer)?;
        let name = display_name(req.name.as_deref())?;
        let control = req
            .clock
            .as_ref()
            .map(|c| {
                if mode != Mode::Duel {
                    return Err(ClockError::Solo);
                }
                TimeControl::try_from(c)
            })
            .transpose()
            .map_err(MatchError::InvalidClock)?;
        let id = MatchId::random();
        let now = Timestamp::now();
        let token = Secret::token()?;
        let mut seats = Vec::with_capacity(all.len());
        let mut invites = Vec::new();
        for seat in all {
            if seat == mine {
                seats.push(SeatSlot {
                    seat,
                    name: name.clone(),
                    token: Some(token.hash()),
                    invite: None,
                    joined_at: Some(now),
                    online: false,
                    computer: None,
                });
            } else if let Some(computer) = computer {
                // The computer's seat: taken by a token nobody is given.
                seats.push(SeatSlot {
                    seat,
                    name: None,
                    token: Some(Secret::token()?.hash()),
                    invite: None,
                    joined_at: Some(now),
                    online: true,
                    computer: Some(computer),
                });
            } else {
                let invite = Secret::invite()?;
                seats.push(SeatSlot {
                    seat,
                    name: None,
                    token: None,
                    invite: Some(invite.hash()),
                    joined_at: None,
                    online: false,
                    computer: None,
                });
                invites.push(invite_view(base, id, seat, &invite));
            }
        }
        let mut m = new_match(id, kind, mode, position, 0, None, now);
        if let Some(line) = line {
            // A FEN's counters: the line starts there, and its clock may
            // already end the game by the move limit.
            m.status = MatchStatus::of(line::verdict_of(&line)?);
            m.line = Some(line);
        }
        m.clock = control.map(Clock::new);
        let mut conn = self.db.acquire().await?;
        match seats.iter().find_map(|s| s.computer.map(|c| (s.seat, c))) {
            Some((seat, computer)) => {
                crate::storage::computer::insert(&mut conn, &m, &seats, seat, computer).await?;
                // It may have the first move.
                self.computer.ring();
            }
            None => store::insert(&mut conn, &m, &seats).await?,
        }
        drop(conn);
        let shown = Shown {
            invites,
            ..Shown::seated(mine, &token)
        };
        crate::metrics::metrics().match_created();
        Self::shown(&m, &seats, base, Some(shown))
    }

    /// `POST /v1/matches/{id}/join`, with the joining player's display
    /// name.
    ///
    /// # Errors
    ///
    /// `NoInvite`, `InvalidName`, `InvalidInvite`, `SeatTaken`; storage
    /// errors.
    #[tracing::instrument(skip(self, invite, name, base))]
    pub async fn join(
        &self,
        id: MatchId,
        invite: Option<&str>,
        name: Option<&str>,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let invite = Secret::presented(invite.ok_or(MatchError::NoInvite)?);
        let name = display_name(name)?;
        // A lost race is read again: the seat may have been taken meanwhile.
        for _ in 0..3 {
            let mut conn = self.db.acquire().await?;
            let (mut m, mut seats) = Self::load(&mut conn, id).await?;
            let i = decide::invited(&seats, &invite)?;
            let token = Secret::token()?;
            let seat = seats[i].seat;
            let read_at = m.version;
            m.updated_at = Timestamp::now();
            seats[i].name = name.clone();
            let joined = MatchEvent::new(
                &m,
                &seats,
                read_at.next(),
                Change::by(EventKind::Joined, seat),
            );
            let backend = self.db.backend();
            match store::take_seat(
                &mut conn,
                backend,
                id,
                read_at,
                seat,
                &token.hash(),
                name.as_ref(),
                &joined,
            )
            .await
            {
                Err(StorageError::Conflict) => continue,
                Err(e) => return Err(e.into()),
                Ok(version) => {
                    self.published(id, version);
                    let now = m.updated_at;
                    m.version = version;
                    seats[i].token = Some(token.hash());
                    seats[i].joined_at = Some(now);
                    let shown = Shown::seated(seat, &token);
                    return Self::shown(&m, &seats, base, Some(shown));
                }
            }
        }
        Err(MatchError::Conflict)
    }

    /// `POST /v1/matches/{id}/fork`
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat` for a match being played without a seat token,
    /// `PlyNotKept`; storage errors.
    #[tracing::instrument(skip(self, token, req, base))]
    pub async fn fork(
        &self,
        id: MatchId,
        token: &Token,
        req: &ForkRequest,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        // A fork loses a race with a write of its parent only when both
        // touch the parent at once (see `store::insert_fork`): it is made
        // again from a new snapshot.
        for _ in 0..FORK_ATTEMPTS {
            match self.try_fork(id, token, req, base).await {
                Err(MatchError::Storage(StorageError::Conflict)) => continue,
                done => return done,
            }
        }
        Err(MatchError::Conflict)
    }

    async fn try_fork(
        &self,
        id: MatchId,
        token: &Token,
        req: &ForkRequest,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let mut conn = self.db.acquire().await?;
        // The parent, the fork's position and the history copied all come
        // from one snapshot, whatever is written to the parent meanwhile.
        let mut tx = store::snapshot(&mut conn, self.db.backend()).await?;
        let (parent, seats) = Self::load(&mut tx, id).await?;
        if parent.status.is_ongoing() {
            seat_of(&seats, token)?;
        }
        let ply = req.ply.unwrap_or(parent.ply);
        let position = if ply == parent.ply {
            parent.position.clone()
        } else {
            match store::code_at(&mut tx, &parent, ply).await? {
                Some(code) => AnyPosition::from_code(parent.game, &code).map_err(|_| {
                    StorageError::Corrupt {
                        column: "moves.code",
                        value: code.clone(),
                    }
                })?,
                None => {
                    return Err(MatchError::PlyNotKept {
                        ply,
                        oldest: store::oldest_kept(&mut tx, &parent).await?,
                        latest: parent.ply,
                    })
                }
            }
        };
        let now = Timestamp::now();
        let token = Secret::token()?;
        let from = Parent { id: parent.id, ply };
        let line = parent.line_at(&mut tx, ply).await?;
        let mut m = new_match(
            MatchId::random(),
            parent.game,
            Mode::Solo,
            position,
            ply,
            Some(from),
            now,
        );
        m.line = line;
        let seats = [SeatSlot::solo(token.hash(), now)];
        store::insert_fork(&mut tx, self.db.backend(), &m, &seats, from).await?;
        tx.commit().await.map_err(StorageError::from)?;
        drop(conn);
        crate::metrics::metrics().match_created();
        Self::shown(&m, &seats, base, Some(Shown::seated(Seat::Solo, &token)))
    }
}

/// How many times a fork is tried against a parent being written.
const FORK_ATTEMPTS: usize = 8;

/// A match as it is first written.
pub(crate) fn new_match(
    id: MatchId,
    game: qipan_rules::GameKind,
    mode: Mode,
    position: AnyPosition,
    ply: i64,
    parent: Option<Parent>,
    now: Timestamp,
) -> Match {
    // A new line starts here; a fork replaces it with its parent's.
    let line = position.new_line();
    Match {
        id,
        game,
        mode,
        code: position.to_code(),
        status: MatchStatus::of(position.status()),
        position,
        ply,
        version: Version::FIRST,
        undo: None,
        draw: None,
        clock: None,
        moved_at: now,
        parent,
        created_at: now,
        updated_at: now,
        line,
    }
}

/// A display name as sent in a create or join body.
///
/// # Errors
///
/// [`MatchError::InvalidName`].
pub(super) fn display_name(text: Option<&str>) -> Result<Option<SeatName>, MatchError> {
    text.map(SeatName::parse)
        .transpose()
        .map_err(MatchError::InvalidName)
}
