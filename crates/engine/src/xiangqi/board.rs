//! The search's own board: make and unmake in place, a pseudo-legal
//! generator with a quick legality test, and an incremental Zobrist key and
//! material-and-place score.
//!
//! The rules crate's [`Position`] is the judge of what is legal; its
//! `play` copies and re-sorts a whole position, which is right for a
//! service and too slow for millions of nodes. This board is a 16×16
//! mailbox (the 9×10 points at files 3–11, rows 3–12), so a step off the
//! board lands on a padding cell and every piece's pattern is a list of
//! offsets. The tests compare its legal moves with the rules crate's on
//! many positions.
//!
//! Pieces keep the rules crate's slot numbering: `side * 16 + k`, with `k`
//! 0 the general, 1–2 advisors, 3–4 elephants, 5–6 horses, 7–8 chariots,
//! 9–10 cannons, 11–15 soldiers. A cell holds `0x20 | id`, or 0 when empty.

use qipan_rules::xiangqi::{Move, Position, Role, Side, Square};

use super::eval::{front, PLACE};

/// A point of the 16×16 board.
pub(crate) type Sq = usize;

/// A move on the 16×16 board: `from | to << 8`; 0 is no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, PartialOrd, Ord)]
pub(crate) struct Mv(pub(crate) u16);

impl Mv {
    #[inline]
    pub(crate) fn new(from: Sq, to: Sq) -> Mv {
        Mv((from | (to << 8)) as u16)
    }
    #[inline]
    pub(crate) fn from(self) -> Sq {
        (self.0 & 0xff) as usize
    }
    #[inline]
    pub(crate) fn to(self) -> Sq {
        (self.0 >> 8) as usize
    }
    #[inline]
    pub(crate) fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The rules crate's move.
    pub(crate) fn public(self) -> Move {
        Move {
            from: square(self.from()),
            to: square(self.to()),
        }
    }

    /// The board's move for a rules crate move.
    pub(crate) fn of(m: Move) -> Mv {
        Mv::new(sq_of(m.from), sq_of(m.to))
    }
}

/// The piece kinds, in the rules crate's role order.
pub(crate) const GENERAL: usize = 0;
pub(crate) const ADVISOR: usize = 1;
pub(crate) const ELEPHANT: usize = 2;
pub(crate) const HORSE: usize = 3;
pub(crate) const CHARIOT: usize = 4;
pub(crate) const CANNON: usize = 5;
pub(crate) const SOLDIER: usize = 6;

/// The kind of each slot within a side.
pub(crate) const KIND: [usize; 16] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 6, 6];

/// The board point of a rules crate point.
#[inline]
pub(crate) fn sq_of(s: Square) -> Sq {
    (usize::from(s.row()) + 3) * 16 + usize::from(s.file()) + 3
}

/// The rules crate's point of a board point on the board.
#[inline]
pub(crate) fn square(sq: Sq) -> Square {
    let row = (sq >> 4) as u8 - 3;
    let file = (sq & 15) as u8 - 3;
    Square::from_file_row(file, row).unwrap_or_else(|| unreachable!("{sq} is on the board"))
}

/// Whether a point is one of the 90.
pub(crate) const ON_BOARD: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let (r, f) = (i >> 4, i & 15);
        t[i] = r >= 3 && r <= 12 && f >= 3 && f <= 11;
        i += 1;
    }
    t
};

/// Whether a point is in a palace (either).
const IN_PALACE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let (r, f) = (i >> 4, i & 15);
        t[i] = f >= 6 && f <= 8 && ((r >= 3 && r <= 5) || (r >= 10 && r <= 12));
        i += 1;
    }
    t
};

/// Whether a point lies on red's half (rows 5–9 of the rules, 8–12 here).
#[inline]
pub(crate) fn red_half(sq: Sq) -> bool {
    sq & 0x80 != 0
}

/// Whether a point lies on `side`'s own half.
#[inline]
pub(crate) fn own_half(sq: Sq, side: usize) -> bool {
    red_half(sq) == (side == 0)
}

