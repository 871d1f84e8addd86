//! A match as a game record: every move of its full record and the
//! position they start from, read for an export; and a solo match made
//! from a record file, for an import, keeping every move the file played
//! and what the file said of the game ([`FileHeaders`]).
//!
//! These two functions are the only way the record endpoints reach the
//! stored moves, so that what a record holds follows what storage keeps.

use qipan_rules::xiangqi::Counters;
use qipan_rules::AnyPosition;

use super::create::new_match;
use super::events::{Change, EventKind, EventMove};
use super::line;
use super::read::{render_with, Shown};
use super::{
    KeptMove, Match, MatchError, MatchId, MatchStatus, Matches, Mode, Outcome, Seat, SeatSlot,
    Secret, Timestamp,
};
use crate::games::{self, Batch};
use crate::storage::matches as store;
use crate::storage::StorageError;

/// What an imported file says of its game besides its moves, kept with
/// the match and written back by its exports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileHeaders {
    /// The event (PGN `Event`).
    pub event: Option<String>,
    /// Where it was played.
    pub site: Option<String>,
    /// When, as the file writes it (PGN: `yyyy.mm.dd`).
    pub date: Option<String>,
    /// The round.
    pub round: Option<String>,
    /// The players by the game's seat order: red and black, black and
    /// white.
    pub players: [Option<String>; 2],
    /// The result as the file writes it (`1-0`, `0-1`, `1/2-1/2`), when it
    /// names one.
    pub result: Option<String>,
    /// The ply the file ends at: its result speaks of the match while the
    /// match is at that ply.
    pub ply: i64,
}

/// A match's record as storage keeps it.
#[derive(Debug)]
pub struct KeptRecord {
    /// The match.
    pub game: Match,
    /// Its seats.
    pub seats: Vec<SeatSlot>,
    /// The position before the first move of `moves` (the match's current
    /// position when it keeps none).
    pub start: AnyPosition,
    /// The ply of `start` (0: the match's own start).
    pub start_ply: i64,
    /// Xiangqi: the halfmove clock of `start`, when a kept move says it.
    pub start_halfmove: Option<u32>,
    /// The moves from `start` to the current position, oldest first, in
    /// the game's canonical notation.
    pub moves: Vec<String>,
    /// The state code after each of `moves`.
    pub codes: Vec<String>,
    /// What the file it was imported from said of the game.
    pub headers: Option<FileHeaders>,
}

impl Matches {
    /// The record of match `id` as an export writes it: every move of its
    /// full record (a fork's base's moves up to the fork included) up to
    /// its current ply, and the position they start from. A match kept
    /// before full records were starts at the oldest move it still had.
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors, `Corrupt` for kept moves that do
    /// not join up.
    #[tracing::instrument(skip(self))]
    pub async fn kept_record(&self, id: MatchId) -> Result<KeptRecord, MatchError> {
        let mut conn = self.db.acquire().await?;
        let (game, seats, kept) = store::record(&mut conn, self.db.backend(), id)
            .await?
            .ok_or(MatchError::UnknownMatch(id))?;
        // Written once, with the match: no need of the same snapshot.
        let headers = store::file_headers(&mut conn, id).await?;
        drop(conn);
        // An undo or a fork may leave moves past the current ply in no
        // history, but never in this one's; only the moves up to it count.
        let kept: Vec<KeptMove> = kept.into_iter().filter(|k| k.ply <= game.ply).collect();
        // The moves that lead to the current position without a gap.
        let mut first = kept.len();
        while first > 0 {
            let at = &kept[first - 1];
            let expected = game.ply - (kept.len() - first) as i64;
            let joins = match kept.get(first) {
                Some(next) => next.code_before == at.code_after,
                None => at.code_after == game.code,
            };
            if at.ply != expected || !joins {
                break;
            }
            first -= 1;
        }
        let kept = &kept[first..];
        let (start, start_ply, start_halfmove) = match kept.first() {
            Some(k) => {
                let start = AnyPosition::from_code(game.game, &k.code_before).map_err(|_| {
                    StorageError::Corrupt {
                        column: "moves.code_before",
                        value: k.code_before.clone(),
                    }
                })?;
                (start, k.ply - 1, k.halfmove)
            }
            None => (game.position.clone(), game.ply, None),
        };
        Ok(KeptRecord {
            start,
            start_ply,
            start_halfmove,
            moves: kept.iter().map(|k| k.action.clone()).collect(),
            codes: kept.iter().map(|k| k.code_after.clone()).collect(),
            headers,
            seats,
            game,
        })
    }

