//! Threat-space search: can the side to move win by threats alone?
//!
//! **VCF** (victory by continuous fours): the attacker makes a four at
//! every move, so the defender's answer is forced (the one point that
//! stops the five), and the tree is as narrow as the attacker's choice of
//! fours. **VCT** (victory by continuous threats) also lets the attacker
//! make open threes; the defender then has a few answers — the points that
//! keep the three from becoming an open four, and any four of its own
//! (a counter-four that the attacker must answer first) — and every one of
//! them must lose.
//!
//! Renju's prohibitions work both ways: a black attacker makes no move on
//! a forbidden point (a forbidden four is no threat), and a black defender
//! cannot block on one, so a white four whose only block is forbidden to
//! black wins outright.
//!
//! Searches that fail are remembered by position and remaining depth, so a
//! transposition of threats is searched once.

use crate::Budget;

use super::board::{Board, Idx, Shape};
use super::pattern::Pat;

/// Remembered dead ends: a position (with the depth left) from which the
/// attacker has no win.
const DEAD_SLOTS: usize = 1 << 16;

pub(crate) struct Threats<'a> {
    board: &'a mut Board,
    budget: &'a mut Budget,
    attacker: usize,
    dead: &'a mut [u64],
}

/// A fresh table of dead ends, for [`Threats::new`].
pub(crate) fn dead_ends() -> Vec<u64> {
    vec![0; DEAD_SLOTS]
}