/// One step forward for a side's soldiers.
#[inline]
pub(crate) fn forward(side: usize) -> isize {
    if side == 0 {
        -16
    } else {
        16
    }
}

pub(crate) const ORTH: [isize; 4] = [-16, 16, -1, 1];
const DIAG: [isize; 4] = [-17, -15, 15, 17];
/// Horse jumps and their legs.
pub(crate) const HORSE_JUMPS: [(isize, isize); 8] = [
    (-33, -16),
    (-31, -16),
    (-18, -1),
    (14, -1),
    (-14, 1),
    (18, 1),
    (31, 16),
    (33, 16),
];
/// Horses that attack a point, by their offset from it, with the leg that
/// must be empty (the diagonal neighbour of the attacked point).
const HORSE_CHECKS: [(isize, isize); 8] = [
    (-33, -17),
    (-31, -15),
    (-18, -17),
    (14, 15),
    (-14, -15),
    (18, 17),
    (31, 15),
    (33, 17),
];

/// For a horse's offset from a general (plus 256), the leg that must be
/// empty for the horse to attack it (as an offset from the general), or 0.
static HORSE_LEG: [i8; 512] = {
    let mut t = [0i8; 512];
    let mut i = 0;
    while i < HORSE_CHECKS.len() {
        let (h, leg) = HORSE_CHECKS[i];
        t[(256 + h) as usize] = leg as i8;
        i += 1;
    }
    t
};

/// The bits strictly between `a` and `b` (two different points of a row
/// or a file, numbered as in the masks).
#[inline]
fn between_bits(a: usize, b: usize) -> u32 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (1 << hi) - (1 << (lo + 1))
}

#[inline]
fn off(sq: Sq, d: isize) -> Sq {
    (sq as isize + d) as usize
}

/// Splitmix, for the Zobrist tables at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// One random number per side, kind and point.
static ZOBRIST: [[u64; 256]; 14] = {
    let mut t = [[0u64; 256]; 14];
    let mut state = 0x656e_6769_6e65_7871;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 256 {
            let (next, v) = splitmix(state);
            state = next;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
};
const BLACK_KEY: u64 = splitmix(0x7475_726e_5f78_7131).1;

/// What [`Board::make`] needs to take a move back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Undo {
    pub(crate) mv: Mv,
    pub(crate) captured: u8,
}

/// The search's board.
#[derive(Clone)]
pub(crate) struct Board {
    /// `0x20 | id` or 0, per point.
    pub(crate) cells: [u8; 256],
    /// Each slot's point, or 0 once captured.
    pub(crate) at: [u8; 32],
    /// 0 red, 1 black.
    pub(crate) turn: usize,
    pub(crate) key: u64,
    /// Material and place, per side, from that side's point of view.
    pub(crate) place: [i32; 2],
    /// How many pieces of each kind each side has: kept up to date by
    /// captures, as the evaluation wants them at every node.
    pub(crate) counts: [[i32; 7]; 2],
    /// The occupied points of each row (bit `file`) and of each file (bit
    /// `row`), with the padding points just past both ends set, so that
    /// the next piece along a line is a bit scan away and a scan always
    /// stops ([`Board::ray`]).
    rows: [u32; 16],
    files: [u32; 16],
    /// Per side, the sums of [`front`] over its pieces: the evaluation's
    /// attack terms without a look at every piece.
    pub(crate) front: [u32; 2],
}

/// The padding bits of a row's mask (files 2 and 12) and of a file's
/// (rows 2 and 13).
const ROW_ENDS: u32 = 1 << 2 | 1 << 12;
const FILE_ENDS: u32 = 1 << 2 | 1 << 13;

/// The most pseudo-legal moves a side can have, with room to spare (two
/// chariots and two cannons with open lines have about 70, every other
/// piece together under 60).
pub(crate) const MAX_MOVES: usize = 192;

/// A move list on the stack.
pub(crate) struct MoveList {
    pub(crate) moves: [Mv; MAX_MOVES],
    pub(crate) len: usize,
}

