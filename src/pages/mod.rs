//! The pages people see when they open a shared link: a position's page
//! (`/p/{game}/{code}`) and a match's (`/m/{id}`). Each shows the board as a
//! picture, says whose turn it is and how the game stands, links on to the
//! playground and to the JSON, and carries Open Graph and Twitter card tags
//! naming the PNG picture, so a link pasted in a chat previews as the board.
//!
//! The pages are plain HTML with a little inline CSS and no script: they
//! are what a link shows before anything is clicked. Every value that came
//! from a request is escaped by [`escape`].

use std::fmt::Write as _;

use qipan_picture::{CARD_HEIGHT, CARD_WIDTH};
use qipan_rules::{AnyPlayer, GameKind};

use crate::wire::state::{State, StatusView};

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

/// A game's name on a page, with its Chinese name where it has one.
pub fn game_name(kind: GameKind, variant: &str) -> &'static str {
    match kind {
        GameKind::Xiangqi => "Xiangqi 象棋",
        GameKind::Gomoku if variant == "renju" => "Renju 连珠",
        GameKind::Gomoku => "Gomoku 五子棋",
        GameKind::Twenty48 => "2048",
        GameKind::Quoridor => "Quoridor 围追堵截",
        GameKind::Tetris => "Tetris",
    }
}

/// A player as a sentence names it: `Red`, `Black`, `Player 1`.
pub fn player_name(player: AnyPlayer) -> String {
    match player {
        AnyPlayer::Quoridor(_) => format!("Player {}", player.as_str()),
        AnyPlayer::Solo(_) => "The player".to_owned(),
        AnyPlayer::Xiangqi(_) | AnyPlayer::Gomoku(_) => capitalised(player.as_str()),
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// How the game stands, as a page's headline says it: `Red to move`,
/// `Black to move, in check`, `Checkmate: red wins`, `Game over: top out`.
pub fn headline(status: &StatusView, to_move: AnyPlayer, check: bool, solo: bool) -> String {
    let reason = status.reason.map(|r| capitalised(&r.replace('-', " ")));
    match status.state {
        State::Ongoing if solo => "In play".to_owned(),
        State::Ongoing if check => format!("{} to move, in check", player_name(to_move)),
        State::Ongoing => format!("{} to move", player_name(to_move)),
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

/// What a page shows and links to. URLs are absolute (previews need them).
pub struct Page<'a> {
    /// The page's own URL.
    pub url: &'a str,
    /// `Xiangqi 象棋`.
    pub game: &'static str,
    /// `Red to move`.
    pub headline: String,
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
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);background:var(--bg)}\
main{max-width:40rem;margin:0 auto;padding:1rem}h1{font-size:1.1rem;margin:.2rem 0;color:var(--muted);font-weight:600}\
h2{font-size:1.5rem;margin:0 0 .6rem}figure{margin:0 0 1rem;background:var(--card);border-radius:.5rem;padding:.5rem}\
figure img{display:block;width:100%;height:auto}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 1rem}\
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}nav{display:flex;flex-wrap:wrap;gap:.5rem;margin-bottom:1rem}\
nav a{padding:.45rem .9rem;border-radius:.4rem;border:1px solid var(--muted);color:var(--fg);text-decoration:none}\
nav a.primary{background:var(--accent);border-color:var(--accent);color:#fff;font-weight:600}\
code{font-size:.85rem;overflow-wrap:anywhere}footer{color:var(--muted);font-size:.85rem}footer a{color:inherit}";

impl Page<'_> {
    /// The whole HTML document.
    pub fn render(&self) -> String {
        let title = format!("{} · {}", self.game, self.headline);
        let description = match self.facts.first() {
            Some(f) => format!("{}. {}: {}.", self.headline, f.label, f.value),
            None => format!("{}.", self.headline),
        };
        let mut html = String::with_capacity(4096);
        let t = escape(&title);
        let d = escape(&description);
        let url = escape(self.url);
        let png = escape(&self.png);
        let alt = escape(&self.alt);
        let (w, h) = self.dimensions;
        // Writing to a String cannot fail.
        let _ = write!(
            html,
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{t} · qipan</title>\n\
             <meta name=\"description\" content=\"{d}\">\n\
             <link rel=\"canonical\" href=\"{url}\">\n\
             <meta property=\"og:type\" content=\"website\">\n\
             <meta property=\"og:site_name\" content=\"qipan\">\n\
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
             <h1>{game}</h1>\n<h2>{headline}</h2>\n\
             <figure><img src=\"{svg}\" width=\"{w}\" height=\"{h}\" alt=\"{alt}\"></figure>\n",
            game = escape(self.game),
            headline = escape(&self.headline),
            svg = escape(&self.svg),
        );
        if !self.facts.is_empty() {
            html.push_str("<dl>\n");
            for f in &self.facts {
                let _ = writeln!(
                    html,
                    "<dt>{}</dt><dd>{}</dd>",
                    escape(f.label),
                    escape(&f.value)
                );
            }
            html.push_str("</dl>\n");
        }
        html.push_str("<nav>\n");
        for (i, link) in self.links.iter().enumerate() {
            let class = if i == 0 { " class=\"primary\"" } else { "" };
            let _ = writeln!(
                html,
                "<a{class} href=\"{}\">{}</a>",
                escape(&link.href),
                escape(link.text)
            );
        }
        html.push_str("</nav>\n");
        if let Some(code) = self.code {
            let _ = writeln!(html, "<p>Code: <code>{}</code></p>", escape(code));
        }
        html.push_str(
            "<footer>Shared from <a href=\"/\">qipan</a>, the game-state service · \
             <a href=\"/docs\">API</a></footer>\n</main>\n</body>\n</html>\n",
        );
        html
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
        let over = StatusView {
            state: State::Over,
            winner: None,
            reason: Some("top-out"),
        };
        assert_eq!(headline(&over, red, false, true), "Game over: top out");
    }
}
