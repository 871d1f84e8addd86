//! Which pieces a move chases, as Fairy-Stockfish's `Position::chased()`
//! decides it for its `xiangqi` variant (`chasingRule = AXF_CHASING`).
//!
//! The definitions here are ported one for one, quirks included, because
//! the verdicts they feed must agree with Fairy-Stockfish (and so with
//! pychess-variants) on every game: `tests/xiangqi_repetition.rs` holds
//! them to its answers. What is and is not a chase is listed in the
//! documentation of `History`; the comments below say where each
//! step comes from.
//!
//! Sets of points are `u128` masks, bit `i` for [`Square::index`] `i`, the
//! same representation the move generator's guard uses.

use crate::xiangqi::position::Position;
use crate::xiangqi::types::{Move, Piece, Role, Side, Square};

/// A set of points, bit `i` for point `i`.
pub(super) type Points = u128;

#[inline]
fn bit(sq: u8) -> Points {
    1u128 << sq
}

#[inline]
fn has(set: Points, sq: u8) -> bool {
    (set >> sq) & 1 != 0
}

/// The points of a set, lowest first.
fn points(mut set: Points) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros() as u8;
            set &= set - 1;
            s
        })
    })
}

/// The point `df` files and `dr` rows away, if on the board.
#[inline]
fn step(sq: u8, df: i8, dr: i8) -> Option<u8> {
    let f = (sq % 9) as i8 + df;
    let r = (sq / 9) as i8 + dr;
    ((0..9).contains(&f) && (0..10).contains(&r)).then(|| (r * 9 + f) as u8)
}

const ORTHOGONAL: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
const DIAGONAL: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
const HORSE_JUMPS: [(i8, i8); 8] = [
    (1, -2),
    (-1, -2),
    (2, -1),
    (-2, -1),
    (2, 1),
    (-2, 1),
    (1, 2),
    (-1, 2),
];

/// The row step of "forward" for a side's soldiers.
#[inline]
fn forward(side: Side) -> i8 {
    match side {
        Side::Red => -1,
        Side::Black => 1,
    }
}

fn wazir(sq: u8) -> Points {
    ORTHOGONAL
        .iter()
        .filter_map(|&(df, dr)| step(sq, df, dr))
        .fold(0, |set, t| set | bit(t))
}

fn fers(sq: u8) -> Points {
    DIAGONAL
        .iter()
        .filter_map(|&(df, dr)| step(sq, df, dr))
        .fold(0, |set, t| set | bit(t))
}

/// Two-point diagonal steps whose eye is empty. No river: Fairy-Stockfish
/// keeps elephants on their half when generating moves, not in attacks.
fn elephant(sq: u8, occ: Points) -> Points {
    let mut set = 0;
    for &(df, dr) in &DIAGONAL {
        if let (Some(eye), Some(t)) = (step(sq, df, dr), step(sq, 2 * df, 2 * dr)) {
            if !has(occ, eye) {
                set |= bit(t);
            }
        }
    }
    set
}

/// The two-point diagonal steps, blocked or not.
fn alfil(sq: u8) -> Points {
    DIAGONAL
        .iter()
        .filter_map(|&(df, dr)| step(sq, 2 * df, 2 * dr))
        .fold(0, |set, t| set | bit(t))
}

/// The leg of a horse jump `(df, dr)`: the orthogonal neighbour in the
/// direction of the two-point part.
#[inline]
fn leg(sq: u8, df: i8, dr: i8) -> Option<u8> {
    if df.abs() == 2 {
        step(sq, df / 2, 0)
    } else {
        step(sq, 0, dr / 2)
    }
}

/// The points a horse on `sq` attacks: jumps whose leg is empty.
fn horse(sq: u8, occ: Points) -> Points {
    let mut set = 0;
    for &(df, dr) in &HORSE_JUMPS {
        if let (Some(l), Some(t)) = (leg(sq, df, dr), step(sq, df, dr)) {
            if !has(occ, l) {
                set |= bit(t);
            }
        }
    }
    set
}

/// The horse-jump points around `sq`, blocked or not.
fn knight(sq: u8) -> Points {
    HORSE_JUMPS
        .iter()
        .filter_map(|&(df, dr)| step(sq, df, dr))
        .fold(0, |set, t| set | bit(t))
}

