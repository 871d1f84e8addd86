//! The static evaluation, in centipawns for the side to move (a horse is
//! worth 400, a soldier before the river 70).
//!
//! Four parts:
//!
//! - **Material and place**, kept up to date move by move by the board:
//!   one value for each kind of piece on each point (the tables below),
//!   about 960 for a chariot, 455 for a cannon, 420 for a horse, 100 for
//!   an advisor or an elephant, 70 for a soldier at home and 150 to 300
//!   across the river. They were fitted, with the other weights, to what
//!   ElephantEye's search at depth 6 says 18,399 quiet positions of the
//!   engine's own games are worth (perf/strength/runner's `xiangqi-tune`,
//!   the run in docs/strength.md): starting from tables written here by what every
//!   xiangqi player learns (soldiers gain once across the river and most
//!   near the palace; chariots like open ribs and the enemy's second rank;
//!   horses the centre and the squares before the enemy palace, not their
//!   own back corners; cannons the central file at home and the enemy back
//!   rank corners; the general its back rank; advisors, elephants and
//!   soldiers at home weigh less beside a horse than the textbook's 2, 2
//!   and 1 to its 4), each value pulled towards the written one, so a
//!   point the positions seldom show keeps it.
//! - **Mobility** of chariots, horses (a horse with one way out or none is
//!   nearly trapped) and cannons.
//! - **King safety**: the advisors and elephants a side has lost, weighed
//!   by the attackers the other side still has; the attackers in front of
//!   and inside the palace; the palace's shape (`palace_shape`): with the
//!   general at home, the empty-head cannon, the cannon on the central
//!   horse, a central cannon against advisors on one side with the other
//!   door watched or a chariot stuck beside the general, the bottom cannon;
//!   a general on the palace centre; missing advisors against two
//!   chariots; away from that shape, an enemy cannon on the general's file
//!   with nothing or one screen between; the general's file open to an
//!   enemy chariot.
//! - **Piece pairs**: cannons need screens and lose value as the board
//!   empties, horses gain; a side with no piece that can cross the river
//!   cannot win, so its lead counts for little.
//!
//! The weights of mobility and of the last three parts were fitted with
//! the tables: the fit halved the pressure and the piece pairs, cut the
//! king's dangers by a fifth to a quarter, and raised mobility and the
//! tempo.

use super::board::{
    forward, kind_of, side_of, Board, ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, HORSE_JUMPS, KIND,
    ON_BOARD, ORTH, SOLDIER,
};

/// Piece values for ordering and pruning captures: general, advisor,
/// elephant, horse, chariot, cannon, soldier (the evaluation's are the
/// tables').
pub(crate) const MATERIAL: [i32; 7] = [0, 100, 100, 400, 900, 450, 70];

/// Material and place tables from red's side of the board: row 0 is
/// black's back rank, file 0 red's left. Black reads them turned round.
type Table = [[i16; 9]; 10];

const GENERAL_T: Table = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, -39, -27, -39, 0, 0, 0],
    [0, 0, 0, -26, 4, -26, 0, 0, 0],
    [0, 0, 0, -12, 14, -12, 0, 0, 0],
];

const ADVISOR_T: Table = [
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 81, 100, 81, 100, 100, 100],
    [100, 100, 100, 100, 113, 100, 100, 100, 100],
    [100, 100, 100, 78, 100, 78, 100, 100, 100],
];

const ELEPHANT_T: Table = [
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 105, 100, 100, 100, 105, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 100, 100, 127, 100, 100, 100, 100],
    [100, 100, 100, 100, 100, 100, 100, 100, 100],
    [100, 100, 109, 100, 100, 100, 109, 100, 100],
];

const HORSE_T: Table = [
    [399, 400, 441, 414, 415, 414, 441, 400, 399],
    [389, 440, 468, 453, 452, 453, 468, 440, 389],
    [439, 446, 443, 484, 482, 484, 443, 446, 439],
    [414, 480, 446, 477, 449, 477, 446, 480, 414],
    [413, 456, 466, 495, 492, 495, 466, 456, 413],
    [390, 421, 446, 449, 445, 449, 446, 421, 390],
    [388, 411, 402, 420, 433, 420, 402, 411, 388],
    [393, 402, 396, 393, 434, 393, 396, 402, 393],
    [372, 381, 362, 409, 356, 409, 362, 381, 372],
    [372, 352, 379, 372, 382, 372, 379, 352, 372],
];

