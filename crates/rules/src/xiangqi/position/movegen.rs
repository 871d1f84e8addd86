//! The move generator behind `legal_actions`, `status` and perft.
//!
//! Pseudo-legal moves come from the move tables, piece by piece in slot
//! order. Whether a move leaves the mover's general attacked is then judged,
//! for most moves, without playing it: one look at the enemy pieces that
//! could reach the general (a [`Guard`], once per position) tells which
//! moves are certainly legal, which certainly illegal, and which few must
//! be played out and checked. Perft's last ply only counts the moves.
//!
//! The bookkeeping is the one chess engines keep (Stockfish's "blockers for
//! king" and check evasions; Pikafish adds cannon screens and horse legs for
//! xiangqi), worked out again here for this board of 90 cells and 32 slots.
//! `play` does not use any of it: it plays the move and looks for an attack
//! in full ([`Position::general_attacked`]), which is the definition the
//! quick path is tested against (`tests/xiangqi_legality.rs`).

use super::{cell_side_is, slot_range, Position, CAPTURED};
use crate::xiangqi::tables::{
    ADVISOR_MOVES, ELEPHANT_MOVES, GENERAL_MOVES, HORSE_MOVES, NONE, RAYS, SOLDIER_MOVES,
};
use crate::xiangqi::types::{Move, Role, Side};

/// A move inside the generator: origin and destination points, both below
/// 90 because they come from the slots and the move tables. It becomes a
/// public [`Move`] only on the way out, so the inner loops check nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RawMove {
    pub(super) from: u8,
    pub(super) to: u8,
}

impl RawMove {
    /// The public move.
    pub(super) fn public(self) -> Move {
        Move {
            from: super::sq(self.from),
            to: super::sq(self.to),
        }
    }
}

impl From<Move> for RawMove {
    fn from(m: Move) -> RawMove {
        RawMove {
            from: m.from.value(),
            to: m.to.value(),
        }
    }
}

