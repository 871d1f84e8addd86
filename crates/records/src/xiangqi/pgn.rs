//! Xiangqi PGN, as xqbase's "中国象棋电脑应用规范(五)：PGN文件格式" defines
//! it and as the programs and web sites of the community write it.
//!
//! Reading takes a file's bytes (UTF-8, GBK/GB18030 or Big5, named or
//! detected) and gives every game in it. A game is tag lines
//! (`[Event "…"]`), then the move text: move numbers (`1.`, `1...`, a
//! continuation line's `3.` before a lone black move), moves in Chinese,
//! WXF or ICCS (each read by [`MoveText`], so a file may mix them and a
//! missing `Format` tag does no harm), comments `{…}` and `;…` to the end of
//! the line, variations `(…)` to any depth, `$n` annotation glyphs, and a
//! result (`1-0`, `0-1`, `1/2-1/2`, `*`). A `[FEN]` tag sets the start, as
//! handicap and endgame records need. Tag values are taken from the first
//! to the last quote of their line, because Chinese files write inner
//! quotes unescaped (`[Event "第24届"五羊杯"全国冠军邀请赛"]`).
//!
//! Writing gives one game in the notation and charset asked for, with the
//! xqbase conventions: a `Game "Chinese Chess"` tag first, `FEN` only for
//! another start, `Format` for WXF and ICCS, one move pair a line, black's
//! numbers in full-width digits in Chinese (`马８进７`), comments on their own
//! lines. Comments are kept; a `}` inside one is written `｝` so the comment
//! stays one.

use std::fmt::Write as _;

use qipan_rules::xiangqi::{
    Counters, Family, Fen, FenError, Move, MoveText, MoveTextError, Namer, Position, Side,
};
use qipan_rules::Reason;

use super::charset::{self, Charset, EncodingError};
use super::record::{number_of, Headers, Outcome, Record, RecordError, Step};
use crate::MAX_INPUT_BYTES;

/// How deep variations inside variations may go.
pub const MAX_NESTING: usize = 100;

/// Where something is in the decoded text: a character offset from the
/// start, and the line and column (both from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location {
    /// Characters before it.
    pub offset: usize,
    /// Its line, from 1.
    pub line: usize,
    /// Its column in characters, from 1.
    pub column: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {} (character {})",
            self.line, self.column, self.offset
        )
    }
}

