//! The search's board: stones on a padded grid, and for every empty point,
//! colour and direction the line pattern a stone there would make, kept up
//! to date as stones come and go (a stone changes the patterns of at most
//! forty points: five either side along four lines).
//!
//! Each point also carries a value per colour (what a stone there would be
//! worth, from its four patterns), and the board the sum of them: the
//! static evaluation is one subtraction.

use qipan_rules::gomoku::{Point, Position, Stone, Variant};

use super::pattern::{self, slot, Pat, Rule};

/// Cells of border around the largest board: a pattern reads five cells
/// either side of a point, so reads never leave the array.
const PAD: i32 = 5;
/// Row length of the padded grid (19 + 2 × 5).
pub(crate) const STRIDE: i32 = 19 + 2 * PAD;
/// Cells of the padded grid.
pub(crate) const CELLS: usize = (STRIDE * STRIDE) as usize;
/// The four line directions as index steps: along a row, along a column,
/// the rising and the falling diagonal.
pub(crate) const DIRS: [i32; 4] = [1, STRIDE, STRIDE + 1, 1 - STRIDE];

/// Raw cell digits (also the two-bit digits of the colour-free keys).
const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// A point of the padded grid.
pub(crate) type Idx = usize;

/// The colour index of a stone: 0 black, 1 white.
#[inline]
pub(crate) fn side(s: Stone) -> usize {
    match s {
        Stone::Black => 0,
        Stone::White => 1,
    }
}

/// How a stone on a point stands, all four lines together: the classes
/// the threat search and the move ordering ask about.
/// Number of [`Shape`]s.
const SHAPES: usize = 7;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Shape {
    /// Nothing of note.
    Quiet,
    /// Makes an open three (a threat to make an open four).
    Three,
    /// Makes two open threes at once.
    DoubleThree,
    /// Makes one four.
    Four,
    /// Makes a four and an open three at once.
    FourThree,
    /// Makes an open four, or two fours: wins next move.
    OpenFour,
    /// Makes five.
    Five,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys: one per colour and cell, and one for the side to move.
struct Zobrist {
    stones: [[u64; CELLS]; 2],
    side: u64,
}

fn zobrist() -> &'static Zobrist {
    static Z: std::sync::OnceLock<Box<Zobrist>> = std::sync::OnceLock::new();
    Z.get_or_init(|| {
        let mut seed = 0x5169_7061_6e21_u64;
        let mut z = Box::new(Zobrist {
            stones: [[0; CELLS]; 2],
            side: 0,
        });
        for c in 0..2 {
            for k in z.stones[c].iter_mut() {
                *k = splitmix(&mut seed);
            }
        }
        z.side = splitmix(&mut seed);
        z
    })
}

/// The board a search plays on.
#[derive(Clone)]
pub(crate) struct Board {
    size: i32,
    variant: Variant,
    rules: [Rule; 2],
    cells: Vec<u8>,
    /// Per cell and direction: the ten neighbours' raw digits.
    keys: Vec<[u32; 4]>,
    /// Per colour, cell and direction: the pattern a stone there makes.
    pats: [Vec<[Pat; 4]>; 2],
    /// Per colour and cell: what a stone there is worth (0 when taken).
    value: [Vec<i32>; 2],
    /// Per colour and cell: the shape of its four patterns (stale on a
    /// taken cell, which is not counted).
    shapes: [Vec<Shape>; 2],
    /// Per colour: how many empty points have each shape, so that "is
    /// there a five, a four, an open four?" costs nothing when there is
    /// none.
    counts: [[u32; SHAPES]; 2],
    total: [i32; 2],
    /// Stones within two points (a 5×5 square) of each cell.
    near: Vec<u8>,
    /// The on-board cells, in board order.
    points: Vec<Idx>,
    hash: u64,
    to_move: usize,
    moves: Vec<Idx>,
}