/// Up to this many pseudo-legal moves fit in a [`MoveList`]; the most a
/// xiangqi side can have is well below it (chariots and cannons 17 each,
/// horses 8, elephants 4, advisors 4 and 1, the general 4, soldiers 3).
const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, so the perft inner loop never allocates.
pub(super) struct MoveList {
    moves: [RawMove; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub(super) fn new() -> MoveList {
        MoveList {
            moves: [RawMove { from: 0, to: 0 }; MAX_MOVES],
            len: 0,
        }
    }

    pub(super) fn as_slice(&self) -> &[RawMove] {
        &self.moves[..self.len]
    }
}

/// Where the generator puts the moves it finds: a list, or a bare count
/// when perft only needs how many there are.
trait Targets {
    fn add(&mut self, from: u8, to: u8);
}

impl Targets for MoveList {
    #[inline(always)]
    fn add(&mut self, from: u8, to: u8) {
        self.moves[self.len] = RawMove { from, to };
        self.len += 1;
    }
}

/// Counts moves.
struct Count(u64);

impl Targets for Count {
    #[inline(always)]
    fn add(&mut self, _: u8, _: u8) {
        self.0 += 1;
    }
}

/// Whether one of the moves generated ends on `to`: the piece's own
/// moves, looked through for one destination without a list.
struct Reaches {
    to: u8,
    found: bool,
}

impl Targets for Reaches {
    #[inline(always)]
    fn add(&mut self, _: u8, to: u8) {
        self.found |= to == self.to;
    }
}

/// Counts moves that do not end on one of the points of `avoid`.
struct CountAvoiding {
    n: u64,
    avoid: Points,
}

impl Targets for CountAvoiding {
    #[inline(always)]
    fn add(&mut self, _: u8, to: u8) {
        self.n += u64::from(!has(self.avoid, to));
    }
}

/// A set of points, bit `i` for point `i` (90 of the 128 bits are used).
type Points = u128;

#[inline(always)]
const fn bit(point: u8) -> Points {
    1 << point
}

#[inline(always)]
const fn has(set: Points, point: u8) -> bool {
    (set >> point) & 1 != 0
}

/// The first cell value of `side`'s slots: its pieces are the cell values
/// `own_first(side)..own_first(side) + 16` (0 is an empty cell).
#[inline(always)]
fn own_first(side: Side) -> u8 {
    match side {
        Side::Red => 1,
        Side::Black => 17,
    }
}

/// The step from `a` towards `b` along the file (±9) or the rank (±1)
/// they share, if they share one.
#[inline(always)]
fn line_step(a: u8, b: u8) -> Option<i8> {
    if a % 9 == b % 9 {
        Some(if b < a { -9 } else { 9 })
    } else if a / 9 == b / 9 {
        Some(if b < a { -1 } else { 1 })
    } else {
        None
    }
}

/// The leg of a horse on `horse` that would jump to `target`, if it is a
/// horse's jump away: the diagonal neighbour of `target` towards the horse.
#[inline(always)]
fn horse_leg(target: u8, horse: u8) -> Option<u8> {
    let df = (horse % 9) as i8 - (target % 9) as i8;
    let dr = (horse / 9) as i8 - (target / 9) as i8;
    (df != 0 && dr != 0 && df.abs() + dr.abs() == 3)
        .then(|| (target as i8 + df.signum() + 9 * dr.signum()) as u8)
}

/// The points strictly between `a` and `b`, `step` apart on one line.
fn span(a: u8, b: u8, step: i8) -> Points {
    let mut set = 0;
    let mut p = a as i8 + step;
    while p != b as i8 {
        set |= bit(p as u8);
        p += step;
    }
    set
}

/// Slots (within a side's 16) of the pieces that attack along a line with
/// nothing between: the general (on its file only, as the generals never
/// share a rank) and the chariots.
const SLIDERS: [usize; 3] = [0, 7, 8];
/// Slots of the cannons, which attack along a line over one screen.
const CANNONS: [usize; 2] = [9, 10];
/// Slots of the horses.
const HORSES: [usize; 2] = [5, 6];

/// What one look around the mover's general tells about every move of a
/// position, so that most moves are judged without being played
/// ([`Position::guard`] says why these sets suffice). A move from `from`
/// to `to`:
/// - by a piece of `verify` is played out and checked;
/// - otherwise, in check, is played out if `to` is in `parry_to` and is
///   illegal if not;
/// - otherwise, not in check, is legal unless `to` is in `hollow`.
pub(super) struct Guard {
    in_check: bool,
    /// The cell value of the mover's first slot (see [`own_first`]).
    first: u8,
    /// Bit `i` for the mover's slot `i`: the general, and, not in check,
    /// our pieces whose leaving could expose it (the one piece between it
    /// and an enemy chariot or general, either of the two between it and an
    /// enemy cannon, an enemy horse's leg); in check, our pieces that screen
    /// a checking cannon. Kept by slot rather than by point so that the
    /// test per piece and per move is a shift of a `u16`.
    verify: u16,
    /// In check: the points a parrying move must reach (a checker, the
    /// empty points between a checking chariot, cannon or general and
    /// ours, a checking horse's leg).
    parry_to: Points,
    /// Not in check: the empty points between the general and an enemy
    /// cannon with nothing between; a piece stopping there would become the
    /// cannon's screen.
    hollow: Points,
}

impl Position {
    /// The moves of one piece of the side to move, standing on `from`, in
    /// the order of the move tables.
    #[inline(always)]
    fn piece_moves<T: Targets>(&self, role: Role, from: u8, out: &mut T) {
        let side = self.turn;
        let first = own_first(side);
        let b = &self.board;
        // Empty, or an enemy piece: one comparison, as the empty cell 0
        // wraps round to a value above our 16.
        let free = |t: u8| b[t as usize].wrapping_sub(first) >= 16;
        let f = from as usize;
        match role {
            Role::General => {
                for &t in &GENERAL_MOVES[f] {
                    if t == NONE {
                        break;
                    }
                    if free(t) {
                        out.add(from, t);
                    }
                }
            }
            Role::Advisor => {
                for &t in &ADVISOR_MOVES[f] {
                    if t == NONE {
                        break;
                    }
                    if free(t) {
                        out.add(from, t);
                    }
                }
            }
            Role::Elephant => {
                for &[t, eye] in &ELEPHANT_MOVES[side.index()][f] {
                    if t == NONE {
                        break;
                    }
                    if b[eye as usize] == 0 && free(t) {
                        out.add(from, t);
                    }
                }
            }
            Role::Horse => {
                for &[t, leg] in &HORSE_MOVES[f] {
                    if t == NONE {
                        break;
                    }
                    if b[leg as usize] == 0 && free(t) {
                        out.add(from, t);
                    }
                }
            }
            Role::Chariot => {
                for ray in &RAYS[f] {
                    for &t in ray {
                        if t == NONE {
                            break;
                        }
                        let c = b[t as usize];
                        if c == 0 {
                            out.add(from, t);
                        } else {
                            if free(t) {
                                out.add(from, t);
                            }
                            break;
                        }
                    }
                }
            }
            Role::Cannon => {
                for ray in &RAYS[f] {
                    let mut i = 0;
                    while ray[i] != NONE && b[ray[i] as usize] == 0 {
                        out.add(from, ray[i]);
                        i += 1;
                    }
                    if ray[i] == NONE {
                        continue;
                    }
                    // ray[i] is the screen; take the first piece beyond.
                    i += 1;
                    while ray[i] != NONE && b[ray[i] as usize] == 0 {
                        i += 1;
                    }
                    if ray[i] != NONE && free(ray[i]) {
                        out.add(from, ray[i]);
                    }
                }
            }
            Role::Soldier => {
                for &t in &SOLDIER_MOVES[side.index()][f] {
                    if t == NONE {
                        break;
                    }
                    if free(t) {
                        out.add(from, t);
                    }
                }
            }
        }
    }