/// Why a PGN file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// More bytes than [`MAX_INPUT_BYTES`].
    #[error("the file has {size} bytes, more than the {limit} a record may have")]
    TooLarge {
        /// The file's size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The bytes are not text in the charset named or detected.
    #[error(transparent)]
    Encoding(#[from] EncodingError),
    /// No game: neither tags nor moves.
    #[error("there is no game in the file")]
    Empty,
    /// A tag line that is not `[Name "value"]`.
    #[error("game {game}, {at}: {problem}")]
    MalformedTag {
        /// The game, from 1.
        game: usize,
        /// Where the tag starts.
        at: Location,
        /// What is wrong.
        problem: &'static str,
    },
    /// The `FEN` tag is not a position.
    #[error("game {game}, {at}: the FEN tag: {error}")]
    Fen {
        /// The game, from 1.
        game: usize,
        /// Where the tag starts.
        at: Location,
        /// Why the FEN is refused.
        error: FenError,
    },
    /// A `{` comment that is never closed.
    #[error("game {game}, {at}: the comment that starts here is never closed with }}")]
    UnterminatedComment {
        /// The game, from 1.
        game: usize,
        /// Where the comment starts.
        at: Location,
    },
    /// A `(` variation that is never closed.
    #[error("game {game}, {at}: the variation that starts here is never closed with )")]
    UnterminatedVariation {
        /// The game, from 1.
        game: usize,
        /// Where the variation starts.
        at: Location,
    },
    /// A `)` with no `(` before it.
    #[error("game {game}, {at}: ) closes no variation")]
    UnbalancedParenthesis {
        /// The game, from 1.
        game: usize,
        /// Where the parenthesis is.
        at: Location,
    },
    /// Variations nested deeper than [`MAX_NESTING`].
    #[error("game {game}, {at}: variations nest more than {MAX_NESTING} deep")]
    TooDeep {
        /// The game, from 1.
        game: usize,
        /// Where the too-deep variation starts.
        at: Location,
    },
    /// A `(` before any move it could replace.
    #[error("game {game}, {at}: a variation must follow the move it replaces")]
    VariationWithoutMove {
        /// The game, from 1.
        game: usize,
        /// Where the variation starts.
        at: Location,
    },
    /// A move that cannot be read, or names no legal move.
    #[error("{0}")]
    Move(Box<BadMove>),
}

/// A move of a PGN file that cannot be read or played: which, where, why,
/// and what could have been played instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, move {number} ({side}), {at}: {text:?}: {error}; the legal moves are {}", legal.join(" "))]
pub struct BadMove {
    /// The game, from 1.
    pub game: usize,
    /// The move number (a red move and black's reply share one).
    pub number: u32,
    /// Whose move it is.
    pub side: Side,
    /// The move as written.
    pub text: String,
    /// Where it is.
    pub at: Location,
    /// Why it is refused.
    pub error: MoveTextError,
    /// Every legal move of the position, in the notation the text is
    /// written in (the file's `Format`, Chinese when there is none).
    pub legal: Vec<String>,
}

impl Reason for PgnError {
    fn reason(&self) -> &'static str {
        match self {
            PgnError::TooLarge { .. } => "too-large",
            PgnError::Encoding(e) => e.reason(),
            PgnError::Empty => "no-game",
            PgnError::MalformedTag { .. } => "malformed-tag",
            PgnError::Fen { .. } => "invalid-fen",
            PgnError::UnterminatedComment { .. } => "unterminated-comment",
            PgnError::UnterminatedVariation { .. } => "unterminated-variation",
            PgnError::UnbalancedParenthesis { .. } => "unbalanced-parenthesis",
            PgnError::VariationWithoutMove { .. } => "variation-without-move",
            PgnError::TooDeep { .. } => "too-deep",
            PgnError::Move(m) => match m.error {
                MoveTextError::Parse(_) => "unreadable-move",
                MoveTextError::Resolve(_) => "illegal-move",
            },
        }
    }
}

/// Every game of a PGN file.
///
/// `charset` is the one the caller knows (an HTTP `charset` parameter), or
/// `None` to detect it.
///
/// # Errors
///
/// A [`PgnError`]: too many bytes, bytes that are not text, a malformed
/// tag, comment or variation (with where), or a move that cannot be read or
/// played (with its number, its text, why, and the legal moves).
pub fn read(bytes: &[u8], charset: Option<Charset>) -> Result<Vec<Record>, PgnError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(PgnError::TooLarge {
            size: bytes.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let (text, _) = charset::decode(bytes, charset)?;
    read_text(&text)
}

/// Every game of PGN text already decoded.
///
/// # Errors
///
/// As [`read`], less the size and charset.
pub fn read_text(text: &str) -> Result<Vec<Record>, PgnError> {
    let tokens = tokenize(text)?;
    let mut parser = Parser {
        tokens,
        next: 0,
        game: 0,
    };
    let mut games = Vec::new();
    while parser.peek().is_some() {
        parser.game += 1;
        games.push(parser.game()?);
        // Programs add lines after a game's result (xqbase's files end with
        // a banner and a web address): skip to the next game's tags.
        while parser
            .peek()
            .is_some_and(|t| !matches!(t.kind, Kind::Tag(_)))
        {
            parser.next += 1;
        }
    }
    if games.is_empty() {
        return Err(PgnError::Empty);
    }
    Ok(games)
}

// ---- tokens ----------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// `[Name "value"]`, or a line starting with `[` that is not one.
    Tag(Result<(String, String), &'static str>),
    Comment(String),
    Open,
    Close,
    Result(Outcome),
    /// A move number: digits and dots.
    Number,
    Move(String),
    /// `$12`, `!`, `?`…
    Glyph,
    /// `{` never closed (the error needs the game number, known later).
    Unterminated,
}

#[derive(Debug, Clone)]
struct Token {
    kind: Kind,
    at: Location,
}

struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    at: Location,
    /// Whether only whitespace has been seen on the current line.
    line_start: bool,
}

