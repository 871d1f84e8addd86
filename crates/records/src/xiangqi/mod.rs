//! Xiangqi game records: the [`Record`] every format reads into and writes
//! from, and the formats themselves.
//!
//! - [`pgn`]: PGN with Chinese, WXF or ICCS moves, comments and variations,
//!   several games to a file, in UTF-8, GBK/GB18030 or Big5.
//! - [`xqf`]: the binary format of 象棋演播室 (XQStudio), versions 1.0 to
//!   1.8 and the encrypted ones among them; written as version 1.0, which
//!   every version of the desktop programs reads.
//! - [`dhtmlxq`]: the `[DhtmlXQ]` blocks that 东萍象棋网 pages embed.
//! - [`ecco`]: the ECCO opening code (A00–E99) and name of a line.
//!
//! [`read`] takes a body in any of the three formats ([`Format`], from a
//! media type) and gives its records or one [`ReadError`];
//! [`Record::file_name`] names an export.
//!
//! A record is a start position, its main line and, at any move, the
//! variations played instead of it; a comment may follow every move and
//! precede the first. Readers check every move against the rules, so a
//! record they return always plays out.

mod charset;
pub mod dhtmlxq;
pub mod ecco;
mod format;
pub mod pgn;
mod record;
pub mod xqf;

pub use charset::{Charset, EncodingError};
pub use format::{read, Format, ReadError};
pub use record::{Headers, Outcome, Record, RecordError, Step};

/// The charset a text record's bytes read as when none is named (see
/// [`Charset`]); `None` when they are none of the three.
pub fn detect_charset(bytes: &[u8]) -> Option<Charset> {
    charset::decode(bytes, None).ok().map(|(_, c)| c)
}
