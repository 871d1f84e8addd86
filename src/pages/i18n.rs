//! The languages pages speak: Simplified Chinese first, Traditional Chinese
//! and English. Every text a person reads on a page lives in one catalogue
//! per language, `static/i18n/<tag>.json` (a flat object of keys to texts
//! with `{name}` holes), read by the server-rendered pages here and put in
//! the playground's page for its script — the same file for both.
//!
//! A request's language is, in order: the `qipan-lang` cookie (set by the
//! language links of every page, through `GET /lang/{tag}`), then the first
//! language of `Accept-Language` the service speaks (`zh-TW`, `zh-HK`,
//! `zh-MO` and `zh-Hant*` read Traditional; other `zh*` Simplified; `en*`
//! English), then Simplified Chinese when the header names none of them
//! or is absent.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::HttpRequest;

use super::escape;

/// The cookie that keeps a reader's choice of language.
pub const COOKIE: &str = "qipan-lang";

/// A language of the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// Simplified Chinese (`zh-Hans`), the first language.
    Hans,
    /// Traditional Chinese (`zh-Hant`), for Taiwan, Hong Kong and Macau.
    Hant,
    /// English.
    En,
}

impl Lang {
    /// Every language, in the order the language links show them.
    pub const ALL: [Lang; 3] = [Lang::Hans, Lang::Hant, Lang::En];

    /// The BCP 47 tag: `<html lang>`, the cookie's value, the catalogue's
    /// file name.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Hans => "zh-Hans",
            Lang::Hant => "zh-Hant",
            Lang::En => "en",
        }
    }

    /// The language's name in itself, as its link says it.
    pub fn autonym(self) -> &'static str {
        match self {
            Lang::Hans => "简体",
            Lang::Hant => "繁體",
            Lang::En => "English",
        }
    }

    /// The language a tag names (the cookie's value, `/lang/{tag}`).
    pub fn from_tag(tag: &str) -> Option<Lang> {
        Lang::ALL
            .into_iter()
            .find(|l| l.tag().eq_ignore_ascii_case(tag))
    }

    /// The language of one `Accept-Language` range, if the pages speak it.
    fn of_range(range: &str) -> Option<Lang> {
        let range = range.trim().to_ascii_lowercase();
        let mut parts = range.split('-');
        match parts.next()? {
            "zh" => Some(match parts.next() {
                Some("hant" | "tw" | "hk" | "mo") => Lang::Hant,
                _ => Lang::Hans,
            }),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language `Accept-Language` ranks first among the three, or
    /// Simplified Chinese.
    pub fn negotiate(accept_language: Option<&str>) -> Lang {
        let Some(header) = accept_language else {
            return Lang::Hans;
        };
        let mut best: Option<(f32, usize, Lang)> = None;
        for (i, item) in header.split(',').enumerate() {
            let mut parts = item.split(';');
            let Some(lang) = parts.next().and_then(Lang::of_range) else {
                continue;
            };
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q <= 0.0 {
                continue;
            }
            // Higher weight first; of equal weights, the one listed first.
            if best.is_none_or(|(bq, _, _)| q > bq) {
                best = Some((q, i, lang));
            }
        }
        best.map_or(Lang::Hans, |(_, _, lang)| lang)
    }

    /// The language of a request: its cookie, or its `Accept-Language`.
    pub fn of(req: &HttpRequest) -> Lang {
        let chosen = req
            .headers()
            .get_all(header::COOKIE)
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == COOKIE)
            .and_then(|(_, value)| Lang::from_tag(value.trim_matches('"')));
        if let Some(chosen) = chosen {
            return chosen;
        }
        let accept = req
            .headers()
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok());
        Lang::negotiate(accept)
    }

    /// This language's catalogue.
    pub fn words(self) -> &'static Catalogue {
        static CATALOGUES: OnceLock<[Catalogue; 3]> = OnceLock::new();
        let all = CATALOGUES.get_or_init(|| {
            [
                Catalogue::parse(include_str!("../../static/i18n/zh-Hans.json")),
                Catalogue::parse(include_str!("../../static/i18n/zh-Hant.json")),
                Catalogue::parse(include_str!("../../static/i18n/en.json")),
            ]
        });
        match self {
            Lang::Hans => &all[0],
            Lang::Hant => &all[1],
            Lang::En => &all[2],
        }
    }
}