impl Cursor<'_> {
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.at.offset += 1;
        if c == '\n' {
            self.at.line += 1;
            self.at.column = 1;
            self.line_start = true;
        } else {
            self.at.column += 1;
            if !c.is_whitespace() {
                self.line_start = false;
            }
        }
        Some(c)
    }

    fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        while let Some(&c) = self.chars.peek() {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

fn tag(line: &str) -> Result<(String, String), &'static str> {
    let inner = line.trim_end();
    let inner = inner
        .strip_suffix(']')
        .ok_or("a tag line ends with ]")?
        .trim();
    let name_end = inner
        .find(|c: char| c.is_whitespace() || c == '"')
        .ok_or("a tag is [Name \"value\"]: the value is missing")?;
    let (name, rest) = inner.split_at(name_end);
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err("a tag name is letters, digits and _");
    }
    let rest = rest.trim();
    let value = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or("a tag value stands between double quotes")?;
    Ok((name.to_owned(), value.to_owned()))
}

fn tokenize(text: &str) -> Result<Vec<Token>, PgnError> {
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        at: Location {
            offset: 0,
            line: 1,
            column: 1,
        },
        line_start: true,
    };
    let mut out = Vec::new();
    while let Some(&c) = cur.chars.peek() {
        let at = cur.at;
        if c.is_whitespace() || c == '\u{FEFF}' {
            cur.bump();
            continue;
        }
        match c {
            '[' if cur.line_start => {
                cur.bump();
                let line = cur.rest_of_line();
                out.push(Token {
                    kind: Kind::Tag(tag(&line)),
                    at,
                });
            }
            '%' if cur.line_start => {
                cur.rest_of_line();
            }
            ';' => {
                cur.bump();
                let line = cur.rest_of_line();
                out.push(Token {
                    kind: Kind::Comment(super::record::comment(&line).unwrap_or_default()),
                    at,
                });
            }
            '{' => {
                cur.bump();
                let mut s = String::new();
                let mut closed = false;
                while let Some(c) = cur.bump() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    s.push(c);
                }
                let kind = if closed {
                    Kind::Comment(super::record::comment(&s).unwrap_or_default())
                } else {
                    Kind::Unterminated
                };
                out.push(Token { kind, at });
            }
            '(' => {
                cur.bump();
                out.push(Token {
                    kind: Kind::Open,
                    at,
                });
            }
            ')' => {
                cur.bump();
                out.push(Token {
                    kind: Kind::Close,
                    at,
                });
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = cur.chars.peek() {
                    if is_delimiter(c) {
                        break;
                    }
                    word.push(c);
                    cur.bump();
                }
                if word.is_empty() {
                    // A lone `]` or `}` outside a tag or comment.
                    cur.bump();
                    out.push(Token {
                        kind: Kind::Move(c.to_string()),
                        at,
                    });
                    continue;
                }
                words(&word, at, &mut out);
            }
        }
    }
    Ok(out)
}

/// Splits a word of move text: a move number glued to its move (`1.炮二平五`),
/// results, glyphs, and the move with any `!`/`?` suffix dropped.
fn words(word: &str, at: Location, out: &mut Vec<Token>) {
    if let Some(outcome) = Outcome::from_pgn(word) {
        out.push(Token {
            kind: Kind::Result(outcome),
            at,
        });
        return;
    }
    if word.starts_with('$') || word.chars().all(|c| matches!(c, '!' | '?')) {
        out.push(Token {
            kind: Kind::Glyph,
            at,
        });
        return;
    }
    let digits = word.chars().take_while(|c| c.is_ascii_digit()).count();
    let dots = word
        .chars()
        .skip(digits)
        .take_while(|&c| c == '.' || c == '。' || c == '．')
        .count();
    if word.chars().all(|c| c == '.' || c == '…') {
        // `...` standing for red's move before a lone black move.
        out.push(Token {
            kind: Kind::Number,
            at,
        });
        return;
    }
    if digits > 0 && dots > 0 {
        out.push(Token {
            kind: Kind::Number,
            at,
        });
        let rest: String = word.chars().skip(digits + dots).collect();
        if !rest.is_empty() {
            let at = Location {
                offset: at.offset + digits + dots,
                line: at.line,
                column: at.column + digits + dots,
            };
            words(&rest, at, out);
        }
        return;
    }
    let text = word.trim_end_matches(['!', '?']);
    out.push(Token {
        kind: Kind::Move(text.to_owned()),
        at,
    });
}

