//! One entry for a service: which format a body is in, reading it, and the
//! file name an export goes out under.

use qipan_rules::Reason;

use super::charset::Charset;
use super::dhtmlxq::{self, DhtmlXqError};
use super::pgn::{self, PgnError};
use super::record::Record;
use super::xqf::{self, XqfError};

/// The record formats a body can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN (`application/x-chess-pgn`).
    Pgn,
    /// XQF (`application/x-xqf`).
    Xqf,
    /// A DhtmlXQ block (`text/plain`).
    DhtmlXq,
}

impl Format {
    /// The format of a media type, parameters (`; charset=gbk`) ignored:
    /// `application/x-chess-pgn` (or `application/vnd.chess-pgn`),
    /// `application/x-xqf`, `text/plain`.
    pub fn from_media_type(media_type: &str) -> Option<Format> {
        let essence = media_type.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "application/x-chess-pgn" | "application/vnd.chess-pgn" => Some(Format::Pgn),
            "application/x-xqf" => Some(Format::Xqf),
            "text/plain" => Some(Format::DhtmlXq),
            _ => None,
        }
    }

    /// The media type an export in this format is sent with.
    pub fn media_type(self) -> &'static str {
        match self {
            Format::Pgn => "application/x-chess-pgn",
            Format::Xqf => "application/x-xqf",
            Format::DhtmlXq => "text/plain",
        }
    }

    /// The file name extension: `pgn`, `xqf`, `txt`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Xqf => "xqf",
            Format::DhtmlXq => "txt",
        }
    }
}

/// Why a body cannot be read, by format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// A PGN body.
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// An XQF body.
    #[error(transparent)]
    Xqf(#[from] XqfError),
    /// A DhtmlXQ body.
    #[error(transparent)]
    DhtmlXq(#[from] DhtmlXqError),
}

impl Reason for ReadError {
    fn reason(&self) -> &'static str {
        match self {
            ReadError::Pgn(e) => e.reason(),
            ReadError::Xqf(e) => e.reason(),
            ReadError::DhtmlXq(e) => e.reason(),
        }
    }
}

/// Every record of a body in `format` (one for XQF and DhtmlXQ, one a game
/// for PGN), the charset named or, when `None`, detected (XQF is always
/// GBK inside).
///
/// # Errors
///
/// The format's error, wrapped: see [`PgnError`], [`XqfError`],
/// [`DhtmlXqError`].
pub fn read(
    bytes: &[u8],
    format: Format,
    charset: Option<Charset>,
) -> Result<Vec<Record>, ReadError> {
    Ok(match format {
        Format::Pgn => pgn::read(bytes, charset)?,
        Format::Xqf => vec![xqf::read(bytes)?],
        Format::DhtmlXq => vec![dhtmlxq::read(bytes, charset)?],
    })
}

impl Record {
    /// A file name for the record in `format`: the players and the date
    /// (`许银川-聂卫平-1999.12.09.pgn`), `record.<ext>` when it has none,
    /// with characters file systems refuse replaced by `_`.
    pub fn file_name(&self, format: Format) -> String {
        let h = &self.headers;
        let parts: Vec<&str> = [&h.red, &h.black, &h.date]
            .into_iter()
            .filter_map(|p| p.as_deref())
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        let stem = if parts.is_empty() {
            "record".to_owned()
        } else {
            parts
                .join("-")
                .chars()
                .map(|c| match c {
                    '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
                    c if c.is_control() || c.is_whitespace() => '_',
                    c => c,
                })
                .take(80)
                .collect()
        };
        format!("{stem}.{}", format.extension())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipan_rules::xiangqi::Position;

    #[test]
    fn media_types_and_names() {
        assert_eq!(
            Format::from_media_type("application/x-chess-pgn; charset=GBK"),
            Some(Format::Pgn)
        );
        assert_eq!(
            Format::from_media_type("application/x-xqf"),
            Some(Format::Xqf)
        );
        assert_eq!(
            Format::from_media_type("text/plain;charset=utf-8"),
            Some(Format::DhtmlXq)
        );
        assert_eq!(Format::from_media_type("image/png"), None);
        let mut r = Record::new(Position::start());
        assert_eq!(r.file_name(Format::Pgn), "record.pgn");
        r.headers.red = Some("许银川".into());
        r.headers.black = Some("A/B C".into());
        r.headers.date = Some("1999.12.09".into());
        assert_eq!(r.file_name(Format::Xqf), "许银川-A_B_C-1999.12.09.xqf");
    }
}
