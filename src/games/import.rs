//! Reading an import body with serde: the game's body is an enum tagged by
//! `format` whose members are denied when unknown. serde's errors say what
//! is wrong but, inside a tagged enum, not where; so a body that fails is
//! read again as the members alone, which names the member at fault.

use serde::de::DeserializeOwned;

use super::error::{BodyFault, GameError};

/// The name between the first pair of backticks of a serde message
/// (`missing field `text``, `unknown field `colour`, …`).
fn quoted(message: &str) -> Option<&str> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(&message[start..start + len])
}

/// A serde message without serde_json's ` at line 1 column 20`.
fn plain(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}

/// The tag of an import body; its other members are skipped here.
#[derive(serde::Deserialize)]
struct Tag {
    format: Option<String>,
}

/// Reads `body` as `T` (the game's tagged import enum), after checking its
/// `format` against the game's `formats`; when it does not deserialize,
/// reads it again as `F` (the format's members) to name the member.
///
/// # Errors
///
/// [`GameError::ImportBody`] naming the member, or
/// [`GameError::UnsupportedFormat`] for a `format` the game does not read.
pub fn read<T: DeserializeOwned, F: DeserializeOwned>(
    game: qipan_rules::GameKind,
    body: &str,
    formats: &'static [&'static str],
) -> Result<T, GameError> {
    let field = |field: &str, detail: String| {
        GameError::ImportBody(BodyFault::Field {
            field: field.to_owned(),
            index: None,
            detail,
        })
    };
    if !body.trim_start().starts_with('{') {
        return Err(GameError::ImportBody(BodyFault::NotAnObject));
    }
    let tag: Tag = serde_json::from_str(body)
        .map_err(|e| field("format", format!("`format`: {}", plain(&e.to_string()))))?;
    let Some(format) = tag.format else {
        return Err(field(
            "format",
            "the body needs a `format` member".to_owned(),
        ));
    };
    if !formats.contains(&format.as_str()) {
        return Err(GameError::UnsupportedFormat {
            game,
            given: format,
            supported: formats,
            import: true,
        });
    }
    let error = match serde_json::from_str::<T>(body) {
        Ok(read) => return Ok(read),
        Err(e) => e.to_string(),
    };
    // serde names a missing or unknown member in its message (`missing
    // field `text``, `unknown field `colour`, expected …`).
    let message = plain(&error);
    if let Some(name) = message
        .strip_prefix("missing field ")
        .and_then(|_| quoted(message))
    {
        return Err(field(name, format!("the body needs a `{name}` member")));
    }
    if let Some(name) = message
        .strip_prefix("unknown field ")
        .and_then(|_| quoted(message))
    {
        let reads = message
            .split_once("expected ")
            .map(|(_, rest)| format!("; this format reads {rest}"))
            .unwrap_or_default();
        return Err(field(name, format!("unknown member `{name}`{reads}")));
    }
    // A member of the wrong type or value: find which.
    let de = &mut serde_json::Deserializer::from_str(body);
    match serde_path_to_error::deserialize::<_, F>(de) {
        Err(e) => {
            let path = e.path().to_string();
            let detail = format!("`{path}`: {}", plain(&e.inner().to_string()));
            // `walls[3]`: the item of a list at fault.
            let index = path
                .split_once('[')
                .and_then(|(_, rest)| rest.split(']').next())
                .and_then(|n| n.parse().ok());
            match path.split(['.', '[']).next().filter(|n| !n.is_empty()) {
                Some(name) => Err(GameError::ImportBody(BodyFault::Field {
                    field: name.to_owned(),
                    index,
                    detail,
                })),
                None => Err(GameError::ImportBody(BodyFault::Other(detail))),
            }
        }
        Ok(_) => Err(GameError::ImportBody(BodyFault::Other(message.to_owned()))),
    }
}