/// The texts of one language, by key.
#[derive(Debug)]
pub struct Catalogue {
    texts: HashMap<String, String>,
    /// The file itself, for the playground's script.
    json: &'static str,
}

impl Catalogue {
    /// A catalogue from its file. The files are part of the build and a
    /// test reads each one, so a broken file is a failed test, never a
    /// request's error; were one broken anyway, its texts show as their
    /// keys.
    fn parse(json: &'static str) -> Catalogue {
        let texts = serde_json::from_str(json).unwrap_or_else(|e| {
            tracing::error!(error = %e, "a language catalogue does not parse");
            HashMap::new()
        });
        Catalogue { texts, json }
    }

    /// The text of `key` (`…` when the catalogue lacks it, which a test
    /// rules out for every key the code uses).
    pub fn text(&self, key: &str) -> &str {
        match self.texts.get(key) {
            Some(text) => text,
            None => {
                tracing::warn!(key, "no text for a key");
                "…"
            }
        }
    }

    /// The text of `key` with its `{name}` holes filled from `args`.
    pub fn format(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(self.text(key), args)
    }

    /// Whether the catalogue has `key`.
    pub fn has(&self, key: &str) -> bool {
        self.texts.contains_key(key)
    }

    /// The keys.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.texts.keys().map(String::as_str)
    }

    /// The whole catalogue as JSON safe inside a `<script>` element.
    pub fn script_json(&self) -> String {
        self.json.replace('<', "\\u003c")
    }
}

