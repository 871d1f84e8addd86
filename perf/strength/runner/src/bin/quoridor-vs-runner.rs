//! Plays qipan's quoridor engine against a shortest-path runner: an
//! opponent that never places a wall and always steps to a square that
//! shortens its path most (ties broken by a seeded draw, so games differ).
//!
//! ```text
//! quoridor-vs-runner --games 50 --nodes 20000 --seed 1
//! quoridor-vs-runner --games 20 --ms 100
//! ```
//!
//! Half the games with the engine as player 1, half as player 2.

use std::time::Duration;

use qipan_engine::quoridor;
use qipan_engine::{Level, Limits};
use qipan_rules::quoridor::{Action, Player, Position};
use qipan_rules::rng::SplitMix64;
use qipan_strength::Tally;

fn runner(pos: &Position, rng: &mut SplitMix64) -> Action {
    let me = pos.turn();
    let left = |s| {
        let next = pos.play(Action::Move(s)).expect("a listed pawn move");
        if next.winner() == Some(me) {
            0
        } else {
            u32::from(next.shortest_path(me).unwrap_or(99)) + 1
        }
    };
    let moves = pos.pawn_moves();
    let best = moves.iter().map(|&s| left(s)).min().unwrap_or(0);
    let ties: Vec<_> = moves.into_iter().filter(|&s| left(s) == best).collect();
    Action::Move(ties[rng.below(ties.len() as u32) as usize])
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = arg(&args, "--games").map_or(20, |s| s.parse().expect("--games"));
    let seed: u64 = arg(&args, "--seed").map_or(1, |s| s.parse().expect("--seed"));
    let limits = match (arg(&args, "--nodes"), arg(&args, "--ms")) {
        (_, Some(ms)) => Limits::time(Duration::from_millis(ms.parse().expect("--ms"))),
        (Some(n), None) => Limits::nodes(n.parse().expect("--nodes")),
        (None, None) => Limits::nodes(20_000),
    };
    let mut rng = SplitMix64(seed);
    let mut tally = [Tally::default(); 2];
    for g in 0..games {
        let engine = Player::ALL[g % 2];
        let mut pos = Position::start();
        let mut plies = 0;
        let winner = loop {
            if let Some(w) = pos.winner() {
                break w;
            }
            let a = if pos.turn() == engine {
                quoridor::choose(&pos, Level::MAX, seed, &limits)
                    .expect("a move in a game going on")
            } else {
                runner(&pos, &mut rng)
            };
            pos = pos.play(a).expect("legal moves only");
            plies += 1;
        };
        let t = &mut tally[engine.index()];
        if winner == engine {
            t.wins += 1;
        } else {
            t.losses += 1;
        }
        println!(
            "game {} engine as player {engine}: {} in {plies} plies, engine walls left {}",
            g + 1,
            if winner == engine { "win" } else { "loss" },
            pos.walls_left(engine)
        );
    }
    println!("engine as player 1: {}", tally[0].report());
    println!("engine as player 2: {}", tally[1].report());
}
