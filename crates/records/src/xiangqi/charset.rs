//! The character sets record files come in, and telling them apart.
//!
//! Mainland files are GBK (often really GB18030), Taiwanese and Hong Kong
//! ones Big5, newer ones UTF-8. A caller that knows the charset (an HTTP
//! `charset` parameter) names it; otherwise [`decode`] takes UTF-8 when the
//! bytes are valid UTF-8 (with or without a byte-order mark), and else
//! whichever of GB18030 and Big5 decodes without error and reads as more
//! xiangqi text: the two share most byte ranges, so a Big5 file often
//! decodes as GBK too, into characters no record uses.

use std::fmt;

use encoding_rs::{Encoding, BIG5, GB18030, UTF_8};
use qipan_rules::Reason;

/// A character set of record files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Charset {
    /// UTF-8 (a byte-order mark is skipped on reading).
    Utf8,
    /// GBK, read and written as its superset GB18030, so that any
    /// character survives: a name outside GBK is written as a GB18030
    /// four-byte sequence rather than lost.
    Gbk,
    /// Big5, with the traditional characters of Taiwan and Hong Kong.
    Big5,
}

impl Charset {
    /// The name an HTTP `charset` parameter uses: `utf-8`, `gbk`, `big5`.
    pub fn as_str(self) -> &'static str {
        match self {
            Charset::Utf8 => "utf-8",
            Charset::Gbk => "gbk",
            Charset::Big5 => "big5",
        }
    }

    /// The charset a label names (`utf-8`, `utf8`, `gbk`, `gb2312`,
    /// `gb18030`, `cp936`, `big5`, …, any case), as the WHATWG Encoding
    /// standard maps labels; `None` for any other.
    pub fn from_label(label: &str) -> Option<Charset> {
        let encoding = Encoding::for_label(label.trim().as_bytes())?;
        if encoding == UTF_8 {
            Some(Charset::Utf8)
        } else if encoding == GB18030 || encoding == encoding_rs::GBK {
            Some(Charset::Gbk)
        } else if encoding == BIG5 {
            Some(Charset::Big5)
        } else {
            None
        }
    }

    fn encoding(self) -> &'static Encoding {
        match self {
            Charset::Utf8 => UTF_8,
            Charset::Gbk => GB18030,
            Charset::Big5 => BIG5,
        }
    }
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Bytes that are not text in the charset given, or in any of the three.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodingError {
    /// The bytes are not valid in the charset the caller named.
    #[error("byte offset {offset} is not valid {charset}")]
    Invalid {
        /// The charset named.
        charset: Charset,
        /// Offset of the first byte that does not decode.
        offset: usize,
    },
    /// No charset was named, and the bytes are not valid UTF-8, GB18030 or
    /// Big5.
    #[error("the bytes are not UTF-8 (byte offset {utf8}), GBK/GB18030 (offset {gbk}) or Big5 (offset {big5})")]
    Unknown {
        /// First bad byte as UTF-8.
        utf8: usize,
        /// First bad byte as GB18030.
        gbk: usize,
        /// First bad byte as Big5.
        big5: usize,
    },
    /// A character the charset asked for cannot write.
    #[error("{character:?} cannot be written in {charset}")]
    Unencodable {
        /// The charset asked for.
        charset: Charset,
        /// The first character it lacks.
        character: char,
    },
}

impl Reason for EncodingError {
    fn reason(&self) -> &'static str {
        match self {
            EncodingError::Invalid { .. } | EncodingError::Unknown { .. } => "bad-encoding",
            EncodingError::Unencodable { .. } => "unencodable-character",
        }
    }
}

/// The offset of the first byte that does not decode in `encoding`, or
/// the text.
fn strict(encoding: &'static Encoding, bytes: &[u8]) -> Result<String, usize> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(
        decoder
            .max_utf8_buffer_length_without_replacement(bytes.len())
            .unwrap_or(bytes.len() * 3),
    );
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        encoding_rs::DecoderResult::InputEmpty => Ok(out),
        encoding_rs::DecoderResult::Malformed(len, extra) => {
            Err(read.saturating_sub(usize::from(len) + usize::from(extra)))
        }
        encoding_rs::DecoderResult::OutputFull => Err(read),
    }
}

