//! qipan's Tetris engine and a bot that speaks the Tetris Bot Protocol
//! (such as cold-clear's `cc-tbp`) on the same seeded 7-bag games of the
//! rules crate, at the same time a piece, without garbage.
//!
//!   tetris-vs-tbp --bot /tmp/cold-clear/target/release/cc-tbp --bot qipan \
//!       --runs 10 --first-seed 1 --pieces 1000 --ms 20
//!
//! Each `--bot` is `qipan` (`tetris::analyse` with a limit of `--ms`) or
//! the path of a TBP program. With two or more, every seed is played by
//! each bot in turn before the next seed, so that all meet the same load;
//! then each bot's totals are printed.
//!
//! The rules crate referees both: its pieces, five previews, hold, SRS
//! kicks, T-spin rule, clears and top-out; lines, tetrises and T-spin
//! clears are its locks', attack is `qipan_engine::tetris::attack` of them.
//!
//! A TBP bot is given the rules (a 7-bag), then `start` with the active
//! piece, the five previews and what is left of the bag, and thinks from
//! then on; `--ms` milliseconds after it was last told something it is
//! asked to `suggest`. Its first suggested move that the rules crate can
//! play is looked up among the rules crate's placements (after `hold`
//! when it names another piece than the active one) by its four cells,
//! with the same T-spin class when there is one, and played by that
//! placement's actions; then the bot is sent `play` with its move and
//! `new_piece` for each preview that appeared. A move no placement has is
//! counted as not matched; a bot with no playable move has given up, which
//! ends its game like a top-out.

use std::time::{Duration, Instant};

use qipan_engine::{tetris, Limits};
use qipan_rules::tetris::{Action, Placement, Position, TSpin, QUEUE_LEN};
use qipan_strength::tbp::{Bot, Move, Spin};
use qipan_strength::{arg, arg_all};

/// One bot's game.
#[derive(Debug, Default, Clone)]
struct Run {
    seed: u64,
    pieces: u64,
    topped_out: bool,
    lines: u64,
    attack: u64,
    tetrises: u64,
    tspins: u64,
    max_height: usize,
    /// Wall time from the moment the bot could start on a piece until its
    /// move came.
    spent: Duration,
    /// Of `spent`, the time a TBP bot took to answer `suggest`.
    reply: Duration,
    /// The engine's nodes (none for a TBP bot: the protocol does not say).
    nodes: u64,
    /// Suggested moves that no placement of the rules crate has.
    unmatched: u64,
    /// Moves played whose T-spin class the rules crate saw otherwise.
    spin_differs: u64,
}

/// A game in progress: the position, the back-to-back flag and the tally.
struct Game {
    pos: Position,
    b2b: bool,
    run: Run,
}

impl Game {
    fn new(seed: u64) -> Game {
        Game {
            pos: Position::new(seed),
            b2b: false,
            run: Run {
                seed,
                ..Run::default()
            },
        }
    }

    fn over(&self) -> bool {
        !self.pos.status().is_ongoing()
    }

    /// Plays `actions` (a legal path that ends in a lock) and counts what
    /// the lock did.
    fn play(&mut self, actions: &[Action]) {
        for &act in actions {
            let (next, lock) = self
                .pos
                .play_traced(act)
                .unwrap_or_else(|e| panic!("seed {}: {act}: {e}", self.run.seed));
            self.pos = next;
            if let Some(lock) = lock {
                let r = &mut self.run;
                r.lines += u64::from(lock.lines);
                r.tetrises += u64::from(lock.lines == 4);
                r.tspins += u64::from(lock.tspin.is_some() && lock.lines > 0);
                r.attack += u64::from(tetris::attack(lock.lines, lock.tspin, &mut self.b2b));
                r.pieces += 1;
            }
        }
        self.run.max_height = self.run.max_height.max(height(&self.pos));
    }

    fn finish(mut self) -> Run {
        self.run.topped_out = self.run.topped_out || self.over();
        self.run
    }
}

/// Rows from the bottom up to the highest filled one.
fn height(pos: &Position) -> usize {
    (0..40u8)
        .rev()
        .find(|&r| (0..10u8).any(|c| pos.cell(c, r) == Some(true)))
        .map_or(0, |r| usize::from(r) + 1)
}