    /// The moves of every piece of one role of the side to move. Called
    /// with a constant role, so the match above is settled at compile time.
    #[inline(always)]
    fn role_moves<T: Targets>(&self, role: Role, out: &mut T) {
        let (lo, hi) = slot_range(role);
        let base = self.turn.index() * 16;
        for &from in &self.slots[base + lo..base + hi] {
            if from != CAPTURED {
                self.piece_moves(role, from, out);
            }
        }
    }

    /// Pseudo-legal moves of the side to move (everything but leaving one's
    /// own general attacked), in slot order: the order of `legal_actions`.
    pub(super) fn pseudo_moves(&self, out: &mut MoveList) {
        self.role_moves(Role::General, out);
        self.role_moves(Role::Advisor, out);
        self.role_moves(Role::Elephant, out);
        self.role_moves(Role::Horse, out);
        self.role_moves(Role::Chariot, out);
        self.role_moves(Role::Cannon, out);
        self.role_moves(Role::Soldier, out);
    }

    /// The pieces strictly between `a` and `b`, `step` apart on one line:
    /// how many (counting stops at 3), and the points of the first two.
    #[inline(always)]
    fn between(&self, a: u8, b: u8, step: i8) -> (usize, [u8; 2]) {
        let mut found = [0u8; 2];
        let mut n = 0;
        let mut p = a as i8 + step;
        while p != b as i8 {
            if self.board[p as usize] != 0 {
                if n == 2 {
                    return (3, found);
                }
                found[n] = p as u8;
                n += 1;
            }
            p += step;
        }
        (n, found)
    }