/// The points along the four lines from `sq`, up to and including the
/// first occupied one.
fn rook(sq: u8, occ: Points) -> Points {
    let mut set = 0;
    for &(df, dr) in &ORTHOGONAL {
        let mut p = sq;
        while let Some(t) = step(p, df, dr) {
            set |= bit(t);
            if has(occ, t) {
                break;
            }
            p = t;
        }
    }
    set
}

/// The first occupied point beyond exactly one screen, on each line.
fn cannon(sq: u8, occ: Points) -> Points {
    let mut set = 0;
    for &(df, dr) in &ORTHOGONAL {
        let mut p = sq;
        let mut screen = false;
        while let Some(t) = step(p, df, dr) {
            if has(occ, t) {
                if screen {
                    set |= bit(t);
                    break;
                }
                screen = true;
            }
            p = t;
        }
    }
    set
}

/// Every point on the file and the rank of `sq`, but `sq`.
fn lines(sq: u8) -> Points {
    rook(sq, 0)
}

/// The whole file or rank through `a` and `b` (which share one), both
/// included, as Stockfish's `line_bb`.
fn line(a: u8, b: u8) -> Points {
    let file: Points = (0..10).fold(0, |s, r| s | bit(r * 9 + a % 9));
    let rank: Points = (0..9).fold(0, |s, f| s | bit(a / 9 * 9 + f));
    if a % 9 == b % 9 {
        file
    } else if a / 9 == b / 9 {
        rank
    } else {
        0
    }
}

/// The points strictly between `a` and `b` on a line or diagonal.
fn between(a: u8, b: u8) -> Points {
    let (fa, ra) = ((a % 9) as i8, (a / 9) as i8);
    let (fb, rb) = ((b % 9) as i8, (b / 9) as i8);
    let (df, dr) = (fb - fa, rb - ra);
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return 0;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut set = 0;
    let mut p = a;
    while let Some(t) = step(p, sf, sr) {
        if t == b {
            break;
        }
        set |= bit(t);
        p = t;
    }
    set
}

/// Soldier attacks as the piece's table has them (`fsW`: ahead and beside,
/// whether across the river or not).
fn soldier(side: Side, sq: u8) -> Points {
    [(0, forward(side)), (-1, 0), (1, 0)]
        .iter()
        .filter_map(|&(df, dr)| step(sq, df, dr))
        .fold(0, |set, t| set | bit(t))
}

/// A position as bit sets, for the attack questions below.
pub(super) struct Board {
    cells: [Option<Piece>; 90],
    occ: Points,
    by_side: [Points; 2],
    by_role: [[Points; 7]; 2],
    general: [u8; 2],
    /// The side to move.
    pub(super) turn: Side,
}

impl Board {
    pub(super) fn new(pos: &Position) -> Board {
        let mut board = Board {
            cells: [None; 90],
            occ: 0,
            by_side: [0; 2],
            by_role: [[0; 7]; 2],
            general: [
                pos.general(Side::Red).value(),
                pos.general(Side::Black).value(),
            ],
            turn: pos.turn(),
        };
        for (sq, piece) in pos.pieces() {
            let s = sq.value();
            board.cells[sq.index()] = Some(piece);
            board.occ |= bit(s);
            board.by_side[piece.side.index()] |= bit(s);
            board.by_role[piece.side.index()][piece.role as usize] |= bit(s);
        }
        board
    }

    #[inline]
    fn side(&self, side: Side) -> Points {
        self.by_side[side.index()]
    }

    #[inline]
    fn of(&self, side: Side, role: Role) -> Points {
        self.by_role[side.index()][role as usize]
    }

    #[inline]
    fn role_at(&self, sq: u8) -> Option<Role> {
        self.cells[sq as usize].map(|p| p.role)
    }

    /// `side`'s soldiers that have not crossed the river (Fairy-Stockfish's
    /// `pieces(c, SOLDIER) ^ promoted_soldiers(c)`).
    fn young_soldiers(&self, side: Side) -> Points {
        points(self.of(side, Role::Soldier))
            .filter(|&s| on_own_half(side, s))
            .fold(0, |set, s| set | bit(s))
    }

