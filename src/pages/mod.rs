//! The pages people see when they open a shared link: a position's page
//! (`/p/{game}/{code}`) and a match's (`/m/{id}`). Each shows the board as a
//! picture, says whose turn it is and how the game stands, links on to the
//! playground and to the JSON, and carries Open Graph and Twitter card tags
//! naming the PNG picture, so a link pasted in a chat previews as the board.
//!
//! The pages are plain HTML with a little inline CSS and no script: they
//! are what a link shows before anything is clicked. They speak the
//! reader's language ([`i18n`]), every word from its catalogue. Every value
//! that came from a request is escaped by [`escape`].

use std::fmt::Write as _;

use qipan_picture::{CARD_HEIGHT, CARD_WIDTH};
use qipan_rules::{AnyPlayer, GameKind};

use crate::wire::state::{State, StatusView};

pub mod i18n;

pub use i18n::Lang;

/// Text made safe to place in HTML, in element content and in quoted
/// attribute values alike.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A game's name on a page, in the page's language.
pub fn game_name(kind: GameKind, variant: &str, lang: Lang) -> &'static str {
    let key = match kind {
        GameKind::Xiangqi => "game.xiangqi",
        GameKind::Gomoku if variant == "renju" => "game.renju",
        GameKind::Gomoku => "game.gomoku",
        GameKind::Twenty48 => "game.2048",
        GameKind::Quoridor => "game.quoridor",
        GameKind::Tetris => "game.tetris",
    };
    lang.words().text(key)
}

/// A player as a sentence names it: `红方`, `Black`, `玩家 1`.
pub fn player_name(player: AnyPlayer, lang: Lang) -> String {
    side_name(player.as_str(), lang)
}

/// A side by its wire name (`red`, `1`, `player`), as a sentence names it.
pub fn side_name(side: &str, lang: Lang) -> String {
    let words = lang.words();
    match side {
        "1" | "2" => words.format("side.player_n", &[("n", side)]),
        "player" | "solo" => words.text("side.player").to_owned(),
        _ => words.text(&format!("side.{side}")).to_owned(),
    }
}

/// How the game stands, as a page's headline says it: `红方走棋`,
/// `Black to move, in check`, `将死，黑方胜`, `Game over: block out`.
pub fn headline_in(
    lang: Lang,
    status: &StatusView,
    to_move: AnyPlayer,
    check: bool,
    solo: bool,
) -> String {
    let words = lang.words();
    let reason = status.reason.map(|r| words.text(&format!("reason.{r}")));
    let side = player_name(to_move, lang);
    let line = match status.state {
        State::Ongoing if solo => words.text("page.in_play").to_owned(),
        State::Ongoing if check => words.format("page.in_check", &[("side", &side)]),
        State::Ongoing => words.format("page.to_move", &[("side", &side)]),
        State::Won => match status.winner {
            Some(w) => {
                let winner = side_name(w, lang);
                match reason {
                    Some(r) => words.format("page.won", &[("reason", r), ("side", &winner)]),
                    None => words.format("page.won_plain", &[("side", &winner)]),
                }
            }
            None => words.text("page.over_plain").to_owned(),
        },
        State::Drawn => match reason {
            Some(r) => words.format("page.drawn", &[("reason", r)]),
            None => words.text("page.drawn_plain").to_owned(),
        },
        State::Over => match reason {
            Some(r) => words.format("page.over", &[("reason", r)]),
            None => words.text("page.over_plain").to_owned(),
        },
    };
    // A heading starts with a capital (English: `Checkmate: …`).
    capitalised(&line)
}