    /// Creates a solo match that starts at `start` (a xiangqi start with
    /// its FEN counters) and has played `actions`, checked by the rules,
    /// positioned after the last of them, with what the file said of the
    /// game (`headers`, its `ply` set here). Its record keeps every move;
    /// its history window (what undo reaches) the last [`super::HISTORY_CAP`], as
    /// any match's.
    ///
    /// # Errors
    ///
    /// The game's refusal of an action (naming its index), `GameOver` for a
    /// move after the rules ended the game; storage errors.
    #[tracing::instrument(skip_all, fields(game = %start.kind(), moves = actions.len()))]
    pub async fn create_played(
        &self,
        start: AnyPosition,
        counters: Option<Counters>,
        actions: &[String],
        headers: Option<FileHeaders>,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let kind = start.kind();
        let now = Timestamp::now();
        // A record is one batch: the routes refuse one longer than the
        // rules play at once (`games::MAX_ACTIONS`).
        let (position, plies) = if actions.is_empty() {
            (start.clone(), Vec::new())
        } else {
            let batch = Batch {
                only: None,
                record: true,
            };
            let played = games::play(&start, actions, batch, base)?;
            (played.position, played.plies)
        };
        // A game with a line (xiangqi) starts it at the file's start, with
        // the file's counters.
        let judged = match start.new_line() {
            Some(mut line0) => {
                line0.start.counters = counters.unwrap_or_default();
                Some(line::judge(&line0, &plies)?)
            }
            None => None,
        };
        let opening = match start.xiangqi() {
            Some(p) if !actions.is_empty() => {
                let moves: Vec<qipan_rules::xiangqi::Move> =
                    actions.iter().filter_map(|a| a.parse().ok()).collect();
                qipan_records::xiangqi::ecco::classify(p, &moves)
            }
            _ => None,
        };
        let count = plies.len() as i64;
        let id = MatchId::random();
        let token = Secret::token()?;
        let mut m = new_match(id, kind, Mode::Solo, position, count, None, now);
        let mut clocks = None;
        if let Some(j) = judged {
            m.status = MatchStatus::of(j.verdict);
            m.line = Some(j.line);
            clocks = Some(j.clocks);
        }
        let seats = [SeatSlot::solo(token.hash(), now)];
        // Every move goes to the record; the write raises the window's
        // floor to the last HISTORY_CAP, as for any batch of moves.
        let kept: Vec<KeptMove> = plies
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
                halfmove: clocks.as_ref().and_then(|c| c.get(i).copied()),
            })
            .collect();
        let mut conn = self.db.acquire().await?;
        let headers = headers.map(|h| FileHeaders { ply: count, ..h });
        store::insert_imported(&mut conn, &m, &seats, headers.as_ref()).await?;
        if !kept.is_empty() {
            let change = Change {
                kind: if m.status.is_ongoing() {
                    EventKind::Move
                } else {
                    EventKind::Over
                },
                seat: Some(Seat::Solo),
                moves: kept
                    .iter()
                    .map(|k| EventMove {
                        ply: k.ply,
                        side: k.side,
                        action: k.action.clone(),
                    })
                    .collect(),
                back_to: None,
                note: None,
            };
            let pre = super::Precondition::Any;
            self.write(&mut conn, &mut m, &seats, &pre, None, &kept, change)
                .await?;
        }
        drop(conn);
        crate::metrics::metrics().match_created();
        let shown = Shown::seated(Seat::Solo, &token);
        Ok(Outcome {
            view: render_with(&m, &seats, None, base, Some(shown), opening)?,
            id,
            version: m.version,
        })
    }
}