impl Board {
    /// The board of a position: its stones and its side to move.
    pub(crate) fn from_position(pos: &Position) -> Board {
        pattern::warm();
        let size = i32::from(pos.size());
        let variant = pos.variant();
        let rules = match variant {
            Variant::Freestyle => [Rule::Long, Rule::Long],
            Variant::Standard => [Rule::Exact, Rule::Exact],
            Variant::Renju => [Rule::RenjuBlack, Rule::Long],
        };
        let mut cells = vec![WALL; CELLS];
        let mut points = Vec::with_capacity((size * size) as usize);
        for r in 0..size {
            for c in 0..size {
                let i = ((r + PAD) * STRIDE + c + PAD) as usize;
                cells[i] = EMPTY;
                points.push(i);
            }
        }
        let mut keys = vec![[0u32; 4]; CELLS];
        for (i, key) in keys.iter_mut().enumerate() {
            for (d, k) in key.iter_mut().enumerate() {
                for off in (-5..=5).filter(|&o| o != 0) {
                    let j = i as i32 + off * DIRS[d];
                    let digit = if (0..CELLS as i32).contains(&j) {
                        cells[j as usize]
                    } else {
                        WALL
                    };
                    *k |= u32::from(digit) << (2 * slot(off));
                }
            }
        }
        let mut board = Board {
            size,
            variant,
            rules,
            cells,
            keys,
            pats: [vec![[Pat::None; 4]; CELLS], vec![[Pat::None; 4]; CELLS]],
            value: [vec![0; CELLS], vec![0; CELLS]],
            shapes: [vec![Shape::Quiet; CELLS], vec![Shape::Quiet; CELLS]],
            counts: [[0; SHAPES]; 2],
            total: [0, 0],
            near: vec![0; CELLS],
            points,
            hash: 0,
            to_move: 0,
            moves: Vec::new(),
        };
        let n = board.points.len() as u32;
        board.counts = [[0; SHAPES]; 2];
        board.counts[0][Shape::Quiet as usize] = n;
        board.counts[1][Shape::Quiet as usize] = n;
        for i in board.points.clone() {
            for d in 0..4 {
                board.refresh(i, d);
            }
        }
        for r in 0..pos.size() {
            for c in 0..pos.size() {
                let Some(p) = Point::new(c, r) else { continue };
                if let Some(s) = pos.stone_at(p) {
                    board.to_move = side(s);
                    board.put(board.idx(p));
                }
            }
        }
        board.moves.clear();
        board.to_move = side(pos.turn());
        board.hash = board.stone_hash()
            ^ if board.to_move == 1 {
                zobrist().side
            } else {
                0
            };
        board
    }

    fn stone_hash(&self) -> u64 {
        let z = zobrist();
        self.points
            .iter()
            .filter(|&&i| self.cells[i] != EMPTY)
            .map(|&i| z.stones[usize::from(self.cells[i] - 1)][i])
            .fold(0, |a, b| a ^ b)
    }

    /// The grid cell of a point (on the board).
    #[inline]
    pub(crate) fn idx(&self, p: Point) -> Idx {
        ((i32::from(p.row()) + PAD) * STRIDE + i32::from(p.col()) + PAD) as usize
    }

    /// The point of an on-board grid cell.
    #[inline]
    pub(crate) fn point(&self, i: Idx) -> Point {
        let r = i as i32 / STRIDE - PAD;
        let c = i as i32 % STRIDE - PAD;
        Point::new(c as u8, r as u8).unwrap_or_else(|| unreachable!("an on-board cell"))
    }

    /// The side to move, 0 black, 1 white.
    #[inline]
    pub(crate) fn to_move(&self) -> usize {
        self.to_move
    }

    #[inline]
    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    /// The on-board cells in board order.
    #[inline]
    pub(crate) fn points(&self) -> &[Idx] {
        &self.points
    }

    #[inline]
    pub(crate) fn is_empty(&self, i: Idx) -> bool {
        self.cells[i] == EMPTY
    }

    /// Whether any stone stands within two points of `i`.
    #[inline]
    pub(crate) fn has_neighbour(&self, i: Idx) -> bool {
        self.near[i] > 0
    }

    /// Whether the board has no stone at all.
    pub(crate) fn is_bare(&self) -> bool {
        self.points.iter().all(|&i| self.cells[i] == EMPTY)
    }

    /// Whether every point is taken.
    pub(crate) fn is_full(&self) -> bool {
        self.points.iter().all(|&i| self.cells[i] != EMPTY)
    }

    /// The centre point.
    pub(crate) fn centre(&self) -> Idx {
        let m = self.size / 2;
        ((m + PAD) * STRIDE + m + PAD) as usize
    }

    /// The patterns of colour `c` on `i`, one per direction.
    #[inline]
    pub(crate) fn pats(&self, c: usize, i: Idx) -> [Pat; 4] {
        self.pats[c][i]
    }

    /// What a stone of `c` on `i` is worth.
    #[inline]
    pub(crate) fn value(&self, c: usize, i: Idx) -> i32 {
        self.value[c][i]
    }

    /// The four lines of a stone of `c` on `i`, taken together.
    #[inline]
    pub(crate) fn shape(&self, c: usize, i: Idx) -> Shape {
        self.shapes[c][i]
    }