/// How the game stands in a match picture's caption, in English with the
/// rules' own words: `Red to move`, `Checkmate: black wins`, `Drawn:
/// agreement`. (Pages say it in their reader's language: [`headline_in`].)
pub fn headline(status: &StatusView, to_move: AnyPlayer, check: bool, solo: bool) -> String {
    let reason = status.reason.map(|r| capitalised(&r.replace('-', " ")));
    let side = player_name(to_move, Lang::En);
    match status.state {
        State::Ongoing if solo => "In play".to_owned(),
        State::Ongoing if check => format!("{side} to move, in check"),
        State::Ongoing => format!("{side} to move"),
        State::Won => match (reason, status.winner) {
            (Some(r), Some(w)) => format!("{r}: {w} wins"),
            (None, Some(w)) => format!("{} wins", capitalised(w)),
            (_, None) => "Won".to_owned(),
        },
        State::Drawn => match reason {
            Some(r) => format!("Drawn: {}", r.to_lowercase()),
            None => "Drawn".to_owned(),
        },
        State::Over => match reason {
            Some(r) => format!("Game over: {}", r.to_lowercase()),
            None => "Game over".to_owned(),
        },
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Percent-encodes a URL's query value or path for a link (invites are
/// URL-safe base64 already; anything else is kept intact but harmless).
pub fn urlencode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            // Writing to a String cannot fail.
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// What a page shows and links to. URLs are absolute (previews need them).
pub struct Page<'a> {
    /// The language it speaks.
    pub lang: Lang,
    /// The page's own URL.
    pub url: &'a str,
    /// Its path and query, where the language links send the reader back.
    pub here: String,
    /// `象棋`.
    pub game: &'static str,
    /// `红方走棋`.
    pub headline: String,
    /// What a chat card says under the title: `红方走棋 · 第12回合 · 上一步
    /// 炮二平五`.
    pub description: String,
    /// An invitation, answered first (above the board).
    pub invite: Option<Invite>,
    /// Lines under the headline (the move that led here, the seats).
    pub facts: Vec<Fact>,
    /// The picture, as SVG (shown) and PNG (for previews).
    pub svg: String,
    /// The chat card for previews (PNG, `CARD_WIDTH` × `CARD_HEIGHT`).
    pub png: String,
    /// The picture's width and height in pixels, at the default size.
    pub dimensions: (u32, u32),
    /// A sentence describing the picture, for screen readers.
    pub alt: String,
    /// Links under the board, the first one the main action.
    pub links: Vec<Link>,
    /// The state code, shown for copying.
    pub code: Option<&'a str>,
}

/// An invitation as a match's page answers it.
pub enum Invite {
    /// The seat is open to it: who invites, to which side, and the
    /// playground's address that joins (the page's form adds the name).
    Open {
        /// The inviter's display name.
        from: Option<String>,
        /// The side offered, as a sentence names it.
        side: String,
        /// `/play/matches/{id}`.
        play: String,
        /// The invite.
        invite: String,
    },
    /// The invite no longer joins (declined, withdrawn, replaced).
    Invalid,
    /// Someone took the seat.
    Taken,
    /// The match is over.
    Over,
}

/// A line of text on a page, with an optional emphasis.
pub struct Fact {
    /// The label: `Last move`.
    pub label: &'static str,
    /// The value: `h2e2`.
    pub value: String,
}

/// A link on a page.
pub struct Link {
    /// Its text.
    pub text: &'static str,
    /// Where it goes.
    pub href: String,
}

const STYLE: &str = "\
:root{color-scheme:light dark;--fg:#222;--bg:#faf7f0;--muted:#6b6256;--accent:#b3261e;--card:#fff}\
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#1d1b18;--muted:#b5ab9c;--accent:#ff8a7a;--card:#2a2723}}\
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI','PingFang SC','Noto Sans CJK SC','Microsoft YaHei',sans-serif;color:var(--fg);background:var(--bg)}\
main{max-width:40rem;margin:0 auto;padding:.6rem 1rem 1rem}h1{font-size:1.05rem;margin:.2rem 0;color:var(--muted);font-weight:600}\
h2{font-size:1.4rem;margin:0 0 .6rem}figure{margin:0 0 1rem;background:var(--card);border-radius:.5rem;padding:.5rem}\
figure img{display:block;width:100%;height:auto}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 1rem}\
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}nav.links{display:flex;flex-wrap:wrap;gap:.5rem;margin-bottom:1rem}\
nav.links a,.invite button,.invite a.decline{display:inline-flex;align-items:center;min-height:2.5rem;padding:.45rem .9rem;border-radius:.4rem;border:1px solid var(--muted);color:var(--fg);text-decoration:none;font:inherit;background:none}\
nav.links a.primary,.invite button{background:var(--accent);border-color:var(--accent);color:#fff;font-weight:600}\
.top{display:flex;align-items:center;gap:.5rem;justify-content:space-between}.langs{display:flex;gap:.25rem}\
.langs a{display:inline-flex;align-items:center;min-height:2.25rem;padding:.2rem .6rem;border-radius:999px;border:1px solid var(--muted);color:var(--fg);text-decoration:none;font-size:.9rem}\
.langs a[aria-current=true]{background:var(--fg);color:var(--bg)}\
.invite{background:var(--card);border:2px solid var(--accent);border-radius:.6rem;padding:.8rem;margin:0 0 1rem}\
.invite p{margin:0 0 .5rem}.invite .who{font-size:1.2rem;font-weight:650}.invite form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}\
.invite input{flex:1 1 10rem;min-height:2.5rem;font:inherit;padding:.3rem .5rem;border:1px solid var(--muted);border-radius:.4rem}\
.invite.spent{border-color:var(--muted)}\
code{font-size:.85rem;overflow-wrap:anywhere}footer{color:var(--muted);font-size:.85rem}\
footer a{color:inherit;display:inline-flex;align-items:center;min-height:2.25rem}";

impl Page<'_> {
    /// The whole HTML document.
    pub fn render(&self) -> String {
        let words = self.lang.words();
        let title = format!("{} · {}", self.game, self.headline);
        let mut html = String::with_capacity(4096);
        let t = escape(&title);
        let d = escape(&self.description);
        let url = escape(self.url);
        let png = escape(&self.png);
        let alt = escape(&self.alt);
        let (w, h) = self.dimensions;
        let locale = match self.lang {
            Lang::Hans => "zh_CN",
            Lang::Hant => "zh_TW",
            Lang::En => "en_US",
        };
        // Writing to a String cannot fail.
        let _ = write!(
            html,
            "<!doctype html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{t} · qipan</title>\n\
             <meta name=\"description\" content=\"{d}\">\n\
             <link rel=\"canonical\" href=\"{url}\">\n\
             <meta property=\"og:type\" content=\"website\">\n\
             <meta property=\"og:site_name\" content=\"qipan\">\n\
             <meta property=\"og:locale\" content=\"{locale}\">\n\
             <meta property=\"og:title\" content=\"{t}\">\n\
             <meta property=\"og:description\" content=\"{d}\">\n\
             <meta property=\"og:url\" content=\"{url}\">\n\
             <meta property=\"og:image\" content=\"{png}\">\n\
             <meta property=\"og:image:type\" content=\"image/png\">\n\
             <meta property=\"og:image:width\" content=\"{CARD_WIDTH}\">\n\
             <meta property=\"og:image:height\" content=\"{CARD_HEIGHT}\">\n\
             <meta property=\"og:image:alt\" content=\"{alt}\">\n\
             <meta name=\"twitter:card\" content=\"summary_large_image\">\n\
             <meta name=\"twitter:title\" content=\"{t}\">\n\
             <meta name=\"twitter:description\" content=\"{d}\">\n\
             <meta name=\"twitter:image\" content=\"{png}\">\n\
             <meta name=\"twitter:image:alt\" content=\"{alt}\">\n\
             <style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
             <div class=\"top\"><h1>{game}</h1>{switch}</div>\n",
            lang = self.lang.tag(),
            game = escape(self.game),
            switch = i18n::switch(self.lang, &self.here),
        );
        if let Some(invite) = &self.invite {
            self.render_invite(&mut html, invite);
        }
        let _ = write!(
            html,
            "<h2>{headline}</h2>\n\
             <figure><img src=\"{svg}\" width=\"{w}\" height=\"{h}\" alt=\"{alt}\"></figure>\n",
            headline = escape(&self.headline),
            svg = escape(&self.svg),
        );
        if !self.facts.is_empty() {
            html.push_str("<dl>\n");
            for f in &self.facts {
                let _ = writeln!(
                    html,
                    "<dt>{}</dt><dd>{}</dd>",
                    escape(words.text(f.label)),
                    escape(&f.value)
                );
            }
            html.push_str("</dl>\n");
        }
        html.push_str("<nav class=\"links\">\n");
        for (i, link) in self.links.iter().enumerate() {
            let class = if i == 0 && self.invite.is_none() {
                " class=\"primary\""
            } else {
                ""
            };
            let _ = writeln!(
                html,
                "<a{class} href=\"{}\">{}</a>",
                escape(&link.href),
                escape(words.text(link.text))
            );
        }
        html.push_str("</nav>\n");
        if let Some(code) = self.code {
            let _ = writeln!(
                html,
                "<p>{}: <code>{}</code></p>",
                escape(words.text("page.code")),
                escape(code)
            );
        }
        let _ = write!(
            html,
            "<footer>{} · <a href=\"/\">qipan</a> · <a href=\"/docs\">{}</a></footer>\n</main>\n</body>\n</html>\n",
            escape(words.text("page.footer")),
            escape(words.text("page.api")),
        );
        html
    }

    /// The invitation, first thing on the page: who invites, to which
    /// side, the name field and Join (a plain form to the playground, which
    /// joins on arrival), Decline; or why the link no longer works.
    fn render_invite(&self, html: &mut String, invite: &Invite) {
        let words = self.lang.words();
        let spent = |html: &mut String, key: &str| {
            let _ = writeln!(
                html,
                "<section class=\"invite spent\" id=\"invite\"><p class=\"who\">{}</p></section>",
                escape(words.text(key))
            );
        };
        match invite {
            Invite::Invalid => spent(html, "page.invite.invalid"),
            Invite::Taken => spent(html, "page.invite.taken"),
            Invite::Over => spent(html, "page.invite.over"),
            Invite::Open {
                from,
                side,
                play,
                invite,
            } => {
                let who = match from {
                    Some(name) => words.format(
                        "page.invite.from_named",
                        &[("name", name), ("game", self.game)],
                    ),
                    None => words.format("page.invite.from", &[("game", self.game)]),
                };
                let _ = write!(
                    html,
                    "<section class=\"invite\" id=\"invite\">\n<p class=\"who\">{who}</p>\n<p>{side}</p>\n\
                     <form method=\"get\" action=\"{play}\">\n\
                     <input type=\"hidden\" name=\"invite\" value=\"{invite}\">\n\
                     <input type=\"hidden\" name=\"join\" value=\"1\">\n\
                     <input name=\"name\" maxlength=\"32\" autocomplete=\"nickname\" placeholder=\"{name}\" aria-label=\"{name}\">\n\
                     <button type=\"submit\" id=\"join\">{join}</button>\n\
                     <a class=\"decline\" href=\"{play}?invite={invite}&amp;decline=1\">{decline}</a>\n\
                     </form>\n</section>\n",
                    who = escape(&who),
                    side = escape(&words.format("page.invite.side", &[("side", side)])),
                    play = escape(play),
                    invite = escape(&urlencode(invite)),
                    name = escape(words.text("page.invite.name")),
                    join = escape(words.text("page.invite.join")),
                    decline = escape(words.text("page.invite.decline")),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_what_html_reads_as_markup() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("楚河 漢界"), "楚河 漢界");
    }

    #[test]
    fn headlines_say_how_the_game_stands() {
        let red = AnyPlayer::Xiangqi(qipan_rules::xiangqi::Side::Red);
        assert_eq!(
            headline(&StatusView::ONGOING, red, false, false),
            "Red to move"
        );
        assert_eq!(
            headline(&StatusView::ONGOING, red, true, false),
            "Red to move, in check"
        );
        let won = StatusView {
            state: State::Won,
            winner: Some("black"),
            reason: Some("checkmate"),
        };
        assert_eq!(headline(&won, red, false, false), "Checkmate: black wins");
        assert_eq!(
            headline_in(Lang::En, &won, red, false, false),
            "Checkmate: Black wins"
        );
        let over = StatusView {
            state: State::Over,
            winner: None,
            reason: Some("block-out"),
        };
        assert_eq!(headline(&over, red, false, true), "Game over: block out");
        // In Chinese, as the seed articles' players say it.
        let zh = |s: &StatusView, check| headline_in(Lang::Hans, s, red, check, false);
        assert_eq!(zh(&StatusView::ONGOING, false), "红方走棋");
        assert_eq!(zh(&StatusView::ONGOING, true), "红方走棋，被将军");
        assert_eq!(zh(&won, false), "将死，黑方胜");
        assert_eq!(
            headline_in(Lang::Hant, &won, red, false, false),
            "將死，黑方勝"
        );
    }
}