    /// What a piece of `role` and `side` on `sq` attacks over `occ`, as
    /// Fairy-Stockfish's `attacks_bb`: no palace or river limit, soldiers
    /// ahead and beside.
    fn attacks(side: Side, role: Role, sq: u8, occ: Points) -> Points {
        match role {
            Role::General => wazir(sq),
            Role::Advisor => fers(sq),
            Role::Elephant => elephant(sq, occ),
            Role::Horse => horse(sq, occ),
            Role::Chariot => rook(sq, occ),
            Role::Cannon => cannon(sq, occ),
            Role::Soldier => soldier(side, sq),
        }
    }

    /// As [`Board::attacks`] over this board, a soldier that has not
    /// crossed the river attacking ahead only (`attacks_from`).
    fn attacks_from(&self, side: Side, role: Role, sq: u8) -> Points {
        let set = Board::attacks(side, role, sq, self.occ);
        match role {
            Role::Soldier if on_own_half(side, sq) => {
                set & step(sq, 0, forward(side)).map_or(0, bit)
            }
            Role::General
            | Role::Advisor
            | Role::Elephant
            | Role::Horse
            | Role::Chariot
            | Role::Cannon
            | Role::Soldier => set,
        }
    }

    /// `side`'s pieces that attack `s` over `occ` (`attackers_to`): a
    /// general or advisor only inside its palace, an elephant only on its
    /// half, a soldier from beside only where `s` is across the river for
    /// it. A general's attack along an open file is not counted.
    fn attackers_to(&self, s: u8, occ: Points, side: Side) -> Points {
        let mut set = 0;
        let sq = Square::new(s).unwrap_or_else(|| unreachable!("points are below 90"));
        if sq.in_palace_of(side) {
            set |= wazir(s) & self.of(side, Role::General);
            set |= fers(s) & self.of(side, Role::Advisor);
        }
        if sq.on_side_of(side) {
            set |= elephant(s, occ) & self.of(side, Role::Elephant);
        }
        for h in points(knight(s) & self.of(side, Role::Horse)) {
            if has(horse(h, occ), s) {
                set |= bit(h);
            }
        }
        set |= rook(s, occ) & self.of(side, Role::Chariot);
        set |= cannon(s, occ) & self.of(side, Role::Cannon);
        let behind = step(s, 0, -forward(side)).map_or(0, bit);
        let soldiers = if sq.on_side_of(side) {
            behind
        } else {
            soldier(side.opponent(), s)
        };
        set | (soldiers & self.of(side, Role::Soldier))
    }

    /// The pieces of either side that alone stand between `side`'s general
    /// and an enemy chariot, horse (on its leg) or elephant (on its eye),
    /// or that are one of exactly two between it and an enemy cannon
    /// (`slider_blockers` as `set_check_info` calls it).
    fn blockers(&self, side: Side) -> Points {
        let k = self.general[side.index()];
        let them = side.opponent();
        let occ = self.occ;
        let chariots = lines(k) & self.of(them, Role::Chariot) & !rook(k, occ);
        let cannons = lines(k) & self.of(them, Role::Cannon) & !cannon(k, occ);
        let mut horses = 0;
        for h in points(knight(k) & self.of(them, Role::Horse)) {
            if !has(horse(h, occ), k) {
                horses |= bit(h);
            }
        }
        let elephants = alfil(k) & self.of(them, Role::Elephant) & !elephant(k, occ);
        let occupancy = occ ^ (chariots | horses | elephants);
        let mut blockers = 0;
        for s in points(chariots | elephants) {
            let b = between(k, s) & occupancy;
            if b.count_ones() == 1 {
                blockers |= b;
            }
        }
        for h in points(horses) {
            let b = wazir(h) & fers(k) & occupancy;
            if b.count_ones() == 1 {
                blockers |= b;
            }
        }
        for c in points(cannons) {
            let b = between(k, c) & occ;
            if b.count_ones() == 1 || b.count_ones() == 2 {
                blockers |= b;
            }
        }
        blockers
    }
}

/// Whether `sq` is on `side`'s own half (before the river for its soldiers).
#[inline]
fn on_own_half(side: Side, sq: u8) -> bool {
    Square::new(sq).is_some_and(|s| s.on_side_of(side))
}

