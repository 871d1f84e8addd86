//! Plays one level of qipan's gomoku computer against another, from seeded
//! openings, each opening with both colours: how far apart the levels are.
//!
//! ```text
//! gomoku-levels --a 1 --b 10 --rule freestyle --nodes 50000 --openings 5 --seed 1
//! ```
//!
//! Each move gets the node budget (a level may use less: it caps its own
//! depth), so the games are the same on every machine.

use qipan_engine::gomoku;
use qipan_engine::{Level, Limits};
use qipan_rules::gomoku::{Point, Position, Stone, Variant};
use qipan_rules::rng::SplitMix64;
use qipan_rules::Status;
use qipan_strength::{arg, Tally};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a: Level = arg(&args, "--a", "1").parse().expect("--a is a level");
    let b: Level = arg(&args, "--b", "10").parse().expect("--b is a level");
    let variant: Variant = arg(&args, "--rule", "freestyle").parse().expect("--rule");
    let nodes: u64 = arg(&args, "--nodes", "50000").parse().expect("--nodes");
    let openings: usize = arg(&args, "--openings", "5").parse().expect("--openings");
    let seed: u64 = arg(&args, "--seed", "1").parse().expect("--seed");
    let mut rng = SplitMix64(seed);
    let mut tally = Tally::default();
    for g in 0..openings {
        let mut start = Position::new(variant, 15).expect("15x15");
        start = start
            .play(Point::new(7, 7).expect("h8"))
            .expect("the centre");
        while start.stone_count(Stone::Black) + start.stone_count(Stone::White) < 3 {
            let p =
                Point::new(5 + rng.below(5) as u8, 5 + rng.below(5) as u8).expect("on the board");
            if let Ok(next) = start.play(p) {
                start = next;
            }
        }
        for a_plays in Stone::ALL {
            let mut pos = start.clone();
            let result = loop {
                match pos.status() {
                    Status::Won { winner, .. } => break if winner == a_plays { 1 } else { -1 },
                    Status::Drawn { .. } | Status::Over { .. } => break 0,
                    Status::Ongoing => {}
                }
                let level = if pos.turn() == a_plays { a } else { b };
                let m = gomoku::choose(&pos, level, seed ^ g as u64, &Limits::nodes(nodes))
                    .expect("a move in a game going on");
                pos = pos.play(m).expect("the engine plays legal moves");
            };
            match result {
                1 => tally.wins += 1,
                0 => tally.draws += 1,
                _ => tally.losses += 1,
            }
        }
    }
    println!(
        "{variant}: level {a} against level {b}, {nodes} nodes a move: {}",
        tally.report()
    );
}