const CHARIOT_T: Table = [
    [960, 967, 951, 987, 1009, 987, 951, 967, 960],
    [965, 1005, 958, 968, 1035, 968, 958, 1005, 965],
    [954, 976, 964, 992, 988, 992, 964, 976, 954],
    [967, 983, 982, 962, 981, 962, 982, 983, 967],
    [955, 969, 987, 994, 990, 994, 987, 969, 955],
    [944, 963, 977, 977, 988, 977, 977, 963, 944],
    [934, 957, 943, 981, 977, 981, 943, 957, 934],
    [898, 956, 930, 952, 966, 952, 930, 956, 898],
    [908, 942, 955, 949, 883, 949, 955, 942, 908],
    [881, 944, 926, 957, 900, 957, 926, 944, 881],
];

const CANNON_T: Table = [
    [501, 470, 454, 449, 438, 449, 454, 470, 501],
    [465, 443, 447, 423, 421, 423, 447, 443, 465],
    [464, 434, 433, 411, 440, 411, 433, 434, 464],
    [449, 444, 448, 444, 472, 444, 448, 444, 449],
    [444, 430, 449, 453, 494, 453, 449, 430, 444],
    [446, 457, 469, 457, 500, 457, 469, 457, 446],
    [461, 436, 453, 455, 478, 455, 453, 436, 461],
    [441, 437, 471, 456, 480, 456, 471, 437, 441],
    [444, 440, 451, 448, 462, 448, 451, 440, 444],
    [453, 457, 442, 459, 466, 459, 442, 457, 453],
];

const SOLDIER_T: Table = [
    [108, 107, 92, 103, 113, 103, 92, 107, 108],
    [172, 185, 212, 274, 306, 274, 212, 185, 172],
    [158, 199, 231, 245, 247, 245, 231, 199, 158],
    [164, 185, 203, 214, 232, 214, 203, 185, 164],
    [145, 174, 162, 205, 205, 205, 162, 174, 145],
    [67, 70, 69, 70, 91, 70, 69, 70, 67],
    [68, 70, 37, 70, 74, 70, 37, 70, 68],
    [70, 70, 70, 70, 70, 70, 70, 70, 70],
    [70, 70, 70, 70, 70, 70, 70, 70, 70],
    [70, 70, 70, 70, 70, 70, 70, 70, 70],
];

const TABLES: [Table; 7] = [
    GENERAL_T, ADVISOR_T, ELEPHANT_T, HORSE_T, CHARIOT_T, CANNON_T, SOLDIER_T,
];

/// Material and place of each piece slot (`side * 16 + k`) on each point
/// of the 16×16 board, for its own side: black's points turned round
/// (`254 - sq`) to read the tables, so that making a move needs no look at
/// the side.
pub(crate) static PLACE: [[i16; 256]; 32] = {
    let mut t = [[0i16; 256]; 32];
    let mut id = 0;
    while id < 32 {
        let k = KIND[id & 15];
        let mut r = 0;
        while r < 10 {
            let mut f = 0;
            while f < 9 {
                let red = (r + 3) * 16 + f + 3;
                let sq = if id < 16 { red } else { 254 - red };
                t[id][sq] = TABLES[k][r][f];
                f += 1;
            }
            r += 1;
        }
        id += 1;
    }
    t
};

/// What the side to move gets for having the move.
pub(crate) const TEMPO: i32 = 21;

/// The evaluation for the side to move.
pub(crate) fn evaluate(b: &Board) -> i32 {
    let n = b.counts;
    let phase = midgame(&n);
    let crossing = [attack(b, 0, &n), attack(b, 1, &n)];
    let mut side_score = [0i32; 2];
    for (side, score) in side_score.iter_mut().enumerate() {
        let t = terms(b, side, &n, phase, crossing[side ^ 1]);
        *score = 16 * (b.place[side] + mobility(b, side)) + weighed(&t);
    }
    let v = (side_score[b.turn] - side_score[b.turn ^ 1]) / 16;
    damped(v, b.turn, &n) + TEMPO
}

/// What the [`terms`] weigh, in sixteenths: the piece pairs, the general's
/// danger, the palace's shape, the pressure.
pub(crate) const TERM_WEIGHTS: [i32; 4] = [7, 12, 13, 10];

/// [`terms`] times their weights, in sixteenths of a centipawn.
#[inline]
pub(crate) fn weighed(t: &[i32; 4]) -> i32 {
    (0..4).map(|i| TERM_WEIGHTS[i] * t[i]).sum()
}