    /// How many empty points give `c` a shape of `at_least` or better.
    #[inline]
    pub(crate) fn count_at_least(&self, c: usize, at_least: Shape) -> u32 {
        self.counts[c][at_least as usize..].iter().sum()
    }

    /// The static evaluation for the side to move.
    #[inline]
    pub(crate) fn eval(&self) -> i32 {
        let me = self.to_move;
        self.total[me] - self.total[1 - me] * 9 / 10
    }

    /// Puts a stone of the side to move on the empty `i` and passes the
    /// turn.
    pub(crate) fn play(&mut self, i: Idx) {
        self.hash ^= zobrist().stones[self.to_move][i] ^ zobrist().side;
        self.put(i);
        self.moves.push(i);
        self.to_move = 1 - self.to_move;
    }

    /// Takes back the last [`Board::play`].
    pub(crate) fn undo(&mut self) {
        let Some(i) = self.moves.pop() else { return };
        self.to_move = 1 - self.to_move;
        self.hash ^= zobrist().stones[self.to_move][i] ^ zobrist().side;
        self.take(i);
    }

    fn put(&mut self, i: Idx) {
        let digit = self.to_move as u8 + 1;
        self.cells[i] = digit;
        self.shift(i, u32::from(digit), true);
        for c in 0..2 {
            self.total[c] -= self.value[c][i];
            self.value[c][i] = 0;
            self.counts[c][self.shapes[c][i] as usize] -= 1;
        }
        for dr in -2..=2 {
            for dc in -2..=2 {
                let j = (i as i32 + dr * STRIDE + dc) as usize;
                self.near[j] += 1;
            }
        }
    }

    fn take(&mut self, i: Idx) {
        let digit = self.cells[i];
        self.cells[i] = EMPTY;
        // Counted again, with its stale shape, until the refresh below.
        for c in 0..2 {
            self.counts[c][self.shapes[c][i] as usize] += 1;
        }
        self.shift(i, u32::from(digit), false);
        for dr in -2..=2 {
            for dc in -2..=2 {
                let j = (i as i32 + dr * STRIDE + dc) as usize;
                self.near[j] -= 1;
            }
        }
        for d in 0..4 {
            self.refresh(i, d);
        }
        // The value was zeroed when the stone went down; the refreshes
        // above only count changes, so set it whole.
        for c in 0..2 {
            self.settle(c, i);
        }
    }

    /// Recomputes the shape and value of the empty `q` for `c` from its
    /// patterns, keeping the counts and the total.
    #[inline]
    fn settle(&mut self, c: usize, q: Idx) {
        let renju_black = self.rules[c] == Rule::RenjuBlack;
        let shape = shape_of(&self.pats[c][q], renju_black);
        let old = self.shapes[c][q];
        if shape != old {
            self.counts[c][old as usize] -= 1;
            self.counts[c][shape as usize] += 1;
            self.shapes[c][q] = shape;
        }
        let v = value_of(shape, &self.pats[c][q], renju_black);
        self.total[c] += v - self.value[c][q];
        self.value[c][q] = v;
    }

    /// Adds (or removes) the digit of a stone on `i` to the keys of its
    /// neighbours and refreshes their patterns.
    fn shift(&mut self, i: Idx, digit: u32, add: bool) {
        for (d, step) in DIRS.iter().enumerate() {
            for k in 1..=5i32 {
                for (q, off) in [(i as i32 - k * step, k), (i as i32 + k * step, -k)] {
                    let q = q as usize;
                    let bits = digit << (2 * slot(off));
                    if add {
                        self.keys[q][d] |= bits;
                    } else {
                        self.keys[q][d] &= !bits;
                    }
                    if self.cells[q] == EMPTY {
                        self.refresh(q, d);
                    }
                }
            }
        }
    }

    /// Recomputes both colours' pattern of the empty `q` along `d`, and its
    /// values.
    fn refresh(&mut self, q: Idx, d: usize) {
        let key = self.keys[q][d];
        let lo = key & 0x5_5555;
        let hi = (key >> 1) & 0x5_5555;
        let rel = [(lo & !hi) | (hi << 1), (hi & !lo) | (lo << 1)];
        for (c, rel) in rel.into_iter().enumerate() {
            let p = pattern::lookup(self.rules[c], rel);
            if self.pats[c][q][d] == p {
                continue;
            }
            self.pats[c][q][d] = p;
            self.settle(c, q);
        }
    }

