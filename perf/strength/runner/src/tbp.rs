//! A Tetris bot driven over its standard input and output in the Tetris Bot
//! Protocol (TBP): one JSON object a line, each with a `type`.
//!
//! The messages and their fields are those of the protocol's specification,
//! <https://github.com/tetris-bot-protocol/tbp-spec>: `text/0000-mvp.md`
//! (`info`, `rules`, `ready`, `start`, `suggest`, `suggestion`, `play`,
//! `new_piece`, `stop`, `quit`; the board, the piece location) and
//! `text/0001-randomizer.md` (the `randomizer` of `rules` and `start`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};
use std::time::Duration;

use qipan_rules::tetris::{Cells, Kind, HEIGHT, WIDTH};
use serde::{Deserialize, Serialize};

/// A rotation state as TBP names it: spawn is `north`, one clockwise turn
/// `east` (0000-mvp.md, "piece location").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// The spawn state.
    North,
    /// One clockwise turn from spawn.
    East,
    /// Two turns.
    South,
    /// One counter-clockwise turn.
    West,
}

/// Whether a move is a spin, as the bot says (0000-mvp.md, `suggestion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spin {
    /// No spin.
    None,
    /// A mini spin.
    Mini,
    /// A full spin.
    Full,
}

/// Where a piece locks: its letter, its state and the column and row (0 at
/// the left and at the bottom) of its centre (0000-mvp.md, "piece
/// location"; the centre is placed by [`Location::cells`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// The piece's letter.
    #[serde(rename = "type")]
    pub kind: char,
    /// Its rotation state.
    pub orientation: Orientation,
    /// The centre's column.
    pub x: i32,
    /// The centre's row.
    pub y: i32,
}

/// A move of a `suggestion`, sent back as it came in `play`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// Where the piece locks.
    pub location: Location,
    /// The spin the bot expects.
    pub spin: Spin,
}

/// The cells of each piece in the north state around its centre, `(dx, dy)`
/// with `dy` up, in the order I, O, T, S, Z, J, L ([`Kind::index`]).
///
/// TBP (0000-mvp.md) puts the centre of J, L, S, T and Z at the stationary
/// point of their SRS rotation (the middle of the three in a row), the
/// centre of the north O at its bottom-left mino and of the north I at its
/// middle-left mino, after SRS true rotation. The other states are these
/// cells turned about the centre, which puts the O's centre at its
/// top-left mino in `east`, top-right in `south` and bottom-right in
/// `west`, and the I's at its middle-top, middle-right and middle-bottom,
/// as the specification says. cold-clear's `libtetris` (src/piece.rs,
/// `PieceState::cells`) has the same table.
const NORTH: [[(i32, i32); 4]; 7] = [
    [(-1, 0), (0, 0), (1, 0), (2, 0)],  // I
    [(0, 0), (1, 0), (0, 1), (1, 1)],   // O
    [(-1, 0), (0, 0), (1, 0), (0, 1)],  // T
    [(-1, 0), (0, 0), (0, 1), (1, 1)],  // S
    [(-1, 1), (0, 1), (0, 0), (1, 0)],  // Z
    [(-1, 0), (0, 0), (1, 0), (-1, 1)], // J
    [(-1, 0), (0, 0), (1, 0), (1, 1)],  // L
];

impl Location {
    /// The piece, when the letter is one.
    pub fn kind(&self) -> Option<Kind> {
        self.kind.to_string().parse().ok()
    }

    /// The four cells, `(column, row)` in ascending order as the rules
    /// crate lists them; `None` for an unknown letter or a cell outside
    /// the 10 × 40 field.
    pub fn cells(&self) -> Option<Cells> {
        let north = NORTH[self.kind()?.index()];
        let mut cells = [(0, 0); 4];
        for (cell, (dx, dy)) in cells.iter_mut().zip(north) {
            // A clockwise quarter turn takes (dx, dy) to (dy, -dx).
            let (dx, dy) = match self.orientation {
                Orientation::North => (dx, dy),
                Orientation::East => (dy, -dx),
                Orientation::South => (-dx, -dy),
                Orientation::West => (-dy, dx),
            };
            let (c, r) = (self.x + dx, self.y + dy);
            *cell = (
                u8::try_from(c).ok().filter(|&c| usize::from(c) < WIDTH)?,
                u8::try_from(r).ok().filter(|&r| usize::from(r) < HEIGHT)?,
            );
        }
        cells.sort_unstable();
        Some(cells)
    }
}