/// The rules crate's placement for a TBP move: whether to hold first, the
/// placement, and whether its T-spin class is the one the bot named.
/// `None` when the move names a piece that is neither the active one nor
/// the one hold brings in, or cells no placement fills.
fn placement_of(pos: &Position, mv: &Move) -> Option<(bool, Placement, bool)> {
    let kind = mv.location.kind()?;
    let cells = mv.location.cells()?;
    let (active, _, _) = pos.piece()?;
    // TBP: "Whether a hold should be performed is inferred from the type of
    // piece to be placed" (0000-mvp.md, `suggestion`).
    let hold = kind != active;
    let from = if hold {
        let held = pos.play(Action::Hold).ok()?;
        (held.piece()?.0 == kind).then_some(held)?
    } else {
        pos.clone()
    };
    let spin = match mv.spin {
        Spin::None => None,
        Spin::Mini => Some(TSpin::Mini),
        Spin::Full => Some(TSpin::Full),
    };
    let mut same_cells = from.placements().into_iter().filter(|p| p.cells == cells);
    let first = same_cells.next()?;
    if first.tspin == spin {
        return Some((hold, first, true));
    }
    match same_cells.find(|p| p.tspin == spin) {
        Some(p) => Some((hold, p, true)),
        None => Some((hold, first, false)),
    }
}

/// A TBP bot plays seed `seed`: a new game on the running bot.
fn play_tbp(bot: &mut Bot, seed: u64, pieces: u64, think: Duration) -> Run {
    let mut g = Game::new(seed);
    let (active, _, _) = g.pos.piece().expect("a new game has a piece");
    let mut queue = vec![active];
    queue.extend(g.pos.queue());
    bot.new_game(g.pos.hold(), &queue, &g.pos.bag());
    let mut since = Instant::now();
    while g.run.pieces < pieces && !g.over() {
        std::thread::sleep(think.saturating_sub(since.elapsed()));
        let asked = Instant::now();
        let moves = bot.suggest();
        g.run.reply += asked.elapsed();
        g.run.spent += since.elapsed();
        // TBP: "The frontend should play the most preferred valid move. If
        // no moves are valid, the bot forfeits" (0000-mvp.md, `suggestion`).
        let mut chosen = None;
        for mv in moves {
            match placement_of(&g.pos, &mv) {
                Some(found) => {
                    chosen = Some((mv, found));
                    break;
                }
                None => {
                    g.run.unmatched += 1;
                    eprintln!(
                        "seed {seed}, piece {}: no placement for {mv:?} (active {:?}, hold {:?}, queue {:?})\n{}",
                        g.run.pieces + 1,
                        g.pos.piece().map(|p| p.0),
                        g.pos.hold(),
                        g.pos.queue(),
                        g.pos.rows().join("\n")
                    );
                }
            }
        }
        let Some((mv, (hold, placement, same_spin))) = chosen else {
            g.run.topped_out = true;
            break;
        };
        g.run.spin_differs += u64::from(!same_spin);
        // Holding into an empty hold takes the next piece from the queue,
        // and the rules crate deals one more preview for it.
        let mut appeared = 1;
        if hold {
            appeared += usize::from(g.pos.hold().is_none());
            g.play(&[Action::Hold]);
        }
        g.play(&placement.actions);
        bot.play(mv);
        for &kind in &g.pos.queue()[QUEUE_LEN - appeared..] {
            bot.new_piece(kind);
        }
        since = Instant::now();
    }
    bot.stop();
    g.finish()
}

/// The engine plays seed `seed` with `think` a piece.
fn play_qipan(seed: u64, pieces: u64, think: Duration) -> Run {
    let limits = Limits {
        time: Some(think),
        ..Limits::default()
    };
    let mut g = Game::new(seed);
    while g.run.pieces < pieces && !g.over() {
        let started = Instant::now();
        let an = tetris::analyse(&g.pos, &limits, 1);
        g.run.spent += started.elapsed();
        g.run.nodes += an.nodes;
        let Some(p) = an.best() else {
            g.run.topped_out = true;
            break;
        };
        let actions = p.actions.clone();
        g.play(&actions);
    }
    g.finish()
}

enum Player {
    Qipan,
    Tbp(Box<Bot>),
}

fn per_piece(n: u64, pieces: u64) -> f64 {
    n as f64 / pieces.max(1) as f64
}

fn ms_a_piece(r: &Run) -> f64 {
    1000.0 * r.spent.as_secs_f64() / r.pieces.max(1) as f64
}

fn nodes_a_second(r: &Run) -> f64 {
    r.nodes as f64 / r.spent.as_secs_f64().max(1e-9)
}