    /// Whether black may not play on the empty `i` (Renju only): an
    /// overline, a double-four, or a double-three whose threes are real
    /// (each can become a straight four on a point not itself forbidden).
    pub(crate) fn forbidden(&mut self, i: Idx) -> bool {
        if self.variant != Variant::Renju || self.cells[i] != EMPTY {
            return false;
        }
        let pats = self.pats[0][i];
        if pats.contains(&Pat::Five) {
            return false;
        }
        if pats.contains(&Pat::Overline) {
            return true;
        }
        let fours: u32 = pats
            .iter()
            .map(|p| match p {
                Pat::Four | Pat::OpenFour => 1,
                Pat::DoubleFour => 2,
                _ => 0,
            })
            .sum();
        if fours >= 2 {
            return true;
        }
        if pats.iter().filter(|&&p| p == Pat::OpenThree).count() < 2 {
            return false;
        }
        // Put the stone down as black, whoever is to move.
        let mover = self.to_move;
        self.to_move = 0;
        self.put(i);
        let mut real = 0;
        for (d, pat) in pats.into_iter().enumerate() {
            if pat == Pat::OpenThree && self.real_three(i, d) {
                real += 1;
            }
        }
        self.to_move = 0;
        self.take(i);
        self.to_move = mover;
        real >= 2
    }

    /// With black on `i`: whether some empty `q` on line `d` makes a
    /// straight four through `i`, no five, and is not forbidden itself.
    fn real_three(&mut self, i: Idx, d: usize) -> bool {
        for k in (-4..=4).filter(|&k| k != 0) {
            let q = (i as i32 + k * DIRS[d]) as usize;
            if self.cells[q] != EMPTY || self.pats[0][q][d] != Pat::OpenFour {
                continue;
            }
            // The cells between i and q must be black for the four to hold i.
            let step = if k > 0 { DIRS[d] } else { -DIRS[d] };
            let joined = (1..k.abs()).all(|m| self.cells[(i as i32 + m * step) as usize] == 1);
            if !joined || self.pats[0][q].contains(&Pat::Five) {
                continue;
            }
            if !self.forbidden(q) {
                return true;
            }
        }
        false
    }

    /// Whether the side to move may play on the empty `i`.
    #[inline]
    pub(crate) fn legal(&mut self, i: Idx) -> bool {
        self.cells[i] == EMPTY
            && !(self.to_move == 0 && self.might_be_forbidden(i) && self.forbidden(i))
    }

    /// A cheap filter: only these points can be forbidden to black.
    #[inline]
    fn might_be_forbidden(&self, i: Idx) -> bool {
        if self.variant != Variant::Renju {
            return false;
        }
        let p = &self.pats[0][i];
        let threes = p.iter().filter(|&&x| x == Pat::OpenThree).count();
        let fours = p.iter().filter(|&&x| x.is_four()).count();
        threes >= 2 || fours >= 2 || p.contains(&Pat::Overline) || p.contains(&Pat::DoubleFour)
    }

    /// The empty points where `c` would make five.
    pub(crate) fn five_points(&self, c: usize, out: &mut Vec<Idx>) {
        out.clear();
        if self.counts[c][Shape::Five as usize] == 0 {
            return;
        }
        out.extend(self.points.iter().copied().filter(|&i| {
            self.cells[i] == EMPTY && self.near[i] > 0 && self.pats[c][i].contains(&Pat::Five)
        }));
    }
}

/// What a stone is worth on a point, from its shape and its four line
/// patterns.
fn value_of(shape: Shape, p: &[Pat; 4], renju_black: bool) -> i32 {
    match shape {
        Shape::Five => 2000,
        Shape::OpenFour => 600,
        Shape::FourThree => 250,
        Shape::DoubleThree if !renju_black => 180,
        Shape::Quiet | Shape::Three | Shape::DoubleThree | Shape::Four => {
            p.iter().map(|&x| weight(x, renju_black)).sum()
        }
    }
}

fn weight(p: Pat, renju_black: bool) -> i32 {
    match p {
        Pat::None | Pat::Overline => 0,
        Pat::Two => 3,
        Pat::OpenTwo => 9,
        Pat::Three => 8,
        Pat::OpenThree => 30,
        Pat::Four => 34,
        Pat::OpenFour => 200,
        Pat::DoubleFour if renju_black => 0,
        Pat::DoubleFour => 200,
        Pat::Five => 1000,
    }
}

