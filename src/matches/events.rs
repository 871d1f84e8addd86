//! What happened to a match, one event per write: the data of its live
//! stream. Each event is stored with the write that made it (same
//! transaction) and carries that write's version, so a stream that reconnects
//! with `Last-Event-ID` is replayed exactly what it missed.

use qipan_rules::AnyPlayer;

use super::clock::Reading;
use super::domain::{Match, MatchStatus, Seat, SeatName, SeatSlot, Timestamp, Version};

/// How many events a match keeps for replay.
pub const EVENT_CAP: i64 = 200;

/// What a write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// Moves were played and play goes on.
    Move,
    /// Moves were played and the game ended.
    Over,
    /// Moves were taken back (a solo undo, or an accepted takeback).
    Undo,
    /// A duel seat offered a takeback.
    TakebackOffered,
    /// A takeback offer was declined or withdrawn.
    TakebackDeclined,
    /// An invited seat was taken.
    Joined,
    /// A seat resigned.
    Resigned,
    /// A seat issued new invites for the open seats (the old ones are void).
    Invited,
    /// An invited player declined, with a reason.
    InviteDeclined,
    /// A seat withdrew the open invites.
    InviteWithdrawn,
    /// The flag of the side to move fell: the match is over.
    Timeout,
    /// A duel seat offered a draw.
    DrawOffered,
    /// A draw offer was declined or withdrawn.
    DrawDeclined,
    /// A draw offer was accepted: the match is drawn.
    DrawAgreed,
    /// A seat claimed the win or a draw against a side that left.
    Claimed,
}

impl EventKind {
    /// Every kind.
    pub const ALL: [EventKind; 15] = [
        EventKind::Move,
        EventKind::Over,
        EventKind::Undo,
        EventKind::TakebackOffered,
        EventKind::TakebackDeclined,
        EventKind::Joined,
        EventKind::Resigned,
        EventKind::Invited,
        EventKind::InviteDeclined,
        EventKind::InviteWithdrawn,
        EventKind::Timeout,
        EventKind::DrawOffered,
        EventKind::DrawDeclined,
        EventKind::DrawAgreed,
        EventKind::Claimed,
    ];

    /// Its name: the SSE `event:` field.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Move => "move",
            EventKind::Over => "over",
            EventKind::Undo => "undo",
            EventKind::TakebackOffered => "takeback-offered",
            EventKind::TakebackDeclined => "takeback-declined",
            EventKind::Joined => "joined",
            EventKind::Resigned => "resigned",
            EventKind::Invited => "invited",
            EventKind::InviteDeclined => "invite-declined",
            EventKind::InviteWithdrawn => "invite-withdrawn",
            EventKind::Timeout => "timeout",
            EventKind::DrawOffered => "draw-offered",
            EventKind::DrawDeclined => "draw-declined",
            EventKind::DrawAgreed => "draw-agreed",
            EventKind::Claimed => "claimed",
        }
    }

    /// The kind named `s`.
    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// One move an event reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventMove {
    /// Its ply.
    pub ply: i64,
    /// The side that moved.
    pub side: AnyPlayer,
    /// The action, in the game's canonical notation.
    pub action: String,
}

/// What a write is about to do, before it has a version.
#[derive(Debug, Clone)]
pub struct Change {
    /// What kind of change.
    pub kind: EventKind,
    /// The seat that made it.
    pub seat: Option<Seat>,
    /// The moves it played.
    pub moves: Vec<EventMove>,
    /// For a takeback offer: the ply offered.
    pub back_to: Option<i64>,
    /// For a declined invitation: the reason given.
    pub note: Option<String>,
}

impl Change {
    /// A change by `seat` that plays no move.
    pub fn by(kind: EventKind, seat: Seat) -> Change {
        Change {
            kind,
            seat: Some(seat),
            moves: Vec::new(),
            back_to: None,
            note: None,
        }
    }

    /// A change nobody made (a clock's).
    pub fn of(kind: EventKind) -> Change {
        Change {
            kind,
            seat: None,
            moves: Vec::new(),
            back_to: None,
            note: None,
        }
    }
}