/// The bag's state after the queue (0001-randomizer.md, `seven_bag`).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Randomizer {
    SevenBag { bag_state: Vec<char> },
}

/// What the frontend says.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ToBot {
    Rules {
        randomizer: &'static str,
    },
    Start {
        hold: Option<char>,
        queue: Vec<char>,
        combo: u32,
        back_to_back: bool,
        /// 40 rows of 10 cells, row 0 at the bottom: `null`, a piece's
        /// letter, or `G` for garbage (0000-mvp.md, `start`).
        board: Vec<[Option<char>; WIDTH]>,
        randomizer: Randomizer,
    },
    Suggest,
    Play {
        #[serde(rename = "move")]
        mv: Move,
    },
    NewPiece {
        piece: char,
    },
    Stop,
    Quit,
}

/// What the bot says; other types are ignored, as the specification asks.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum FromBot {
    Info {
        name: String,
        version: String,
        author: String,
    },
    Ready,
    Error {
        reason: String,
    },
    Suggestion {
        moves: Vec<Move>,
    },
    #[serde(other)]
    Other,
}

/// A piece's letter.
pub fn letter(kind: Kind) -> char {
    kind.as_str().chars().next().expect("a kind has a letter")
}

/// A TBP bot, started and told the rules (a 7-bag).
pub struct Bot {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The bot's `info`: name, version and author.
    pub name: String,
}

impl Bot {
    /// Starts the bot at `path`, reads its `info`, sends `rules` with the
    /// 7-bag randomizer and waits for `ready`.
    ///
    /// # Panics
    ///
    /// When the bot cannot be started, says nothing, or refuses the rules.
    pub fn start(path: &str) -> Bot {
        let (child, input, output) = crate::spawn(path);
        let mut bot = Bot {
            child,
            input,
            output,
            name: String::new(),
        };
        loop {
            if let FromBot::Info {
                name,
                version,
                author,
            } = bot.receive()
            {
                bot.name = format!("{name} {version} by {author}");
                break;
            }
        }
        bot.send(&ToBot::Rules {
            randomizer: "seven_bag",
        });
        loop {
            match bot.receive() {
                FromBot::Ready => break,
                FromBot::Error { reason } => panic!("{path} refuses the rules: {reason}"),
                _ => {}
            }
        }
        bot
    }

    /// Starts a game on an empty field: `queue` is the active piece and the
    /// previews, `bag` what is left of the bag after them (all seven when
    /// it is empty, since the specification wants it non-empty).
    pub fn new_game(&mut self, hold: Option<Kind>, queue: &[Kind], bag: &[Kind]) {
        let bag = if bag.is_empty() { &Kind::ALL[..] } else { bag };
        self.send(&ToBot::Start {
            hold: hold.map(letter),
            queue: queue.iter().copied().map(letter).collect(),
            combo: 0,
            back_to_back: false,
            board: vec![[None; WIDTH]; HEIGHT],
            randomizer: Randomizer::SevenBag {
                bag_state: bag.iter().copied().map(letter).collect(),
            },
        });
    }

    /// The bot's moves, most preferred first (empty when it gives up).
    pub fn suggest(&mut self) -> Vec<Move> {
        self.send(&ToBot::Suggest);
        loop {
            if let FromBot::Suggestion { moves } = self.receive() {
                return moves;
            }
        }
    }

    /// Tells the bot that `mv` was played.
    pub fn play(&mut self, mv: Move) {
        self.send(&ToBot::Play { mv });
    }

    /// Tells the bot that `kind` joined the end of the queue.
    pub fn new_piece(&mut self, kind: Kind) {
        self.send(&ToBot::NewPiece {
            piece: letter(kind),
        });
    }

    /// Ends the game (the bot stops thinking).
    pub fn stop(&mut self) {
        self.send(&ToBot::Stop);
    }

    fn send(&mut self, message: &ToBot) {
        let line = serde_json::to_string(message).expect("messages serialise");
        writeln!(self.input, "{line}").expect("bot stdin");
        self.input.flush().expect("bot stdin");
    }

