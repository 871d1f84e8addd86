//! The conformance checker: every live response the tests see is checked
//! against `openapi.yaml` — its path, method, status, media type and body.
//!
//! Conventions of the document the checker relies on (stated in its
//! `info.description`): a path no template matches must answer 404 with
//! `#/components/responses/NotFound`; a method a path item does not list
//! must answer 405 with `#/components/responses/MethodNotAllowed`; an
//! `OPTIONS` request may instead be a CORS preflight, answered 200 on any
//! path with `#/components/responses/CorsPreflight`; a `default` response
//! covers 5xx statuses only.
//!
//! Which template serves a path (also stated in `info.description`):
//! concrete segments before templated ones (OpenAPI 3.1 §4.8.8, "Path
//! Templating Matching"), compared left to right; and a literal segment
//! that more segments follow claims its prefix, so no template with a
//! parameter in its place serves a path under it (every `/v1/matches/…`
//! path is the match API's, never a game's named `matches`).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// The operation keys of a path item (OpenAPI 3.1 §4.8.9).
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The document, read once.
fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml");
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        serde_yaml::from_str(&text)
            .unwrap_or_else(|e| panic!("{path} is not a YAML document serde_json can hold: {e}"))
    })
}

/// One JSON-pointer reference token, escaped per RFC 6901.
fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// One JSON-pointer reference token, unescaped per RFC 6901.
fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Percent-encodes what may not stand in a URI fragment (RFC 3986 §3.5).
fn fragment_encode(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b);
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%XX` escapes (for `$ref` values written by hand).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A JSON pointer (`/a/b`) built from raw tokens.
fn pointer(tokens: &[&str]) -> String {
    tokens
        .iter()
        .map(|t| format!("/{}", escape_token(t)))
        .collect()
}

/// Resolves a local `$ref` (`#/components/...`) against the document.
fn resolve_ref<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let fragment = percent_decode(fragment);
    if fragment.is_empty() {
        return Some(doc);
    }
    let fragment = fragment.strip_prefix('/')?;
    fragment.split('/').try_fold(doc, |node, token| {
        let token = unescape_token(token);
        match node {
            Value::Object(map) => map.get(&token),
            Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        }
    })
}

/// Follows `$ref` chains of an OpenAPI object (a response, a parameter),
/// returning the object and the JSON pointer it lives at.
fn follow<'a>(doc: &'a Value, mut node: &'a Value, mut at: String) -> (&'a Value, String) {
    for _ in 0..16 {
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
            return (node, at);
        };
        node = resolve_ref(doc, reference).unwrap_or_else(|| {
            panic!("openapi.yaml: `$ref: {reference}` at {at} resolves to nothing")
        });
        at = percent_decode(reference.trim_start_matches('#'));
    }
    panic!("openapi.yaml: `$ref` chain too long at {at}")
}

/// How one template segment matches: a literal, or `prefix{name}suffix`.
enum Segment<'a> {
    Literal(&'a str),
    Param { prefix: &'a str, suffix: &'a str },
}

fn parse_segment(segment: &str) -> Segment<'_> {
    match (segment.find('{'), segment.rfind('}')) {
        (Some(open), Some(close)) if open < close => Segment::Param {
            prefix: &segment[..open],
            suffix: &segment[close + 1..],
        },
        _ => Segment::Literal(segment),
    }
}

/// The rank of a template against a concrete path: `None` when it does not
/// match; otherwise one number per segment (2 literal, 1 partly literal,
/// 0 a whole parameter), compared left to right, higher wins.
fn match_rank(template: &str, path: &str) -> Option<Vec<u8>> {
    let t: Vec<&str> = template.split('/').collect();
    let p: Vec<&str> = path.split('/').collect();
    if t.len() != p.len() {
        return None;
    }
    t.iter().zip(&p).map(|(t, s)| segment_rank(t, s)).collect()
}

/// The rank of one template segment against one path segment (see
/// [`match_rank`]), or `None` when it does not match.
fn segment_rank(template: &str, segment: &str) -> Option<u8> {
    match parse_segment(template) {
        Segment::Literal(l) => (l == segment).then_some(2),
        Segment::Param { prefix, suffix } => {
            let fits = segment.len() > prefix.len() + suffix.len()
                && segment.starts_with(prefix)
                && segment.ends_with(suffix);
            fits.then_some(u8::from(!prefix.is_empty() || !suffix.is_empty()))
        }
    }
}

/// The segments of `path` that some template claims: segment `i` when a
/// template names it literally, fits the path up to it and goes on past it.
/// (`/v1/matches/{id}` claims `matches` in `/v1/matches/…`; `/v1/games`,
/// which ends there, claims nothing in `/v1/games/…`.)
fn claimed_segments<'a>(templates: impl Iterator<Item = &'a String>, path: &str) -> Vec<usize> {
    let p: Vec<&str> = path.split('/').collect();
    let mut claimed = Vec::new();
    for template in templates {
        let t: Vec<&str> = template.split('/').collect();
        for (i, (t_seg, p_seg)) in t.iter().zip(&p).enumerate() {
            if segment_rank(t_seg, p_seg).is_none() {
                break;
            }
            let literal = matches!(parse_segment(t_seg), Segment::Literal(_));
            if literal && i + 1 < t.len() && i + 1 < p.len() && !claimed.contains(&i) {
                claimed.push(i);
            }
        }
    }
    claimed
}

/// The template of `doc.paths` that serves `path`: among the templates that
/// match it and have no parameter in a claimed segment, the one with the
/// most literal segments, compared left to right.
fn find_template<'a>(doc: &'a Value, path: &str) -> Option<&'a str> {
    let paths = doc["paths"].as_object()?;
    let claimed = claimed_segments(paths.keys(), path);
    paths
        .keys()
        .filter(|t| {
            let segments: Vec<&str> = t.split('/').collect();
            !claimed.iter().any(|&i| {
                segments
                    .get(i)
                    .is_some_and(|s| matches!(parse_segment(s), Segment::Param { .. }))
            })
        })
        .filter_map(|t| match_rank(t, path).map(|rank| (rank, t.as_str())))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, t)| t)
}

/// The media type's essence: no parameters, lower case.
fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn is_json(media_type: &str) -> bool {
    media_type == "application/json" || media_type.ends_with("+json")
}

/// A validator for the schema at `at` (a JSON pointer into the document),
/// built once per pointer.
fn validator(at: &str) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(at) {
        return Arc::clone(v);
    }
    let mut root = document().clone();
    // The whole document is the schema resource, so internal `$ref`s resolve
    // against it; its top-level `$ref` selects the schema in question.
    root["$ref"] = Value::from(format!("#{}", fragment_encode(at)));
    let built = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|e| panic!("openapi.yaml: the schema at {at} does not compile: {e}"));
    let built = Arc::new(built);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(at.to_owned(), Arc::clone(&built));
    built
}

fn show(body: &[u8]) -> String {
    const MAX: usize = 2000;
    let text = String::from_utf8_lossy(body);
    if text.chars().count() > MAX {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}… ({} bytes)", body.len())
    } else {
        text.into_owned()
    }
}

/// The response object documented for `status`, and its pointer: the exact
/// code, then its range (`4XX`), then `default` for 5xx statuses.
fn find_response<'a>(
    doc: &'a Value,
    responses: &'a Value,
    at: &str,
    status: u16,
) -> Option<(&'a Value, String)> {
    let exact = status.to_string();
    let range = format!("{}XX", status / 100);
    let key = [exact.as_str(), range.as_str()]
        .into_iter()
        .find(|k| responses.get(*k).is_some())
        .or_else(|| (status >= 500 && responses.get("default").is_some()).then_some("default"))?;
    let node = &responses[key];
    Some(follow(doc, node, format!("{at}/{}", escape_token(key))))
}