    /// Looks at the enemy pieces that could reach the general of the side
    /// to move, once per position (see [`Guard`]).
    ///
    /// Why the sets are enough when not in check: a move changes the board
    /// only by emptying `from`, filling `to` and removing the enemy piece
    /// taken there (which cannot add an attack). Soldiers attack whatever
    /// stands next to them, so none starts attacking. A horse starts
    /// attacking only if its leg is emptied: the leg was `from`. A chariot or
    /// the enemy general starts attacking only if the one piece between was
    /// `from`. A cannon starts attacking only if the pieces between go from
    /// two to one (one of them was `from`) or from none to one (`to` was an
    /// empty point between: `hollow`). A general move changes the attacked
    /// point itself, so it is always played out.
    ///
    /// When in check, a move of another piece parries a checker only by
    /// taking it, by stopping between (on a chariot's, cannon's or general's
    /// line, on a horse's leg) or by taking a cannon's screen away, so a
    /// move that does none of these for any checker is illegal; the rest
    /// are played out, which also settles double checks and whatever the
    /// move uncovers elsewhere.
    pub(super) fn guard(&self) -> Guard {
        let us = self.turn;
        let k = self.slots[us.index() * 16];
        let them = us.opponent().index() * 16;
        let first = own_first(us);
        let b = &self.board;
        // The slot bit of the piece on `p` if it is ours, else 0.
        let ours = |p: u8| {
            let slot = b[p as usize].wrapping_sub(first);
            if slot < 16 {
                1u16 << slot
            } else {
                0
            }
        };
        let mut checks = 0u32;
        let mut pinned = 0u16;
        let mut screens = 0u16;
        let mut parry: Points = 0;
        let mut hollow: Points = 0;

        for slot in SLIDERS {
            let s = self.slots[them + slot];
            let Some(step) = (s != CAPTURED).then(|| line_step(k, s)).flatten() else {
                continue;
            };
            match self.between(k, s, step) {
                (0, _) => {
                    checks += 1;
                    parry |= span(k, s, step) | bit(s);
                }
                (1, [p, _]) => pinned |= ours(p),
                _ => {}
            }
        }
        for slot in CANNONS {
            let s = self.slots[them + slot];
            let Some(step) = (s != CAPTURED).then(|| line_step(k, s)).flatten() else {
                continue;
            };
            match self.between(k, s, step) {
                (0, _) => hollow |= span(k, s, step),
                (1, [p, _]) => {
                    checks += 1;
                    // Taking the screen puts another piece in its place.
                    parry |= (span(k, s, step) & !bit(p)) | bit(s);
                    screens |= ours(p);
                }
                (2, [p, q]) => pinned |= ours(p) | ours(q),
                _ => {}
            }
        }
        for slot in HORSES {
            let h = self.slots[them + slot];
            let Some(leg) = (h != CAPTURED).then(|| horse_leg(k, h)).flatten() else {
                continue;
            };
            if b[leg as usize] == 0 {
                checks += 1;
                parry |= bit(h) | bit(leg);
            } else {
                pinned |= ours(leg);
            }
        }
        for s in self.soldier_points(us, k) {
            let c = b[s as usize];
            if c != 0 && !cell_side_is(c, us) && super::CELL_ROLE[c as usize] == super::R_SOLDIER {
                checks += 1;
                parry |= bit(s);
            }
        }

        // Bit 0 is slot 0, the general.
        if checks == 0 {
            Guard {
                in_check: false,
                first,
                verify: 1 | pinned,
                parry_to: 0,
                hollow,
            }
        } else {
            Guard {
                in_check: true,
                first,
                verify: 1 | screens,
                parry_to: parry,
                hollow: 0,
            }
        }
    }

    /// The points from which an enemy soldier would attack `side`'s general
    /// on `k`: ahead of it from the enemy's side, and beside it (the palace
    /// is across the river for the enemy's soldiers). Off-board ones are
    /// left out.
    #[inline(always)]
    fn soldier_points(&self, side: Side, k: u8) -> impl Iterator<Item = u8> {
        let ahead = match side {
            Side::Red => k.checked_sub(9),
            Side::Black => Some(k + 9).filter(|&s| s < 90),
        };
        let file = k % 9;
        [ahead, (file > 0).then(|| k - 1), (file < 8).then(|| k + 1)]
            .into_iter()
            .flatten()
    }

