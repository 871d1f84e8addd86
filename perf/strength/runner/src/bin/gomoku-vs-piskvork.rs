//! Plays qipan's gomoku engine against a Gomocup (piskvork protocol) brain,
//! such as Rapfi, at equal time per move, from seeded openings, each
//! opening once with each colour.
//!
//! ```text
//! gomoku-vs-piskvork --brain /tmp/rapfi/pbrain-rapfi --rule renju --ms 300 --openings 6 --seed 1
//! ```
//!
//! The brain gets the whole board each move (`BOARD` … `DONE`), with
//! `INFO timeout_turn` set to the same milliseconds our engine gets as its
//! time limit. A brain move that is not legal loses the game for the brain.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};
use std::time::Duration;

use qipan_engine::gomoku;
use qipan_engine::{Level, Limits};
use qipan_rules::gomoku::{Point, Position, Stone, Variant};
use qipan_rules::rng::SplitMix64;
use qipan_rules::Status;
use qipan_strength::{arg, spawn, Tally};

struct Brain {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Brain {
    fn start(path: &str, rule: u8, ms: u64) -> Brain {
        let (child, input, output) = spawn(path);
        let mut b = Brain {
            child,
            input,
            output,
        };
        b.send("START 15");
        b.answer();
        for line in [
            format!("INFO rule {rule}"),
            format!("INFO timeout_turn {ms}"),
            "INFO timeout_match 100000000".to_owned(),
            "INFO time_left 100000000".to_owned(),
            "INFO max_memory 268435456".to_owned(),
        ] {
            b.send(&line);
        }
        b
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("brain stdin");
        self.input.flush().expect("brain stdin");
    }

    /// The next line that is not a message.
    fn answer(&mut self) -> String {
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).unwrap_or(0) == 0 {
                panic!("the brain closed its output");
            }
            let line = line.trim();
            if !(line.starts_with("MESSAGE")
                || line.starts_with("DEBUG")
                || line.starts_with("INFO")
                || line.is_empty())
            {
                return line.to_owned();
            }
        }
    }

    /// The brain's move in `pos` (it plays the side to move).
    fn play(&mut self, pos: &Position) -> Option<Point> {
        let me = pos.turn();
        self.send("BOARD");
        // Stones in the order played where known, else board order.
        let stones: Vec<(Point, Stone)> = match pos.moves() {
            Some(m) => m
                .iter()
                .filter_map(|&p| pos.stone_at(p).map(|s| (p, s)))
                .collect(),
            None => pos.to_setup().stones.into_iter().collect(),
        };
        for (p, s) in stones {
            let who = if s == me { 1 } else { 2 };
            self.send(&format!("{},{},{who}", p.col(), p.row()));
        }
        self.send("DONE");
        let reply = self.answer();
        let (x, y) = reply.split_once(',')?;
        Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?)
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "END");
        std::thread::sleep(Duration::from_millis(50));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A seeded opening: `n` stones on the 5×5 centre, legal and not won.
fn opening(variant: Variant, rng: &mut SplitMix64, n: usize) -> Position {
    loop {
        let mut pos = Position::new(variant, 15).expect("15x15");
        pos = pos.play(Point::new(7, 7).expect("h8")).expect("centre");
        while pos.moves().map_or(0, <[Point]>::len) < n {
            let p = Point::new(5 + rng.below(5) as u8, 5 + rng.below(5) as u8).expect("on board");
            if let Ok(next) = pos.play(p) {
                pos = next;
            }
        }
        if pos.status() == Status::Ongoing {
            return pos;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let brain = arg(&args, "--brain", "/tmp/rapfi/pbrain-rapfi");
    let rule = arg(&args, "--rule", "freestyle");
    let ms: u64 = arg(&args, "--ms", "300").parse().expect("--ms");
    let openings: usize = arg(&args, "--openings", "4").parse().expect("--openings");
    let seed: u64 = arg(&args, "--seed", "1").parse().expect("--seed");
    let stones: usize = arg(&args, "--stones", "3").parse().expect("--stones");
    let (variant, code) = match rule.as_str() {
        "freestyle" => (Variant::Freestyle, 0),
        "standard" => (Variant::Standard, 1),
        "renju" => (Variant::Renju, 4),
        other => panic!("unknown rule {other}"),
    };
    let mut rng = SplitMix64(seed);
    let mut tally = Tally::default();
    for g in 0..openings {
        let start = opening(variant, &mut rng, stones);
        for ours in Stone::ALL {
            let mut b = Brain::start(&brain, code, ms);
            let mut pos = start.clone();
            let mut plies = 0;
            let result = loop {
                match pos.status() {
                    Status::Won { winner, .. } => break if winner == ours { 1 } else { -1 },
                    Status::Drawn { .. } | Status::Over { .. } => break 0,
                    Status::Ongoing => {}
                }
                let m = if pos.turn() == ours {
                    gomoku::choose(
                        &pos,
                        Level::MAX,
                        seed,
                        &Limits::time(Duration::from_millis(ms)),
                    )
                } else {
                    b.play(&pos)
                };
                match m.map(|m| pos.play(m)) {
                    Some(Ok(next)) => {
                        pos = next;
                        plies += 1;
                    }
                    _ => break if pos.turn() == ours { -1 } else { 1 },
                }
            };
            match result {
                1 => tally.wins += 1,
                0 => tally.draws += 1,
                _ => tally.losses += 1,
            }
            println!(
                "game {} opening {} qipan {}: {} after {} more moves  {}",
                2 * g + usize::from(ours == Stone::White) + 1,
                start.move_list().unwrap_or_default(),
                ours,
                ["loss", "draw", "win"][(result + 1) as usize],
                plies,
                pos.move_list().unwrap_or_else(|| pos.to_code()),
            );
        }
    }
    println!("{rule} {ms} ms/move vs {brain}: {}", tally.report());
}
