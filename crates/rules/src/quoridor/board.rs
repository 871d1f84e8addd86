//! Bitboards: the walls as two 64-bit anchor maps, the board's open edges as
//! 81-bit square masks (one `u128` per direction), breadth-first search over
//! whole frontiers at once, and the wall slots a shortest path runs through.
//!
//! Square bit `rank * 9 + file`; anchor bit `rank * 8 + file`.

use super::types::{Orientation, Square, Wall, ANCHORS, SIZE};

/// Every square of the board.
pub(crate) const BOARD: u128 = (1u128 << 81) - 1;

/// The squares of rank `rank` (0-based).
#[inline]
pub(crate) const fn rank_mask(rank: u8) -> u128 {
    0x1ffu128 << (rank * SIZE)
}

/// The squares of file `file` (0-based).
const fn file_mask(file: u8) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 1u128 << (r * SIZE + file);
        r += 1;
    }
    m
}

/// Anchors on file `a` and on file `h` of the anchor grid.
const ANCHOR_FILE_A: u64 = 0x0101_0101_0101_0101;
const ANCHOR_FILE_H: u64 = ANCHOR_FILE_A << (ANCHORS - 1);

/// The bit of a square.
#[inline]
pub(crate) const fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

/// The squares of a bitboard, lowest first.
pub(crate) fn squares(mut bb: u128) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let i = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        Square::from_index(i)
    })
}

/// The placed walls: one bit per anchor for each orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Walls {
    pub(crate) h: u64,
    pub(crate) v: u64,
}

impl Walls {
    /// Whether `wall` is placed.
    #[inline]
    pub(crate) fn contains(self, wall: Wall) -> bool {
        self.map(wall.orientation()) & (1 << wall.anchor_index()) != 0
    }

    /// The anchor map of one orientation.
    #[inline]
    pub(crate) fn map(self, o: Orientation) -> u64 {
        match o {
            Orientation::Horizontal => self.h,
            Orientation::Vertical => self.v,
        }
    }

    /// The walls with `wall` added.
    #[inline]
    pub(crate) fn with(self, wall: Wall) -> Walls {
        let b = 1u64 << wall.anchor_index();
        match wall.orientation() {
            Orientation::Horizontal => Walls {
                h: self.h | b,
                v: self.v,
            },
            Orientation::Vertical => Walls {
                h: self.h,
                v: self.v | b,
            },
        }
    }

    /// Number of walls placed.
    #[cfg(test)]
    fn count(self) -> u32 {
        self.h.count_ones() + self.v.count_ones()
    }

    /// Every placed wall, in [`Wall`] order.
    pub(crate) fn iter(self) -> impl Iterator<Item = Wall> {
        Wall::all().filter(move |&w| self.contains(w))
    }

    /// Anchors where a horizontal wall would overlap or cross a placed one:
    /// a horizontal wall on the same anchor or one file either side (same
    /// rank), or a vertical wall on the same anchor (crossing at the middle).
    #[inline]
    pub(crate) fn blocked_h(self) -> u64 {
        self.h | ((self.h & !ANCHOR_FILE_H) << 1) | ((self.h & !ANCHOR_FILE_A) >> 1) | self.v
    }

    /// Anchors where a vertical wall would overlap or cross a placed one:
    /// a vertical wall on the same anchor or one rank either side (same
    /// file), or a horizontal wall on the same anchor.
    #[inline]
    pub(crate) fn blocked_v(self) -> u64 {
        self.v | (self.v << ANCHORS) | (self.v >> ANCHORS) | self.h
    }

    /// The placed wall that `wall` would overlap or cross, if any: first an
    /// overlap (same orientation), then a crossing.
    pub(crate) fn conflict(self, wall: Wall) -> Option<(Wall, Conflict)> {
        let (f, r, o) = (wall.file(), wall.rank(), wall.orientation());
        let same: [(i8, i8); 3] = match o {
            Orientation::Horizontal => [(0, 0), (-1, 0), (1, 0)],
            Orientation::Vertical => [(0, 0), (0, -1), (0, 1)],
        };
        let near = |(df, dr): (i8, i8), o| {
            let file = u8::try_from(f as i8 + df).ok()?;
            let rank = u8::try_from(r as i8 + dr).ok()?;
            Wall::new(file, rank, o).filter(|&w| self.contains(w))
        };
        same.into_iter()
            .find_map(|d| near(d, o))
            .map(|w| (w, Conflict::Overlap))
            .or_else(|| near((0, 0), o.other()).map(|w| (w, Conflict::Cross)))
    }
}

/// How a wall collides with a placed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conflict {
    /// Same orientation, sharing at least half its length.
    Overlap,
    /// Other orientation, same middle point.
    Cross,
}