    /// Whether `side`'s general is attacked: [`Position::general_attacked`]
    /// again, but looking from the few enemy pieces that could reach it
    /// (along a shared line, a horse's jump away, a soldier next to it)
    /// instead of along every line from the general.
    fn general_attacked_quick(&self, side: Side) -> bool {
        let k = self.slots[side.index() * 16];
        let them = side.opponent().index() * 16;
        let b = &self.board;
        for (slots, screens) in [(&SLIDERS[..], 0), (&CANNONS[..], 1)] {
            for &slot in slots {
                let s = self.slots[them + slot];
                if s == CAPTURED {
                    continue;
                }
                if let Some(step) = line_step(k, s) {
                    if self.between(k, s, step).0 == screens {
                        return true;
                    }
                }
            }
        }
        for slot in HORSES {
            let h = self.slots[them + slot];
            if h != CAPTURED && horse_leg(k, h).is_some_and(|leg| b[leg as usize] == 0) {
                return true;
            }
        }
        self.soldier_points(side, k).any(|s| {
            let c = b[s as usize];
            c != 0 && !cell_side_is(c, side) && super::CELL_ROLE[c as usize] == super::R_SOLDIER
        })
    }

    /// Whether a pseudo-legal move leaves the mover's general safe, judged
    /// from the position's [`Guard`] and played out only when it cannot
    /// tell.
    #[inline(always)]
    fn keeps_general_safe(&mut self, guard: &Guard, m: RawMove) -> bool {
        // The mover is ours, so its slot is below 16.
        let slot = self.board[m.from as usize].wrapping_sub(guard.first);
        if (guard.verify >> slot) & 1 != 0 {
            self.safe_after(m)
        } else if guard.in_check {
            has(guard.parry_to, m.to) && self.safe_after(m)
        } else {
            !has(guard.hollow, m.to)
        }
    }

    /// Plays the move, looks for an attack on the mover's general, and
    /// takes the move back.
    fn safe_after(&mut self, m: RawMove) -> bool {
        let us = self.turn;
        let captured = self.make(m);
        let ok = !self.general_attacked_quick(us);
        self.unmake(m, captured);
        ok
    }

    /// Moves the piece without any check; returns the captured cell value.
    #[inline(always)]
    pub(super) fn make(&mut self, m: RawMove) -> u8 {
        let (f, t) = (m.from as usize, m.to as usize);
        let moving = self.board[f];
        let captured = self.board[t];
        self.board[t] = moving;
        self.board[f] = 0;
        self.slots[moving as usize - 1] = m.to;
        if captured != 0 {
            self.slots[captured as usize - 1] = CAPTURED;
        }
        self.turn = self.turn.opponent();
        captured
    }

    /// Takes back [`Position::make`].
    #[inline(always)]
    pub(super) fn unmake(&mut self, m: RawMove, captured: u8) {
        let (f, t) = (m.from as usize, m.to as usize);
        let moving = self.board[t];
        self.board[f] = moving;
        self.board[t] = captured;
        self.slots[moving as usize - 1] = m.from;
        if captured != 0 {
            self.slots[captured as usize - 1] = m.to;
        }
        self.turn = self.turn.opponent();
    }

    /// The legal moves of the side to move, in [`Position::pseudo_moves`]
    /// order.
    pub(super) fn legal_list(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let guard = self.guard();
        let mut kept = 0;
        for i in 0..list.len {
            let m = list.moves[i];
            if self.keeps_general_safe(&guard, m) {
                list.moves[kept] = m;
                kept += 1;
            }
        }
        list.len = kept;
        list
    }

