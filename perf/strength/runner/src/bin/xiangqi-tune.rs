//! Fits the xiangqi evaluation's weights to what a stronger search says
//! positions are worth, in three steps (docs/strength.md has the run):
//!
//!   xiangqi-tune positions --games 200 --seed 1 [--nodes 20000] > positions.txt
//!   xiangqi-tune label --engine /tmp/eleeye/eleeye.bin --depth 7 < positions.txt > labelled.tsv
//!   xiangqi-tune fit --scale 4.5 [--lambda 2000] < labelled.tsv
//!
//! `positions` plays games of the engine against itself at levels 6 to 8
//! (a pick among the near-best lines, so games differ), the first plies at
//! level 3, and writes each position reached that is not in check, once.
//! `label` asks a UCCI engine for each position's score at a fixed depth
//! (ElephantEye's scores are for the side to move, a chariot about 200)
//! and its best move. `fit` keeps the quiet positions (the best move no
//! capture, no mate score, within ±`--cap` of the engine's units), and
//! finds the weights (`qipan_engine::xiangqi::tune`) whose evaluation
//! comes nearest, by least squares, to `--scale` times the label, each
//! weight pulled towards its present value by `--lambda` (ridge): a place
//! few positions show keeps its weight. A tenth of the positions (every
//! tenth) is kept out of the fit and measures it. It prints the error
//! before and after, the terms' weights and the place tables as Rust.

use std::collections::HashSet;
use std::io::{BufRead, Write};

use qipan_engine::xiangqi::{choose, tune};
use qipan_engine::{Level, Limits};
use qipan_rules::xiangqi::{Counters, History, Move, Position};
use qipan_rules::Status;
use qipan_strength::{arg, Ucci};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("positions") => positions(&args),
        Some("label") => label(&args),
        Some("fit") => fit(&args),
        _ => {
            eprintln!("usage: xiangqi-tune positions|label|fit [options] (see the source's head)");
            std::process::exit(2);
        }
    }
}

fn positions(args: &[String]) {
    let games: u64 = arg(args, "--games", "200").parse().expect("--games");
    let seed: u64 = arg(args, "--seed", "1").parse().expect("--seed");
    let nodes: u64 = arg(args, "--nodes", "20000").parse().expect("--nodes");
    let limits = Limits::nodes(nodes);
    let mut seen = HashSet::new();
    let out = std::io::stdout();
    let mut out = out.lock();
    for g in 0..games {
        let mut game = History::new(Position::start(), Counters::default());
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        for ply in 0..240u64 {
            if game.verdict() != Status::Ongoing {
                break;
            }
            let level = if ply < 6 {
                3
            } else {
                6 + (game_seed + ply) % 3
            };
            let level = Level::new(level as u8).expect("level");
            let Some(m) = choose(&game, level, game_seed ^ ply, &limits) else {
                break;
            };
            if game.push(m).is_err() {
                break;
            }
            let pos = game.position();
            if !pos.is_check() && ply >= 6 {
                let fen = pos.to_fen();
                if seen.insert(fen.clone()) {
                    writeln!(out, "{fen}").expect("stdout");
                }
            }
        }
    }
}

fn label(args: &[String]) {
    let engine = arg(args, "--engine", "/tmp/eleeye/eleeye.bin");
    let depth: u32 = arg(args, "--depth", "7").parse().expect("--depth");
    let mut them = Ucci::start(&engine);
    let out = std::io::stdout();
    let mut out = out.lock();
    for line in std::io::stdin().lock().lines() {
        let fen = line.expect("stdin");
        let fen = fen.trim();
        if fen.is_empty() {
            continue;
        }
        let (score, _, best) = them.think_with(fen, &[], &format!("go depth {depth}"));
        if let Some(s) = score {
            writeln!(out, "{fen}\t{s}\t{best}").expect("stdout");
        }
    }
}

/// One labelled position: its features and the label.
struct Sample {
    features: Vec<(usize, f64)>,
    label: f64,
}