impl<'a> Threats<'a> {
    /// A threat search for the side to move of `board`.
    ///
    /// `dead` remembers failed searches between calls (the key holds the
    /// attacker, so one table serves both sides); it must have come from
    /// [`dead_ends`].
    pub(crate) fn new(
        board: &'a mut Board,
        budget: &'a mut Budget,
        dead: &'a mut [u64],
    ) -> Threats<'a> {
        let attacker = board.to_move();
        Threats {
            board,
            budget,
            attacker,
            dead,
        }
    }

    /// A forced win for the side to move with at most `threes` open threes
    /// and `fours` fours of its own, as the moves of both sides up to and
    /// including the five; `None` when there is none (or the budget ran
    /// out first).
    pub(crate) fn win(&mut self, threes: u32, fours: u32) -> Option<Vec<Idx>> {
        self.attack(threes, fours)
    }

    fn dead_key(&self, threes: u32, fours: u32) -> u64 {
        self.board.hash()
            ^ u64::from(threes).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ u64::from(fours).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (self.attacker as u64) << 63
    }

    fn is_dead(&self, key: u64) -> bool {
        self.dead.get((key as usize) & (DEAD_SLOTS - 1)) == Some(&key)
    }

    fn mark_dead(&mut self, key: u64) {
        if !self.budget.exhausted() {
            if let Some(slot) = self.dead.get_mut((key as usize) & (DEAD_SLOTS - 1)) {
                *slot = key;
            }
        }
    }

    /// The attacker to move.
    fn attack(&mut self, threes: u32, fours: u32) -> Option<Vec<Idx>> {
        if self.budget.spend() {
            return None;
        }
        let a = self.attacker;
        let d = 1 - a;
        let mut fives = Vec::new();
        self.board.five_points(a, &mut fives);
        if let Some(&p) = fives.first() {
            return Some(vec![p]);
        }
        self.board.five_points(d, &mut fives);
        match fives.as_slice() {
            [] => {}
            [q] => {
                // The defender's four must be blocked, whatever it costs.
                let q = *q;
                if !self.board.legal(q) {
                    return None;
                }
                return self.then(q, |t| t.defend(threes, fours));
            }
            _ => return None,
        }
        if fours == 0 {
            return None;
        }
        let key = self.dead_key(threes, fours);
        if self.is_dead(key) {
            return None;
        }
        // With an open three of the defender's standing, a three is too
        // slow: only fours keep the initiative.
        let threes_allowed = threes > 0 && !self.threatens_open_four(d);
        let mut moves: Vec<(i32, Idx, bool)> = Vec::new();
        for &i in self.board.points() {
            if !self.board.is_empty(i) || !self.board.has_neighbour(i) {
                continue;
            }
            let shape = self.board.shape(a, i);
            let (rank, is_three) = match shape {
                Shape::OpenFour => (6, false),
                Shape::FourThree => (5, false),
                Shape::Four => (4, false),
                Shape::DoubleThree if threes_allowed => (3, true),
                Shape::Three if threes_allowed => (2, true),
                _ => continue,
            };
            let score = rank * 10_000 + self.board.value(a, i) + self.board.value(d, i);
            moves.push((score, i, is_three));
        }
        moves.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        for (_, i, is_three) in moves {
            if !self.board.legal(i) {
                continue;
            }
            let (t, f) = if is_three {
                (threes - 1, fours)
            } else {
                (threes, fours - 1)
            };
            if let Some(line) = self.then(i, |s| s.defend(t, f)) {
                return Some(line);
            }
            if self.budget.exhausted() {
                return None;
            }
        }
        self.mark_dead(key);
        None
    }

    /// The defender to move, after an attacker's threat.
    fn defend(&mut self, threes: u32, fours: u32) -> Option<Vec<Idx>> {
        if self.budget.spend() {
            return None;
        }
        let a = self.attacker;
        let d = 1 - a;
        let mut fives = Vec::new();
        self.board.five_points(d, &mut fives);
        if !fives.is_empty() {
            return None;
        }
        self.board.five_points(a, &mut fives);
        match fives.as_slice() {
            [] => {}
            [q] => {
                let q = *q;
                if self.board.legal(q) {
                    return self.then(q, |t| t.attack(threes, fours));
                }
                // Renju: the block is forbidden to black.
                return self.any_reply(|t| t.attack(threes, fours));
            }
            _ => return self.any_reply(|t| t.attack(threes, fours)),
        }
        if !self.threatens_open_four(a) {
            return None;
        }
        // The attacker threatens an open four: block on the line, or
        // counter with a four.
        let mut defences: Vec<(i32, Idx)> = Vec::new();
        for &i in self.board.points() {
            if !self.board.is_empty(i) || !self.board.has_neighbour(i) {
                continue;
            }
            let blocks = self
                .board
                .pats(a, i)
                .iter()
                .any(|p| p.is_four() || *p == Pat::Five);
            let counters = self.board.shape(d, i) >= Shape::Four;
            if blocks || counters {
                let score = self.board.value(a, i) + self.board.value(d, i);
                defences.push((score, i));
            }
        }
        defences.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        let mut longest: Option<Vec<Idx>> = None;
        let mut any = false;
        for (_, i) in defences {
            if !self.board.legal(i) {
                continue;
            }
            any = true;
            let line = self.then(i, |t| t.attack(threes, fours))?;
            if longest.as_ref().is_none_or(|l| line.len() > l.len()) {
                longest = Some(line);
            }
        }
        if any {
            longest
        } else {
            self.any_reply(|t| t.attack(threes, fours))
        }
    }

    /// Whether `c` has a point, legal for it, where it makes an open four
    /// (or two fours): a three it can turn into a win.
    fn threatens_open_four(&mut self, c: usize) -> bool {
        if self.board.count_at_least(c, Shape::OpenFour) == 0 {
            return false;
        }
        let mover = self.board.to_move();
        let points: Vec<Idx> = self
            .board
            .points()
            .iter()
            .copied()
            .filter(|&i| {
                self.board.is_empty(i)
                    && self.board.has_neighbour(i)
                    && self.board.shape(c, i) >= Shape::OpenFour
            })
            .collect();
        if points.is_empty() {
            return false;
        }
        // Legality depends on the colour, not on whose turn it is.
        if c == mover {
            points.into_iter().any(|i| self.board.legal(i))
        } else if c == 0 {
            points.into_iter().any(|i| !self.board.forbidden(i))
        } else {
            true
        }
    }

    /// Plays `i`, runs `next`, takes it back, and puts `i` in front of the
    /// line found.
    fn then(
        &mut self,
        i: Idx,
        next: impl FnOnce(&mut Self) -> Option<Vec<Idx>>,
    ) -> Option<Vec<Idx>> {
        self.board.play(i);
        let found = next(self);
        self.board.undo();
        found.map(|mut line| {
            line.insert(0, i);
            line
        })
    }

    /// The defender has no useful answer: plays the first legal point near
    /// the stones (any move loses) so the line stays a line of legal moves.
    fn any_reply(&mut self, next: impl FnOnce(&mut Self) -> Option<Vec<Idx>>) -> Option<Vec<Idx>> {
        let near: Vec<Idx> = self
            .board
            .points()
            .iter()
            .copied()
            .filter(|&i| self.board.is_empty(i) && self.board.has_neighbour(i))
            .collect();
        let reply = near.into_iter().find(|&i| self.board.legal(i));
        match reply {
            Some(i) => self.then(i, next),
            None => None,
        }
    }
}