// ---- games -----------------------------------------------------------------

struct Parser {
    tokens: Vec<Token>,
    next: usize,
    game: usize,
}

/// What a line of moves is read against.
struct LineStart<'a> {
    position: Position,
    /// The start of the game, for move numbers.
    fen: &'a Fen,
    /// The ply of the line's first move, counted from the game's start.
    first_ply: usize,
    family: Family,
    /// How many variations hold this line (0 for the main line).
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.next)
    }

    fn game(&mut self) -> Result<Record, PgnError> {
        let mut headers = Headers::default();
        let mut start = None;
        let mut family = Family::Chinese;
        while let Some(Token {
            kind: Kind::Tag(tag),
            at,
        }) = self.peek().cloned()
        {
            self.next += 1;
            let (name, value) = tag.map_err(|problem| PgnError::MalformedTag {
                game: self.game,
                at,
                problem,
            })?;
            match name.to_ascii_lowercase().as_str() {
                "fen" => {
                    let fen: Fen = value.parse().map_err(|error| PgnError::Fen {
                        game: self.game,
                        at,
                        error,
                    })?;
                    start = Some(fen);
                }
                "format" => {
                    family = match value.to_ascii_lowercase().as_str() {
                        "wxf" => Family::Wxf,
                        "iccs" => Family::Iccs,
                        _ => Family::Chinese,
                    }
                }
                "game" => {}
                _ => set_header(&mut headers, name, value),
            }
        }
        let fen = start.unwrap_or(Fen {
            position: Position::start(),
            counters: Counters::default(),
        });
        let line = LineStart {
            position: fen.position.clone(),
            fen: &fen,
            first_ply: 1,
            family,
            depth: 0,
        };
        let (moves, comment, outcome) = self.line(&line, None)?;
        if let Some(outcome) = outcome {
            if headers.result == Outcome::Unknown {
                headers.result = outcome;
            }
        }
        Ok(Record {
            headers,
            start: fen.clone(),
            comment,
            moves,
        })
    }

    /// Reads moves until the line ends: at `)` when `open` (the variation's
    /// `(`) is given, else at a result, the next game's tags or the end.
    /// Gives the steps, a comment before the first move, and the result.
    #[allow(clippy::type_complexity)]
    fn line(
        &mut self,
        start: &LineStart<'_>,
        open: Option<Location>,
    ) -> Result<(Vec<Step>, Option<String>, Option<Outcome>), PgnError> {
        let mut steps: Vec<Step> = Vec::new();
        let mut before: Option<String> = None;
        let mut pos = start.position.clone();
        let mut previous: Option<Position> = None;
        let game = self.game;
        loop {
            let Some(token) = self.peek().cloned() else {
                return match open {
                    Some(at) => Err(PgnError::UnterminatedVariation { game, at }),
                    None => Ok((steps, before, None)),
                };
            };
            match token.kind {
                Kind::Tag(_) if open.is_none() => return Ok((steps, before, None)),
                Kind::Tag(_) => {
                    return Err(PgnError::UnterminatedVariation {
                        game,
                        at: open.unwrap_or(token.at),
                    })
                }
                Kind::Result(outcome) => {
                    self.next += 1;
                    if open.is_none() {
                        // Comments after the result belong to the game.
                        while let Some(Token {
                            kind: Kind::Comment(c),
                            ..
                        }) = self.peek().cloned()
                        {
                            self.next += 1;
                            attach(&mut steps, &mut before, c);
                        }
                        return Ok((steps, before, Some(outcome)));
                    }
                }
                Kind::Comment(c) => {
                    self.next += 1;
                    attach(&mut steps, &mut before, c);
                }
                Kind::Unterminated => {
                    return Err(PgnError::UnterminatedComment { game, at: token.at })
                }
                Kind::Number | Kind::Glyph => self.next += 1,
                Kind::Open => {
                    self.next += 1;
                    let ply = (start.first_ply + steps.len()).saturating_sub(1);
                    let (Some(last), Some(prev)) = (steps.last_mut(), previous.as_ref()) else {
                        return Err(PgnError::VariationWithoutMove { game, at: token.at });
                    };
                    if start.depth >= MAX_NESTING {
                        return Err(PgnError::TooDeep { game, at: token.at });
                    }
                    let variation = LineStart {
                        position: prev.clone(),
                        fen: start.fen,
                        first_ply: ply,
                        family: start.family,
                        depth: start.depth + 1,
                    };
                    let (mut line, lead, _) = self.line(&variation, Some(token.at))?;
                    if let (Some(lead), Some(first)) = (lead, line.first_mut()) {
                        first.comment = Some(match first.comment.take() {
                            Some(c) => format!("{lead}\n{c}"),
                            None => lead,
                        });
                    }
                    if !line.is_empty() {
                        last.variations.push(line);
                    }
                }
                Kind::Close => {
                    self.next += 1;
                    return match open {
                        Some(_) => Ok((steps, before, None)),
                        None => Err(PgnError::UnbalancedParenthesis { game, at: token.at }),
                    };
                }
                Kind::Move(text) => {
                    self.next += 1;
                    let ply = start.first_ply + steps.len();
                    let mv = resolve(&pos, &text).map_err(|error| {
                        let family = match &error {
                            MoveTextError::Resolve(_) => text
                                .parse::<MoveText>()
                                .map(|t| t.family())
                                .unwrap_or(start.family),
                            MoveTextError::Parse(_) => start.family,
                        };
                        let (number, side) = number_of(start.fen, ply);
                        PgnError::Move(Box::new(BadMove {
                            game,
                            number,
                            side,
                            text: text.clone(),
                            at: token.at,
                            error,
                            legal: legal_names(&pos, family),
                        }))
                    })?;
                    let next = pos.play(mv).unwrap_or_else(|_| pos.clone());
                    previous = Some(std::mem::replace(&mut pos, next));
                    steps.push(Step::new(mv));
                }
            }
        }
    }
}