fn fit(args: &[String]) {
    let scale: f64 = arg(args, "--scale", "4.5").parse().expect("--scale");
    let lambda: f64 = arg(args, "--lambda", "2000").parse().expect("--lambda");
    let cap: i32 = arg(args, "--cap", "400").parse().expect("--cap");
    let mut train = Vec::new();
    let mut test = Vec::new();
    let mut skipped = 0;
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.expect("stdin");
        let mut cols = line.split('\t');
        let (Some(fen), Some(score), Some(best)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        let Ok(score) = score.parse::<i32>() else {
            continue;
        };
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        let capture = best
            .parse::<Move>()
            .is_ok_and(|m| pos.piece_at(m.to).is_some());
        if score.abs() > cap || capture || pos.is_check() {
            skipped += 1;
            continue;
        }
        let Some(features) = tune::features(&pos) else {
            skipped += 1;
            continue;
        };
        let s = Sample {
            features,
            label: scale * f64::from(score),
        };
        if i % 10 == 9 {
            test.push(s);
        } else {
            train.push(s);
        }
    }
    eprintln!(
        "{} positions to fit, {} to test, {} left out (captures, checks, mates, beyond ±{cap})",
        train.len(),
        test.len(),
        skipped
    );
    let w0 = tune::weights();
    let n = tune::LEN;
    // How the present evaluation compares with the labels: the slopes of
    // the two least-squares lines through the origin, evaluation on label
    // (the scale it would take) and label on evaluation.
    let (mut el, mut ll, mut ee) = (0.0, 0.0, 0.0);
    for s in &train {
        let e: f64 = s.features.iter().map(|&(i, x)| w0[i] * x).sum();
        let l = s.label / scale;
        el += e * l;
        ll += l * l;
        ee += e * e;
    }
    eprintln!(
        "present evaluation against the label: slope {:.2}, inverse slope {:.2}",
        el / ll,
        ee / el
    );
    // The normal equations of the ridge: (XᵀX + λI) w = Xᵀy + λ w0.
    let mut a = vec![0.0f64; n * n];
    let mut rhs = vec![0.0f64; n];
    for s in &train {
        for &(i, x) in &s.features {
            rhs[i] += x * s.label;
            for &(j, y) in &s.features {
                a[i * n + j] += x * y;
            }
        }
    }
    for i in 0..n {
        a[i * n + i] += lambda;
        rhs[i] += lambda * w0[i];
    }
    let w = solve(a, rhs, n).expect("the ridge's matrix is positive definite");
    let rms = |w: &[f64], set: &[Sample]| {
        let e: f64 = set
            .iter()
            .map(|s| {
                let p: f64 = s.features.iter().map(|&(i, x)| w[i] * x).sum();
                (p - s.label).powi(2)
            })
            .sum();
        (e / set.len().max(1) as f64).sqrt()
    };
    eprintln!(
        "root mean square error, centipawns: before {:.1} (fit set) {:.1} (test set); after {:.1} {:.1}",
        rms(&w0, &train),
        rms(&w0, &test),
        rms(&w, &train),
        rms(&w, &test)
    );
    // How often each place weight is seen, to weigh the kinds' means.
    let mut seen = vec![0.0f64; n];
    for s in &train {
        for &(i, x) in &s.features {
            seen[i] += x.abs();
        }
    }
    for (k, name) in tune::KINDS.iter().enumerate() {
        let (mut before, mut after, mut count) = (0.0, 0.0, 0.0);
        for i in k * 50..k * 50 + 50 {
            before += w0[i] * seen[i];
            after += w[i] * seen[i];
            count += seen[i];
        }
        if count > 0.0 {
            println!(
                "// {name}: mean {:.0} before, {:.0} after",
                before / count,
                after / count
            );
        }
    }
    for (t, name) in tune::TERMS.iter().enumerate() {
        let i = tune::PLACES + t;
        println!("// {name}: {:.2} before, {:.2} after", w0[i], w[i]);
    }
    for (k, name) in tune::KINDS.iter().enumerate() {
        println!("// {name} (material and place)");
        println!("[");
        for row in 0..10 {
            let cells: Vec<String> = (0..9)
                .map(|file| format!("{:.0}", w[tune::place_index(k, row, file)]))
                .collect();
            println!("    [{}],", cells.join(", "));
        }
        println!("],");
    }
}

/// Solves `a` x = `b` (`a` symmetric positive definite, `n` × `n`, by
/// rows) by Cholesky's factorisation; `None` when `a` is not positive
/// definite.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    // L y = b, then Lᵀ x = y.
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= a[k * n + i] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::solve;

    #[test]
    fn solves_a_small_system() {
        // [[4, 2], [2, 3]] x = [2, 1]: x = [0.5, 0].
        let x = solve(vec![4.0, 2.0, 2.0, 3.0], vec![2.0, 1.0], 2).expect("definite");
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12);
    }
}