impl MoveList {
    pub(crate) fn new() -> MoveList {
        MoveList {
            moves: [Mv(0); MAX_MOVES],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, m: Mv) {
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    pub(crate) fn as_slice(&self) -> &[Mv] {
        &self.moves[..self.len]
    }
}

#[inline]
pub(crate) fn side_of(cell: u8) -> usize {
    usize::from((cell >> 4) & 1)
}

#[inline]
pub(crate) fn kind_of(cell: u8) -> usize {
    KIND[usize::from(cell & 15)]
}

#[inline]
fn zobrist(cell: u8, sq: Sq) -> u64 {
    ZOBRIST[ZOBRIST_ROW[usize::from(cell & 31)]][sq]
}

/// The row of `ZOBRIST` of each piece slot: its side and kind.
const ZOBRIST_ROW: [usize; 32] = {
    let mut t = [0; 32];
    let mut id = 0;
    while id < 32 {
        t[id] = (id >> 4) * 7 + KIND[id & 15];
        id += 1;
    }
    t
};

/// The place value of a piece for its own side.
#[inline]
fn place_of(cell: u8, sq: Sq) -> i32 {
    i32::from(PLACE[usize::from(cell & 31)][sq])
}

impl Board {
    /// The board of a rules crate position.
    pub(crate) fn new(pos: &Position) -> Board {
        let mut b = Board {
            cells: [0; 256],
            at: [0; 32],
            turn: usize::from(pos.turn() == Side::Black),
            key: 0,
            place: [0; 2],
            counts: [[0; 7]; 2],
            rows: [ROW_ENDS; 16],
            files: [FILE_ENDS; 16],
            front: [0; 2],
        };
        let mut next = [[0usize; 7]; 2];
        const FIRST: [usize; 7] = [0, 1, 3, 5, 7, 9, 11];
        for (s, p) in pos.pieces() {
            let side = p.side.index();
            let kind = match p.role {
                Role::General => GENERAL,
                Role::Advisor => ADVISOR,
                Role::Elephant => ELEPHANT,
                Role::Horse => HORSE,
                Role::Chariot => CHARIOT,
                Role::Cannon => CANNON,
                Role::Soldier => SOLDIER,
            };
            let id = side * 16 + FIRST[kind] + next[side][kind];
            next[side][kind] += 1;
            let sq = sq_of(s);
            let cell = 0x20 | id as u8;
            b.cells[sq] = cell;
            b.at[id] = sq as u8;
            b.key ^= zobrist(cell, sq);
            b.place[side] += place_of(cell, sq);
            b.counts[side][kind_of(cell)] += 1;
            b.rows[sq >> 4] |= 1 << (sq & 15);
            b.files[sq & 15] |= 1 << (sq >> 4);
            b.front[side] += front(id, sq);
        }
        if b.turn == 1 {
            b.key ^= BLACK_KEY;
        }
        b
    }

    /// Where `side`'s general stands.
    #[inline]
    pub(crate) fn general(&self, side: usize) -> Sq {
        usize::from(self.at[side * 16])
    }

    /// Plays `m` (pseudo-legal) and gives what takes it back.
    #[inline]
    pub(crate) fn make(&mut self, m: Mv) -> Undo {
        let (from, to) = (m.from(), m.to());
        let piece = self.cells[from];
        let captured = self.cells[to];
        if captured != 0 {
            self.key ^= zobrist(captured, to);
            self.place[side_of(captured)] -= place_of(captured, to);
            self.counts[side_of(captured)][kind_of(captured)] -= 1;
            self.front[side_of(captured)] -= front(usize::from(captured & 31), to);
            self.at[usize::from(captured & 31)] = 0;
        }
        self.key ^= zobrist(piece, from) ^ zobrist(piece, to) ^ BLACK_KEY;
        let side = side_of(piece);
        self.place[side] += place_of(piece, to) - place_of(piece, from);
        let id = usize::from(piece & 31);
        self.front[side] = self.front[side] - front(id, from) + front(id, to);
        self.cells[from] = 0;
        self.cells[to] = piece;
        self.at[id] = to as u8;
        self.rows[from >> 4] &= !(1 << (from & 15));
        self.files[from & 15] &= !(1 << (from >> 4));
        self.rows[to >> 4] |= 1 << (to & 15);
        self.files[to & 15] |= 1 << (to >> 4);
        self.turn ^= 1;
        Undo { mv: m, captured }
    }

    /// Takes back the move [`Board::make`] played.
    #[inline]
    pub(crate) fn unmake(&mut self, u: Undo) {
        let (from, to) = (u.mv.from(), u.mv.to());
        let piece = self.cells[to];
        self.turn ^= 1;
        let side = side_of(piece);
        self.place[side] -= place_of(piece, to) - place_of(piece, from);
        self.key ^= zobrist(piece, from) ^ zobrist(piece, to) ^ BLACK_KEY;
        let id = usize::from(piece & 31);
        self.front[side] = self.front[side] - front(id, to) + front(id, from);
        self.cells[from] = piece;
        self.at[id] = from as u8;
        self.cells[to] = u.captured;
        self.rows[from >> 4] |= 1 << (from & 15);
        self.files[from & 15] |= 1 << (from >> 4);
        if u.captured == 0 {
            self.rows[to >> 4] &= !(1 << (to & 15));
            self.files[to & 15] &= !(1 << (to >> 4));
        } else {
            self.key ^= zobrist(u.captured, to);
            self.place[side_of(u.captured)] += place_of(u.captured, to);
            self.counts[side_of(u.captured)][kind_of(u.captured)] += 1;
            self.front[side_of(u.captured)] += front(usize::from(u.captured & 31), to);
            self.at[usize::from(u.captured & 31)] = to as u8;
        }
    }

    /// Passes the move (the null move of the search).
    #[inline]
    pub(crate) fn make_null(&mut self) {
        self.turn ^= 1;
        self.key ^= BLACK_KEY;
    }

    /// Takes back [`Board::make_null`].
    #[inline]
    pub(crate) fn unmake_null(&mut self) {
        self.make_null();
    }

    /// The first piece from the point `sq` (on the board) in the direction
    /// `ORTH[dir]`, 0 when there is none before the edge, and how many
    /// empty points lie between.
    #[inline]
    pub(crate) fn ray(&self, sq: Sq, dir: usize) -> (Sq, usize) {
        let (row, file) = (sq >> 4, sq & 15);
        // The padding bits make every mask scanned here non-zero.
        match dir {
            0 => {
                let below = self.files[file] & ((1 << row) - 1);
                let r = 31 - below.leading_zeros() as usize;
                (if r >= 3 { r << 4 | file } else { 0 }, row - r - 1)
            }
            1 => {
                let r = row + 1 + (self.files[file] >> (row + 1)).trailing_zeros() as usize;
                (if r <= 12 { r << 4 | file } else { 0 }, r - row - 1)
            }
            2 => {
                let below = self.rows[row] & ((1 << file) - 1);
                let f = 31 - below.leading_zeros() as usize;
                (if f >= 3 { row << 4 | f } else { 0 }, file - f - 1)
            }
            _ => {
                let f = file + 1 + (self.rows[row] >> (file + 1)).trailing_zeros() as usize;
                (if f <= 11 { row << 4 | f } else { 0 }, f - file - 1)
            }
        }
    }

    /// Whether `side`'s general is attacked (or faces the other general).
    pub(crate) fn attacked(&self, side: usize) -> bool {
        let k = self.general(side);
        let them = side ^ 1;
        let c = &self.cells;
        let g = usize::from(self.at[them * 16]);
        // The generals facing each other: nothing between on one file.
        if g != 0 && g & 15 == k & 15 && self.files[k & 15] & between_bits(g >> 4, k >> 4) == 0 {
            return true;
        }
        if self.lines_or_jumps_reach(k, them) {
            return true;
        }
        let soldier = |s: Sq| {
            let p = c[s];
            p != 0 && side_of(p) == them && kind_of(p) == SOLDIER
        };
        soldier(off(k, -forward(them))) || soldier(k - 1) || soldier(k + 1)
    }

    /// Whether a chariot, cannon or horse of `by` attacks the point `sq`.
    ///
    /// Asked after every move, and mostly false: so it looks from those
    /// few pieces, and only at those that stand on a line with `sq` or a
    /// horse's jump from it.
    #[inline(always)]
    fn lines_or_jumps_reach(&self, sq: Sq, by: usize) -> bool {
        for slot in [7, 8, 9, 10] {
            let s = usize::from(self.at[by * 16 + slot]);
            // A piece on `sq` itself does not attack it.
            if s == 0 || s == sq {
                continue;
            }
            // The pieces between the two, from the mask of their line.
            let between = if s & 15 == sq & 15 {
                self.files[sq & 15] & between_bits(s >> 4, sq >> 4)
            } else if s >> 4 == sq >> 4 {
                self.rows[sq >> 4] & between_bits(s & 15, sq & 15)
            } else {
                continue;
            };
            // A cannon needs exactly one screen, a chariot none.
            let hit = if slot >= 9 {
                between != 0 && between & (between - 1) == 0
            } else {
                between == 0
            };
            if hit {
                return true;
            }
        }
        [5, 6].into_iter().any(|slot| {
            let s = usize::from(self.at[by * 16 + slot]);
            let leg = HORSE_LEG[(256 + s - sq) & 511];
            s != 0 && leg != 0 && self.cells[off(sq, isize::from(leg))] == 0
        })
    }

    /// Whether any piece of `by` attacks the point `sq` (taken to hold a
    /// piece of the other side): the test for a capture that loses the
    /// capturing piece.
    pub(crate) fn attacked_by(&self, sq: Sq, by: usize) -> bool {
        let c = &self.cells;
        let mine = |s: Sq, kind: usize| {
            let p = c[s];
            p != 0 && side_of(p) == by && kind_of(p) == kind
        };
        if self.lines_or_jumps_reach(sq, by) {
            return true;
        }
        // The general, one step away within the palace.
        let g = usize::from(self.at[by * 16]);
        if IN_PALACE[sq] && ORTH.iter().any(|&d| off(sq, d) == g) {
            return true;
        }
        if mine(off(sq, -forward(by)), SOLDIER)
            || (!own_half(sq, by) && (mine(sq - 1, SOLDIER) || mine(sq + 1, SOLDIER)))
        {
            return true;
        }
        if IN_PALACE[sq] && DIAG.iter().any(|&d| mine(off(sq, d), ADVISOR)) {
            return true;
        }
        own_half(sq, by)
            && DIAG
                .iter()
                .any(|&d| mine(off(sq, 2 * d), ELEPHANT) && c[off(sq, d)] == 0)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub(crate) fn in_check(&self) -> bool {
        self.attacked(self.turn)
    }

    /// Whether the move `m` of the side to move may check the enemy
    /// general, judged without making it: only a move from or to the
    /// general's row or file (a chariot, cannon or soldier checking, a
    /// screen or a blocker moved), a horse's move to within two rows and
    /// files of it, or a move off a point next to it (a horse's leg) can.
    #[inline]
    pub(crate) fn may_check(&self, m: Mv) -> bool {
        let g = self.general(self.turn ^ 1);
        let (from, to) = (m.from(), m.to());
        let line = |s: Sq| s >> 4 == g >> 4 || s & 15 == g & 15;
        let near =
            |s: Sq, d: usize| (s >> 4).abs_diff(g >> 4) <= d && (s & 15).abs_diff(g & 15) <= d;
        line(from)
            || line(to)
            || near(from, 1)
            || (kind_of(self.cells[from]) == HORSE && near(to, 2))
    }

    /// Every pseudo-legal move of the side to move (captures only when
    /// `captures_only`).
    pub(crate) fn generate(&self, captures_only: bool, list: &mut MoveList) {
        if captures_only {
            self.generate_for::<true>(list);
        } else {
            self.generate_for::<false>(list);
        }
    }

    /// [`Board::generate`], made twice over so that neither version asks
    /// at every point whether it wants captures only. The pieces go kind
    /// by kind in the order of their slots, as the moves always have.
    fn generate_for<const CAPTURES_ONLY: bool>(&self, list: &mut MoveList) {
        let side = self.turn;
        let c = &self.cells;
        let target_ok = |p: u8| {
            if CAPTURES_ONLY {
                p != 0 && side_of(p) != side
            } else {
                p == 0 || side_of(p) != side
            }
        };
        // The points of the pieces of slots `lo` to `hi` (exclusive).
        let slots = |lo: usize, hi: usize| {
            self.at[side * 16 + lo..side * 16 + hi]
                .iter()
                .map(|&at| usize::from(at))
                .filter(|&from| from != 0)
        };
        for from in slots(0, 1) {
            for &d in &ORTH {
                let to = off(from, d);
                if IN_PALACE[to] && target_ok(c[to]) {
                    list.push(Mv::new(from, to));
                }
            }
        }
        for from in slots(1, 3) {
            for &d in &DIAG {
                let to = off(from, d);
                if IN_PALACE[to] && target_ok(c[to]) {
                    list.push(Mv::new(from, to));
                }
            }
        }
        for from in slots(3, 5) {
            for &d in &DIAG {
                let eye = off(from, d);
                let to = off(eye, d);
                if ON_BOARD[to] && own_half(to, side) && c[eye] == 0 && target_ok(c[to]) {
                    list.push(Mv::new(from, to));
                }
            }
        }
        for from in slots(5, 7) {
            for &(j, leg) in &HORSE_JUMPS {
                let to = off(from, j);
                if ON_BOARD[to] && c[off(from, leg)] == 0 && target_ok(c[to]) {
                    list.push(Mv::new(from, to));
                }
            }
        }
        for from in slots(7, 9) {
            for (dir, &d) in ORTH.iter().enumerate() {
                let to = self.first(from, dir, d, CAPTURES_ONLY, list);
                if to != 0 && side_of(c[to]) != side {
                    list.push(Mv::new(from, to));
                }
            }
        }
        for from in slots(9, 11) {
            for (dir, &d) in ORTH.iter().enumerate() {
                let screen = self.first(from, dir, d, CAPTURES_ONLY, list);
                if screen == 0 {
                    continue;
                }
                let (to, _) = self.ray(screen, dir);
                if to != 0 && side_of(c[to]) != side {
                    list.push(Mv::new(from, to));
                }
            }
        }
        for from in slots(11, 16) {
            let to = off(from, forward(side));
            if ON_BOARD[to] && target_ok(c[to]) {
                list.push(Mv::new(from, to));
            }
            if !own_half(from, side) {
                for to in [from - 1, from + 1] {
                    if ON_BOARD[to] && target_ok(c[to]) {
                        list.push(Mv::new(from, to));
                    }
                }
            }
        }
    }

    /// The first piece from `from` in the direction `ORTH[dir]` (`d`), 0
    /// when none; unless `captures_only`, the moves to the empty points
    /// before it go onto `list`, nearest first. Walking the line costs
    /// less than a bit scan when every point is pushed anyway.
    #[inline]
    fn first(
        &self,
        from: Sq,
        dir: usize,
        d: isize,
        captures_only: bool,
        list: &mut MoveList,
    ) -> Sq {
        if captures_only {
            return self.ray(from, dir).0;
        }
        let mut to = off(from, d);
        while ON_BOARD[to] && self.cells[to] == 0 {
            list.push(Mv::new(from, to));
            to = off(to, d);
        }
        if ON_BOARD[to] {
            to
        } else {
            0
        }
    }

    /// Whether the pseudo-legal move `m` keeps the mover's general safe.
    #[inline]
    pub(crate) fn legal_after(&mut self, m: Mv) -> bool {
        let side = self.turn;
        let u = self.make(m);
        let ok = !self.attacked(side);
        self.unmake(u);
        ok
    }

    /// Every legal move of the side to move.
    pub(crate) fn legal_moves(&mut self) -> Vec<Mv> {
        let mut list = MoveList::new();
        self.generate(false, &mut list);
        list.as_slice()
            .iter()
            .copied()
            .filter(|&m| self.legal_after(m))
            .collect()
    }

    /// How many pieces of `kind` a side has.
    #[inline]
    pub(crate) fn count(&self, side: usize, kind: usize) -> i32 {
        self.counts[side][kind]
    }
}