/// Characters that records write: piece names, directions, numerals and
/// result words, in both scripts.
const RECORD_CHARS: &str =
    "车車俥马馬傌炮砲包相象仕士帅帥将將兵卒进進退平前中后後一二三四五六七八九红紅黑胜勝负負和先局";

fn score(text: &str) -> usize {
    text.chars().filter(|c| RECORD_CHARS.contains(*c)).count()
}

/// The text of `bytes` in `charset`, or in the charset they appear to be
/// in, and that charset.
///
/// # Errors
///
/// [`EncodingError::Invalid`] with the offset of the first bad byte when a
/// named charset does not fit; [`EncodingError::Unknown`] when none does.
pub fn decode(bytes: &[u8], charset: Option<Charset>) -> Result<(String, Charset), EncodingError> {
    let without_bom = bytes.strip_prefix(b"\xEF\xBB\xBF");
    match charset {
        Some(Charset::Utf8) => strict(UTF_8, without_bom.unwrap_or(bytes))
            .map(|t| (t, Charset::Utf8))
            .map_err(|offset| EncodingError::Invalid {
                charset: Charset::Utf8,
                offset: offset + if without_bom.is_some() { 3 } else { 0 },
            }),
        Some(c) => strict(c.encoding(), bytes)
            .map(|t| (t, c))
            .map_err(|offset| EncodingError::Invalid { charset: c, offset }),
        None => {
            let utf8 = match strict(UTF_8, without_bom.unwrap_or(bytes)) {
                Ok(text) => return Ok((text, Charset::Utf8)),
                Err(offset) => offset,
            };
            match (strict(GB18030, bytes), strict(BIG5, bytes)) {
                (Ok(gbk), Ok(big5)) => Ok(if score(&big5) > score(&gbk) {
                    (big5, Charset::Big5)
                } else {
                    (gbk, Charset::Gbk)
                }),
                (Ok(gbk), Err(_)) => Ok((gbk, Charset::Gbk)),
                (Err(_), Ok(big5)) => Ok((big5, Charset::Big5)),
                (Err(gbk), Err(big5)) => Err(EncodingError::Unknown { utf8, gbk, big5 }),
            }
        }
    }
}

/// `text` in `charset`.
///
/// # Errors
///
/// [`EncodingError::Unencodable`] naming the first character Big5 lacks
/// (UTF-8 and GB18030 write every character).
pub fn encode(text: &str, charset: Charset) -> Result<Vec<u8>, EncodingError> {
    match charset {
        Charset::Utf8 => Ok(text.as_bytes().to_vec()),
        Charset::Gbk => Ok(GB18030.encode(text).0.into_owned()),
        Charset::Big5 => {
            let (bytes, _, unmappable) = BIG5.encode(text);
            if unmappable {
                let character = text
                    .chars()
                    .find(|c| {
                        let mut buf = [0; 4];
                        BIG5.encode(c.encode_utf8(&mut buf)).2
                    })
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                return Err(EncodingError::Unencodable { charset, character });
            }
            Ok(bytes.into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_charset() {
        for (charset, text) in [
            (Charset::Utf8, "炮二平五 马８进７ 红胜"),
            (Charset::Gbk, "炮二平五 马８进７ 红胜"),
            (Charset::Big5, "炮二平五 馬８進７ 紅勝"),
        ] {
            let bytes = encode(text, charset).unwrap();
            assert_eq!(decode(&bytes, None).unwrap(), (text.to_owned(), charset));
            assert_eq!(decode(&bytes, Some(charset)).unwrap().0, text);
        }
        let bom = [b"\xEF\xBB\xBF".as_slice(), "红胜".as_bytes()].concat();
        assert_eq!(decode(&bom, None).unwrap().0, "红胜");
        assert_eq!(
            encode("红", Charset::Big5),
            Err(EncodingError::Unencodable {
                charset: Charset::Big5,
                character: '红'
            })
        );
    }

    #[test]
    fn names_the_bad_byte() {
        assert_eq!(
            decode(b"ab\xFFc", Some(Charset::Utf8)),
            Err(EncodingError::Invalid {
                charset: Charset::Utf8,
                offset: 2
            })
        );
        assert_eq!(Charset::from_label("GB2312"), Some(Charset::Gbk));
        assert_eq!(Charset::from_label("big5-hkscs"), Some(Charset::Big5));
        assert_eq!(Charset::from_label("latin1"), None);
    }
}