/// Checks a response against the response object found at `at`.
fn check_response(
    what: &str,
    response: &Value,
    at: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) {
    let Some(content) = response.get("content").and_then(Value::as_object) else {
        assert!(
            body.is_empty(),
            "{what} → {status}: the spec documents no body, but one was sent: {}",
            show(body)
        );
        assert!(
            content_type.is_none(),
            "{what} → {status}: the spec documents no body, but Content-Type is {content_type:?}"
        );
        return;
    };
    let Some(content_type) = content_type else {
        panic!(
            "{what} → {status}: no Content-Type; the spec documents {:?}. Body: {}",
            content.keys().collect::<Vec<_>>(),
            show(body)
        );
    };
    let media = essence(content_type);
    let Some((key, media_object)) = content.iter().find(|(k, _)| essence(k) == media) else {
        panic!(
            "{what} → {status}: Content-Type {content_type:?} is not documented; the spec documents {:?}. Body: {}",
            content.keys().collect::<Vec<_>>(),
            show(body)
        );
    };
    if !is_json(&media) {
        return;
    }
    if what.starts_with("HEAD ") {
        // A HEAD response has the headers of the GET one, never a body.
        assert!(
            body.is_empty(),
            "{what} → {status}: a HEAD response carries a body: {}",
            show(body)
        );
        return;
    }
    let instance: Value = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "{what} → {status}: the body is not JSON ({e}): {}",
            show(body)
        )
    });
    if media_object.get("schema").is_none() {
        return;
    }
    let schema_at = format!("{at}/content/{}/schema", escape_token(key));
    let validator = validator(&schema_at);
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| {
            format!(
                "  at {:?}: {e}  (schema {})",
                e.instance_path.as_str(),
                e.schema_path.as_str()
            )
        })
        .collect();
    assert!(
        errors.is_empty(),
        "{what} → {status}: the body does not match the schema at #{schema_at}:\n{}\nBody: {}",
        errors.join("\n"),
        show(body)
    );
}

/// Checks a response against one of the document-wide responses
/// (`#/components/responses/{name}`).
fn check_component_response(
    what: &str,
    name: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) {
    let doc = document();
    let at = format!("/components/responses/{name}");
    let node = resolve_ref(doc, &format!("#{at}"))
        .unwrap_or_else(|| panic!("openapi.yaml: components.responses.{name} is missing"));
    let (response, at) = follow(doc, node, at);
    check_response(what, response, &at, status, content_type, body);
}

/// Panics with a precise message when a live response does not match openapi.yaml.
#[track_caller]
pub fn assert_conforms(
    method: &str,
    path: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) {
    let doc = document();
    let what = format!("{} {path}", method.to_ascii_uppercase());
    // HEAD is answered wherever GET is, with GET's status and headers and no
    // body (the spec says so once, in its description).
    let lower = match method.to_ascii_lowercase() {
        m if m == "head" => "get".to_owned(),
        m => m,
    };

    if status == 421 {
        // Documented once for every path, in the description.
        check_component_response(&what, "UnknownHost", status, content_type, body);
        return;
    }
    if status == 503 && String::from_utf8_lossy(body).contains("/problems/too-many-connections") {
        // Documented once for every path, in the description.
        check_component_response(&what, "TooManyConnections", status, content_type, body);
        return;
    }
    if status == 429 {
        // Documented once, in the description, for the operations that
        // create, write, play or search (analysis and the computer's
        // move, whose GETs spend the search budget), and pictures.
        let searches = path.ends_with("/analysis") || path.ends_with("/move");
        let picture = path.ends_with("/picture.svg")
            || path.ends_with("/picture.png")
            || path.ends_with("/card.png");
        assert!(
            lower == "post" || searches || picture,
            "{what}: only writes, searches and pictures are rate limited, got 429: {}",
            show(body)
        );
        check_component_response(&what, "RateLimited", status, content_type, body);
        return;
    }
    let template = find_template(doc, path);
    let listed = template.map(|t| {
        follow(doc, &doc["paths"][t], String::new())
            .0
            .get(&lower)
            .is_some()
    });
    if lower == "options" && status == 200 && listed != Some(true) {
        check_component_response(&what, "CorsPreflight", status, content_type, body);
        return;
    }
    if lower == "options" && status == 400 && listed != Some(true) {
        check_component_response(&what, "CorsRefused", status, content_type, body);
        return;
    }

    let Some(template) = template else {
        assert_eq!(
            status,
            404,
            "{what}: no path of openapi.yaml matches, so only 404 is documented, got {status}: {}",
            show(body)
        );
        check_component_response(&what, "NotFound", status, content_type, body);
        return;
    };
    let what = format!("{what} (as {template})");
    let item_at = pointer(&["paths", template]);
    let (item, item_at) = follow(doc, &doc["paths"][template], item_at);

    let Some(operation) = item
        .get(&lower)
        .filter(|_| METHODS.contains(&lower.as_str()))
    else {
        let listed: Vec<String> = METHODS
            .iter()
            .filter(|m| item.get(**m).is_some())
            .map(|m| m.to_ascii_uppercase())
            .collect();
        assert_eq!(
            status, 405,
            "{what}: the spec lists only {listed:?} for this path, so only 405 is documented, got {status}: {}",
            show(body)
        );
        check_component_response(&what, "MethodNotAllowed", status, content_type, body);
        return;
    };
    let responses_at = format!("{item_at}/{lower}/responses");
    let responses = &operation["responses"];
    let Some((response, at)) = find_response(doc, responses, &responses_at, status) else {
        panic!(
            "{what}: status {status} is not documented (documented: {:?}). Body: {}",
            responses
                .as_object()
                .map(|m| m.keys().collect::<Vec<_>>())
                .unwrap_or_default(),
            show(body)
        );
    };
    check_response(&what, response, &at, status, content_type, body);
}

