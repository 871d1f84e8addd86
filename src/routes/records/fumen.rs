//! Tetris fumen: `GET /v1/tetris/{code}/fumen` and the `fumen` format of
//! `POST /v1/tetris/import`.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The body of `POST /v1/tetris/import` with `format: fumen`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FumenImport {
    /// `fumen`.
    #[allow(dead_code)]
    format: String,
    /// The fumen (`v115@…`, or a URL holding one).
    text: String,
    /// What an export view carries: accepted, not read.
    #[allow(dead_code)]
    game: Option<serde::de::IgnoredAny>,
    /// As `game`.
    #[allow(dead_code)]
    code: Option<serde::de::IgnoredAny>,
    /// As `game` (`GET /v1/tetris/{code}/fumen` carries it).
    #[allow(dead_code)]
    url: Option<serde::de::IgnoredAny>,
}

/// A fumen's pages as qipan states: a code (and its URL) a page, `null`
/// for a page that makes no position, with a note saying why.
#[derive(Serialize)]
struct FumenPages {
    format: &'static str,
    pages: usize,
    codes: Vec<Option<String>>,
    urls: Vec<Option<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<PageNote>,
}

/// Why a page makes no position.
#[derive(Serialize)]
struct PageNote {
    page: usize,
    reason: &'static str,
    detail: String,
}

/// `POST /v1/tetris/import` with `{"format": "fumen", "text": "v115@…"}`:
/// every page of the fumen as a state code, in order.
///
/// # Errors
///
/// `malformed-body`; `invalid-record` for a fumen that cannot be read, or
/// whose pages make no position at all.
pub fn fumen_import(body: &str, base: &str) -> Result<Vec<u8>, ApiError> {
    use qipan_rules::Reason;
    let read: FumenImport = serde_json::from_str(body).map_err(|e| {
        Problem::new(
            ProblemKind::MalformedBody,
            format!("the body is not a fumen import ({{\"format\": \"fumen\", \"text\": \"v115@…\"}}): {e}"),
        )
    })?;
    let pages = qipan_records::tetris::read(&read.text).map_err(RecordError::Fumen)?;
    if let Some(Err(first)) = pages.first().filter(|_| pages.iter().all(Result::is_err)) {
        return Err(RecordError::Fumen(first.clone()).into());
    }
    let mut notes = Vec::new();
    let mut codes = Vec::with_capacity(pages.len());
    for (i, page) in pages.iter().enumerate() {
        match page {
            Ok(p) => codes.push(Some(p.to_code())),
            Err(e) => {
                codes.push(None);
                notes.push(PageNote {
                    page: i + 1,
                    reason: e.reason(),
                    detail: e.to_string(),
                });
            }
        }
    }
    let urls = codes
        .iter()
        .map(|c| c.as_ref().map(|c| format!("{base}/v1/tetris/{c}")))
        .collect();
    serde_json::to_vec(&FumenPages {
        format: "fumen",
        pages: codes.len(),
        codes,
        urls,
        notes,
    })
    .map_err(|e| ApiError::Internal(e.into()))
}

/// The answer of `GET /v1/tetris/{code}/fumen`.
#[derive(Serialize)]
struct FumenView<'a> {
    format: &'static str,
    code: &'a str,
    text: String,
    url: String,
}

/// `GET /v1/tetris/{code}/fumen`: the position as a one-page fumen, in a
/// body that `POST /v1/tetris/import` reads back.
pub async fn fumen(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
) -> Result<HttpResponse, ApiError> {
    if kind != GameKind::Tetris {
        return Err(Problem::new(
            ProblemKind::NotFound,
            format!("fumen is a Tetris format; {kind} positions have none"),
        )
        .into());
    }
    let pos = games::decode(kind, &code, "code")?;
    let AnyPosition::Tetris(p) = &pos else {
        return Err(ApiError::Internal(anyhow::anyhow!(
            "a tetris code decoded to another game"
        )));
    };
    let text = qipan_records::tetris::from_position(p).map_err(RecordError::Fumen)?;
    let url = format!("https://knewjade.github.io/fumen-for-mobile/#?d={text}");
    let body = serde_json::to_vec(&FumenView {
        format: "fumen",
        code: &code,
        text,
        url,
    })
    .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(crate::http::answer::immutable_json(&req, body))
}

/// Whether an import body asks for the `fumen` format.
pub fn is_fumen(body: &str) -> bool {
    #[derive(Deserialize)]
    struct Tag {
        format: Option<String>,
    }
    serde_json::from_str::<Tag>(body).is_ok_and(|t| t.format.as_deref() == Some("fumen"))
}