    /// Whether the side to move has a legal move, stopping at the first.
    pub(super) fn has_legal_move(&mut self) -> bool {
        let guard = self.guard();
        let mut list = MoveList::new();
        // One role at a time, those with the fewest moves first: the first
        // legal move ends the search, and most positions have one among the
        // general's, advisors' and elephants' few.
        self.role_has_legal(Role::General, &guard, &mut list)
            || self.role_has_legal(Role::Advisor, &guard, &mut list)
            || self.role_has_legal(Role::Elephant, &guard, &mut list)
            || self.role_has_legal(Role::Soldier, &guard, &mut list)
            || self.role_has_legal(Role::Horse, &guard, &mut list)
            || self.role_has_legal(Role::Cannon, &guard, &mut list)
            || self.role_has_legal(Role::Chariot, &guard, &mut list)
    }

    /// Whether a piece of `role` has a legal move; `list` is scratch.
    #[inline(always)]
    fn role_has_legal(&mut self, role: Role, guard: &Guard, list: &mut MoveList) -> bool {
        list.len = 0;
        self.role_moves(role, list);
        (0..list.len).any(|i| self.keeps_general_safe(guard, list.moves[i]))
    }

    /// Whether the piece of `role` on `from` (of the side to move) can reach
    /// `to` by its own way of moving, leaving aside its general's safety.
    pub(super) fn reaches(&self, role: Role, from: u8, to: u8) -> bool {
        let mut reach = Reaches { to, found: false };
        self.piece_moves(role, from, &mut reach);
        reach.found
    }

    /// How many legal moves the side to move has: perft's last ply. Not in
    /// check, the moves of a piece the guard has no doubt about are counted
    /// as they are generated, without a list; the general's and those of
    /// pieces that may expose it are listed and played out.
    fn count_legal(&mut self) -> u64 {
        let guard = self.guard();
        let mut held = MoveList::new();
        let mut n = if guard.in_check {
            self.pseudo_moves(&mut held);
            0
        } else if guard.hollow == 0 {
            let mut count = Count(0);
            self.split_moves(&guard, &mut count, &mut held);
            count.0
        } else {
            let mut count = CountAvoiding {
                n: 0,
                avoid: guard.hollow,
            };
            self.split_moves(&guard, &mut count, &mut held);
            count.n
        };
        for i in 0..held.len {
            n += u64::from(self.keeps_general_safe(&guard, held.moves[i]));
        }
        n
    }

    /// The pseudo-legal moves of the pieces of `guard.verify` into `held`,
    /// the others into `rest`, in slot order.
    #[inline(always)]
    fn split_moves<T: Targets>(&self, guard: &Guard, rest: &mut T, held: &mut MoveList) {
        self.split_role(Role::General, guard, rest, held);
        self.split_role(Role::Advisor, guard, rest, held);
        self.split_role(Role::Elephant, guard, rest, held);
        self.split_role(Role::Horse, guard, rest, held);
        self.split_role(Role::Chariot, guard, rest, held);
        self.split_role(Role::Cannon, guard, rest, held);
        self.split_role(Role::Soldier, guard, rest, held);
    }

    #[inline(always)]
    fn split_role<T: Targets>(&self, role: Role, guard: &Guard, rest: &mut T, held: &mut MoveList) {
        let (lo, hi) = slot_range(role);
        let base = self.turn.index() * 16;
        for (slot, &from) in (lo..hi).zip(&self.slots[base + lo..base + hi]) {
            if from == CAPTURED {
                continue;
            }
            if (guard.verify >> slot) & 1 != 0 {
                self.piece_moves(role, from, held);
            } else {
                self.piece_moves(role, from, rest);
            }
        }
    }

    /// Perft below the root: bulk counting at the last ply.
    pub(super) fn perft_inner(&mut self, depth: u32) -> u64 {
        if depth <= 1 {
            return self.count_legal();
        }
        let mut list = MoveList::new();
        self.pseudo_moves(&mut list);
        let guard = self.guard();
        let mut nodes = 0;
        for i in 0..list.len {
            let m = list.moves[i];
            if self.keeps_general_safe(&guard, m) {
                let captured = self.make(m);
                nodes += self.perft_inner(depth - 1);
                self.unmake(m, captured);
            }
        }
        nodes
    }
}