/// The pieces of the side to move in `next` that the move `m`, which led
/// from `prev` to `next` (taking a piece when `capture`), chases.
pub(super) fn chased(prev: &Board, next: &Board, m: Move, capture: bool) -> Points {
    let victim = next.turn;
    let mover = victim.opponent();
    let occ = next.occ;
    let (from, to) = (m.from.value(), m.to.value());
    let victim_blockers = next.blockers(victim);

    // Pieces that may not leave their place: those shielding their general
    // from a line, leg or screen attack, and the one piece of the chased
    // side between the two generals on the mover's general's file.
    let mut pins = victim_blockers;
    let mover_general = next.general[mover.index()];
    let file: Points = (0..10).fold(0, |s, r| s | bit(r * 9 + mover_general % 9));
    let kings = next.of(Side::Red, Role::General) | next.of(Side::Black, Role::General);
    let on_file = file & next.side(victim);
    if on_file & next.of(victim, Role::General) != 0 && (on_file & !kings).count_ones() <= 1 {
        pins |= on_file & !kings;
    }

    let chase = Chase {
        next,
        victim,
        mover,
        pins,
    };
    let mut chased = 0;

    // Direct attacks of the moved piece; generals and soldiers never chase.
    // A chariot or cannon moving along a line keeps its attacks along it.
    if let Some(role) = next.role_at(to) {
        match role {
            Role::General | Role::Soldier => {}
            Role::Advisor | Role::Elephant | Role::Horse | Role::Chariot | Role::Cannon => {
                let mut direct = next.attacks_from(mover, role, to) & next.side(victim);
                if matches!(role, Role::Chariot | Role::Cannon) {
                    direct &= !line(from, to);
                }
                chase.add(&mut chased, to, role, direct);
            }
        }
    }

    // Attacks uncovered (or, for a cannon, made by a new screen): a horse
    // whose leg was `from`, an elephant whose eye was `from`, a chariot or
    // cannon on a line through `from`, a cannon on a line through `to`.
    let candidates = (wazir(from) & next.of(mover, Role::Horse))
        | (fers(from) & next.of(mover, Role::Elephant))
        | (lines(from) & (next.of(mover, Role::Cannon) | next.of(mover, Role::Chariot)))
        | (lines(to) & next.of(mover, Role::Cannon));
    let before = if capture { occ } else { occ ^ bit(to) } ^ bit(from);
    for s in points(candidates) {
        let Some(role) = next.role_at(s) else {
            continue;
        };
        let uncovered = next.side(victim)
            & Board::attacks(mover, role, s, occ)
            & !Board::attacks(mover, role, s, before);
        chase.add(&mut chased, s, role, uncovered);
    }

    // A new pin takes a defender away: what the newly pinned piece
    // defended is chased if the mover attacks it with a free piece.
    let new_blockers = victim_blockers & !prev.blockers(victim);
    let mover_blockers = next.blockers(mover);
    let targets =
        next.side(victim) & !(next.of(victim, Role::General) | next.young_soldiers(victim));
    for s in points(new_blockers & next.side(victim)) {
        let Some(role) = next.role_at(s) else {
            continue;
        };
        for t in points(targets & Board::attacks(victim, role, s, occ)) {
            if next.attackers_to(t, occ, mover) & !mover_blockers != 0 {
                chased |= bit(t);
            }
        }
    }

    // A mover's piece that now shields the chased general can capture with
    // a discovered check: everything it attacks is chased, but next to
    // the general only what the general could not take back.
    let victim_general = next.general[victim.index()];
    let around = wazir(victim_general);
    for s in points(new_blockers & next.side(mover)) {
        let Some(role) = next.role_at(s) else {
            continue;
        };
        let attacked = next.attacks_from(mover, role, s) & next.side(victim);
        chased |= attacked & !around;
        for t in points(attacked & around) {
            let defenders =
                next.attackers_to(t, occ ^ bit(s) ^ bit(victim_general), mover) & !bit(s);
            if defenders != 0 {
                chased |= bit(t);
            }
        }
    }
    chased
}

/// The context of one `chased` call, for [`Chase::add`].
struct Chase<'a> {
    next: &'a Board,
    victim: Side,
    mover: Side,
    pins: Points,
}

