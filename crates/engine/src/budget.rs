//! What a search may spend, and the counter it spends it against.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How much a search may spend. Whichever limit is reached first stops it;
/// with none at all, a search stops at its own greatest depth.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// At most this many nodes (reproducible: the same on every machine).
    pub nodes: Option<u64>,
    /// At most this long, measured from [`Budget::start`].
    pub time: Option<Duration>,
    /// At most this deep (plies, or the game's own unit of depth).
    pub depth: Option<u32>,
    /// Set from outside to stop the search as soon as it looks.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A node limit alone.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// A time limit alone.
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }

    /// A depth limit alone.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
}

/// How often (in nodes) the clock and the stop flag are looked at: reading
/// the time costs more than a node of most searches.
const CHECK_EVERY: u64 = 1024;

/// A running search's account: nodes spent, and whether a limit is reached.
#[derive(Debug)]
pub struct Budget {
    limits: Limits,
    started: Instant,
    nodes: u64,
    next_check: u64,
    out: bool,
}

impl Budget {
    /// Starts counting now.
    pub fn start(limits: &Limits) -> Budget {
        Budget {
            limits: limits.clone(),
            started: Instant::now(),
            nodes: 0,
            next_check: CHECK_EVERY,
            out: false,
        }
    }

    /// Counts one node; `true` once a limit is reached (and from then on).
    #[inline]
    pub fn spend(&mut self) -> bool {
        self.nodes += 1;
        if self.out {
            return true;
        }
        if let Some(max) = self.limits.nodes {
            if self.nodes >= max {
                self.out = true;
                return true;
            }
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            self.out = self.past_time() || self.stopped();
        }
        self.out
    }

    /// Whether a limit has been reached, without counting a node.
    pub fn exhausted(&self) -> bool {
        self.out
    }

    /// Whether another iteration `depth` deep may start: no limit reached
    /// and `depth` within the depth limit.
    pub fn may_deepen(&mut self, depth: u32) -> bool {
        if self.limits.depth.is_some_and(|d| depth > d) {
            return false;
        }
        if !self.out {
            self.out = self.past_time() || self.stopped();
        }
        !self.out
    }

    /// A budget for one part of a search (a threat search ahead of the
    /// main one, say): `num / den` of the nodes and of the time still left,
    /// the same depth limit and stop flag. Its nodes come back with
    /// [`Budget::absorb`].
    pub fn part(&self, num: u64, den: u64) -> Budget {
        let den = den.max(1);
        let limits = Limits {
            nodes: self
                .limits
                .nodes
                .map(|n| n.saturating_sub(self.nodes) * num / den),
            time: self.limits.time.map(|t| {
                let left = t.saturating_sub(self.started.elapsed());
                left.mul_f64(num as f64 / den as f64)
            }),
            depth: self.limits.depth,
            stop: self.limits.stop.clone(),
        };
        Budget::start(&limits)
    }

    /// Counts the nodes a [`Budget::part`] spent, and looks at the limits.
    pub fn absorb(&mut self, part: &Budget) {
        self.nodes += part.nodes;
        if self.limits.nodes.is_some_and(|max| self.nodes >= max) {
            self.out = true;
        }
        if !self.out {
            self.out = self.past_time() || self.stopped();
        }
    }

    /// Nodes spent so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The limits this budget counts against.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn past_time(&self) -> bool {
        self.limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
    }

    fn stopped(&self) -> bool {
        self.limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_limit_stops_at_exactly_that_many_nodes() {
        let mut b = Budget::start(&Limits::nodes(10));
        let spent = (0..100).take_while(|_| !b.spend()).count();
        assert_eq!(spent, 9);
        assert_eq!(b.nodes(), 10);
        assert!(b.exhausted());
    }

    #[test]
    fn a_raised_stop_flag_stops_at_the_next_check() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut b = Budget::start(&Limits {
            stop: Some(stop.clone()),
            ..Limits::default()
        });
        assert!(!b.spend());
        stop.store(true, Ordering::Relaxed);
        let spent = (0..10 * CHECK_EVERY).take_while(|_| !b.spend()).count() as u64;
        assert!(spent < CHECK_EVERY, "{spent}");
        assert!(!b.may_deepen(1));
    }

    #[test]
    fn a_part_gets_its_share_of_what_is_left_and_gives_its_nodes_back() {
        let mut b = Budget::start(&Limits::nodes(1000));
        for _ in 0..200 {
            b.spend();
        }
        let mut part = b.part(1, 4);
        assert_eq!(part.limits().nodes, Some(200));
        assert_eq!(part.limits().depth, None);
        assert_eq!(
            Budget::start(&Limits::depth(3)).part(1, 2).limits().depth,
            Some(3)
        );
        let spent = (0..1000).take_while(|_| !part.spend()).count();
        assert_eq!(spent, 199);
        b.absorb(&part);
        assert_eq!(b.nodes(), 400);
        assert!(!b.exhausted());
        let mut rest = b.part(1, 1);
        while !rest.spend() {}
        b.absorb(&rest);
        assert_eq!(b.nodes(), 1000);
        assert!(b.exhausted());
    }

    #[test]
    fn the_depth_limit_bounds_deepening_only() {
        let mut b = Budget::start(&Limits::depth(3));
        assert!(b.may_deepen(3));
        assert!(!b.may_deepen(4));
        assert!(!b.spend());
    }
}