fn resolve(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let parsed: MoveText = text.parse()?;
    Ok(parsed.resolve(pos)?)
}

fn attach(steps: &mut [Step], before: &mut Option<String>, comment: String) {
    if comment.is_empty() {
        return;
    }
    let slot = match steps.last_mut() {
        Some(step) => &mut step.comment,
        None => before,
    };
    *slot = Some(match slot.take() {
        Some(c) => format!("{c}\n{comment}"),
        None => comment,
    });
}

/// Every legal move of `pos` named in `family`.
pub(crate) fn legal_names(pos: &Position, family: Family) -> Vec<String> {
    let namer = Namer::new(pos);
    pos.legal_actions()
        .into_iter()
        .map(|m| match (family, namer.names(m)) {
            (Family::Chinese, Some(n)) => n.chinese.to_string(),
            (Family::Wxf, Some(n)) => n.wxf.to_string(),
            _ => m.to_string(),
        })
        .collect()
}

fn set_header(h: &mut Headers, name: String, value: String) {
    let slot = match name.to_ascii_lowercase().as_str() {
        "event" => &mut h.event,
        "site" => &mut h.site,
        "date" => &mut h.date,
        "round" => &mut h.round,
        "red" => &mut h.red,
        "redteam" => &mut h.red_team,
        "black" => &mut h.black,
        "blackteam" => &mut h.black_team,
        "termination" => &mut h.termination,
        "timecontrol" => &mut h.time_control,
        "ecco" | "eco" => &mut h.ecco,
        "opening" => &mut h.opening,
        "variation" => &mut h.variation,
        "result" => {
            h.result = Outcome::from_pgn(value.trim()).unwrap_or(Outcome::Unknown);
            return;
        }
        _ => {
            if let Some(v) = super::record::header(&value) {
                h.other.push((name, v));
            }
            return;
        }
    };
    *slot = super::record::header(&value);
}