/// A request the service accepted (any status below 400) must be one the
/// spec allows: its path parameters, query parameters, documented headers
/// and JSON body each valid against their schemas, and no query parameter
/// the spec does not name. So the contract is never looser than the
/// server: a client that validates against `openapi.yaml` sends nothing the
/// service would take and the spec would not.
pub fn assert_request_conforms(
    method: &str,
    path_and_query: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
    status: u16,
) {
    if status >= 400 {
        return;
    }
    let doc = document();
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let lower = match method.to_ascii_lowercase() {
        m if m == "head" => "get".to_owned(),
        m => m,
    };
    let Some(template) = find_template(doc, path) else {
        return;
    };
    let item_at = pointer(&["paths", template]);
    let (item, item_at) = follow(doc, &doc["paths"][template], item_at);
    let Some(operation) = item.get(&lower) else {
        return;
    };
    let what = format!(
        "{} {path_and_query} (as {template}) → {status}",
        method.to_ascii_uppercase()
    );
    // Parameters of the path item, then of the operation (which win).
    let mut parameters: Vec<(String, String, String)> = Vec::new();
    for (list, list_at) in [
        (item.get("parameters"), format!("{item_at}/parameters")),
        (
            operation.get("parameters"),
            format!("{item_at}/{lower}/parameters"),
        ),
    ] {
        for (i, p) in list
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let (p, at) = follow(doc, p, format!("{list_at}/{i}"));
            let name = p["name"].as_str().unwrap_or_default().to_owned();
            let place = p["in"].as_str().unwrap_or_default().to_owned();
            parameters.retain(|(n, w, _)| !(n.eq_ignore_ascii_case(&name) && *w == place));
            parameters.push((name, place, format!("{at}/schema")));
        }
    }
    let schema_of = |name: &str, place: &str| {
        parameters
            .iter()
            .find(|(n, w, _)| w == place && n.eq_ignore_ascii_case(name))
            .map(|(_, _, at)| at.clone())
    };
    let check = |what_value: String, value: &Value, at: &str| {
        let errors: Vec<String> = validator(at)
            .iter_errors(value)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(
            errors.is_empty(),
            "{what}: the service accepted {what_value} = {value}, which the spec refuses ({at}): {errors:?}"
        );
    };
    // Path parameters.
    for (t, segment) in template.split('/').zip(path.split('/')) {
        let Segment::Param { prefix, suffix } = parse_segment(t) else {
            continue;
        };
        let name = &t[prefix.len() + 1..t.len() - suffix.len() - 1];
        let raw = &segment[prefix.len()..segment.len() - suffix.len()];
        let at = schema_of(name, "path")
            .unwrap_or_else(|| panic!("{what}: path parameter {name} is not documented"));
        let value = typed(doc, &at, &percent_decode(raw));
        check(format!("path parameter {name}"), &value, &at);
    }
    // Query parameters.
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let name = percent_decode(&name.replace('+', " "));
        let raw = percent_decode(&raw.replace('+', " "));
        let Some(at) = schema_of(&name, "query") else {
            panic!("{what}: the service accepted query parameter {name:?}, which the spec does not name");
        };
        let value = typed(doc, &at, &raw);
        check(format!("query parameter {name}"), &value, &at);
    }
    // Documented headers.
    for (name, raw) in headers {
        if let Some(at) = schema_of(name, "header") {
            check(format!("header {name}"), &Value::from(*raw), &at);
        }
    }
    // The JSON body.
    let Some(body) = body.filter(|b| !b.iter().all(u8::is_ascii_whitespace)) else {
        return;
    };
    // An operation that documents no body reads none ("No body is read").
    let Some(request_body) = operation.get("requestBody") else {
        return;
    };
    let (request_body, body_at) =
        follow(doc, request_body, format!("{item_at}/{lower}/requestBody"));
    if request_body["content"].get("application/json").is_none() {
        return;
    }
    let value: Value = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "{what}: the service accepted a body that is not JSON ({e}): {}",
            show(body)
        )
    });
    check(
        "the body".to_owned(),
        &value,
        &format!("{body_at}/content/application~1json/schema"),
    );
}

/// A parameter's text as the JSON value its schema describes: a number or
/// a boolean where the schema's type says so and the text is one, else the
/// string (which then fails a non-string schema, as it should).
fn typed(doc: &Value, schema_at: &str, raw: &str) -> Value {
    let schema = resolve_ref(doc, &format!("#{schema_at}")).unwrap_or(&Value::Null);
    let (schema, _) = follow(doc, schema, schema_at.to_owned());
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types.iter().any(|t| *t == "integer" || *t == "number") {
        if let Ok(n) = serde_json::from_str::<serde_json::Number>(raw) {
            return Value::Number(n);
        }
    }
    if types.contains(&"boolean") && (raw == "true" || raw == "false") {
        return Value::Bool(raw == "true");
    }
    Value::from(raw)
}

/// Every documented operation: (method in upper case, path template).
pub fn documented_operations() -> Vec<(String, String)> {
    let doc = document();
    let mut out = Vec::new();
    for (template, item) in doc["paths"].as_object().into_iter().flatten() {
        let (item, _) = follow(doc, item, pointer(&["paths", template]));
        for m in METHODS {
            if item.get(m).is_some() {
                out.push((m.to_ascii_uppercase(), template.clone()));
            }
        }
    }
    out.sort();
    out
}