/// `text` with each `{name}` replaced by its value in `args`; holes
/// without a value stay as they are.
pub fn fill(text: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The language links of a page: each sends its reader through
/// `/lang/{tag}`, which keeps the choice, back to `here`.
pub fn switch(lang: Lang, here: &str) -> String {
    let mut html = format!(
        "<nav class=\"langs\" aria-label=\"{}\">",
        escape(lang.words().text("nav.language"))
    );
    for other in Lang::ALL {
        let current = if other == lang {
            " aria-current=\"true\""
        } else {
            ""
        };
        // Writing to a String cannot fail.
        let _ = write!(
            html,
            "<a href=\"/lang/{tag}?to={to}\" hreflang=\"{tag}\" lang=\"{tag}\" data-lang=\"{tag}\"{current}>{name}</a>",
            tag = other.tag(),
            to = escape(&super::urlencode(here)),
            name = other.autonym(),
        );
    }
    html.push_str("</nav>");
    html
}

/// A page of `static/` with its `{{key}}` holes filled in `lang`:
/// `{{lang}}` is the language's tag, `{{catalogue}}` its catalogue as JSON,
/// `{{switch}}` the language links (back to `here`), and every other hole
/// the escaped text of its key.
pub fn render_template(template: &str, lang: Lang, here: &str) -> String {
    let words = lang.words();
    let mut out = String::with_capacity(template.len() + words.json.len() + 1024);
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        match &after[..close] {
            "lang" => out.push_str(lang.tag()),
            "catalogue" => out.push_str(&words.script_json()),
            "switch" => out.push_str(&switch(lang, here)),
            key => out.push_str(&escape(words.text(key))),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// Where `/lang/{tag}?to=…` may send a reader back to: a path of this
/// service (`/…`, never `//host` nor a scheme), else the playground.
pub fn safe_return(to: Option<&str>) -> &str {
    match to {
        Some(path)
            if path.starts_with('/')
                && !path.starts_with("//")
                && !path.starts_with("/\\")
                && !path.chars().any(char::is_control) =>
        {
            path
        }
        _ => "/",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_picks_the_first_language_spoken_here() {
        assert_eq!(Lang::negotiate(None), Lang::Hans, "Chinese first");
        assert_eq!(Lang::negotiate(Some("zh-CN,zh;q=0.9,en;q=0.8")), Lang::Hans);
        assert_eq!(Lang::negotiate(Some("zh-TW,zh;q=0.9")), Lang::Hant);
        assert_eq!(Lang::negotiate(Some("zh-HK")), Lang::Hant);
        assert_eq!(Lang::negotiate(Some("zh-Hant-TW")), Lang::Hant);
        assert_eq!(Lang::negotiate(Some("zh-Hans-CN")), Lang::Hans);
        assert_eq!(Lang::negotiate(Some("en-US,en;q=0.9")), Lang::En);
        assert_eq!(Lang::negotiate(Some("fr-FR,en;q=0.5,zh;q=0.8")), Lang::Hans);
        assert_eq!(Lang::negotiate(Some("de, en;q=0.7")), Lang::En);
        assert_eq!(Lang::negotiate(Some("en;q=0, zh")), Lang::Hans);
        assert_eq!(Lang::negotiate(Some("ja")), Lang::Hans);
        assert_eq!(Lang::negotiate(Some("en, zh")), Lang::En, "listed first");
    }

    #[test]
    fn holes_are_filled_by_name() {
        assert_eq!(
            fill("{side}走棋 · 第{n}回合", &[("side", "红方"), ("n", "12")]),
            "红方走棋 · 第12回合"
        );
        assert_eq!(fill("{a} {missing} {", &[("a", "x")]), "x {missing} {");
    }

    #[test]
    fn only_paths_of_this_service_are_returned_to() {
        assert_eq!(safe_return(Some("/play/xiangqi")), "/play/xiangqi");
        assert_eq!(safe_return(Some("//evil.example/")), "/");
        assert_eq!(safe_return(Some("https://evil.example/")), "/");
        assert_eq!(safe_return(Some("/\\evil.example")), "/");
        assert_eq!(safe_return(None), "/");
    }

    #[test]
    fn a_template_speaks_its_language() {
        let html = render_template(
            "<html lang=\"{{lang}}\"><a>{{more.share}}</a>{{switch}}",
            Lang::Hans,
            "/play/x?a=1",
        );
        assert!(
            html.starts_with("<html lang=\"zh-Hans\"><a>分享</a>"),
            "{html}"
        );
        assert!(
            html.contains("href=\"/lang/en?to=%2Fplay%2Fx%3Fa%3D1\""),
            "{html}"
        );
        assert!(html.contains("data-lang=\"zh-Hans\" aria-current=\"true\">简体</a>"));
    }

    /// The keys a source file asks for: `t('key'` and both branches of
    /// `t(cond ? 'a' : 'b'` in scripts (comments left out), `{{key}}` in
    /// templates, and `"family.key"` string literals in Rust.
    fn keys_used(text: &str, rust: bool) -> Vec<String> {
        let mut keys = Vec::new();
        let is_key = |k: &str| {
            !k.is_empty()
                && k.contains('.')
                && k.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
        };
        for line in text.lines() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            if rust {
                for (i, piece) in line.split('"').enumerate() {
                    let family = piece.split('.').next().unwrap_or_default();
                    if i % 2 == 1
                        && is_key(piece)
                        && ["page", "game", "variant", "side", "mode", "nav"].contains(&family)
                    {
                        keys.push(piece.to_owned());
                    }
                }
                continue;
            }
            for piece in line.split("{{").skip(1) {
                if let Some((key, _)) = piece.split_once("}}") {
                    if is_key(key) {
                        keys.push(key.to_owned());
                    }
                }
            }
            // `t(` as a call of its own, not the end of `split(` or `last(`.
            let calls = line.match_indices("t(").filter(|&(at, _)| {
                !line[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
            });
            for piece in calls.map(|(at, _)| &line[at + 2..]) {
                // The first quoted key, and a ternary's second branch.
                let quoted: Vec<&str> = piece.split('\'').collect();
                let head = quoted.first().copied().unwrap_or_default();
                if head.trim().is_empty() {
                    if let Some(k) = quoted.get(1).filter(|k| is_key(k)) {
                        keys.push((*k).to_owned());
                    }
                } else if head.contains('?') && !head.contains('(') {
                    for k in [quoted.get(1), quoted.get(3)].into_iter().flatten() {
                        if is_key(k) {
                            keys.push((*k).to_owned());
                        }
                    }
                }
            }
        }
        keys
    }

    fn read(path: &str) -> String {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Every catalogue has every key of the others, and every key that the
    /// pages, their scripts and the server ask for.
    #[test]
    fn every_key_is_in_every_catalogue() {
        let mut wanted: Vec<(String, String)> = Vec::new();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static/js");
        let mut scripts: Vec<_> = std::fs::read_dir(&dir)
            .expect("static/js")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "js"))
            .collect();
        scripts.sort();
        assert!(scripts.len() >= 10, "{scripts:?}");
        for path in scripts {
            let text = std::fs::read_to_string(&path).expect("a script");
            let name = path.display().to_string();
            wanted.extend(
                keys_used(&text, false)
                    .into_iter()
                    .map(|k| (name.clone(), k)),
            );
        }
        for path in ["static/index.html", "static/docs/index.html"] {
            wanted.extend(
                keys_used(&read(path), false)
                    .into_iter()
                    .map(|k| (path.to_owned(), k)),
            );
        }
        for path in ["src/pages/mod.rs", "src/routes/pages.rs"] {
            wanted.extend(
                keys_used(&read(path), true)
                    .into_iter()
                    .map(|k| (path.to_owned(), k)),
            );
        }
        // The families whose keys are made from a value.
        let families = [
            (
                "game",
                vec!["xiangqi", "gomoku", "2048", "quoridor", "tetris", "renju"],
            ),
            ("variant", vec!["standard", "freestyle", "renju"]),
            ("side", vec!["red", "black", "white", "player", "player_n"]),
            ("mode", vec!["duel", "solo"]),
            (
                "role",
                vec![
                    "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier",
                ],
            ),
            ("renju", vec!["overline", "double-four", "double-three"]),
            ("t48", vec!["up", "down", "left", "right"]),
            (
                "tt",
                vec!["left", "right", "cw", "ccw", "soft", "hard", "hold", "tick"],
            ),
            ("decline", vec!["busy", "later", "no-thanks"]),
            ("import", vec!["fen", "rows", "grid", "json"]),
            (
                "invite.state",
                vec!["invalid-invite", "seat-taken", "game-over", "declined"],
            ),
            ("xq.side", vec!["red", "black"]),
        ];
        for (family, names) in families {
            for name in names {
                wanted.push(("a family".to_owned(), format!("{family}.{name}")));
            }
        }
        for reason in qipan_rules::EndReason::ALL {
            wanted.push((
                "EndReason".to_owned(),
                format!("reason.{}", reason.as_str()),
            ));
        }
        for end in ["resigned", "timeout", "agreement", "abandoned"] {
            wanted.push(("MatchEnd".to_owned(), format!("reason.{end}")));
        }
        for kind in crate::problem::ProblemKind::ALL {
            wanted.push(("ProblemKind".to_owned(), format!("problem.{}", kind.slug())));
        }
        assert!(wanted.len() > 300, "{} keys found", wanted.len());
        let mut missing = Vec::new();
        for lang in Lang::ALL {
            let words = lang.words();
            for (whence, key) in &wanted {
                if !words.has(key) {
                    missing.push(format!("{}: {key} (asked for by {whence})", lang.tag()));
                }
            }
            for other in Lang::ALL {
                for key in other.words().keys() {
                    if !words.has(key) {
                        missing.push(format!("{}: {key} (in {})", lang.tag(), other.tag()));
                    }
                }
            }
        }
        missing.sort();
        missing.dedup();
        assert!(missing.is_empty(), "missing texts:\n{}", missing.join("\n"));
    }

    #[test]
    fn the_key_finder_finds_what_scripts_ask_for() {
        let found = keys_used(
            "// t('not.this')\nsay(t('a.b', { x }), t(c ? 'c.d' : 'e.f'));\n<p>{{g.h}}</p>",
            false,
        );
        assert_eq!(found, ["a.b", "c.d", "e.f", "g.h"]);
        let found = keys_used("let x = words.text(\"page.code\"); \"not a key\"", true);
        assert_eq!(found, ["page.code"]);
    }
}
