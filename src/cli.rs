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

/// `qipan healthcheck`: asks the service at `addr` for `/healthz` (the
/// loopback address when it listens on every interface) and succeeds when it
/// answers 200 within `timeout` — what a container's HEALTHCHECK runs, with
/// nothing else installed in the image.
///
/// # Errors
///
/// When the service cannot be reached, does not answer in time, or answers
/// anything but 200.
pub fn healthcheck(addr: std::net::SocketAddr, timeout: std::time::Duration) -> anyhow::Result<()> {
    use std::io::Read;
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};

    let target = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port())
        }
        _ => addr,
    };
    let mut stream = TcpStream::connect_timeout(&target, timeout)
        .with_context(|| format!("connecting to {target}"))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {target}\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = Vec::new();
    stream
        .take(64 * 1024)
        .read_to_end(&mut answer)
        .with_context(|| format!("reading the answer of {target}"))?;
    let status = String::from_utf8_lossy(&answer)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    if status.starts_with("HTTP/1.1 200") {
        Ok(())
    } else {
        bail!("{target}/healthz answered {status:?}")
    }
}