/// Chariots, horses and cannons.
#[inline]
fn majors(n: &[[i32; 7]; 2], side: usize) -> i32 {
    n[side][CHARIOT] + n[side][HORSE] + n[side][CANNON]
}

/// `v` (for `turn`) as it counts: a side with nothing that can cross the
/// river cannot mate, so its lead counts an eighth.
#[inline]
pub(crate) fn damped(v: i32, turn: usize, n: &[[i32; 7]; 2]) -> i32 {
    let leader = if v > 0 { turn } else { turn ^ 1 };
    if v != 0 && majors(n, leader) + n[leader][SOLDIER] == 0 {
        v / 8
    } else {
        v
    }
}

/// The terms of `side`'s score besides material, place and mobility: the
/// piece pairs (cannons want screens, horses room, judged by the pieces
/// left), less the general's danger and the palace's shape, and the
/// pressure on the enemy palace. `enemy_attack` is the other side's
/// [`attack`].
#[inline]
pub(crate) fn terms(
    b: &Board,
    side: usize,
    n: &[[i32; 7]; 2],
    phase: i32,
    enemy_attack: i32,
) -> [i32; 4] {
    let them = side ^ 1;
    let shift = (majors(n, 0) + majors(n, 1) - 6) * 4;
    let attackers = majors(n, them) + n[them][CHARIOT];
    [
        (n[side][CANNON] - n[side][HORSE]) * shift,
        -king_danger(b, side, n, attackers),
        -palace_shape(b, side, n, phase, enemy_attack),
        pressure(b, side, 2 - n[them][ADVISOR]),
    ]
}

#[inline]
fn step(sq: usize, d: isize) -> usize {
    (sq as isize + d) as usize
}

/// What each count of [`mobility_counts`] is worth: a chariot's move 3, a
/// horse's 5, a horse with one way out or none (nearly trapped) -20, a
/// cannon's move (to an empty point) 1.
pub(crate) const MOBILITY: [i32; 4] = [5, 6, -9, 2];

/// Mobility of `side`'s chariots, horses and cannons.
fn mobility(b: &Board, side: usize) -> i32 {
    let n = mobility_counts(b, side);
    (0..4).map(|i| MOBILITY[i] * n[i]).sum()
}

/// The moves of `side`'s chariots (to empty points and captures), of its
/// horses (the same, legs free), its horses with one way out or none, and
/// the moves of its cannons to empty points.
pub(crate) fn mobility_counts(b: &Board, side: usize) -> [i32; 4] {
    let c = &b.cells;
    let mut n = [0i32; 4];
    for k in [7, 8] {
        let from = usize::from(b.at[side * 16 + k]);
        if from == 0 {
            continue;
        }
        for dir in 0..ORTH.len() {
            let (to, empty) = b.ray(from, dir);
            n[0] += empty as i32;
            if to != 0 && side_of(c[to]) != side {
                n[0] += 1;
            }
        }
    }
    for k in [5, 6] {
        let from = usize::from(b.at[side * 16 + k]);
        if from == 0 {
            continue;
        }
        let mut ways = 0;
        for &(j, leg) in &HORSE_JUMPS {
            let to = step(from, j);
            if ON_BOARD[to] && c[step(from, leg)] == 0 && (c[to] == 0 || side_of(c[to]) != side) {
                ways += 1;
            }
        }
        n[1] += ways;
        n[2] += i32::from(ways <= 1);
    }
    for k in [9, 10] {
        let from = usize::from(b.at[side * 16 + k]);
        if from == 0 {
            continue;
        }
        let ways: usize = (0..ORTH.len()).map(|dir| b.ray(from, dir).1).sum();
        n[3] += ways as i32;
    }
    n
}

/// What `side`'s chariots, horses, cannons and soldiers in front of and
/// inside the enemy palace (files c–g, the palace's three rows and the one
/// before them) are worth as an attack, more so against a palace that has
/// lost advisors.
fn pressure(b: &Board, side: usize, missing_advisors: i32) -> i32 {
    let [mut total, pieces, _] = unpack(b.front[side]);
    if pieces >= 2 {
        total += total / 2;
    }
    total + total * missing_advisors / 2
}