impl Chase<'_> {
    /// Fairy-Stockfish's `addChased`: of the pieces `attacks` that a piece
    /// of `role` on `attacker` attacks, which are chased.
    fn add(&self, chased: &mut Points, attacker: u8, role: Role, mut attacks: Points) {
        if attacks & !*chased == 0 {
            return;
        }
        let next = self.next;
        let victim = self.victim;
        // The general (that is a check) and soldiers before the river are
        // never chased.
        attacks &= !(next.of(victim, Role::General) | next.young_soldiers(victim));
        // A stronger piece is chased whether defended or not.
        match role {
            Role::Horse | Role::Cannon => *chased |= attacks & next.of(victim, Role::Chariot),
            Role::Elephant | Role::Advisor => {
                *chased |= attacks
                    & (next.of(victim, Role::Chariot)
                        | next.of(victim, Role::Cannon)
                        | next.of(victim, Role::Horse))
            }
            Role::General | Role::Chariot | Role::Soldier => {}
        }
        // An attack on a piece of the same kind is mutual, hence an offer
        // to exchange, not a chase, unless the attacked piece is pinned;
        // horses are asymmetric when a point diagonally next to the
        // attacker is taken, and then only a horse that attacks back is
        // exempt.
        if role == Role::Horse && fers(attacker) & next.occ != 0 {
            for s in points(attacks & next.of(victim, Role::Horse)) {
                if has(horse(s, next.occ), attacker) {
                    attacks ^= bit(s);
                }
            }
        } else {
            attacks &= !next.of(victim, role) | self.pins;
        }
        // What is left is chased if nothing defends it: the defenders are
        // found with the attacker lifted (x-rays count), pinned ones do
        // not count, and a general alone does not defend a point where
        // taking would bring it face to face with the other general.
        let lifted = next.occ ^ bit(attacker);
        let general = next.of(victim, Role::General);
        let mover_general = next.general[self.mover.index()];
        for s in points(attacks) {
            let roots = next.attackers_to(s, lifted, victim) & !self.pins;
            if roots == 0 || (roots == general && has(rook(mover_general, lifted), s)) {
                *chased |= bit(s);
            }
        }
    }
}

/// Fairy-Stockfish's `undo_move_board`: the set as it was before `m`, for a
/// set of the pieces of the side that played `m`.
pub(super) fn undo(set: Points, m: Option<Move>) -> Points {
    match m {
        Some(m) if has(set, m.to.value()) => (set ^ bit(m.to.value())) | bit(m.from.value()),
        Some(_) | None => set,
    }
}

/// The points of a set.
pub(super) fn squares(set: Points) -> impl Iterator<Item = Square> {
    points(set).filter_map(Square::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> u8 {
        s.parse::<Square>().expect("ICCS").value()
    }

    fn set(names: &[&str]) -> Points {
        names.iter().fold(0, |s, n| s | bit(sq(n)))
    }

    #[test]
    fn pieces_attack_as_on_the_board() {
        let start = Board::new(&Position::start());
        // The red cannon on h2 takes over the black cannon on h7 the
        // horse on h9.
        assert_eq!(
            cannon(sq("h2"), start.occ) & start.side(Side::Black),
            set(&["h9"])
        );
        assert_eq!(horse(sq("b0"), start.occ), set(&["a2", "c2"]));
        assert_eq!(elephant(sq("c0"), start.occ), set(&["a2", "e2"]));
        assert_eq!(rook(sq("a0"), start.occ), set(&["a1", "a2", "a3", "b0"]));
        assert_eq!(
            start.attacks_from(Side::Red, Role::Soldier, sq("e3")),
            set(&["e4"])
        );
        assert_eq!(between(sq("e0"), sq("e4")), set(&["e1", "e2", "e3"]));
        assert_eq!(line(sq("e0"), sq("e4")).count_ones(), 10);
    }

    #[test]
    fn defenders_at_the_start() {
        let start = Board::new(&Position::start());
        // Nothing defends the soldier on c3, the chariot defends a3, both
        // elephants defend e2, the general and both advisors e1.
        assert_eq!(start.attackers_to(sq("c3"), start.occ, Side::Red), 0);
        assert_eq!(
            start.attackers_to(sq("a3"), start.occ, Side::Red),
            set(&["a0"])
        );
        assert_eq!(
            start.attackers_to(sq("e2"), start.occ, Side::Red),
            set(&["c0", "g0"])
        );
        assert_eq!(
            start.attackers_to(sq("e1"), start.occ, Side::Red),
            set(&["e0", "d0", "f0"])
        );
        assert_eq!(start.blockers(Side::Red), 0);
    }
}