/// The shape of four line patterns. For Renju's black a double-four, an
/// overline and two open threes are taken as what they may well be —
/// forbidden — and count as quiet; the exact test is [`Board::forbidden`].
pub(crate) fn shape_of(p: &[Pat; 4], renju_black: bool) -> Shape {
    if p.contains(&Pat::Five) {
        return Shape::Five;
    }
    let fours = p.iter().filter(|x| x.is_four()).count();
    let threes = p.iter().filter(|&&x| x == Pat::OpenThree).count();
    if renju_black {
        if p.contains(&Pat::Overline) || p.contains(&Pat::DoubleFour) || fours >= 2 {
            return Shape::Quiet;
        }
        if p.contains(&Pat::OpenFour) {
            return Shape::OpenFour;
        }
    } else if p.contains(&Pat::OpenFour) || p.contains(&Pat::DoubleFour) || fours >= 2 {
        return Shape::OpenFour;
    }
    match (fours, threes) {
        (1, t) if t >= 1 => Shape::FourThree,
        (1, _) => Shape::Four,
        (_, t) if t >= 2 => Shape::DoubleThree,
        (_, 1) => Shape::Three,
        _ => Shape::Quiet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of a random Renju game near the centre, every few plies.
    fn positions(seed: u64, plies: usize) -> Vec<Position> {
        let mut pos = Position::new(Variant::Renju, 15).unwrap_or_else(|e| panic!("{e}"));
        let mut s = seed;
        let mut out = Vec::new();
        for k in 0..plies {
            let legal: Vec<Point> = pos
                .legal_actions()
                .into_iter()
                .filter(|p| p.col().abs_diff(7) <= 3 && p.row().abs_diff(7) <= 3)
                .collect();
            if legal.is_empty() {
                break;
            }
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let next = pos
                .play(legal[(s >> 33) as usize % legal.len()])
                .unwrap_or_else(|e| panic!("{e}"));
            if next.status() != qipan_rules::Status::Ongoing {
                break;
            }
            pos = next;
            if k % 3 == 0 {
                out.push(pos.clone());
            }
        }
        out
    }

    /// The rules crate's forbidden points (checked there against Wenzhe
    /// Lu's ForbiddenPointFinder on 23,000 positions) and the search's own
    /// test agree on every empty point of crowded random Renju positions.
    #[test]
    fn forbidden_points_agree_with_the_rules_crate() {
        let mut forbidden = 0;
        for seed in 0..40 {
            for pos in positions(seed, 45) {
                let mut board = Board::from_position(&pos);
                for &i in &board.points().to_vec() {
                    if !board.is_empty(i) {
                        continue;
                    }
                    let p = board.point(i);
                    let want = pos.forbidden_reason(p).is_some();
                    assert_eq!(
                        board.forbidden(i),
                        want,
                        "{} {p}\n{}",
                        pos.to_code(),
                        pos.to_rows()
                    );
                    forbidden += usize::from(want);
                }
            }
        }
        // The positions do exercise the prohibitions.
        assert!(forbidden > 100, "{forbidden}");
    }

    /// The patterns of the empty points (those of taken points are never
    /// read) are the same on both boards.
    fn same_empty_patterns(a: &Board, b: &Board) -> bool {
        a.points.iter().all(|&i| {
            !a.is_empty(i) || (a.pats[0][i] == b.pats[0][i] && a.pats[1][i] == b.pats[1][i])
        })
    }

    /// Playing and taking back stones leaves the patterns, values and hash
    /// exactly as a board built afresh from the position.
    #[test]
    fn play_and_undo_keep_the_board_as_built_from_scratch() {
        for seed in 0..6 {
            for pos in positions(seed, 40) {
                let mut board = Board::from_position(&pos);
                let fresh = board.clone();
                let moves: Vec<Idx> = board
                    .points()
                    .iter()
                    .copied()
                    .filter(|&i| board.is_empty(i) && board.has_neighbour(i))
                    .take(5)
                    .collect();
                let mut p = pos.clone();
                for &m in &moves {
                    board.play(m);
                    p = p.play(board.point(m)).unwrap_or_else(|e| panic!("{e}"));
                    let rebuilt = Board::from_position(&p);
                    assert_eq!(board.total, rebuilt.total);
                    assert_eq!(board.counts, rebuilt.counts);
                    assert_eq!(board.hash, rebuilt.hash);
                    assert!(same_empty_patterns(&board, &rebuilt));
                }
                for _ in &moves {
                    board.undo();
                }
                assert_eq!(board.total, fresh.total);
                assert_eq!(board.counts, fresh.counts);
                assert_eq!(board.hash, fresh.hash);
                assert!(same_empty_patterns(&board, &fresh));
                assert!(board.value == fresh.value && board.near == fresh.near);
            }
        }
    }
}
