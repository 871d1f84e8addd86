//! Expectimax over the moves and the spawns, with a cache of chance nodes
//! and a cut-off on unlikely branches.

use std::time::Duration;

use super::board::{empty_cells, Tables};
use crate::Budget;

/// A branch less likely than this (the product of the spawn probabilities
/// on the way to it) is judged by the evaluation, not searched.
const CUTOFF: f32 = 1e-4;

/// How many times longer one more move of lookahead is expected to take.
const GROWTH: u32 = 4;

/// Chance nodes cached per search: 2^17 entries of 16 bytes.
const CACHE_BITS: u32 = 17;

#[derive(Clone, Copy, Default)]
struct Entry {
    board: u64,
    value: f32,
    /// Moves still to search below the node when it was stored (0: empty).
    left: u8,
}

/// One search: its tables, budget, cache and depth.
pub(crate) struct Search<'a> {
    tables: &'static Tables,
    budget: &'a mut Budget,
    cache: Vec<Entry>,
    /// Moves of lookahead, the root move included.
    limit: u32,
}

impl<'a> Search<'a> {
    pub(crate) fn new(tables: &'static Tables, budget: &'a mut Budget) -> Search<'a> {
        Search {
            tables,
            budget,
            cache: vec![Entry::default(); 1 << CACHE_BITS],
            limit: 1,
        }
    }

    /// Whether iteration `d` may start: the budget allows it, and with a
    /// time limit the time left is enough for it, as the last iteration
    /// took `last` and one more move of lookahead costs some
    /// [`GROWTH`] times as much. (Only a time limit is looked at so, so a
    /// node limit stays reproducible.)
    pub(crate) fn may_deepen(&mut self, d: u32, last: Duration) -> bool {
        if !self.budget.may_deepen(d) {
            return false;
        }
        match self.budget.limits().time {
            Some(t) => last * GROWTH <= t.saturating_sub(self.budget.elapsed()),
            None => true,
        }
    }

    /// The value of each root move in `moves` (boards after it, before
    /// the spawn) searched `limit` moves deep; `None` when the budget ran
    /// out before the iteration finished.
    pub(crate) fn iterate(&mut self, after: &[u64], limit: u32) -> Option<Vec<f32>> {
        self.limit = limit;
        let mut out = Vec::with_capacity(after.len());
        for &b in after {
            let v = self.chance(b, 1.0, 1);
            if self.budget.exhausted() {
                return None;
            }
            out.push(v);
        }
        Some(out)
    }

    /// The best of the moves from `b`, 0 when none moves anything (the
    /// game is lost).
    fn max_node(&mut self, b: u64, prob: f32, depth: u32) -> f32 {
        let mut best = 0.0f32;
        for d in 0..4 {
            let next = self.tables.slide(b, d);
            if next != b {
                best = best.max(self.chance(next, prob, depth + 1));
            }
        }
        best
    }

    /// The expected value over the spawns on `b`, `depth` moves in.
    fn chance(&mut self, b: u64, prob: f32, depth: u32) -> f32 {
        if self.budget.spend() {
            return 0.0;
        }
        if depth >= self.limit || prob < CUTOFF {
            return self.tables.value(b);
        }
        let left = (self.limit - depth) as u8;
        let slot = index(b);
        let e = self.cache[slot];
        if e.board == b && e.left >= left {
            return e.value;
        }
        let empty = empty_cells(b);
        if empty == 0 {
            return self.tables.value(b);
        }
        let each = prob / empty as f32;
        let mut sum = 0.0;
        for cell in 0..16u32 {
            let shift = 4 * cell;
            if (b >> shift) & 0xF != 0 {
                continue;
            }
            sum += 0.9 * self.max_node(b | (1 << shift), each * 0.9, depth);
            sum += 0.1 * self.max_node(b | (2 << shift), each * 0.1, depth);
        }
        let value = sum / empty as f32;
        if !self.budget.exhausted() {
            self.cache[slot] = Entry {
                board: b,
                value,
                left,
            };
        }
        value
    }
}

fn index(b: u64) -> usize {
    let h = (b ^ (b >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - CACHE_BITS)) as usize
}