// ---- writing ---------------------------------------------------------------

/// Why a record cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// A move of the record is not legal where it stands.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The charset cannot write a character of the record.
    #[error(transparent)]
    Encoding(#[from] EncodingError),
}

impl Reason for WriteError {
    fn reason(&self) -> &'static str {
        match self {
            WriteError::Record(e) => e.reason(),
            WriteError::Encoding(e) => e.reason(),
        }
    }
}

/// The record as PGN, its moves in `notation`, in `charset`.
///
/// # Errors
///
/// [`WriteError::Record`] when a move is not legal where it stands (a
/// record built by hand), [`WriteError::Encoding`] when Big5 lacks a
/// character.
pub fn write(record: &Record, notation: Family, charset: Charset) -> Result<Vec<u8>, WriteError> {
    Ok(charset::encode(&write_text(record, notation)?, charset)?)
}

/// The record as PGN text.
///
/// # Errors
///
/// [`RecordError`] when a move is not legal where it stands.
pub fn write_text(record: &Record, notation: Family) -> Result<String, RecordError> {
    let h = &record.headers;
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace(['\r', '\n'], " ");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    };
    tag("Game", "Chinese Chess");
    let fields: [(&str, &Option<String>); 13] = [
        ("Event", &h.event),
        ("Site", &h.site),
        ("Date", &h.date),
        ("Round", &h.round),
        ("RedTeam", &h.red_team),
        ("Red", &h.red),
        ("BlackTeam", &h.black_team),
        ("Black", &h.black),
        ("ECCO", &h.ecco),
        ("Opening", &h.opening),
        ("Variation", &h.variation),
        ("TimeControl", &h.time_control),
        ("Termination", &h.termination),
    ];
    for (name, value) in &fields[..8] {
        if let Some(v) = value {
            tag(name, v);
        }
    }
    tag("Result", h.result.as_pgn());
    for (name, value) in &fields[8..] {
        if let Some(v) = value {
            tag(name, v);
        }
    }
    let standard =
        record.start.position == Position::start() && record.start.counters == Counters::default();
    if !standard {
        tag("FEN", &record.start.to_string());
    }
    match notation {
        Family::Chinese => {}
        Family::Wxf => tag("Format", "WXF"),
        Family::Iccs => tag("Format", "ICCS"),
    }
    for (name, value) in &h.other {
        tag(name, value);
    }
    out.push('\n');
    if let Some(c) = &record.comment {
        let _ = writeln!(out, "{{{}}}", comment_text(c));
    }
    let writer = LineWriter {
        fen: &record.start,
        notation,
    };
    writer.line(&mut out, &record.start.position, &record.moves, 1, 0)?;
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{}", h.result.as_pgn());
    Ok(out)
}

fn comment_text(c: &str) -> String {
    c.replace('}', "｝")
}

struct LineWriter<'a> {
    fen: &'a Fen,
    notation: Family,
}