/// What the piece of slot `id` (`side * 16 + k`) standing on `sq` adds to
/// its side's attack terms, packed in one word so that the board keeps
/// their sums ([`Board::front`]) with one addition: bits 0–15 its weight
/// for [`pressure`] and bits 16–23 one, when it stands in front of or
/// inside the enemy palace (files c–g, the palace's three rows and the one
/// before them); bits 24–31 its weight for [`attack`] when it is across
/// the river. Only horses, chariots, cannons and soldiers (`k` from 5)
/// count; no field of a side's sum can reach the next.
#[inline]
pub(crate) fn front(id: usize, sq: usize) -> u32 {
    FRONT[id][sq]
}

/// The pressure weight (bits 0–15), the piece (bits 16–23) and the attack
/// weight (bits 24–31) of each sum of [`front`].
#[inline]
fn unpack(front: u32) -> [i32; 3] {
    [
        (front & 0xffff) as i32,
        (front >> 16 & 0xff) as i32,
        (front >> 24) as i32,
    ]
}

/// [`front`] of every piece slot on every point.
static FRONT: [[u32; 256]; 32] = {
    const WEIGHT: [u32; 16] = [0, 0, 0, 0, 0, 30, 30, 36, 36, 24, 24, 18, 18, 18, 18, 18];
    let mut t = [[0u32; 256]; 32];
    let mut id = 0;
    while id < 32 {
        let (side, k) = (id >> 4, id & 15);
        let mut sq = 0;
        while k >= 5 && sq < 256 {
            let (row, file) = (sq >> 4, sq & 15);
            let in_zone = file >= 5
                && file <= 9
                && if side == 0 {
                    row >= 3 && row <= 6
                } else {
                    row >= 9 && row <= 12
                };
            // Across the river: off `side`'s own half (`own_half`).
            let crossed = if (sq & 0x80 != 0) == (side == 0) {
                0
            } else if k <= 8 {
                2
            } else {
                1
            };
            let zone = if in_zone { WEIGHT[k] | 1 << 16 } else { 0 };
            t[id][sq] = zone | crossed << 24;
            sq += 1;
        }
        id += 1;
    }
    t
};

/// How exposed `side`'s general is to an enemy with `attackers` (chariots
/// counted twice, horses and cannons once).
fn king_danger(b: &Board, side: usize, n: &[[i32; 7]; 2], attackers: i32) -> i32 {
    let them = side ^ 1;
    let mut d = 0;
    let missing_advisors = 2 - n[side][ADVISOR];
    let missing_elephants = 2 - n[side][ELEPHANT];
    d += missing_advisors * (10 + 12 * attackers);
    d += missing_elephants * (4 + 10 * (n[them][CANNON] + n[them][CHARIOT]));
    // Along the general's file towards the enemy.
    let k = b.general(side);
    let ahead = forward(side);
    let c = &b.cells;
    let at_home = k == home(side) && n[side][ADVISOR] == 2;
    let mut to = step(k, ahead);
    let mut screens = 0;
    while ON_BOARD[to] {
        let p = c[to];
        if p != 0 {
            // Against a general at home behind its advisors the palace
            // shape weighs the cannon (`palace_shape`).
            if side_of(p) == them && kind_of(p) == CANNON && !at_home {
                d += match screens {
                    0 => 80,
                    1 => 24,
                    _ => 0,
                };
            }
            screens += 1;
            if screens > 2 {
                break;
            }
        }
        to = step(to, ahead);
    }
    if screens == 0 && n[them][CHARIOT] > 0 {
        d += 25;
    }
    // A general that has left its back rank is easier to attack.
    if ON_BOARD[step(k, -ahead)] {
        d += 4 * attackers;
    }
    d
}

/// The general's home point.
#[inline]
fn home(side: usize) -> usize {
    if side == 0 {
        0xc7
    } else {
        0x37
    }
}

/// How far from the ending the game is, from 0 (bare) to `FULL` (every
/// piece on the board): chariots count 6, horses and cannons 3, the rest
/// 1, bent so that only few pieces left count as an ending.
const FULL: i32 = 66;

pub(crate) fn midgame(n: &[[i32; 7]; 2]) -> i32 {
    let mut m = 0;
    for side in n {
        m += side[ADVISOR] + side[ELEPHANT] + side[SOLDIER];
        m += 3 * (side[HORSE] + side[CANNON]) + 6 * side[CHARIOT];
    }
    let m = m.min(FULL);
    (2 * FULL - m) * m / FULL
}