/// The open edges of the board: for each direction, the squares a pawn may
/// step from in that direction (not off the board, not through a wall).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edges {
    north: u128,
    south: u128,
    east: u128,
    west: u128,
}

/// The four step directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    North,
    South,
    East,
    West,
}

impl Dir {
    pub(crate) const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    /// The two directions at right angles.
    pub(crate) fn sides(self) -> [Dir; 2] {
        match self {
            Dir::North | Dir::South => [Dir::West, Dir::East],
            Dir::East | Dir::West => [Dir::South, Dir::North],
        }
    }

    /// The change of square index of one step.
    fn delta(self) -> i8 {
        match self {
            Dir::North => SIZE as i8,
            Dir::South => -(SIZE as i8),
            Dir::East => 1,
            Dir::West => -1,
        }
    }
}

impl Edges {
    /// The open edges around `walls`.
    pub(crate) fn new(walls: Walls) -> Edges {
        let mut north = BOARD & !rank_mask(SIZE - 1);
        let mut east = BOARD & !file_mask(SIZE - 1);
        let mut h = walls.h;
        while h != 0 {
            north &= !h_cut(h.trailing_zeros() as u8);
            h &= h - 1;
        }
        let mut v = walls.v;
        while v != 0 {
            east &= !v_cut(v.trailing_zeros() as u8);
            v &= v - 1;
        }
        Edges::from_north_east(north, east)
    }

    #[inline]
    fn from_north_east(north: u128, east: u128) -> Edges {
        Edges {
            north,
            south: north << SIZE,
            east,
            west: east << 1,
        }
    }

    /// The open edges once `wall` is added too.
    #[inline]
    pub(crate) fn with(self, wall: Wall) -> Edges {
        let a = wall.anchor_index();
        match wall.orientation() {
            Orientation::Horizontal => Edges::from_north_east(self.north & !h_cut(a), self.east),
            Orientation::Vertical => Edges::from_north_east(self.north, self.east & !v_cut(a)),
        }
    }

    /// The squares that may step in direction `d`.
    #[inline]
    fn open(self, d: Dir) -> u128 {
        match d {
            Dir::North => self.north,
            Dir::South => self.south,
            Dir::East => self.east,
            Dir::West => self.west,
        }
    }

    /// The square one step from `sq` in direction `d`, unless the edge of
    /// the board or a wall is in the way.
    #[inline]
    pub(crate) fn step(self, sq: Square, d: Dir) -> Option<Square> {
        if self.open(d) & bit(sq) == 0 {
            return None;
        }
        Square::from_index((sq.index() as i8 + d.delta()) as u8)
    }

    /// Every square one open step from a square of `bb`.
    #[inline]
    fn spread(self, bb: u128) -> u128 {
        ((bb & self.north) << SIZE)
            | ((bb & self.south) >> SIZE)
            | ((bb & self.east) << 1)
            | ((bb & self.west) >> 1)
    }

    /// Steps from `from` to the nearest square of `goal`, ignoring pawns;
    /// `None` when walls cut every way.
    pub(crate) fn distance(self, from: Square, goal: u128) -> Option<u8> {
        let mut seen = bit(from);
        let mut frontier = seen;
        let mut d = 0;
        loop {
            if frontier & goal != 0 {
                return Some(d);
            }
            frontier = self.spread(frontier) & !seen;
            if frontier == 0 {
                return None;
            }
            seen |= frontier;
            d += 1;
        }
    }

    /// Whether some square of `goal` can be reached from `from`.
    #[inline]
    pub(crate) fn reaches(self, from: Square, goal: u128) -> bool {
        self.distance(from, goal).is_some()
    }

    /// One shortest path from `from` to `goal` as the wall slots that would
    /// cut it: walls not in the returned maps leave that path, and so the
    /// goal, reachable. `None` when no path exists.
    pub(crate) fn path_slots(self, from: Square, goal: u128) -> Option<Walls> {
        let mut layers = [0u128; 81];
        let mut seen = bit(from);
        layers[0] = seen;
        let mut d = 0;
        while layers[d] & goal == 0 {
            let next = self.spread(layers[d]) & !seen;
            if next == 0 {
                return None;
            }
            seen |= next;
            d += 1;
            layers[d] = next;
        }
        let mut slots = Walls::default();
        let mut cur = (layers[d] & goal).trailing_zeros() as u8;
        while d > 0 {
            d -= 1;
            let prev = layers[d];
            let c = 1u128 << cur;
            // Which neighbour in the previous layer steps into `cur`.
            let (from_sq, dir) = if cur >= SIZE && prev & (c >> SIZE) & self.north != 0 {
                (cur - SIZE, Dir::North)
            } else if prev & (c << SIZE) & self.south != 0 {
                (cur + SIZE, Dir::South)
            } else if cur >= 1 && prev & (c >> 1) & self.east != 0 {
                (cur - 1, Dir::East)
            } else {
                (cur + 1, Dir::West)
            };
            slots = add_edge_slots(slots, from_sq, dir);
            cur = from_sq;
        }
        Some(slots)
    }
}

