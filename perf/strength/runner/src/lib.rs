//! What the match runners share: their flags, the score report, a xiangqi
//! engine driven over its standard input and output in UCCI (ElephantEye)
//! or UCI (Fairy-Stockfish), and a Tetris bot driven in the Tetris Bot
//! Protocol ([`tbp`]).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use qipan_rules::xiangqi::{Move, Square};

pub mod tbp;

/// Wins, draws and losses of our engine, and what they say in Elo.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    /// Games our engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games our engine lost.
    pub losses: u32,
}

impl Tally {
    /// The score, the Elo difference and its 95% interval (from the
    /// normal approximation of the score; open-ended at 0% and 100%).
    pub fn report(&self) -> String {
        let n = f64::from(self.wins + self.draws + self.losses);
        if n == 0.0 {
            return "no games".to_owned();
        }
        let s = (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n;
        let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
        let se = (s * (1.0 - s) / n).sqrt().max(0.5 / n);
        let (lo, hi) = ((s - 1.96 * se).max(1e-6), (s + 1.96 * se).min(1.0 - 1e-6));
        let point = if s <= 0.0 {
            "-inf".to_owned()
        } else if s >= 1.0 {
            "+inf".to_owned()
        } else {
            format!("{:+.0}", elo(s))
        };
        format!(
            "+{} ={} -{} of {}: score {:.1}%, Elo {} (95%: {:+.0} to {:+.0})",
            self.wins,
            self.draws,
            self.losses,
            n,
            100.0 * s,
            point,
            elo(lo),
            elo(hi)
        )
    }
}

/// A UCCI engine's `nobestmove`: by its own rules the game is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeesDraw;

/// How an engine is spoken to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI (ElephantEye): moves in ICCS (`h2e2`, ranks 0–9), searches
    /// timed by `go time T movestogo 1`, played without the opening book.
    Ucci,
    /// UCI with a variant (Fairy-Stockfish): `UCI_Variant` set to
    /// `variant`, the `options` (name, value) set after it; moves with
    /// ranks 1–10 (`h3e3`, see [`uci_move`]), searches timed by
    /// `go movetime T`.
    Uci {
        /// The `UCI_Variant` value, `xiangqi`.
        variant: String,
        /// Further `setoption` pairs, such as (`Use NNUE`, `false`).
        options: Vec<(String, String)>,
    },
}

impl Protocol {
    /// The search command for `ms` milliseconds a move.
    pub fn go_time(&self, ms: u64) -> String {
        match self {
            Protocol::Ucci => format!("go time {ms} movestogo 1"),
            Protocol::Uci { .. } => format!("go movetime {ms}"),
        }
    }
}

/// A UCI point as Fairy-Stockfish writes xiangqi: the ICCS file, then the
/// rank counted from 1 at red's back rank to 10 at black's (ICCS `e0` is
/// `e1`, `a9` is `a10`).
pub fn uci_square(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + sq.file()), sq.rank() + 1)
}

/// A move in Fairy-Stockfish's xiangqi notation (`h2e2` is `h3e3`).
pub fn uci_move(m: Move) -> String {
    format!("{}{}", uci_square(m.from), uci_square(m.to))
}

/// Reads a move in Fairy-Stockfish's xiangqi notation: `None` for
/// anything else (`(none)` when it has no move, a rank 0 or 11, a file
/// past `i`).
pub fn parse_uci_move(text: &str) -> Option<Move> {
    fn square(text: &str) -> Option<(Square, &str)> {
        let file = text.bytes().next().filter(u8::is_ascii_lowercase)? - b'a';
        let digits = text[1..].bytes().take_while(u8::is_ascii_digit).count();
        let rank: u8 = text[1..1 + digits].parse().ok()?;
        let sq = Square::from_iccs(file, rank.checked_sub(1)?)?;
        Some((sq, &text[1 + digits..]))
    }
    if !text.is_ascii() || text.len() > 6 {
        return None;
    }
    let (from, rest) = square(text)?;
    let (to, rest) = square(rest)?;
    (rest.is_empty() && from != to).then_some(Move { from, to })
}

/// A xiangqi engine (ElephantEye over UCCI, Fairy-Stockfish over UCI).
pub struct Ucci {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    protocol: Protocol,
    /// The depth of the engine's last `info depth` line before its last
    /// move (0 when it sent none).
    pub last_depth: u32,
}

/// Starts the program at `path` with its standard input and output piped
/// (what it writes to its standard error is dropped): the child, what
/// writes to it and what reads from it.
///
/// # Panics
///
/// When the program cannot be started.
pub fn spawn(path: &str) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
    let input = child.stdin.take().expect("piped stdin");
    let output = BufReader::new(child.stdout.take().expect("piped stdout"));
    (child, input, output)
}

impl Ucci {
    /// Starts the UCCI engine at `path` and waits for `ucciok`.
    pub fn start(path: &str) -> Ucci {
        Ucci::start_with(path, Protocol::Ucci)
    }

    /// Starts the engine at `path`, speaking `protocol`, and waits until
    /// it is ready for a game.
    pub fn start_with(path: &str, protocol: Protocol) -> Ucci {
        let (child, input, output) = spawn(path);
        let mut u = Ucci {
            child,
            input,
            output,
            protocol: protocol.clone(),
            last_depth: 0,
        };
        match protocol {
            Protocol::Ucci => {
                u.send("ucci");
                u.wait_for(&["ucciok"]);
                u.send("setoption usebook false");
                u.send("setoption newgame");
            }
            Protocol::Uci { variant, options } => {
                u.send("uci");
                u.wait_for(&["uciok"]);
                u.send(&format!("setoption name UCI_Variant value {variant}"));
                for (name, value) in &options {
                    u.send(&format!("setoption name {name} value {value}"));
                }
                u.send("ucinewgame");
                u.send("isready");
                u.wait_for(&["readyok"]);
            }
        }
        u
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("engine stdin");
        self.input.flush().expect("engine stdin");
    }