/// One stored event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchEvent {
    /// The version the write made: the SSE `id:`.
    pub version: Version,
    /// What happened.
    pub kind: EventKind,
    /// Who did it.
    pub seat: Option<Seat>,
    /// The match's ply after it.
    pub ply: i64,
    /// The state code after it.
    pub code: String,
    /// The side to move after it.
    pub to_move: AnyPlayer,
    /// How the match stands after it.
    pub status: MatchStatus,
    /// The moves it played.
    pub moves: Vec<EventMove>,
    /// For a takeback offer: the ply offered.
    pub back_to: Option<i64>,
    /// For a declined invitation: the reason given.
    pub note: Option<String>,
    /// The display name of the seat that did it, if it has one.
    pub name: Option<SeatName>,
    /// A timed duel's clock after it.
    pub clock: Option<Reading>,
    /// When.
    pub at: Timestamp,
}

impl MatchEvent {
    /// The event of `change` on `m` as it stands after the change, made by
    /// the write that gives it `version`; the seat's name is read from
    /// `seats`.
    pub fn new(m: &Match, seats: &[SeatSlot], version: Version, change: Change) -> MatchEvent {
        let name = change.seat.and_then(|seat| {
            seats
                .iter()
                .find(|s| s.seat == seat)
                .and_then(|s| s.name.clone())
        });
        MatchEvent {
            version,
            kind: change.kind,
            seat: change.seat,
            ply: m.ply,
            code: m.code.clone(),
            to_move: m.to_move(),
            status: m.status,
            moves: change.moves,
            back_to: change.back_to,
            note: change.note,
            name,
            clock: m.clock.map(|c| c.reading()),
            at: m.updated_at,
        }
    }
}

/// A recent event, and its frame as the first feed to send it rendered it
/// (with that feed's base URL; feeds on another base render their own).
#[derive(Debug)]
pub struct Recent {
    /// The event.
    pub event: MatchEvent,
    rendered: std::sync::OnceLock<(String, std::sync::Arc<super::live::Frame>)>,
}

impl Recent {
    /// The event's frame on `base`: rendered once, shared by every feed on
    /// that base.
    ///
    /// # Errors
    ///
    /// What `render` fails with.
    pub fn frame<E>(
        &self,
        base: &str,
        render: impl FnOnce(&MatchEvent) -> Result<super::live::Frame, E>,
    ) -> Result<std::sync::Arc<super::live::Frame>, E> {
        if let Some((b, f)) = self.rendered.get() {
            if b == base {
                return Ok(f.clone());
            }
        }
        let frame = std::sync::Arc::new(render(&self.event)?);
        let _ = self.rendered.set((base.to_owned(), frame.clone()));
        Ok(frame)
    }
}

/// The latest events, shared by every feed of this instance: when a write
/// wakes a thousand streams of one match, the event is read (or was kept by
/// the write itself) once, and rendered once, not a thousand times.
#[derive(Debug, Clone)]
pub struct RecentEvents {
    cache:
        std::sync::Arc<quick_cache::sync::Cache<(super::MatchId, Version), std::sync::Arc<Recent>>>,
}

/// How many events [`RecentEvents`] keeps.
const RECENT: usize = 4096;

impl Default for RecentEvents {
    fn default() -> RecentEvents {
        RecentEvents {
            cache: std::sync::Arc::new(quick_cache::sync::Cache::new(RECENT)),
        }
    }
}

fn recent(event: MatchEvent) -> std::sync::Arc<Recent> {
    std::sync::Arc::new(Recent {
        event,
        rendered: std::sync::OnceLock::new(),
    })
}

impl RecentEvents {
    /// Keeps an event a write of this instance made.
    pub fn keep(&self, id: super::MatchId, event: MatchEvent) {
        self.cache.insert((id, event.version), recent(event));
    }

    /// The event of match `id` at `version`, from memory or from `load`
    /// (run once however many ask at the same time); `None` when the
    /// match does not keep it.
    ///
    /// # Errors
    ///
    /// What `load` fails with.
    pub async fn get<E>(
        &self,
        id: super::MatchId,
        version: Version,
        load: impl std::future::Future<Output = Result<Option<MatchEvent>, E>>,
    ) -> Result<Option<std::sync::Arc<Recent>>, E> {
        /// A load that found nothing is not kept.
        enum Miss<E> {
            Absent,
            Failed(E),
        }
        let found = self
            .cache
            .get_or_insert_async(&(id, version), async {
                match load.await {
                    Ok(Some(e)) => Ok(recent(e)),
                    Ok(None) => Err(Miss::Absent),
                    Err(e) => Err(Miss::Failed(e)),
                }
            })
            .await;
        match found {
            Ok(e) => Ok(Some(e)),
            Err(Miss::Absent) => Ok(None),
            Err(Miss::Failed(e)) => Err(e),
        }
    }
}