impl LineWriter<'_> {
    /// The name of `mv` in the writer's notation, black's digits
    /// full-width in Chinese.
    fn name(&self, pos: &Position, mv: Move) -> String {
        match (self.notation, qipan_rules::xiangqi::names(pos, mv)) {
            (Family::Chinese, Some(n)) => {
                let text = n.chinese.to_string();
                match pos.turn() {
                    Side::Red => text,
                    Side::Black => text
                        .chars()
                        .map(|c| match c {
                            '1'..='9' => {
                                char::from_u32(c as u32 - '1' as u32 + '１' as u32).unwrap_or(c)
                            }
                            other => other,
                        })
                        .collect(),
                }
            }
            (Family::Wxf, Some(n)) => n.wxf.to_string(),
            _ => mv.to_string(),
        }
    }

    /// Writes a line from `start`, its first move being ply `first_ply`;
    /// `depth` 0 is the main line (a move pair a line), deeper ones are
    /// variations written inline.
    fn line(
        &self,
        out: &mut String,
        start: &Position,
        line: &[Step],
        first_ply: usize,
        depth: usize,
    ) -> Result<(), RecordError> {
        let mut pos = start.clone();
        let mut need_number = true;
        for (i, step) in line.iter().enumerate() {
            let ply = first_ply + i;
            let (number, side) = number_of(self.fen, ply);
            let name = self.name(&pos, step.mv);
            let next = pos.play(step.mv).map_err(|error| RecordError {
                line_start: first_ply,
                ply,
                error,
            })?;
            match (side, depth, need_number) {
                (Side::Red, 0, _) => {
                    let _ = write!(out, "{number:>3}. {name}");
                }
                (Side::Black, 0, true) => {
                    let _ = write!(out, "{number:>3}. {:width$}{name}", "", width = 8);
                }
                (Side::Black, 0, false) => {
                    let _ = write!(out, " {name}");
                }
                (Side::Red, _, _) => {
                    let _ = write!(out, " {number}. {name}");
                }
                (Side::Black, _, true) => {
                    let _ = write!(out, " {number}. ... {name}");
                }
                (Side::Black, _, false) => {
                    let _ = write!(out, " {name}");
                }
            }
            need_number = false;
            let mut broke = false;
            if let Some(c) = &step.comment {
                if depth == 0 {
                    let _ = write!(out, "\n{{{}}}\n", comment_text(c));
                    broke = true;
                } else {
                    let _ = write!(out, " {{{}}}", comment_text(c));
                }
                need_number = true;
            }
            for variation in &step.variations {
                if depth == 0 && !broke {
                    out.push('\n');
                }
                out.push_str(if depth == 0 { "(" } else { " (" });
                let mut inner = String::new();
                self.line(&mut inner, &pos, variation, ply, depth + 1)?;
                out.push_str(inner.trim_start());
                out.push(')');
                if depth == 0 {
                    out.push('\n');
                }
                broke = depth == 0;
                need_number = true;
            }
            if depth == 0 && !broke && side == Side::Black {
                out.push('\n');
            }
            if depth == 0 && (broke || side == Side::Black) {
                need_number = true;
            }
            pos = next;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_xqbase_example_reads() {
        let text = "[Game \"Chinese Chess\"]\n[Event \"第24届\"五羊杯\"全国冠军邀请赛\"]\n\
                    [Result \"1-0\"]\n\n1. 炮二平五 马８进７\n{红方首着}\n2. 马二进三\n2.          车９平８ (2. ... 炮２平５) 1-0\n";
        let games = read_text(text).unwrap();
        let game = &games[0];
        assert_eq!(
            game.headers.event.as_deref(),
            Some("第24届\"五羊杯\"全国冠军邀请赛")
        );
        assert_eq!(game.headers.result, Outcome::RedWins);
        let line: Vec<String> = game.main_line().iter().map(|m| m.to_string()).collect();
        assert_eq!(line, ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(game.moves[1].comment.as_deref(), Some("红方首着"));
        assert_eq!(game.moves[3].variations[0][0].mv.to_string(), "b7e7");
    }

    #[test]
    fn a_continuation_line_reads() {
        let text = "1. 炮二平五\n{中炮}\n1.          马８进７ 2. 马二进三 (2. 马八进七 车９平８) 车９平８ *";
        let games = read_text(text).unwrap();
        let game = &games[0];
        assert_eq!(game.moves.len(), 4);
        assert_eq!(game.moves[0].comment.as_deref(), Some("中炮"));
        assert_eq!(game.moves[2].variations.len(), 1);
        assert_eq!(game.moves[2].variations[0][0].mv.to_string(), "b0c2");
        assert_eq!(game.headers.result, Outcome::Unknown);
    }
}
