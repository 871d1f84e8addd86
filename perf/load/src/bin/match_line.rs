//! A seeded line of 2048 moves for the match measurement of
//! `perf/scripts/request-cost.sh`: what one client plays in its solo
//! matches, a move a request.
//!
//! ```text
//! cargo run --release -p qipan-load --bin match_line -- COUNT [SEED]
//! ```
//!
//! Prints COUNT moves, one a line, each preceded where a match begins by a
//! line `new SEED`: the seed of the match to create
//! (`POST /v1/matches {"game": "2048", "seed": SEED}`), from which the
//! moves after it are legal in order. Each move is the first legal one of
//! down, left, right, up (a corner strategy, so a match lasts hundreds of
//! moves); a match that ends is followed by a new one, its seed one more.
//! The same arguments print the same lines.

use anyhow::{anyhow, Context};
use qipan::wire::StartQuery;
use qipan_rules::GameKind;

/// The order moves are tried in.
const PREFERENCE: [&str; 4] = ["down", "left", "right", "up"];

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: match_line COUNT [SEED]";
    let count: usize = args.next().context(usage)?.parse().context("COUNT")?;
    let mut seed: u64 = args.next().map_or(Ok(1), |s| s.parse()).context("SEED")?;
    let mut out = String::new();
    let mut played = 0;
    while played < count {
        let query = StartQuery {
            seed: Some(seed),
            ..StartQuery::default()
        };
        let (mut pos, _) =
            qipan::games::start(GameKind::Twenty48, &query).map_err(|e| anyhow!("{e:?}"))?;
        out.push_str(&format!("new {seed}\n"));
        while played < count {
            let legal = pos.legal_actions();
            let Some(action) = PREFERENCE
                .iter()
                .find_map(|p| legal.iter().find(|a| a.to_string() == *p))
            else {
                break;
            };
            out.push_str(&format!("{action}\n"));
            pos = pos
                .play(*action)
                .map_err(|e| anyhow!("a legal action was refused: {e:?}"))?;
            played += 1;
        }
        seed += 1;
    }
    print!("{out}");
    Ok(())
}