/// The squares whose north edge a horizontal wall at `anchor` cuts.
#[inline]
fn h_cut(anchor: u8) -> u128 {
    let (f, r) = (anchor % ANCHORS, anchor / ANCHORS);
    0b11u128 << (r * SIZE + f)
}

/// The squares whose east edge a vertical wall at `anchor` cuts.
#[inline]
fn v_cut(anchor: u8) -> u128 {
    let (f, r) = (anchor % ANCHORS, anchor / ANCHORS);
    (1u128 | 1u128 << SIZE) << (r * SIZE + f)
}

/// Adds the (one or two) wall slots that cut the step from square index
/// `sq` in direction `d`.
fn add_edge_slots(mut slots: Walls, sq: u8, d: Dir) -> Walls {
    // Normalise to a north or east step from the lower square.
    let (low, vertical_step) = match d {
        Dir::North => (sq, true),
        Dir::South => (sq - SIZE, true),
        Dir::East => (sq, false),
        Dir::West => (sq - 1, false),
    };
    let (f, r) = (low % SIZE, low / SIZE);
    let mut set = |file: u8, rank: u8, o: Orientation| {
        if let Some(w) = Wall::new(file, rank, o) {
            slots = slots.with(w);
        }
    };
    if vertical_step {
        // Between (f, r) and (f, r + 1): horizontal walls anchored at
        // (f, r) and (f - 1, r).
        set(f, r, Orientation::Horizontal);
        if f > 0 {
            set(f - 1, r, Orientation::Horizontal);
        }
    } else {
        // Between (f, r) and (f + 1, r): vertical walls anchored at (f, r)
        // and (f, r - 1).
        set(f, r, Orientation::Vertical);
        if r > 0 {
            set(f, r - 1, Orientation::Vertical);
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Wall {
        s.parse().unwrap()
    }

    #[test]
    fn empty_board_distances() {
        let e = Edges::new(Walls::default());
        assert_eq!(e.distance(Square::E1, rank_mask(8)), Some(8));
        assert_eq!(e.distance(Square::E9, rank_mask(0)), Some(8));
        assert_eq!(e.distance(Square::E9, rank_mask(8)), Some(0));
    }

    #[test]
    fn walls_cut_the_named_edges() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        for wall in Wall::all() {
            let e = Edges::new(Walls::default().with(wall));
            assert_eq!(e, Edges::new(Walls::default()).with(wall));
            for (a, b) in wall.separates() {
                let d = if b.index() == a.index() + SIZE {
                    Dir::North
                } else {
                    Dir::East
                };
                assert_eq!(e.step(a, d), None, "{wall} {a}");
                let back = if d == Dir::North {
                    Dir::South
                } else {
                    Dir::West
                };
                assert_eq!(e.step(b, back), None, "{wall} {b}");
            }
        }
        let e = Edges::new(Walls::default().with(w("e3h")));
        assert_eq!(e.step(sq("d3"), Dir::North), Some(sq("d4")));
        assert_eq!(e.step(sq("g3"), Dir::North), Some(sq("g4")));
        assert_eq!(e.step(sq("a1"), Dir::West), None);
        assert_eq!(e.step(sq("i5"), Dir::East), None);
    }

    #[test]
    fn path_slots_cover_the_path() {
        let e = Edges::new(Walls::default());
        let slots = e.path_slots(Square::E1, rank_mask(8)).unwrap();
        // Straight up the e-file: horizontal walls d1..d8 and e1..e8.
        assert_eq!(slots.v, 0);
        assert_eq!(slots.count(), 16);
        assert!(slots.contains(w("d1h")) && slots.contains(w("e8h")));
    }

    #[test]
    fn conflicts() {
        let walls = Walls::default().with(w("e3h"));
        assert_eq!(
            walls.conflict(w("d3h")).map(|c| c.1),
            Some(Conflict::Overlap)
        );
        assert_eq!(
            walls.conflict(w("f3h")).map(|c| c.1),
            Some(Conflict::Overlap)
        );
        assert_eq!(walls.conflict(w("e3v")).map(|c| c.1), Some(Conflict::Cross));
        assert_eq!(walls.conflict(w("c3h")), None);
        assert_eq!(walls.conflict(w("d3v")), None);
        assert_eq!(walls.conflict(w("f3v")), None);
        for wall in Wall::all() {
            let blocked = match wall.orientation() {
                Orientation::Horizontal => walls.blocked_h(),
                Orientation::Vertical => walls.blocked_v(),
            };
            assert_eq!(
                blocked & (1 << wall.anchor_index()) != 0,
                walls.conflict(wall).is_some(),
                "{wall}"
            );
        }
    }
}