/// Every `$ref` in `node`, with the pointer where it stands.
fn collect_refs(node: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match node {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "$ref" {
                    if let Some(r) = v.as_str() {
                        out.push((at.to_owned(), r.to_owned()));
                    }
                }
                collect_refs(v, &format!("{at}/{}", escape_token(k)), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                collect_refs(v, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn spec_is_valid_openapi() {
    let doc = document();
    let mut faults = Vec::new();

    let version = doc["openapi"].as_str().unwrap_or("");
    if !version.starts_with("3.1.") {
        faults.push(format!("`openapi` is {version:?}, not 3.1.x"));
    }
    for key in ["title", "version"] {
        if !doc["info"][key].is_string() {
            faults.push(format!("info.{key} is missing"));
        }
    }

    // Every `$ref` resolves.
    let mut refs = Vec::new();
    collect_refs(doc, "", &mut refs);
    for (at, r) in &refs {
        if resolve_ref(doc, r).is_none() {
            faults.push(format!("`$ref: {r}` at {at} resolves to nothing"));
        }
    }

    // The conventions the checker relies on.
    for name in [
        "NotFound",
        "MethodNotAllowed",
        "CorsPreflight",
        "CorsRefused",
    ] {
        if doc["components"]["responses"].get(name).is_none() {
            faults.push(format!("components.responses.{name} is missing"));
        }
    }

    let paths = doc["paths"].as_object().cloned().unwrap_or_default();
    if paths.is_empty() {
        faults.push("no paths".into());
    }
    let mut shapes: HashMap<String, &str> = HashMap::new();
    let mut operation_ids = BTreeSet::new();
    for (template, item) in &paths {
        if !template.starts_with('/') {
            faults.push(format!("path {template:?} does not start with /"));
        }
        // Parameters: at most one per segment, each declared `in: path`.
        let mut names = Vec::new();
        for seg in template.split('/') {
            let opens = seg.matches('{').count();
            if opens > 1 || opens != seg.matches('}').count() {
                faults.push(format!(
                    "{template}: segment {seg:?} has more than one parameter or unbalanced braces"
                ));
            }
            if let (Some(a), Some(b)) = (seg.find('{'), seg.find('}')) {
                if a < b {
                    names.push(seg[a + 1..b].to_owned());
                }
            }
        }
        let shape: String = template
            .split('/')
            .map(|s| match parse_segment(s) {
                Segment::Literal(l) => l.to_owned(),
                Segment::Param { prefix, suffix } => format!("{prefix}{{}}{suffix}"),
            })
            .collect::<Vec<_>>()
            .join("/");
        if let Some(other) = shapes.insert(shape, template) {
            faults.push(format!("{template} and {other} match the same paths"));
        }

        let item_at = pointer(&["paths", template]);
        let (item, item_at) = follow(doc, item, item_at);
        let declared = |op: &Value| -> Vec<(String, String)> {
            item["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .chain(op["parameters"].as_array().into_iter().flatten())
                .map(|p| follow(doc, p, String::new()).0)
                .map(|p| {
                    (
                        p["name"].as_str().unwrap_or("").to_owned(),
                        p["in"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect()
        };

        let mut any = false;
        for m in METHODS {
            let Some(op) = item.get(m) else { continue };
            any = true;
            let what = format!("{} {template}", m.to_ascii_uppercase());
            match op["operationId"].as_str() {
                Some(id) => {
                    if !operation_ids.insert(id.to_owned()) {
                        faults.push(format!("{what}: operationId {id:?} is used twice"));
                    }
                }
                None => faults.push(format!("{what}: no operationId")),
            }
            for (media, media_object) in op["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flatten()
            {
                if media_object.get("schema").is_some() && is_json(&essence(media)) {
                    let schema_at = format!(
                        "{item_at}/{m}/requestBody/content/{}/schema",
                        escape_token(media)
                    );
                    check_examples(
                        &format!("{what} request"),
                        media_object,
                        &schema_at,
                        &mut faults,
                    );
                }
            }
            let params = declared(op);
            for name in &names {
                if !params.iter().any(|(n, i)| n == name && i == "path") {
                    faults.push(format!("{what}: path parameter {{{name}}} is not declared"));
                }
            }
            for (n, i) in &params {
                if i == "path" && !names.contains(n) {
                    faults.push(format!(
                        "{what}: declares path parameter {n:?} the template lacks"
                    ));
                }
            }

            let Some(responses) = op["responses"].as_object() else {
                faults.push(format!("{what}: no responses"));
                continue;
            };
            // A WebSocket's success is its upgrade; an invite link's is
            // the redirect to its page.
            if !responses
                .keys()
                .any(|k| k.starts_with('2') || k == "101" || k == "303")
            {
                faults.push(format!("{what}: no 2xx response"));
            }
            if !responses
                .keys()
                .any(|k| k.starts_with('4') || k.starts_with('5') || k == "default")
            {
                faults.push(format!("{what}: no error response"));
            }
            for (code, response) in responses {
                let valid_key = code == "default"
                    || (code.len() == 3
                        && (code.chars().all(|c| c.is_ascii_digit())
                            || code.ends_with("XX")
                                && code.starts_with(['1', '2', '3', '4', '5'])));
                if !valid_key {
                    faults.push(format!(
                        "{what}: response key {code:?} is not a status, range or default"
                    ));
                }
                let at = format!("{item_at}/{m}/responses/{}", escape_token(code));
                let (response, at) = follow(doc, response, at);
                if !response["description"].is_string() {
                    faults.push(format!("{what} → {code}: no description"));
                }
                let is_error = code.starts_with('4') || code.starts_with('5') || code == "default";
                for (media, media_object) in response["content"].as_object().into_iter().flatten() {
                    if is_error && media != "application/problem+json" {
                        faults.push(format!(
                            "{what} → {code}: error as {media}, not application/problem+json"
                        ));
                    }
                    if media_object.get("schema").is_some() && is_json(&essence(media)) {
                        // Compiles (bad patterns, unresolvable refs panic
                        // here), and the examples fit.
                        let schema_at = format!("{at}/content/{}/schema", escape_token(media));
                        check_examples(
                            &format!("{what} → {code}"),
                            media_object,
                            &schema_at,
                            &mut faults,
                        );
                    }
                }
                if code == "304" && response.get("content").is_some() {
                    faults.push(format!("{what} → 304 documents a body"));
                }
            }
        }
        if !any {
            faults.push(format!("{template}: no operations"));
        }
    }

    // Each schema's own `examples` fit it.
    for (name, schema) in doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
    {
        let at = pointer(&["components", "schemas", name]);
        let v = validator(&at);
        for (i, example) in schema["examples"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            for e in v.iter_errors(example) {
                faults.push(format!(
                    "schema {name}, example {i}, at {:?}: {e}",
                    e.instance_path.as_str()
                ));
            }
        }
    }

    // Every problem kind of the service is documented with its type, title
    // and status.
    let schemas = doc["components"]["schemas"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for kind in qipan::problem::ProblemKind::ALL {
        let uri = kind.type_uri();
        let found = schemas.values().find(|s| {
            s["allOf"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|part| part["properties"]["type"]["const"].as_str() == Some(uri.as_str()))
        });
        let Some(schema) = found else {
            faults.push(format!("no schema documents problem type {uri}"));
            continue;
        };
        let props = schema["allOf"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|part| part["properties"]["type"]["const"].as_str() == Some(uri.as_str()))
            .map(|part| &part["properties"])
            .unwrap_or(&Value::Null);
        if props["title"]["const"].as_str() != Some(kind.title()) {
            faults.push(format!(
                "{uri}: title const is {}, the service says {:?}",
                props["title"]["const"],
                kind.title()
            ));
        }
        let status = &props["status"];
        let code = kind.status().as_u16();
        let status_ok = status["const"].as_u64() == Some(u64::from(code))
            || status["minimum"]
                .as_u64()
                .is_some_and(|min| u64::from(code) >= min);
        if !status_ok {
            faults.push(format!(
                "{uri}: status is documented as {status}, the service sends {code}"
            ));
        }
    }

    // `/problems/{kind}` lists every kind, and only those.
    let listed: BTreeSet<&str> = doc["paths"]["/problems/{kind}"]["get"]["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["name"] == "kind")
        .flat_map(|p| p["schema"]["enum"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    let kinds: BTreeSet<&str> = qipan::problem::ProblemKind::ALL
        .iter()
        .map(|k| k.slug())
        .collect();
    if listed != kinds {
        faults.push(format!(
            "/problems/{{kind}} lists {:?} it should not and lacks {:?}",
            listed.difference(&kinds).collect::<Vec<_>>(),
            kinds.difference(&listed).collect::<Vec<_>>()
        ));
    }

    // The checker's own rules, on fixed examples.
    assert_eq!(
        find_template(doc, "/v1/xiangqi/start"),
        Some("/v1/{game}/start")
    );
    assert_eq!(
        find_template(doc, "/v1/xiangqi/import"),
        Some("/v1/{game}/import")
    );
    assert_eq!(
        find_template(
            doc,
            "/v1/xiangqi/VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM"
        ),
        Some("/v1/{game}/{code}")
    );
    assert_eq!(
        find_template(doc, "/v1/2048/AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4/play"),
        Some("/v1/{game}/{code}/play")
    );
    assert_eq!(
        find_template(doc, "/v1/2048/start"),
        Some("/v1/{game}/start")
    );
    assert_eq!(find_template(doc, "/v1/games"), Some("/v1/games"));
    assert_eq!(find_template(doc, "/v1/xiangqi/"), None);
    assert_eq!(find_template(doc, "/nowhere"), None);
    let id = "1bd60e27-c383-4edc-8f73-622531a147e5";
    assert_eq!(find_template(doc, "/v1/matches"), Some("/v1/matches"));
    assert_eq!(
        find_template(doc, &format!("/v1/matches/{id}")),
        Some("/v1/matches/{id}")
    );
    assert_eq!(
        find_template(doc, &format!("/v1/matches/{id}/undo/accept")),
        Some("/v1/matches/{id}/undo/accept")
    );

    assert!(
        faults.is_empty(),
        "openapi.yaml:\n  {}",
        faults.join("\n  ")
    );
}

#[test]
fn documented_operations_are_the_route_table() {
    let expected = [
        ("GET", "/healthz"),
        ("GET", "/openapi.yaml"),
        ("GET", "/problems/{kind}"),
        ("GET", "/v1/games"),
        ("GET", "/v1/{game}/start"),
        ("POST", "/v1/{game}/import"),
        ("GET", "/v1/{game}/{code}"),
        ("POST", "/v1/{game}/{code}/play"),
        ("GET", "/v1/{game}/{code}/export"),
        ("GET", "/v1/{game}/{code}/analysis"),
        ("POST", "/v1/{game}/{code}/analysis"),
        ("GET", "/v1/{game}/{code}/move"),
        ("POST", "/v1/{game}/{code}/move"),
        ("GET", "/v1/{game}/{code}/picture.svg"),
        ("GET", "/v1/{game}/{code}/picture.png"),
        ("GET", "/v1/{game}/{code}/card.png"),
        ("GET", "/v1/matches/{id}/picture.svg"),
        ("GET", "/v1/matches/{id}/picture.png"),
        ("GET", "/v1/matches/{id}/card.png"),
        ("GET", "/v1/matches/{id}/record.pgn"),
        ("GET", "/v1/matches/{id}/record.xqf"),
        ("GET", "/v1/matches/{id}/record.psq"),
        ("GET", "/v1/matches/{id}/record.txt"),
        ("GET", "/v1/matches/{id}/record.json"),
        ("GET", "/v1/matches/{id}/replay.gif"),
        ("GET", "/v1/{game}/{code}/fumen"),
        ("POST", "/v1/{game}/records"),
        ("GET", "/v1/matches/{id}/join"),
        ("GET", "/docs"),
        ("GET", "/metrics"),
        ("GET", "/"),
        ("GET", "/play/{game}"),
        ("GET", "/play/{game}/{code}"),
        ("GET", "/static/{path}"),
        ("GET", "/p/{game}/{code}"),
        ("GET", "/m/{id}"),
        ("GET", "/lang/{tag}"),
        ("POST", "/v1/matches"),
        ("GET", "/v1/matches/{id}"),
        ("GET", "/v1/matches/{id}/history"),
        ("GET", "/v1/matches/{id}/events"),
        ("POST", "/v1/matches/{id}/play"),
        ("POST", "/v1/matches/{id}/undo"),
        ("POST", "/v1/matches/{id}/undo/accept"),
        ("POST", "/v1/matches/{id}/undo/decline"),
        ("POST", "/v1/matches/{id}/resign"),
        ("POST", "/v1/matches/{id}/draw"),
        ("POST", "/v1/matches/{id}/draw/accept"),
        ("POST", "/v1/matches/{id}/draw/decline"),
        ("POST", "/v1/matches/{id}/claim"),
        ("POST", "/v1/matches/{id}/fork"),
        ("POST", "/v1/matches/{id}/join"),
        ("GET", "/v1/matches/{id}/ws"),
        ("POST", "/v1/matches/{id}/invite"),
        ("POST", "/v1/matches/{id}/invite/withdraw"),
        ("POST", "/v1/matches/{id}/invite/decline"),
        ("GET", "/v1/lobby"),
        ("GET", "/v1/lobby/events"),
        ("POST", "/v1/lobby/seeks"),
        ("GET", "/v1/lobby/seeks/{seek}/events"),
        ("POST", "/v1/lobby/seeks/{seek}/take"),
        ("POST", "/v1/lobby/seeks/{seek}/withdraw"),
    ];
    let mut expected: Vec<(String, String)> = expected
        .iter()
        .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
        .collect();
    expected.sort();
    assert_eq!(documented_operations(), expected);
}

/// Whether `assert_conforms` refuses the response.
fn refused(method: &str, path: &str, status: u16, content_type: Option<&str>, body: &str) -> bool {
    std::panic::catch_unwind(|| {
        assert_conforms(method, path, status, content_type, body.as_bytes());
    })
    .is_err()
}

#[test]
fn the_checker_refuses_what_the_spec_does_not_say() {
    const JSON: Option<&str> = Some("application/json");
    const PROBLEM: Option<&str> = Some("application/problem+json");
    let not_found =
        r#"{"type":"/problems/not-found","title":"Not found","status":404,"detail":"no route"}"#;
    let not_allowed = r#"{"type":"/problems/method-not-allowed","title":"Method not allowed","status":405,"detail":"no","allow":["GET"]}"#;
    let internal =
        r#"{"type":"/problems/internal","title":"Internal error","status":500,"detail":"boom"}"#;
    let invalid_code = r#"{"type":"/problems/invalid-code","title":"Invalid state code","status":400,"detail":"x","field":"code","reason":"padding","offset":3}"#;

    // What the spec says passes.
    assert!(!refused("GET", "/healthz", 200, JSON, r#"{"status":"ok"}"#));
    assert!(!refused(
        "GET",
        "/healthz",
        200,
        Some("application/json; charset=utf-8"),
        r#"{"status":"ok"}"#
    ));
    assert!(!refused(
        "GET",
        "/healthz",
        503,
        PROBLEM,
        &internal.replace("500", "503")
    ));
    assert!(!refused("GET", "/v1/games", 304, None, ""));
    assert!(!refused("DELETE", "/v1/games", 405, PROBLEM, not_allowed));
    assert!(!refused("OPTIONS", "/v1/games", 200, None, ""));
    assert!(!refused("HEAD", "/v1/games", 200, JSON, ""));
    assert!(refused("HEAD", "/v1/games", 200, JSON, "{}"));
    assert!(!refused("HEAD", "/v1/xiangqi/import", 405, PROBLEM, ""));
    assert!(!refused("HEAD", "/nowhere", 404, PROBLEM, ""));
    assert!(!refused("GET", "/nowhere", 404, PROBLEM, not_found));
    assert!(!refused(
        "GET",
        "/v1/xiangqi/abc",
        400,
        PROBLEM,
        invalid_code
    ));
    assert!(!refused(
        "GET",
        "/openapi.yaml",
        200,
        Some("application/yaml"),
        "openapi: 3.1.0"
    ));

    // Undocumented members, statuses, media types and bodies do not.
    assert!(refused(
        "GET",
        "/healthz",
        200,
        JSON,
        r#"{"status":"ok","extra":1}"#
    ));
    assert!(refused("GET", "/healthz", 200, Some("text/plain"), "ok"));
    assert!(refused("GET", "/healthz", 200, None, r#"{"status":"ok"}"#));
    assert!(refused("GET", "/healthz", 200, JSON, "not json"));
    assert!(refused("GET", "/healthz", 404, PROBLEM, not_found));
    assert!(refused("GET", "/healthz", 418, PROBLEM, not_found));
    assert!(refused("GET", "/v1/games", 304, JSON, "{}"));
    assert!(refused(
        "GET",
        "/v1/games",
        200,
        JSON,
        r#"{"games":[],"next":null}"#
    ));
    assert!(refused("DELETE", "/v1/games", 200, JSON, r#"{"games":[]}"#));
    assert!(refused("GET", "/nowhere", 200, JSON, "{}"));
    assert!(refused(
        "GET",
        "/nowhere",
        404,
        Some("text/plain"),
        "Not Found"
    ));
    // `/v1/xiangqi/start` is the start route, whose 400s are not invalid-code.
    assert!(refused(
        "GET",
        "/v1/xiangqi/start",
        400,
        PROBLEM,
        invalid_code
    ));
    // A problem of the right kind must still carry its members.
    assert!(refused(
        "GET",
        "/v1/xiangqi/abc",
        400,
        PROBLEM,
        &invalid_code.replace(r#","reason":"padding""#, "")
    ));

    // Views are told apart by game: a 2048 view passes as itself only.
    let code = "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4";
    let path = format!("/v1/2048/{code}");
    let view = format!(
        r#"{{"game":"2048","variant":"standard","code":"{code}","url":"http://h/v1/2048/{code}","page":"http://h/p/2048/{code}","to_move":"player","status":{{"state":"ongoing","winner":null,"reason":null}},"check":false,"board":[[0,0,2,0],[0,0,2,0],[0,0,0,0],[0,0,0,0]],"legal_actions":[{{"action":"up"}},{{"action":"down"}},{{"action":"left"}},{{"action":"right"}}],"score":0,"won":false,"max_tile":2,"seed":"8709371129873690750","spawned":null,"gained":null}}"#
    );
    assert!(!refused("GET", &path, 200, JSON, &view));
    for (from, to) in [
        (r#""check":false"#, r#""check":true"#),
        ("[0,0,2,0],[0,0,2,0]", "[0,0,3,0],[0,0,2,0]"),
        (
            r#""seed":"8709371129873690750""#,
            r#""seed":8709371129873690750"#,
        ),
        (r#"{"action":"up"}"#, r#"{"action":"h2e2"}"#),
        (r#""game":"2048""#, r#""game":"xiangqi""#),
        (r#""state":"ongoing""#, r#""state":"won""#),
        (
            r#""spawned":null"#,
            r#""spawned":{"row":4,"column":0,"value":2}"#,
        ),
    ] {
        assert!(
            refused("GET", &path, 200, JSON, &view.replace(from, to)),
            "{to}"
        );
    }
    // Problems list either game's action views, but only well-formed ones.
    let illegal = r#"{"type":"/problems/illegal-action","title":"Illegal action","status":422,"detail":"x","index":0,"action":"up","reason":"no-change","legal_actions":[{"action":"down"}]}"#;
    let play = format!("/v1/2048/{code}/play");
    assert!(!refused("POST", &play, 422, PROBLEM, illegal));
    assert!(refused(
        "POST",
        &play,
        422,
        PROBLEM,
        &illegal.replace(r#""down""#, r#""sideways""#)
    ));
    // Exports likewise: a grid export carries no `text`.
    let export = format!(
        r#"{{"game":"2048","code":"{code}","format":"grid","board":[[0,0,2,0],[0,0,2,0],[0,0,0,0],[0,0,0,0]],"score":0,"seed":"8709371129873690750"}}"#
    );
    let export_path = format!("/v1/2048/{code}/export");
    assert!(!refused("GET", &export_path, 200, JSON, &export));
    assert!(refused(
        "GET",
        &export_path,
        200,
        JSON,
        &export.replace(r#""format":"grid""#, r#""format":"fen""#)
    ));
}

#[test]
fn the_checker_serves_literal_segments_first() {
    // On a document of its own: concrete segments win, left to right, and a
    // literal that more segments follow claims its prefix.
    let doc = serde_json::json!({ "paths": {
        "/a": {}, "/a/{x}/c": {}, "/a/b/{y}": {}, "/{z}/b/c/d": {}, "/k/{w}/m": {}, "/k/l": {},
    }});
    assert_eq!(find_template(&doc, "/a/b/c"), Some("/a/b/{y}"));
    assert_eq!(find_template(&doc, "/a/q/c"), Some("/a/{x}/c"));
    assert_eq!(find_template(&doc, "/a"), Some("/a"));
    // `/a/{x}/c` claims `a`: `/{z}/b/c/d` does not serve `/a/b/c/d`.
    assert_eq!(find_template(&doc, "/a/b/c/d"), None);
    assert_eq!(find_template(&doc, "/e/b/c/d"), Some("/{z}/b/c/d"));
    // `/k/l` ends at `l`, so it claims nothing below it.
    assert_eq!(find_template(&doc, "/k/l/m"), Some("/k/{w}/m"));

    // On this document: `/v1/matches/…` is never a game's path.
    let doc = document();
    let id = "1bd60e27-c383-4edc-8f73-622531a147e5";
    for (path, template) in [
        (format!("/v1/matches/{id}"), Some("/v1/matches/{id}")),
        ("/v1/matches/start".to_owned(), Some("/v1/matches/{id}")),
        ("/v1/matches/import".to_owned(), Some("/v1/matches/{id}")),
        (
            format!("/v1/matches/{id}/play"),
            Some("/v1/matches/{id}/play"),
        ),
        (
            format!("/v1/matches/{id}/history"),
            Some("/v1/matches/{id}/history"),
        ),
        (format!("/v1/matches/{id}/export"), None),
        ("/v1/matches/".to_owned(), None),
        ("/v1/games/x".to_owned(), Some("/v1/{game}/{code}")),
        (
            "/v1/xiangqi/start/play".to_owned(),
            Some("/v1/{game}/{code}/play"),
        ),
    ] {
        assert_eq!(find_template(doc, &path), template, "{path}");
    }

    const JSON: Option<&str> = Some("application/json");
    const PROBLEM: Option<&str> = Some("application/problem+json");
    let not_found =
        r#"{"type":"/problems/not-found","title":"Not found","status":404,"detail":"no route"}"#;
    let export = format!("/v1/matches/{id}/export");
    assert!(!refused("POST", &export, 404, PROBLEM, not_found));
    assert!(!refused("GET", &export, 404, PROBLEM, not_found));
    assert!(refused("POST", &export, 405, PROBLEM, not_found));
    let invalid_id = r#"{"type":"/problems/invalid-match-id","title":"Invalid match id","status":400,"detail":"x","field":"id"}"#;
    assert!(!refused(
        "GET",
        "/v1/matches/start",
        400,
        PROBLEM,
        invalid_id
    ));
    assert!(refused(
        "GET",
        "/v1/xiangqi/start",
        400,
        PROBLEM,
        invalid_id
    ));

    // A match read is a match view, with no secrets; a create has them.
    let path = format!("/v1/matches/{id}");
    let code = "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4";
    let state = format!(
        r#"{{"game":"2048","variant":"standard","code":"{code}","url":"http://h/v1/2048/{code}","page":"http://h/p/2048/{code}","to_move":"player","status":{{"state":"ongoing","winner":null,"reason":null}},"check":false,"board":[[0,0,2,0],[0,0,2,0],[0,0,0,0],[0,0,0,0]],"legal_actions":[{{"action":"up"}},{{"action":"down"}},{{"action":"left"}},{{"action":"right"}}],"score":0,"won":false,"max_tile":2,"seed":"8709371129873690750","spawned":null,"gained":null}}"#
    );
    let view = format!(
        r#"{{"id":"{id}","url":"http://h{path}","game":"2048","mode":"solo","version":1,"ply":0,"to_move":"player","state":{state},"seats":[{{"seat":"solo","name":null,"taken":true,"joined_at":"2026-11-23T08:59:53.072Z","online":false}}],"status":{{"state":"ongoing","winner":null,"reason":null}},"undo_offer":null,"draw_offer":null,"clock":null,"parent":null,"history_url":"http://h{path}/history","page":"http://h/m/{id}","events_url":"http://h{path}/events","ws_url":"ws://h{path}/ws","created_at":"2026-11-23T08:59:53.072Z","updated_at":"2026-11-23T08:59:53.072Z"}}"#
    );
    let secrets =
        r#","token":"kqO-1TvwmPnNaKg81ehBFPcxrEl8ce9U9iQLqSOMLWE","seat":"solo","invites":[]}"#;
    let seated = format!("{}{secrets}", view.trim_end_matches('}'));
    assert!(!refused("GET", &path, 200, JSON, &view));
    assert!(refused("GET", &path, 200, JSON, &seated));
    assert!(!refused("POST", "/v1/matches", 201, JSON, &seated));
    assert!(refused("POST", "/v1/matches", 201, JSON, &view));
    assert!(!refused(
        "POST",
        &format!("{path}/fork"),
        201,
        JSON,
        &seated
    ));
    assert!(refused("POST", &format!("{path}/play"), 200, JSON, &seated));
    assert!(!refused("POST", &format!("{path}/undo"), 202, JSON, &view));
    for (from, to) in [
        (r#""mode":"solo""#, r#""mode":"duel""#),
        (r#""game":"2048","mode""#, r#""game":"xiangqi","mode""#),
        (
            r#""state":"ongoing","winner":null,"reason":null},"undo"#,
            r#""state":"over","winner":null,"reason":"gave-up"},"undo"#,
        ),
        (
            r#""undo_offer":null"#,
            r#""undo_offer":{"seat":"solo","ply":0}"#,
        ),
        (
            r#""joined_at":"2026-11-23T08:59:53.072Z""#,
            r#""joined_at":"yesterday""#,
        ),
        (r#""version":1"#, r#""version":0"#),
        (&format!(r#""id":"{id}""#), r#""id":"1bd60e27""#),
        (r#","parent":null"#, ""),
    ] {
        assert!(
            refused("GET", &path, 200, JSON, &view.replace(from, to)),
            "{to}"
        );
    }
    assert!(!refused(
        "GET",
        &path,
        200,
        JSON,
        &view
            .replace(r#""reason":null},"undo"#, r#""reason":"resigned"},"undo"#)
            .replace(
                r#""state":"ongoing","winner":null,"reason":"resigned""#,
                r#""state":"over","winner":null,"reason":"resigned""#
            )
    ));

    // Match problems: 503s are the match API's own, 409s as each operation says.
    let disabled = r#"{"type":"/problems/matches-disabled","title":"Matches are not served","status":503,"detail":"x"}"#;
    assert!(!refused("GET", &path, 503, PROBLEM, disabled));
    assert!(!refused("POST", "/v1/matches", 503, PROBLEM, disabled));
    assert!(refused("GET", "/v1/xiangqi/start", 503, PROBLEM, disabled));
    let pending = r#"{"type":"/problems/undo-pending","title":"Takeback offer pending","status":409,"detail":"x","undo_offer":{"seat":"red","ply":2}}"#;
    assert!(!refused(
        "POST",
        &format!("{path}/undo"),
        409,
        PROBLEM,
        pending
    ));
    assert!(refused(
        "POST",
        &format!("{path}/play"),
        409,
        PROBLEM,
        pending
    ));
    let over = r#"{"type":"/problems/game-over","title":"Game over","status":409,"detail":"x","outcome":{"state":"won","winner":"red","reason":"resigned"}}"#;
    assert!(!refused(
        "POST",
        &format!("{path}/resign"),
        409,
        PROBLEM,
        over
    ));
    assert!(refused("POST", "/v1/xiangqi/AA/play", 409, PROBLEM, over));
    let stale = r#"{"type":"/problems/stale-version","title":"Stale version","status":412,"detail":"x","asked":[2]}"#;
    assert!(!refused(
        "POST",
        &format!("{path}/play"),
        412,
        PROBLEM,
        stale
    ));
    assert!(refused(
        "POST",
        &format!("{path}/play"),
        412,
        PROBLEM,
        &stale.replace(r#","asked":[2]"#, "")
    ));
    assert!(refused(
        "POST",
        &format!("{path}/fork"),
        412,
        PROBLEM,
        stale
    ));
}

/// Validates a media type object's `example` and `examples` against the
/// schema at `schema_at`, recording each misfit.
fn check_examples(what: &str, media_object: &Value, schema_at: &str, faults: &mut Vec<String>) {
    let v = validator(schema_at);
    let named = media_object["examples"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, ex)| ex.get("value").map(|value| (name.as_str(), value)));
    let single = media_object.get("example").map(|value| ("example", value));
    for (name, example) in single.into_iter().chain(named) {
        for e in v.iter_errors(example) {
            faults.push(format!(
                "{what}: {name} at {:?}: {e}",
                e.instance_path.as_str()
            ));
        }
    }
}

#[test]
fn the_checker_tells_gomoku_views_apart() {
    const JSON: Option<&str> = Some("application/json");
    const PROBLEM: Option<&str> = Some("application/problem+json");
    let row = |n: usize| format!("[{}]", vec!["null"; n].join(","));
    let board = |n: usize| format!("[{}]", vec![row(n); n].join(","));
    let view = |variant: &str, size: usize, code: &str| {
        format!(
            r#"{{"game":"gomoku","variant":"{variant}","size":{size},"code":"{code}","url":"http://h/v1/gomoku/{code}","page":"http://h/p/gomoku/{code}","to_move":"black","status":{{"state":"ongoing","winner":null,"reason":null}},"check":false,"board":{},"legal_actions":[{{"action":"a1"}}],"forbidden":[],"last_move":null,"winning_line":null,"moves":[]}}"#,
            board(size)
        )
    };
    assert_eq!(
        find_template(document(), "/v1/gomoku/AHB_/play"),
        Some("/v1/{game}/{code}/play")
    );
    let free = view("freestyle", 15, "AA");
    assert!(!refused("GET", "/v1/gomoku/AA", 200, JSON, &free));
    let big = view("freestyle", 19, "BA");
    assert!(!refused("GET", "/v1/gomoku/BA", 200, JSON, &big));
    let renju = view("renju", 15, "Ag");
    let forbidden = r#""forbidden":[{"point":"h8","reason":"double-three"}]"#;
    assert!(!refused(
        "GET",
        "/v1/gomoku/Ag",
        200,
        JSON,
        &renju.replace(r#""forbidden":[]"#, forbidden)
    ));
    let won = free
        .replace(
            r#""state":"ongoing","winner":null,"reason":null"#,
            r#""state":"won","winner":"white","reason":"five-in-a-row""#,
        )
        .replace(
            r#""winning_line":null"#,
            r#""winning_line":["e11","f10","g9","h8","i7"]"#,
        );
    assert!(!refused("GET", "/v1/gomoku/AA", 200, JSON, &won));
    for (from, to) in [
        (r#""check":false"#, r#""check":true"#),
        (r#""size":15"#, r#""size":19"#),
        (r#""game":"gomoku""#, r#""game":"2048""#),
        (r#""variant":"freestyle""#, r#""variant":"caro""#),
        (r#""to_move":"black""#, r#""to_move":"red""#),
        (r#""state":"ongoing""#, r#""state":"over""#),
        (r#"{"action":"a1"}"#, r#"{"action":"t1"}"#),
        (r#"{"action":"a1"}"#, r#"{"action":"a20"}"#),
        (r#"{"action":"a1"}"#, r#"{"action":"up"}"#),
        (r#""forbidden":[]"#, forbidden),
        (r#""moves":[]"#, r#""moves":"""#),
        (r#""last_move":null"#, r#""last_move":"h0""#),
        (r#""winning_line":null"#, r#""winning_line":["h8"]"#),
        (r#""code":"AA""#, r#""code":"A""#),
        (r#"[null,null,"#, r#"["x",null,"#),
        (r#","moves":[]"#, r#","moves":[],"fen":"""#),
    ] {
        assert!(
            refused("GET", "/v1/gomoku/AA", 200, JSON, &free.replace(from, to)),
            "{to}"
        );
    }
    // 19×19 is free-style only; Renju's forbidden reasons are three.
    assert!(refused(
        "GET",
        "/v1/gomoku/BA",
        200,
        JSON,
        &big.replace(r#""variant":"freestyle""#, r#""variant":"renju""#)
    ));
    assert!(refused(
        "GET",
        "/v1/gomoku/Ag",
        200,
        JSON,
        &renju.replace(
            r#""forbidden":[]"#,
            r#""forbidden":[{"point":"h8","reason":"four-four"}]"#
        )
    ));

    // Problems list gomoku points as action views.
    let illegal = r#"{"type":"/problems/illegal-action","title":"Illegal action","status":422,"detail":"x","index":0,"action":"h8","reason":"point-taken","legal_actions":[{"action":"s19"}]}"#;
    assert!(!refused(
        "POST",
        "/v1/gomoku/AA/play",
        422,
        PROBLEM,
        illegal
    ));
    assert!(refused(
        "POST",
        "/v1/gomoku/AA/play",
        422,
        PROBLEM,
        &illegal.replace("s19", "t19")
    ));
    let code_problem = r#"{"type":"/problems/invalid-code","title":"Invalid state code","status":400,"detail":"x","field":"code","reason":"grid-value","byte":73,"value":3}"#;
    assert!(!refused("GET", "/v1/gomoku/AA", 400, PROBLEM, code_problem));
    assert!(refused(
        "GET",
        "/v1/gomoku/AA",
        400,
        PROBLEM,
        &code_problem.replace("grid-value", "grid-values")
    ));

    // Exports: rows text of 15 or 19 lines, moves a string or null.
    let text = vec![".".repeat(15); 15].join("\\n");
    let export = format!(
        r#"{{"game":"gomoku","code":"AA","format":"rows","variant":"freestyle","text":"{text}","moves":""}}"#
    );
    assert!(!refused("GET", "/v1/gomoku/AA/export", 200, JSON, &export));
    for (from, to) in [
        (r#""moves":"""#, r#""moves":[]"#),
        (r#""moves":"""#, r#""moves":"h8,h9""#),
        (r#""format":"rows""#, r#""format":"grid""#),
        ("...\\n", "..\\n"),
    ] {
        assert!(
            refused(
                "GET",
                "/v1/gomoku/AA/export",
                200,
                JSON,
                &export.replacen(from, to, 1)
            ),
            "{to}"
        );
    }
}

/// Whether the request checker refuses a request the service accepted.
fn request_refused(method: &str, path: &str, headers: &[(&str, &str)], body: Option<&str>) -> bool {
    std::panic::catch_unwind(|| {
        assert_request_conforms(method, path, headers, body.map(str::as_bytes), 200)
    })
    .is_err()
}

#[test]
fn the_request_checker_refuses_what_the_spec_does_not_allow() {
    let id = "1bd60e27-c383-4edc-8f73-622531a147e5";
    let start = "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM";
    // Accepted requests the spec allows.
    for (method, path, headers, body) in [
        ("GET", format!("/v1/matches/{id}"), vec![], None),
        (
            "GET",
            format!("/v1/matches/{}", id.to_uppercase()),
            vec![],
            None,
        ),
        ("GET", format!("/v1/xiangqi/{start}"), vec![], None),
        (
            "GET",
            "/v1/2048/start?seed=18446744073709551615".to_owned(),
            vec![],
            None,
        ),
        (
            "POST",
            format!("/v1/matches/{id}/play"),
            vec![("If-Match", "\"3\", W/\"4\"")],
            Some(r#"{"actions": ["h2e2"]}"#),
        ),
        (
            "POST",
            "/v1/matches".to_owned(),
            vec![],
            Some(r#"{"game": "gomoku", "variant": null}"#),
        ),
    ] {
        assert!(
            !request_refused(method, &path, &headers, body),
            "{method} {path} {headers:?} {body:?}"
        );
    }
    // Requests the spec refuses: had the service accepted them, the
    // contract would be looser than the server.
    for (method, path, headers, body) in [
        (
            "GET",
            format!("/v1/matches/{}", id.replace('-', "")),
            vec![],
            None,
        ),
        ("GET", format!("/v1/matches/urn:uuid:{id}"), vec![], None),
        ("GET", "/v1/xiangqi/!!!".to_owned(), vec![], None),
        ("GET", "/v1/2048/start?seed=-1".to_owned(), vec![], None),
        (
            "GET",
            "/v1/2048/start?seed=18446744073709551616".to_owned(),
            vec![],
            None,
        ),
        (
            "GET",
            "/v1/xiangqi/start?colour=red".to_owned(),
            vec![],
            None,
        ),
        (
            "POST",
            format!("/v1/matches/{id}/play"),
            vec![("If-Match", "7")],
            Some(r#"{"actions": ["h2e2"]}"#),
        ),
        (
            "POST",
            format!("/v1/matches/{id}/play"),
            vec![],
            Some(r#"{"actions": []}"#),
        ),
        (
            "POST",
            "/v1/matches".to_owned(),
            vec![],
            Some(r#"{"game": "gomoku", "variant": 5}"#),
        ),
        (
            "POST",
            "/v1/matches".to_owned(),
            vec![],
            Some(r#"{"game": "gomoku", "colour": "red"}"#),
        ),
    ] {
        assert!(
            request_refused(method, &path, &headers, body),
            "{method} {path} {headers:?} {body:?}"
        );
    }
}

/// The id patterns of the spec are exactly the ids the service reads.
#[test]
fn id_patterns_are_what_the_service_reads() {
    use proptest::prelude::*;
    let match_id = validator("/components/parameters/MatchId/schema");
    let seek_id = validator("/components/parameters/SeekId/schema");
    let mut runner = proptest::test_runner::TestRunner::default();
    let ids = prop_oneof![
        "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        "[0-9a-gA-G{}:-]{30,40}",
        "urn:uuid:[0-9a-f-]{36}",
        "\\{[0-9a-f-]{36}\\}",
        "[0-9a-f]{32}",
        ".{0,40}",
    ];
    runner
        .run(&ids, |id| {
            let spec = match_id.is_valid(&Value::from(id.as_str()));
            let reads = id.parse::<qipan::matches::MatchId>().is_ok();
            prop_assert_eq!(spec, reads, "match id {:?}", id);
            let seek = seek_id.is_valid(&Value::from(id.as_str()));
            let reads = id.parse::<qipan::matches::lobby::SeekId>().is_ok();
            prop_assert_eq!(seek, reads, "seek id {:?}", id);
            Ok(())
        })
        .unwrap();
}

/// The `If-Match` pattern is exactly what the service reads: a header it
/// refuses with 400 fails the pattern, and one it reads passes.
#[test]
fn the_if_match_pattern_is_what_the_service_reads() {
    use proptest::prelude::*;
    let pattern = validator("/components/parameters/IfMatch/schema");
    let pieces = prop_oneof![
        Just("\"7\"".to_owned()),
        Just("W/\"7\"".to_owned()),
        Just("\"\"".to_owned()),
        Just("*".to_owned()),
        Just("7".to_owned()),
        Just(",".to_owned()),
        Just(" ".to_owned()),
        Just("\t".to_owned()),
        Just("\"".to_owned()),
        Just("W/".to_owned()),
        Just("\"a b\"".to_owned()),
        "[ -~]{1,3}",
    ];
    let headers = proptest::collection::vec(pieces, 1..6).prop_map(|p| p.concat());
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 2000,
        ..Default::default()
    });
    runner
        .run(&headers, |header| {
            let Ok(value) = actix_web::http::header::HeaderValue::from_str(&header) else {
                return Ok(());
            };
            let req = actix_web::test::TestRequest::default()
                .insert_header((actix_web::http::header::IF_MATCH, value))
                .to_http_request();
            let reads = qipan::http::conditional::precondition(&req).is_ok();
            let spec = pattern.is_valid(&Value::from(header.as_str()));
            prop_assert_eq!(spec, reads, "If-Match {:?}", header);
            Ok(())
        })
        .unwrap();
}

/// Panics when a live event (of a match stream or socket) does not match
/// `MatchStreamEvent` of openapi.yaml: its name is one of the documented
/// kinds, and its data is a `MatchView` (`sync`), a `PresenceEvent`
/// (`presence`) or a `MatchEvent`.
#[track_caller]
pub fn assert_event_conforms(kind: &str, data: &Value) {
    let doc = document();
    let kinds = &doc["components"]["schemas"]["MatchStreamEvent"]["properties"]["event"]["enum"];
    assert!(
        kinds
            .as_array()
            .is_some_and(|k| k.iter().any(|name| name == kind)),
        "openapi.yaml: event {kind:?} is not one of MatchStreamEvent's kinds {kinds}"
    );
    let schema = match kind {
        "sync" => "/components/schemas/MatchView",
        "presence" => "/components/schemas/PresenceEvent",
        _ => "/components/schemas/MatchEvent",
    };
    let errors: Vec<String> = validator(schema)
        .iter_errors(data)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "event {kind}: its data does not match {schema}: {errors:?}\n{data}"
    );
}

/// Panics when a WebSocket message does not match the schema `name` of
/// openapi.yaml (`WsCommand` for what a client sends, `WsAck` or
/// `WsProblem` for the answers).
#[track_caller]
pub fn assert_ws_conforms(name: &str, message: &Value) {
    let schema = format!("/components/schemas/{name}");
    let errors: Vec<String> = validator(&schema)
        .iter_errors(message)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "WebSocket message does not match {schema}: {errors:?}\n{message}"
    );
}
