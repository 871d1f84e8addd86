//! Distinct positions of a game, each with one of its legal moves, for the
//! uncached load tests (`perf/scripts/loadtest.sh`): one `code action` line per
//! position, reached by random play from the start.
//!
//! ```text
//! cargo run --release -p qipan-load --bin positions -- GAME COUNT [SEED]
//! ```
//!
//! Each line is a position `4 + i % 60` random moves deep (so openings,
//! middlegames and endgames all appear) that has at least one legal move;
//! no code appears twice. The same arguments print the same lines.

use std::collections::HashSet;

use anyhow::{bail, Context};
use qipan::wire::StartQuery;
use qipan_rules::GameKind;

use qipan_load::rng;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: positions GAME COUNT [SEED]";
    let kind: GameKind = args
        .next()
        .context(usage)?
        .parse()
        .map_err(|_| anyhow::anyhow!("GAME must be one of the five games' names"))?;
    let count: usize = args.next().context(usage)?.parse().context("COUNT")?;
    let seed: u64 = args.next().map_or(Ok(1), |s| s.parse()).context("SEED")?;
    // Games with chance start from a fixed seed, so the lines repeat too.
    let query = StartQuery {
        seed: matches!(kind, GameKind::Twenty48 | GameKind::Tetris).then_some(seed),
        ..StartQuery::default()
    };
    let (start, _) = qipan::games::start(kind, &query).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let mut rng = rng::Rng::new(seed);
    let mut seen = HashSet::new();
    let mut tries = 0usize;
    let mut out = String::new();
    while seen.len() < count {
        tries += 1;
        if tries > count * 20 {
            bail!("only {} distinct positions found", seen.len());
        }
        let depth = 4 + tries % 60;
        let mut pos = start.clone();
        for _ in 0..depth {
            let legal = pos.legal_actions();
            if legal.is_empty() {
                break;
            }
            let next = pos
                .play(legal[rng.below(legal.len())])
                .map_err(|e| anyhow::anyhow!("a legal action was refused: {e:?}"))?;
            pos = next;
        }
        let legal = pos.legal_actions();
        if legal.is_empty() {
            continue;
        }
        let code = pos.to_code();
        if seen.insert(code.clone()) {
            let action = legal[rng.below(legal.len())];
            out.push_str(&format!("{code} {action}\n"));
        }
    }
    print!("{out}");
    Ok(())
}