    fn receive(&mut self) -> FromBot {
        let mut line = String::new();
        if self.output.read_line(&mut line).unwrap_or(0) == 0 {
            panic!("the bot closed its output");
        }
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bot said {line:?}: {e}"))
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = serde_json::to_string(&ToBot::Quit)
            .map(|line| writeln!(self.input, "{line}").and_then(|()| self.input.flush()));
        std::thread::sleep(Duration::from_millis(30));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipan_rules::tetris::{Action, Position, Rotation};

    fn at(kind: Kind, orientation: Orientation, x: i32, y: i32) -> Location {
        Location {
            kind: letter(kind),
            orientation,
            x,
            y,
        }
    }

    /// A game whose first piece is `kind`.
    fn game_with(kind: Kind) -> Position {
        (0..)
            .map(Position::new)
            .find(|p| p.piece().is_some_and(|(k, _, _)| k == kind))
            .expect("every kind comes first in some seed")
    }

    /// TBP: "pieces spawn in the North orientation at x=4, roughly y=19"
    /// (0000-mvp.md, `rules`); the rules crate shows each piece there.
    #[test]
    fn every_piece_appears_at_the_spawn_place_tbp_names() {
        for kind in Kind::ALL {
            let (_, rot, cells) = game_with(kind).piece().unwrap();
            assert_eq!(rot, Rotation::Spawn);
            assert_eq!(
                at(kind, Orientation::North, 4, 19).cells(),
                Some(cells),
                "{kind}"
            );
        }
    }

    /// Turned in the open, J, L, S, T and Z keep their centre; the I's
    /// centre goes middle-left, middle-top, middle-right, middle-bottom
    /// (0000-mvp.md) as the rules crate turns it about its box.
    #[test]
    fn turns_in_the_open_match_the_tbp_centres() {
        use Orientation::{East, North, South, West};
        for kind in Kind::ALL.into_iter().filter(|&k| k != Kind::O) {
            let centres = if kind == Kind::I {
                [(North, 4, 19), (East, 5, 19), (South, 5, 18), (West, 4, 18)]
            } else {
                [(North, 4, 19), (East, 4, 19), (South, 4, 19), (West, 4, 19)]
            };
            let mut pos = game_with(kind);
            for (orientation, x, y) in centres {
                let (_, _, cells) = pos.piece().unwrap();
                assert_eq!(
                    at(kind, orientation, x, y).cells(),
                    Some(cells),
                    "{kind} {orientation:?}"
                );
                pos = pos.play(Action::Cw).unwrap();
            }
        }
    }

    /// The O's centre is its bottom-left, top-left, top-right and
    /// bottom-right mino from north to west (0000-mvp.md).
    #[test]
    fn the_o_centre_moves_round_the_square() {
        let square = Some([(4, 19), (4, 20), (5, 19), (5, 20)]);
        assert_eq!(at(Kind::O, Orientation::North, 4, 19).cells(), square);
        assert_eq!(at(Kind::O, Orientation::East, 4, 20).cells(), square);
        assert_eq!(at(Kind::O, Orientation::South, 5, 20).cells(), square);
        assert_eq!(at(Kind::O, Orientation::West, 5, 19).cells(), square);
    }

    #[test]
    fn cells_outside_the_field_are_refused() {
        assert_eq!(at(Kind::I, Orientation::North, 8, 0).cells(), None);
        assert!(at(Kind::T, Orientation::North, 4, 0).cells().is_some());
        assert_eq!(at(Kind::T, Orientation::South, 4, 0).cells(), None);
        let mut bad = at(Kind::T, Orientation::North, 4, 5);
        bad.kind = 'X';
        assert_eq!(bad.cells(), None);
    }

    #[test]
    fn messages_are_written_as_the_specification_shows() {
        let mv = Move {
            location: at(Kind::T, Orientation::East, 4, 1),
            spin: Spin::Full,
        };
        assert_eq!(
            serde_json::to_string(&ToBot::Play { mv }).unwrap(),
            r#"{"type":"play","move":{"location":{"type":"T","orientation":"east","x":4,"y":1},"spin":"full"}}"#
        );
        assert_eq!(
            serde_json::to_string(&ToBot::NewPiece { piece: 'S' }).unwrap(),
            r#"{"type":"new_piece","piece":"S"}"#
        );
        let reply: FromBot = serde_json::from_str(
            r#"{"type":"suggestion","moves":[{"location":{"type":"I","orientation":"north","x":4,"y":0},"spin":"none"}]}"#,
        )
        .unwrap();
        let FromBot::Suggestion { moves } = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(
            moves[0].location.cells(),
            Some([(3, 0), (4, 0), (5, 0), (6, 0)])
        );
        let other: FromBot = serde_json::from_str(r#"{"type":"later","x":1}"#).unwrap();
        assert!(matches!(other, FromBot::Other));
    }
}
