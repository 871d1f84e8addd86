//! Full records: every move a match made, from its start, with what a
//! record's headers need (players, result, time control, dates). Export
//! reads them with [`Matches::record`]; import makes a solo match from a
//! start position and a whole line with [`Matches::import_record`]. The
//! history window (the last [`super::HISTORY_CAP`] moves, what undo reaches)
//! is unchanged by either: see `docs/matches.md`.

use qipan_rules::{AnyPosition, GameKind};

use super::read::{render, Shown};
use super::{
    line, KeptMove, Match, MatchError, MatchId, MatchStatus, Matches, Mode, Outcome, Parent, Seat,
    SeatName, SeatSlot, Secret, TimeControl, Timestamp, Version,
};
use crate::games::window::Window;
use crate::games::{self, Batch};
use crate::storage::matches as store;

/// The most moves one imported record holds: one batch of actions.
pub const RECORD_MAX: usize = games::MAX_ACTIONS;

/// Every move of a match, in order, and its headers.
#[derive(Debug, Clone)]
pub struct MatchRecord {
    /// The match.
    pub id: MatchId,
    /// Its game.
    pub game: GameKind,
    /// Duel or solo.
    pub mode: Mode,
    /// The state code the record starts from (before its first move).
    pub start_code: String,
    /// The ply it starts from: 0, but for a match kept before full records
    /// were, whose record starts at the oldest move it still had.
    pub start_ply: i64,
    /// Every move from there, oldest first, with its action in the game's
    /// canonical notation and the codes around it, as stored.
    pub moves: Vec<KeptMove>,
    /// What the record's header says.
    pub headers: RecordHeaders,
}

/// The headers of a record.
#[derive(Debug, Clone)]
pub struct RecordHeaders {
    /// Each seat with the display name its holder chose, in seat order.
    pub players: Vec<(Seat, Option<SeatName>)>,
    /// Ongoing, or the result with its reason (and the winner).
    pub status: MatchStatus,
    /// The time control of a timed duel.
    pub time_control: Option<TimeControl>,
    /// When the match was made.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// When it ended (its last change), once it has.
    pub ended_at: Option<Timestamp>,
    /// The match it was forked from, while that match is kept.
    pub parent: Option<Parent>,
    /// Its version.
    pub version: Version,
}

impl MatchRecord {
    fn of(m: &Match, seats: &[SeatSlot], moves: Vec<KeptMove>) -> MatchRecord {
        let (start_code, start_ply) = match moves.first() {
            Some(first) => (first.code_before.clone(), first.ply - 1),
            None => (m.code.clone(), m.ply),
        };
        MatchRecord {
            id: m.id,
            game: m.game,
            mode: m.mode,
            start_code,
            start_ply,
            moves,
            headers: RecordHeaders {
                players: seats.iter().map(|s| (s.seat, s.name.clone())).collect(),
                status: m.status,
                time_control: m.clock.map(|c| c.control),
                created_at: m.created_at,
                updated_at: m.updated_at,
                ended_at: (!m.status.is_ongoing()).then_some(m.updated_at),
                parent: m.parent,
                version: m.version,
            },
        }
    }
}

impl Matches {
    /// The full record of match `id`: its own moves and, for a fork, its
    /// parent's up to the fork's ply, from one snapshot.
    ///
    /// # Errors
    ///
    /// `UnknownMatch`; storage errors.
    #[tracing::instrument(skip(self))]
    pub async fn record(&self, id: MatchId) -> Result<MatchRecord, MatchError> {
        let mut conn = self.db.acquire().await?;
        let (m, seats, moves) = store::record(&mut conn, self.db.backend(), id)
            .await?
            .ok_or(MatchError::UnknownMatch(id))?;
        Ok(MatchRecord::of(&m, &seats, moves))
    }

    /// Makes a solo match that starts at `start` (with its xiangqi line,
    /// when the start carries counters) and has played `actions`: its
    /// record holds them all, its window the last
    /// [`super::HISTORY_CAP`]. Returns it as `create` does, with its token.
    ///
    /// # Errors
    ///
    /// The game's refusal of the batch (`EmptyBatch`, `BatchTooLong` past
    /// [`RECORD_MAX`], an action that cannot be played, naming its index);
    /// storage errors.
    #[tracing::instrument(skip_all, fields(game = %start.kind().as_str(), moves = actions.len()))]
    pub async fn import_record(
        &self,
        start: AnyPosition,
        line: Option<Window>,
        actions: &[String],
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let now = Timestamp::now();
        let kind = start.kind();
        let mut m =
            super::create::new_match(MatchId::random(), kind, Mode::Solo, start, 0, None, now);
        if let Some(line) = line {
            m.window = Some(line);
        }
        let played = games::play(
            &m.position,
            actions,
            Batch {
                only: None,
                record: true,
            },
            base,
        )?;
        let judged = match &m.window {
            Some(line) => Some(line::judge(line, &played.plies)?),
            None => None,
        };
        let moves: Vec<KeptMove> = played
            .plies
            .iter()
            .enumerate()
            .map(|(i, p)| KeptMove {
                ply: i as i64 + 1,
                seat: Seat::Solo,
                side: p.side,
                action: p.action.clone(),
                code_before: p.code_before.clone(),
                code_after: p.code_after.clone(),
                played_at: now,
                clock_before: None,
                halfmove: judged.as_ref().and_then(|j| j.clocks.get(i).copied()),
            })
            .collect();
        let status = match &judged {
            Some(j) => MatchStatus::of(j.verdict),
            None => MatchStatus::of(played.position.status()),
        };
        m.set_position(played.position, played.code, played.count as i64);
        if let Some(j) = judged {
            m.window = Some(j.line);
        }
        m.status = status;
        let token = Secret::token()?;
        let seats = [SeatSlot {
            seat: Seat::Solo,
            name: None,
            token: Some(token.hash()),
            invite: None,
            joined_at: Some(now),
            online: false,
            computer: None,
        }];
        store::insert_with_moves(&mut *self.db.acquire().await?, &m, &seats, &moves).await?;
        crate::metrics::metrics().match_created();
        let shown = Shown {
            seat: Seat::Solo,
            token: Some(&token),
            invites: Vec::new(),
        };
        Ok(Outcome {
            view: render(&m, &seats, None, base, Some(shown))?,
            id: m.id,
            version: m.version,
        })
    }
}
