//! Move tables computed at compile time, one entry per point, so the move
//! generator never checks board edges in its inner loops.
//!
//! Unused entries hold [`NONE`].

/// Marks an unused table entry.
pub(crate) const NONE: u8 = 255;

const fn file(sq: usize) -> i32 {
    (sq % 9) as i32
}

const fn row(sq: usize) -> i32 {
    (sq / 9) as i32
}

const fn at(f: i32, r: i32) -> u8 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        (r * 9 + f) as u8
    } else {
        NONE
    }
}

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && ((r >= 0 && r <= 2) || (r >= 7 && r <= 9))
}

/// Rays north (towards row 0), south, west, east: the points in order,
/// terminated by [`NONE`]. Directions 0 and 1 are the file (vertical).
pub(crate) static RAYS: [[[u8; 10]; 4]; 90] = {
    let mut t = [[[NONE; 10]; 4]; 90];
    let dirs: [(i32, i32); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            let mut f = file(sq) + df;
            let mut r = row(sq) + dr;
            let mut i = 0;
            while at(f, r) != NONE {
                t[sq][d][i] = at(f, r);
                i += 1;
                f += df;
                r += dr;
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Horse moves from each point: `[target, leg]`, the leg being the point
/// next to the horse that must be empty.
pub(crate) static HORSE_MOVES: [[[u8; 2]; 8]; 90] = {
    let mut t = [[[NONE; 2]; 8]; 90];
    let jumps: [(i32, i32, i32, i32); 8] = [
        (1, -2, 0, -1),
        (-1, -2, 0, -1),
        (1, 2, 0, 1),
        (-1, 2, 0, 1),
        (2, 1, 1, 0),
        (2, -1, 1, 0),
        (-2, 1, -1, 0),
        (-2, -1, -1, 0),
    ];
    let mut sq = 0;
    while sq < 90 {
        let mut i = 0;
        let mut n = 0;
        while i < 8 {
            let (df, dr, lf, lr) = jumps[i];
            let to = at(file(sq) + df, row(sq) + dr);
            if to != NONE {
                t[sq][n] = [to, at(file(sq) + lf, row(sq) + lr)];
                n += 1;
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Points from which a horse would attack each point: `[horse, leg]`. The
/// leg of such a horse is the diagonal neighbour of the attacked point on the
/// horse's side.
pub(crate) static HORSE_ATTACKERS: [[[u8; 2]; 8]; 90] = {
    let mut t = [[[NONE; 2]; 8]; 90];
    let diagonals: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut sq = 0;
    while sq < 90 {
        let mut n = 0;
        let mut i = 0;
        while i < 4 {
            let (df, dr) = diagonals[i];
            let leg = at(file(sq) + df, row(sq) + dr);
            if leg != NONE {
                let a = at(file(sq) + 2 * df, row(sq) + dr);
                if a != NONE {
                    t[sq][n] = [a, leg];
                    n += 1;
                }
                let b = at(file(sq) + df, row(sq) + 2 * dr);
                if b != NONE {
                    t[sq][n] = [b, leg];
                    n += 1;
                }
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Elephant moves on each side's half: `[side][from] -> [target, eye]`.
pub(crate) static ELEPHANT_MOVES: [[[[u8; 2]; 4]; 90]; 2] = {
    let mut t = [[[[NONE; 2]; 4]; 90]; 2];
    let diagonals: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < 90 {
            let mut n = 0;
            let mut i = 0;
            while i < 4 {
                let (df, dr) = diagonals[i];
                let tf = file(sq) + 2 * df;
                let tr = row(sq) + 2 * dr;
                let own_half = if side == 0 { tr >= 5 } else { tr <= 4 };
                let to = at(tf, tr);
                if to != NONE && own_half {
                    t[side][sq][n] = [to, at(file(sq) + df, row(sq) + dr)];
                    n += 1;
                }
                i += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    t
};

/// One-point steps in the given directions that stay inside the palace
/// (empty outside it).
const fn palace_steps(steps: [(i32, i32); 4]) -> [[u8; 4]; 90] {
    let mut t = [[NONE; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        if in_palace(file(sq), row(sq)) {
            let mut n = 0;
            let mut i = 0;
            while i < 4 {
                let (df, dr) = steps[i];
                let (tf, tr) = (file(sq) + df, row(sq) + dr);
                if in_palace(tf, tr) {
                    t[sq][n] = at(tf, tr);
                    n += 1;
                }
                i += 1;
            }
        }
        sq += 1;
    }
    t
}

/// Advisor moves: diagonal steps that stay inside the palace.
pub(crate) static ADVISOR_MOVES: [[u8; 4]; 90] = palace_steps([(1, 1), (1, -1), (-1, 1), (-1, -1)]);

/// General moves: orthogonal steps that stay inside the palace.
pub(crate) static GENERAL_MOVES: [[u8; 4]; 90] = palace_steps([(0, 1), (0, -1), (1, 0), (-1, 0)]);

/// Soldier moves `[side][from]`: one step forward, and sideways once across
/// the river.
pub(crate) static SOLDIER_MOVES: [[[u8; 3]; 90]; 2] = {
    let mut t = [[[NONE; 3]; 90]; 2];
    let mut side = 0;
    while side < 2 {
        let forward = if side == 0 { -1 } else { 1 };
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = (file(sq), row(sq));
            let crossed = if side == 0 { r <= 4 } else { r >= 5 };
            let mut n = 0;
            let ahead = at(f, r + forward);
            if ahead != NONE {
                t[side][sq][n] = ahead;
                n += 1;
            }
            if crossed {
                let left = at(f - 1, r);
                if left != NONE {
                    t[side][sq][n] = left;
                    n += 1;
                }
                let right = at(f + 1, r);
                if right != NONE {
                    t[side][sq][n] = right;
                }
            }
            sq += 1;
        }
        side += 1;
    }
    t
};
