//! `qipan perft <game> <code-or-FEN> <depth> [--divide]`, so anyone can
//! compare the move generator with another engine from the shell.

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context};
use qipan_rules::{AnyPosition, GameKind};

/// Arguments of `qipan perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The game (`xiangqi`, `gomoku`, `2048`, `quoridor`, `tetris`).
    pub game: String,
    /// The position: a state code, or for xiangqi a FEN (quote it).
    pub position: String,
    /// How many plies deep to count.
    pub depth: u32,
    /// Print the count under each legal move first, one `move: count` a line.
    #[arg(long)]
    pub divide: bool,
}

/// Runs perft and prints the node count (last line) to `out`; timing goes to
/// standard error.
///
/// # Errors
///
/// An unknown game or a position that does not parse.
pub fn perft(args: &PerftArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let Ok(game) = args.game.parse::<GameKind>() else {
        let games: Vec<&str> = GameKind::ALL.iter().map(|g| g.as_str()).collect();
        bail!(
            "unknown game {:?}; the games are {}",
            args.game,
            games.join(", ")
        );
    };
    if args.depth > 12 {
        bail!(
            "depth {} is more than this machine will finish; use 12 or less",
            args.depth
        );
    }
    let pos = if game == GameKind::Xiangqi && args.position.contains('/') {
        qipan_rules::xiangqi::Position::from_fen(&args.position)
            .context("reading the FEN")?
            .into()
    } else {
        AnyPosition::from_code(game, &args.position)
            .with_context(|| format!("reading the {game} state code"))?
    };
    let started = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for action in pos.legal_actions() {
            let n = match pos.play(action) {
                Ok(next) => next.perft(args.depth - 1),
                Err(e) => bail!("{action} is listed as legal but refused: {e}"),
            };
            writeln!(out, "{action}: {n}")?;
            total += n;
        }
        writeln!(out)?;
        total
    } else {
        pos.perft(args.depth)
    };
    writeln!(out, "{total}")?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{total} nodes in {secs:.3} s ({:.1} M nodes/s)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
