//! Conditional requests (RFC 9110 §13) in one place, on actix's typed
//! `ETag`, `If-Match` and `If-None-Match` headers.
//!
//! - State views are pure functions of their URL (a read) or of their
//!   request (a play): their entity tag is a hash of those inputs and of
//!   the build ([`input_tag`]), which costs a few dozen bytes of hashing
//!   where the body is kilobytes; other answers hash their body
//!   ([`body_tag`]). `If-None-Match` gets a 304.
//! - A match's entity tag is its version. Reads answer 304 to
//!   `If-None-Match` (weak comparison, as §13.1.2 asks); writes honour
//!   `If-Match` with the strong comparison of §13.1.1, so a weak tag never
//!   matches and a stale version is refused.

use actix_web::http::header::{EntityTag, Header, IfMatch, IfNoneMatch};
use actix_web::{HttpMessage, HttpRequest};

use crate::matches::{Precondition, Version};

/// Why an `If-Match` header cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IfMatchError {
    /// Not a list of entity tags (`"7"`, `"7", "8"` or `*`).
    #[error("If-Match {0:?} is not a list of entity tags such as \"7\" (quotes included), nor *")]
    Syntax(String),
}

/// The strong entity tag of a match version.
pub fn version_tag(version: Version) -> EntityTag {
    EntityTag::new_strong(version.to_string())
}

/// The strong entity tag of a body: its 64-bit XXH3 hash. A tag only has to
/// change when the body does; it is no MAC.
pub fn body_tag(body: &[u8]) -> EntityTag {
    hash_tag(xxhash_rust::xxh3::xxh3_64(body))
}

/// The strong entity tag of an answer that is a pure function of `inputs`
/// and of this build: the 64-bit XXH3 of the inputs, each with its length
/// (so that no two lists of inputs run together alike), seeded with the
/// fingerprint of the sources `build.rs` hashes. Two builds whose views
/// could differ tag them differently; one input list, one tag.
pub fn input_tag(inputs: &[&[u8]]) -> EntityTag {
    let mut all = Vec::with_capacity(inputs.iter().map(|i| i.len() + 8).sum());
    for input in inputs {
        all.extend_from_slice(&(input.len() as u64).to_le_bytes());
        all.extend_from_slice(input);
    }
    hash_tag(xxhash_rust::xxh3::xxh3_64_with_seed(
        &all,
        source_fingerprint(),
    ))
}

/// A strong tag of a hash's 16 lower-case hex digits (what `{:016x}`
/// writes, without the formatting machinery: every uncached view is
/// tagged).
fn hash_tag(hash: u64) -> EntityTag {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    // Written as bytes, then made a string at once (not pushed a
    // character at a time).
    let mut text = [0u8; 16];
    for (i, digit) in text.iter_mut().enumerate() {
        *digit = DIGITS[(hash >> (4 * (15 - i))) as usize & 0xf];
    }
    let text = std::str::from_utf8(&text).expect("hex digits are ASCII");
    EntityTag::new_strong(text.to_owned())
}

/// The `ETag` header's text for `tag`: `"…"`, or `W/"…"` when weak (what
/// its `Display` writes).
pub fn tag_text(tag: &EntityTag) -> String {
    let prefix = if tag.weak { "W/\"" } else { "\"" };
    let mut text = String::with_capacity(prefix.len() + tag.tag().len() + 1);
    text.push_str(prefix);
    text.push_str(tag.tag());
    text.push('"');
    text
}

/// The fingerprint `build.rs` made of the sources, as a number.
fn source_fingerprint() -> u64 {
    const TEXT: &str = env!("QIPAN_SOURCE_FINGERPRINT");
    const FINGERPRINT: u64 = match u64::from_str_radix(TEXT, 16) {
        Ok(n) => n,
        Err(_) => panic!("build.rs writes the fingerprint as 16 hex digits"),
    };
    FINGERPRINT
}

/// [`client_has`] for an answer compressed on the way out
/// ([`super::encoding::compress`]), whose tag then carries the
/// coding's suffix (`"…-br"`, `"…-gz"`): the client has it in any coding.
pub fn client_has_in_any_coding(req: &HttpRequest, tag: &EntityTag) -> bool {
    let plain = |t: &EntityTag| {
        let bare = t
            .tag()
            .strip_suffix("-br")
            .or_else(|| t.tag().strip_suffix("-gz"))
            .unwrap_or(t.tag());
        bare == tag.tag()
    };
    match IfNoneMatch::parse(req) {
        Ok(IfNoneMatch::Any) => true,
        Ok(IfNoneMatch::Items(items)) => items.iter().any(plain),
        Err(_) => false,
    }
}

/// Whether `If-None-Match` names `tag` (weak comparison) or is `*`: the
/// client has this representation, answer 304. A header that does not parse
/// is ignored, as §13.1.2 allows. (Any request: actix-web's, or
/// actix-http's before routing, see [`super::early`].)
pub fn client_has(req: &impl HttpMessage, tag: &EntityTag) -> bool {
    match IfNoneMatch::parse(req) {
        Ok(IfNoneMatch::Any) => true,
        Ok(IfNoneMatch::Items(items)) => items.iter().any(|t| t.weak_eq(tag)),
        Err(_) => false,
    }
}