/// One run's line; `tbp` for a TBP bot (its reply time and matching, no
/// nodes).
fn report(name: &str, r: &Run, tbp: bool) {
    let mut line = format!(
        "{name} seed {}: {} pieces{}, {:.3} lines/piece, {:.3} attack/piece, {} tetrises, {} T-spin clears, highest stack {}, {:.1} ms a piece",
        r.seed,
        r.pieces,
        if r.topped_out { " (topped out)" } else { "" },
        per_piece(r.lines, r.pieces),
        per_piece(r.attack, r.pieces),
        r.tetrises,
        r.tspins,
        r.max_height,
        ms_a_piece(r),
    );
    if !tbp {
        line += &format!(", {:.0} nodes/s", nodes_a_second(r));
    } else {
        line += &format!(
            " ({:.1} of it the reply to suggest), {} not matched, {} with another T-spin class",
            1000.0 * r.reply.as_secs_f64() / r.pieces.max(1) as f64,
            r.unmatched,
            r.spin_differs
        );
    }
    println!("{line}");
}

/// A bot's totals over its runs.
fn summary(name: &str, runs: &[Run], pieces: u64, tbp: bool) {
    let sum = |f: fn(&Run) -> u64| runs.iter().map(f).sum::<u64>();
    let placed = sum(|r| r.pieces);
    let seconds = |f: fn(&Run) -> Duration| runs.iter().map(|r| f(r).as_secs_f64()).sum::<f64>();
    let range = |f: &dyn Fn(&Run) -> f64| {
        let v = runs.iter().map(f);
        (
            v.clone().fold(f64::INFINITY, f64::min),
            v.fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let (a_lo, a_hi) = range(&|r| per_piece(r.attack, r.pieces));
    let (h_lo, h_hi) = range(&|r| r.max_height as f64);
    let (ms_lo, ms_hi) = range(&ms_a_piece);
    let mut line = format!(
        "{name}: {} of {} runs placed {pieces} pieces without topping out; {placed} pieces, {:.3} lines/piece, {:.3} attack/piece ({a_lo:.3}-{a_hi:.3} a run), {} tetrises, {} T-spin clears, highest stack {h_lo:.0}-{h_hi:.0}, {:.1} ms a piece ({ms_lo:.1}-{ms_hi:.1} a run)",
        runs.iter().filter(|r| !r.topped_out).count(),
        runs.len(),
        per_piece(sum(|r| r.lines), placed),
        per_piece(sum(|r| r.attack), placed),
        sum(|r| r.tetrises),
        sum(|r| r.tspins),
        1000.0 * seconds(|r| r.spent) / placed.max(1) as f64,
    );
    if tbp {
        line += &format!(
            ", {:.1} ms of that the reply to suggest; {} suggested moves not matched, {} played with another T-spin class",
            1000.0 * seconds(|r| r.reply) / placed.max(1) as f64,
            sum(|r| r.unmatched),
            sum(|r| r.spin_differs),
        );
    } else {
        let (n_lo, n_hi) = range(&nodes_a_second);
        line += &format!(", {n_lo:.0}-{n_hi:.0} nodes/s a run");
    }
    println!("{line}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |name: &str, default: &str| -> u64 {
        arg(&args, name, default)
            .parse()
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let runs = number("--runs", "10");
    let first_seed = number("--first-seed", "1");
    let pieces = number("--pieces", "1000");
    let think = Duration::from_millis(number("--ms", "20"));
    let mut names = arg_all(&args, "--bot");
    if names.is_empty() {
        names.push("qipan".to_owned());
    }
    let mut players: Vec<(String, Player)> = names
        .into_iter()
        .map(|name| {
            if name == "qipan" {
                (name, Player::Qipan)
            } else {
                let bot = Bot::start(&name);
                eprintln!("{name}: {}", bot.name);
                (name, Player::Tbp(Box::new(bot)))
            }
        })
        .collect();
    let mut done: Vec<Vec<Run>> = vec![Vec::new(); players.len()];
    for seed in first_seed..first_seed + runs {
        for ((name, player), played) in players.iter_mut().zip(&mut done) {
            let r = match player {
                Player::Qipan => play_qipan(seed, pieces, think),
                Player::Tbp(bot) => play_tbp(bot, seed, pieces, think),
            };
            report(name, &r, matches!(player, Player::Tbp(_)));
            played.push(r);
        }
    }
    for ((name, player), runs) in players.iter().zip(&done) {
        summary(name, runs, pieces, matches!(player, Player::Tbp(_)));
    }
}
