//! What the match runners share: the score report, and a UCCI engine
//! driven over its standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use qipan_rules::xiangqi::Move;

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

/// A UCCI engine (ElephantEye, say) playing without its book.
pub struct Ucci {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Ucci {
    /// Starts the engine at `path` and waits for `ucciok`.
    pub fn start(path: &str) -> Ucci {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut u = Ucci {
            child,
            input,
            output,
        };
        u.send("ucci");
        u.wait_for(&["ucciok"]);
        u.send("setoption usebook false");
        u.send("setoption newgame");
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
        if moves.is_empty() {
            self.send(&format!("position fen {position}"));
        } else {
            self.send(&format!(
                "position fen {position} moves {}",
                moves.join(" ")
            ));
        }
        self.send(go);
        let reply = self.wait_for(&["bestmove", "nobestmove"]);
        let mut words = reply.split_whitespace();
        if words.next() == Some("nobestmove") {
            return Err(SeesDraw);
        }
        Ok(words.next().and_then(|m| m.parse().ok()))
    }

    /// The engine's last reported score (for the side to move), depth and
    /// its move after `moves` from `position`, searching `ms` milliseconds.
    pub fn think(
        &mut self,
        position: &str,
        moves: &[String],
        ms: u64,
    ) -> (Option<i32>, Option<u32>, String) {
        if moves.is_empty() {
            self.send(&format!("position fen {position}"));
        } else {
            self.send(&format!(
                "position fen {position} moves {}",
                moves.join(" ")
            ));
        }
        self.send(&format!("go time {ms} movestogo 1"));
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
                    if let Some(s) = after("score") {
                        score = Some(s);
                        depth = after("depth").map(|d: i32| d.max(0) as u32);
                    }
                }
                Some(&"bestmove") => {
                    return (score, depth, words.get(1).unwrap_or(&"").to_string())
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