/// How much `side` attacks, from 0 to 8: its chariots and horses across
/// the river count 2, its cannons and soldiers there 1, and each piece it
/// has more than the other side (a chariot is two) 2.
pub(crate) fn attack(b: &Board, side: usize, n: &[[i32; 7]; 2]) -> i32 {
    let mut a = unpack(b.front[side])[2];
    let simple = |s: usize| 2 * n[s][CHARIOT] + n[s][HORSE] + n[s][CANNON];
    a += 2 * (simple(side) - simple(side ^ 1)).max(0);
    a.min(8)
}

/// What the points between `from` and `to` (on one line, exclusive) hold:
/// the number of pieces.
fn between(c: &[u8; 256], from: usize, to: usize) -> i32 {
    let d: isize = if from >> 4 == to >> 4 {
        if to > from {
            1
        } else {
            -1
        }
    } else if to > from {
        16
    } else {
        -16
    };
    let mut n = 0;
    let mut s = step(from, d);
    while s != to {
        n += i32::from(c[s] != 0);
        s = step(s, d);
    }
    n
}

/// The dangers of the shape of `side`'s palace (values in centipawns, a
/// horse being 400), as xiangqi players judge it: with the general at home
/// and both advisors beside it, an enemy cannon on the central file with
/// nothing between (the empty-head cannon), or with the central horse as
/// its only screen; with the advisors on one side, a central cannon aiming
/// through one screen (worse if the other door is watched, and worse still
/// with a chariot of its own stuck on the back rank beside the general),
/// and an enemy cannon on the back rank (the bottom cannon); a general on
/// the palace centre between its advisors; missing advisors against both
/// enemy chariots. `phase` and `attack` (the enemy's) scale them.
fn palace_shape(b: &Board, side: usize, n: &[[i32; 7]; 2], phase: i32, attack: i32) -> i32 {
    let them = side ^ 1;
    let c = &b.cells;
    let k = b.general(side);
    let home = home(side);
    let centre = step(home, forward(side));
    if n[side][ADVISOR] < 2 {
        return if n[them][CHARIOT] == 2 {
            320 * attack / 8
        } else {
            0
        };
    }
    if k == centre {
        return 80;
    }
    if k != home {
        return 0;
    }
    let a1 = usize::from(b.at[side * 16 + 1]);
    let a2 = usize::from(b.at[side * 16 + 2]);
    let (left, right) = (home - 1, home + 1);
    let has = |sq: usize| a1 == sq || a2 == sq;
    // The open door of a palace with both advisors on one side.
    let door = if has(left) && has(right) {
        None
    } else if has(centre) && has(left) {
        Some(right)
    } else if has(centre) && has(right) {
        Some(left)
    } else {
        return 0;
    };
    // A cannon's distance from the general's back rank, 0 to 9.
    let rows_from = |sq: usize| ((sq >> 4) as i32 - (home >> 4) as i32).abs();
    let mut d = 0;
    for slot in [9, 10] {
        let sq = usize::from(b.at[them * 16 + slot]);
        if sq == 0 {
            continue;
        }
        let on_file = sq & 15 == home & 15;
        match door {
            None => {
                if !on_file {
                    continue;
                }
                let screens = between(c, sq, home);
                let dist = rows_from(sq);
                if screens == 0 {
                    // Further away is safer for the cannon, and just as
                    // dangerous: 240 to 320, less towards the ending.
                    let v = 240 + 80 * (dist - 3).clamp(0, 6) / 6;
                    d += v * (phase + FULL) / (2 * FULL);
                } else if screens == 1 {
                    let h = c[centre];
                    if h != 0 && side_of(h) == side && kind_of(h) == HORSE {
                        // The central horse pinned by the cannon.
                        d += 200 - 80 * (dist - 3).clamp(0, 6) / 6;
                    }
                }
            }
            Some(door) => {
                if on_file {
                    if between(c, sq, home) == 1 {
                        d += 40 - 20 * (rows_from(sq) - 3).clamp(0, 6) / 6;
                        if b.attacked_by(door, them) {
                            d += 80;
                        }
                        for slot in [7, 8] {
                            let r = usize::from(b.at[side * 16 + slot]);
                            if r != 0 && r >> 4 == home >> 4 && between(c, r, home) == 0 {
                                d += 320;
                            }
                        }
                    }
                } else if sq >> 4 == home >> 4 && between(c, sq, home) == 0 {
                    let file = (sq & 15) as i32 - 3;
                    let v = match file {
                        0 | 8 => 160,
                        1 | 7 => 120,
                        _ => 0,
                    };
                    d += v * attack / 8;
                }
            }
        }
    }
    d
}