    /// The first line that starts with one of `words`.
    pub fn wait_for(&mut self, words: &[&str]) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line).unwrap_or(0) == 0 {
                return String::new();
            }
            if line
                .split_whitespace()
                .next()
                .is_some_and(|w| words.contains(&w))
            {
                return line.trim().to_owned();
            }
        }
    }

    /// The engine's move after `game`: `Ok(None)` when it has none,
    /// `Err(SeesDraw)` when it answers `nobestmove` (ElephantEye does when its
    /// own rules see a draw: a repetition, 100 plies without a capture, or
    /// no attacking piece left). `go` is the search command (`go time 300
    /// movestogo 1`, `go nodes 500000`).
    pub fn play(
        &mut self,
        position: &str,
        moves: &[String],
        go: &str,
    ) -> Result<Option<Move>, SeesDraw> {
        self.position(position, moves);
        self.send(go);
        self.last_depth = 0;
        let reply = loop {
            let line = self.wait_for(&["info", "bestmove", "nobestmove"]);
            let mut words = line.split_whitespace();
            if words.next() != Some("info") {
                break line;
            }
            if let (Some("depth"), Some(d)) = (words.next(), words.next()) {
                self.last_depth = d.parse().unwrap_or(self.last_depth);
            }
        };
        let mut words = reply.split_whitespace();
        if words.next() == Some("nobestmove") {
            return Err(SeesDraw);
        }
        Ok(words.next().and_then(|m| self.parse_move(m)))
    }

    /// Sends the position: `position` (a FEN) and then `moves` in ICCS,
    /// written in the engine's notation.
    fn position(&mut self, position: &str, moves: &[String]) {
        let mut line = format!("position fen {position}");
        if !moves.is_empty() {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                match (&self.protocol, m.parse::<Move>()) {
                    (Protocol::Uci { .. }, Ok(m)) => line.push_str(&uci_move(m)),
                    _ => line.push_str(m),
                }
            }
        }
        self.send(&line);
    }

    /// A move as the engine writes it.
    fn parse_move(&self, text: &str) -> Option<Move> {
        match self.protocol {
            Protocol::Ucci => text.parse().ok(),
            Protocol::Uci { .. } => parse_uci_move(text),
        }
    }

    /// The engine's last reported score (for the side to move; UCI's
    /// `score cp N`), depth and its move in ICCS after `moves` from
    /// `position`, searching `ms` milliseconds.
    pub fn think(
        &mut self,
        position: &str,
        moves: &[String],
        ms: u64,
    ) -> (Option<i32>, Option<u32>, String) {
        let go = self.protocol.go_time(ms);
        self.think_with(position, moves, &go)
    }

    /// [`Ucci::think`] with the search command `go` (`go depth 7`).
    pub fn think_with(
        &mut self,
        position: &str,
        moves: &[String],
        go: &str,
    ) -> (Option<i32>, Option<u32>, String) {
        self.position(position, moves);
        self.send(go);
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.wait_for(&["info", "bestmove", "nobestmove"]);
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"info") => {
                    let after = |w: &str| {
                        words
                            .iter()
                            .position(|x| *x == w)
                            .and_then(|i| words.get(i + 1))
                            .and_then(|v| v.parse().ok())
                    };
                    // UCCI writes `score N`, UCI `score cp N`.
                    if let Some(s) = after("score").or_else(|| after("cp")) {
                        score = Some(s);
                        depth = after("depth").map(|d: i32| d.max(0) as u32);
                    }
                }
                Some(&"bestmove") => {
                    let best = words.get(1).and_then(|m| self.parse_move(m));
                    return (score, depth, best.map_or(String::new(), |m| m.to_string()));
                }
                _ => return (score, depth, String::new()),
            }
        }
    }
}

impl Drop for Ucci {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        std::thread::sleep(Duration::from_millis(30));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value after the flag `name` in `args`, or `default`.
pub fn arg(args: &[String], name: &str, default: &str) -> String {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_owned())
}

/// The values after every `name` in `args`, in order (a flag that may be
/// given more than once).
pub fn arg_all(args: &[String], name: &str) -> Vec<String> {
    args.windows(2)
        .filter(|w| w[0] == name)
        .map(|w| w[1].clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_ranks_run_from_one_to_ten() {
        let m = |s: &str| s.parse::<Move>().unwrap();
        assert_eq!(uci_move(m("h2e2")), "h3e3");
        assert_eq!(uci_move(m("h9g7")), "h10g8");
        assert_eq!(uci_move(m("e0e1")), "e1e2");
        assert_eq!(uci_move(m("a9a0")), "a10a1");
        assert_eq!(parse_uci_move("h3e3"), Some(m("h2e2")));
        assert_eq!(parse_uci_move("b10c8"), Some(m("b9c7")));
        assert_eq!(parse_uci_move("i1i10"), Some(m("i0i9")));
    }

    #[test]
    fn every_uci_move_reads_back() {
        for from in Square::all() {
            for to in Square::all().filter(|&to| to != from) {
                let m = Move { from, to };
                assert_eq!(parse_uci_move(&uci_move(m)), Some(m), "{m}");
            }
        }
    }

    #[test]
    fn what_is_no_uci_move_is_refused() {
        for text in [
            "(none)", "h0e0", "h11e3", "j1a1", "h3h3", "h3e", "h3e3x", "H3e3", "", "a100a1",
        ] {
            assert_eq!(parse_uci_move(text), None, "{text}");
        }
    }
}
