//! Match ids, and the secrets that seat players: tokens and invites, which
//! are shown once and kept only as hashes.

use std::fmt;
use std::str::FromStr;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A match id: a UUID, written hyphenated in lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchId(uuid::Uuid);

impl MatchId {
    /// A fresh random id.
    pub fn random() -> MatchId {
        MatchId(uuid::Uuid::new_v4())
    }
}

/// A path segment that is not a match id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given:?} is not a match id (a hyphenated UUID such as 0b8e5c3e-9c2d-4e8f-a1b2-3c4d5e6f7a8b): {why}")]
pub struct InvalidMatchId {
    /// The text given.
    pub given: String,
    /// What is wrong with it.
    pub why: String,
}

impl FromStr for MatchId {
    type Err = InvalidMatchId;

    /// Only the hyphenated form (either case): one match, one URL.
    fn from_str(s: &str) -> Result<MatchId, InvalidMatchId> {
        hyphenated_uuid(s)
            .map(MatchId)
            .map_err(|why| InvalidMatchId {
                given: s.to_owned(),
                why,
            })
    }
}

/// A UUID in its hyphenated form only (either case), as ids are written:
/// the other forms `uuid` reads (simple, braced, URN) would give one
/// resource several URLs. The error says what is wrong.
pub fn hyphenated_uuid(s: &str) -> Result<uuid::Uuid, String> {
    if s.len() != 36 || s.as_bytes().get(8) != Some(&b'-') {
        return Err(format!("{} characters, not 36 with hyphens", s.len()));
    }
    uuid::Uuid::try_parse(s).map_err(|e| e.to_string())
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// A secret given to one seat (a token, 256 bits) or one invite (128 bits),
/// base64url. Its `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

/// The system has no randomness to give.
#[derive(Debug, thiserror::Error)]
#[error("no randomness: {0}")]
pub struct NoRandomness(String);

impl Secret {
    /// A seat token.
    ///
    /// # Errors
    ///
    /// When the system cannot give randomness.
    pub fn token() -> Result<Secret, NoRandomness> {
        Secret::generate(32)
    }

    /// An invite.
    ///
    /// # Errors
    ///
    /// When the system cannot give randomness.
    pub fn invite() -> Result<Secret, NoRandomness> {
        Secret::generate(16)
    }

    fn generate(bytes: usize) -> Result<Secret, NoRandomness> {
        let mut buf = vec![0u8; bytes];
        getrandom::fill(&mut buf).map_err(|e| NoRandomness(e.to_string()))?;
        Ok(Secret(URL_SAFE_NO_PAD.encode(buf)))
    }

    /// A fair coin: `true` half the time.
    ///
    /// # Errors
    ///
    /// When the system cannot give randomness.
    pub fn coin() -> Result<bool, NoRandomness> {
        let mut buf = [0u8; 1];
        getrandom::fill(&mut buf).map_err(|e| NoRandomness(e.to_string()))?;
        Ok(buf[0] & 1 == 1)
    }

    /// A secret as presented by a client.
    pub fn presented(text: &str) -> Secret {
        Secret(text.to_owned())
    }

    /// What is stored of it.
    pub fn hash(&self) -> SecretHash {
        let digest = Sha256::digest(self.0.as_bytes());
        let mut out = String::with_capacity(64);
        for b in digest {
            out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        }
        SecretHash(out)
    }

    /// Whether this is the secret whose hash is `stored`, compared in
    /// constant time.
    pub fn matches(&self, stored: &SecretHash) -> bool {
        self.hash().0.as_bytes().ct_eq(stored.0.as_bytes()).into()
    }

    /// The secret's text, to show once.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// SHA-256 of a secret, in lower-case hex: what the database keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretHash(String);

impl SecretHash {
    /// A stored hash, as read back.
    pub fn stored(hex: String) -> SecretHash {
        SecretHash(hex)
    }

    /// Its hex text, to store.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn match_ids_round_trip(bytes in any::<[u8; 16]>()) {
            let id = MatchId(uuid::Uuid::from_bytes(bytes));
            prop_assert_eq!(id.to_string().parse::<MatchId>().ok(), Some(id));
            prop_assert_eq!(id.to_string().to_uppercase().parse::<MatchId>().ok(), Some(id));
        }

        #[test]
        fn any_path_segment_is_an_id_or_refused(text in "\\PC{0,40}") {
            if let Err(e) = text.parse::<MatchId>() {
                prop_assert_eq!(e.given, text);
            }
        }

        #[test]
        fn a_secret_matches_its_hash_only(a in "[A-Za-z0-9_-]{43}", b in "[A-Za-z0-9_-]{43}") {
            let stored = Secret::presented(&a).hash();
            prop_assert!(Secret::presented(&a).matches(&stored));
            prop_assert_eq!(Secret::presented(&b).matches(&stored), a == b);
        }
    }

    #[test]
    fn secrets_are_long_and_distinct() {
        let a = Secret::token().ok().map(|s| s.0);
        let b = Secret::token().ok().map(|s| s.0);
        assert_eq!(a.as_ref().map(String::len), Some(43));
        assert_ne!(a, b);
        assert_eq!(Secret::invite().ok().map(|s| s.0.len()), Some(22));
        assert_eq!(format!("{:?}", Secret::presented("x")), "Secret(…)");
    }

    #[test]
    fn hashes_are_sha256_hex() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(
            Secret::presented("abc").hash().as_str(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
