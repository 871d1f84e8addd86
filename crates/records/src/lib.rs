//! Game records in the formats players already trade, read and written
//! without I/O: bytes in, records out, and back.
//!
//! [`xiangqi`] holds the xiangqi formats: PGN as xqbase's "中国象棋电脑应用
//! 规范(五)" writes it (Chinese, WXF or ICCS moves; UTF-8, GBK/GB18030 or
//! Big5), the binary XQF of 象棋演播室 (every version, the encrypted ones
//! too), the DhtmlXQ blocks of 东萍象棋网, and the ECCO opening code of a
//! line. Every reader takes the file's bytes and gives [`xiangqi::Record`]s
//! whose moves have been checked against the rules crate; every error is an
//! enum with a stable [`qipan_rules::Reason`] name and says where (the move
//! number and its text, or the offset), so a service maps it to a problem
//! response without reading sentences.
//!
//! The other games: [`tetris`] reads and writes fumen v115 strings (every
//! page of one), [`gomoku`] piskvork `.psq` files, RenLib `.pos` files and
//! `.lib` libraries (the line a library holds first) and move lists,
//! [`quoridor`] algebraic move lists (`e2 e8 e3h`).
//!
//! Nothing here knows about HTTP: a handler reads the body, calls one
//! function and maps the result.
//!
//! ```
//! use qipan_records::xiangqi::{pgn, Charset};
//! use qipan_rules::xiangqi::Family;
//!
//! let text = "[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n";
//! let records = pgn::read(text.as_bytes(), None).unwrap();
//! let moves: Vec<String> = records[0].main_line().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["h2e2", "h9g7", "h0g2"]);
//! let wxf = pgn::write(&records[0], Family::Wxf, Charset::Utf8).unwrap();
//! assert!(String::from_utf8(wxf).unwrap().contains("1. C2.5 H8+7"));
//! ```

#![deny(missing_docs)]

pub mod gomoku;
pub mod quoridor;
pub mod tetris;
pub mod xiangqi;

/// The most bytes a reader accepts: a record file is kilobytes, and a
/// service passes the body straight in.
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// The moves of a plain move list, each with its line number (from 1):
/// words split by spaces, tabs, commas and semicolons, move numbers (`1.`,
/// `12.`, `3...`) left out.
pub(crate) fn move_words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().flat_map(|(i, line)| {
        line.split([' ', '\t', ',', ';'])
            .filter(|w| !w.is_empty())
            .filter(|w| !w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()))
            .map(move |w| (i + 1, w))
    })
}
