//! What the games with chance and one board share in their start and
//! import parameters: `standard` only, a seed read from a number or a
//! string, a rules value read from its notation.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The start of a one-board, one-variant game with chance (2048, tetris):
/// `standard` only, no `size` (`why` says so), then [`seeded`].
///
/// # Errors
///
/// [`GameError::UnknownVariant`] or [`GameError::StartParam`] for `size`.
pub fn seeded_start<S>(
    game: GameKind,
    query: &StartQuery,
    why: &'static str,
    new: impl FnOnce(u64) -> S,
) -> Result<(S, bool), GameError> {
    standard_only(game, query.variant.as_deref())?;
    not_taken(query.size.is_some(), StartParam::Size, why)?;
    Ok(seeded(query.seed, new))
}

/// The start state of a game with chance: from `seed`, or from a fresh
/// random seed, in which case the answer must not be cached (`false`).
pub fn seeded<S>(seed: Option<u64>, new: impl FnOnce(u64) -> S) -> (S, bool) {
    match seed {
        Some(seed) => (new(seed), true),
        None => {
            use std::hash::{BuildHasher, RandomState};
            let fresh = RandomState::new().hash_one(std::time::SystemTime::now());
            (new(fresh), false)
        }
    }
}

/// Refuses any variant but `standard`, for games that have only that one.
///
/// # Errors
///
/// [`GameError::UnknownVariant`] listing `standard`.
pub fn standard_only(game: GameKind, variant: Option<&str>) -> Result<(), GameError> {
    match variant.filter(|&v| v != "standard") {
        None => Ok(()),
        Some(v) => Err(GameError::UnknownVariant {
            game,
            given: v.to_owned(),
            supported: &["standard"],
        }),
    }
}

/// Refuses a start parameter the game does not take.
///
/// # Errors
///
/// [`GameError::StartParam`] naming the parameter and `why`.
pub fn not_taken(given: bool, param: StartParam, why: &'static str) -> Result<(), GameError> {
    if given {
        Err(GameError::StartParam {
            param,
            detail: why.to_owned(),
        })
    } else {
        Ok(())
    }
}

/// A generator state in an import body: a number, or a string of decimal
/// digits (as views and exports write it, since a state may exceed 2^53,
/// which JSON numbers do not carry exactly in every client).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seed(pub u64);

impl<'de> serde::Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seed, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Seed;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an unsigned 64-bit integer, as a number or a string of digits")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Seed, E> {
                Ok(Seed(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Seed, E> {
                v.parse()
                    .ok()
                    .filter(|_| v.bytes().all(|b| b.is_ascii_digit()))
                    .map(Seed)
                    .ok_or_else(|| E::custom(format!("{v:?} is not an unsigned 64-bit integer")))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// A value of a rules type in an import body, read from its notation with
/// `FromStr` (`"e2"`, `"e3h"`, `"T"`), so a bad one is named by its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parsed<T>(pub T);

impl<'de, T> serde::Deserialize<'de> for Parsed<T>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Parsed<T>, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map(Parsed).map_err(serde::de::Error::custom)
    }
}