/// What a write's `If-Match` asks for. Only strong tags of versions can
/// match (strong comparison, §13.1.1); a list without one is a precondition
/// no version meets, answered 412 like a stale one.
///
/// # Errors
///
/// [`IfMatchError`] when the header is not a list of entity tags.
pub fn precondition(req: &HttpRequest) -> Result<Precondition, IfMatchError> {
    let lines: Vec<&[u8]> = req
        .headers()
        .get_all(actix_web::http::header::IF_MATCH)
        .map(|v| v.as_bytes())
        .collect();
    if lines.is_empty() {
        return Ok(Precondition::Any);
    }
    let text = || String::from_utf8_lossy(&lines.join(&b", "[..])).into_owned();
    // How many list entries the header lines hold, to tell whether actix
    // skipped any (it drops entries that are not entity tags).
    let entries = lines
        .iter()
        .flat_map(|line| line.split(|&b| b == b','))
        .filter(|part| !part.trim_ascii().is_empty())
        .count();
    match IfMatch::parse(req) {
        Ok(IfMatch::Any) => Ok(Precondition::Any),
        // actix skips list entries that are not entity tags; each must be.
        Ok(IfMatch::Items(items)) if items.is_empty() || items.len() != entries => {
            Err(IfMatchError::Syntax(text()))
        }
        Ok(IfMatch::Items(items)) => Ok(Precondition::OneOf(
            items
                .iter()
                .filter(|t| !t.weak)
                .filter_map(|t| t.tag().parse().ok())
                .collect(),
        )),
        Err(_) => Err(IfMatchError::Syntax(text())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;
    use proptest::prelude::*;

    fn read(h: Option<&str>) -> Result<Precondition, IfMatchError> {
        let mut req = TestRequest::default();
        if let Some(h) = h {
            req = req.insert_header(("if-match", h));
        }
        precondition(&req.to_http_request())
    }

    #[test]
    fn if_match_may_come_in_several_lines() {
        let req = TestRequest::default()
            .append_header(("if-match", "\"3\""))
            .append_header(("if-match", "\"5\", \"6\""))
            .to_http_request();
        let versions = [3, 5, 6].map(Version::new).to_vec();
        assert_eq!(precondition(&req), Ok(Precondition::OneOf(versions)));
    }

    fn one(v: i64) -> Result<Precondition, IfMatchError> {
        Ok(Precondition::OneOf(vec![Version::new(v)]))
    }

    #[test]
    fn if_match_forms() {
        assert_eq!(read(None), Ok(Precondition::Any));
        assert_eq!(read(Some("*")), Ok(Precondition::Any));
        assert_eq!(read(Some("\"7\"")), one(7));
        assert_eq!(
            read(Some("\"3\", \"x\", W/\"9\"")),
            Ok(Precondition::OneOf(vec![Version::new(3)]))
        );
        // Weak tags and tags that are not versions never match.
        assert_eq!(read(Some("W/\"7\"")), Ok(Precondition::OneOf(vec![])));
        assert_eq!(read(Some("\"abc\"")), Ok(Precondition::OneOf(vec![])));
        // A bare number is not an entity tag.
        assert!(matches!(read(Some("7")), Err(IfMatchError::Syntax(_))));
    }

    #[test]
    fn if_none_match_is_weak() {
        let tag = version_tag(Version::new(4));
        let has = |h: &str| {
            client_has(
                &TestRequest::default()
                    .insert_header(("if-none-match", h))
                    .to_http_request(),
                &tag,
            )
        };
        assert!(has("\"4\""));
        assert!(has("W/\"4\""));
        assert!(has("\"1\", \"4\""));
        assert!(has("*"));
        assert!(!has("\"5\""));
        assert!(!has("4"));
    }

    proptest! {
        #[test]
        fn any_if_match_is_read_or_refused(text in "[ -~]{0,40}") {
            match read(Some(&text)) {
                Ok(Precondition::OneOf(v)) => prop_assert!(v.len() <= text.matches('"').count() / 2),
                Ok(Precondition::Any) => prop_assert!(text.contains('*')),
                Err(_) => {}
            }
        }

        #[test]
        fn hash_tags_and_their_text_are_what_formatting_writes(hash in any::<u64>(), weak in any::<bool>()) {
            let tag = hash_tag(hash);
            prop_assert_eq!(tag.tag(), format!("{hash:016x}"));
            let tag = if weak { EntityTag::new_weak(tag.tag().to_owned()) } else { tag };
            prop_assert_eq!(tag_text(&tag), tag.to_string());
        }

        #[test]
        fn body_tags_are_strong_and_stable(body in proptest::collection::vec(any::<u8>(), 0..200)) {
            let a = body_tag(&body);
            prop_assert!(!a.weak);
            prop_assert!(a.strong_eq(&body_tag(&body)));
        }
    }
}

#[cfg(test)]
mod input_tags {
    use super::input_tag;

    #[test]
    fn inputs_are_told_apart_where_they_split() {
        let tag = input_tag(&[b"view", b"http://h/v1/xiangqi/abc"]);
        assert!(!tag.weak);
        assert!(tag.strong_eq(&input_tag(&[b"view", b"http://h/v1/xiangqi/abc"])));
        assert!(!tag.strong_eq(&input_tag(&[b"view", b"http://h/v1/xiangqi/abd"])));
        assert!(!input_tag(&[b"ab", b"c"]).strong_eq(&input_tag(&[b"a", b"bc"])));
        assert!(!input_tag(&[b"ab"]).strong_eq(&input_tag(&[b"ab", b""])));
        assert_eq!(tag.tag().len(), 16);
    }
}
