//! Quoridor: 9×9 squares with the goal rows tinted in their player's
//! colour, both pawns, the walls, each player's walls left, each player's
//! shortest path to its goal and the last pawn move or wall.

use qipan_rules::quoridor::{
    Action, Orientation, Player, Position, Setup, Square, Wall, SIZE, WALLS_PER_PLAYER,
};

use crate::canvas::{Canvas, PathData};
use crate::fonts::{self, Anchor, Font, Middle, Style};
use crate::{ImpossibleLast, Options, PictureError};

/// A square's side, in drawing units.
const SQUARE: f64 = 80.0;
/// The groove between squares, where walls go.
const GROOVE: f64 = 20.0;
/// The board's rim outside the outer squares.
const RIM: f64 = 20.0;
/// The board's side.
const BOARD: f64 = 9.0 * SQUARE + 8.0 * GROOVE + 2.0 * RIM;
/// The band above and below the board that shows the walls left.
const BAND: f64 = 84.0;
const MARGIN: f64 = 20.0;
/// Room for the coordinates (ranks on the left, files under the board).
const LABELS: f64 = 46.0;

const BACKGROUND: &str = "#3b2a20";
const WOOD: &str = "#5c3d27";
const CELL: &str = "#e6cda2";
const WALL: &str = "#f3d27a";
const WALL_EDGE: &str = "#6b4a16";
const TEXT: &str = "#f1e2c6";

fn colour(player: Player) -> &'static str {
    match player {
        Player::One => "#e0492e",
        Player::Two => "#2f72d6",
    }
}

/// The fill and ring of the small disc that stands for `player` (a duel's
/// player).
pub(crate) fn mark(player: Player) -> (&'static str, &'static str) {
    (colour(player), TEXT)
}

/// A light shade of the player's colour, for its goal row.
fn tint(player: Player) -> &'static str {
    match player {
        Player::One => "#eea287",
        Player::Two => "#9dbbea",
    }
}

/// Checks that `action` can have been the last move of `pos`: the pawn of
/// the player who moved last stands on the destination, or the wall is on
/// the board.
fn check_last(pos: &Position, action: Action) -> Result<(), ImpossibleLast> {
    let mover = pos.turn().opponent();
    match action {
        Action::Move(square) => {
            let actual = pos.pawn(mover);
            if actual == square {
                Ok(())
            } else {
                Err(ImpossibleLast::PawnElsewhere {
                    player: mover,
                    square,
                    actual,
                })
            }
        }
        Action::Wall(wall) => {
            if pos.has_wall(wall) {
                Ok(())
            } else {
                Err(ImpossibleLast::NoWall { wall })
            }
        }
    }
}

/// Where squares go in the picture.
#[derive(Clone, Copy)]
struct Layout {
    /// The top-left corner of the top-left square.
    x0: f64,
    y0: f64,
    flip: bool,
}

impl Layout {
    /// Picture column and row (row 0 at the top) of a square: rank 1 at
    /// the bottom, or at the top when flipped.
    fn cell(self, sq: Square) -> (u8, u8) {
        let top = SIZE - 1;
        if self.flip {
            (top - sq.file(), sq.rank())
        } else {
            (sq.file(), top - sq.rank())
        }
    }

    /// The top-left corner of the square at picture column and row.
    fn corner(self, col: u8, row: u8) -> (f64, f64) {
        (
            self.x0 + f64::from(col) * (SQUARE + GROOVE),
            self.y0 + f64::from(row) * (SQUARE + GROOVE),
        )
    }

    /// The centre of a square.
    fn centre(self, sq: Square) -> (f64, f64) {
        let (col, row) = self.cell(sq);
        let (x, y) = self.corner(col, row);
        (x + SQUARE / 2.0, y + SQUARE / 2.0)
    }

    /// The wall's rectangle: its middle is the corner its four squares
    /// share, whichever way up the board is drawn.
    fn wall(self, wall: Wall) -> (f64, f64, f64, f64) {
        let a = wall.anchor();
        let (ax, ay) = self.centre(a);
        let far = Square::new(a.file() + 1, a.rank() + 1).map_or((ax, ay), |s| self.centre(s));
        let (mx, my) = ((ax + far.0) / 2.0, (ay + far.1) / 2.0);
        let long = 2.0 * SQUARE + GROOVE - 4.0;
        let thick = GROOVE - 4.0;
        match wall.orientation() {
            Orientation::Horizontal => (mx - long / 2.0, my - thick / 2.0, long, thick),
            Orientation::Vertical => (mx - thick / 2.0, my - long / 2.0, thick, long),
        }
    }
}

/// Draws a quoridor position.
pub(crate) fn draw(
    pos: &Position,
    options: &Options,
    last: Option<Action>,
) -> Result<Canvas, PictureError> {
    if let Some(a) = last {
        check_last(pos, a).map_err(|why| PictureError::ImpossibleLast {
            action: qipan_rules::AnyAction::Quoridor(a),
            why,
        })?;
    }
    let labels = if options.coordinates { LABELS } else { 0.0 };
    let width = MARGIN + labels + BOARD + labels + MARGIN;
    let height = MARGIN + BAND + BOARD + labels + BAND + MARGIN;
    let mut c = Canvas::new(options.size, width, height);
    let board_x = MARGIN + labels;
    let board_y = MARGIN + BAND;
    let layout = Layout {
        x0: board_x + RIM,
        y0: board_y + RIM,
        flip: options.flip,
    };

    c.rect(0.0, 0.0, width, height).fill(BACKGROUND).crisp();
    c.rect(board_x, board_y, BOARD, BOARD)
        .num("rx", 10.0)
        .fill(WOOD);
    for sq in Square::all() {
        let (col, row) = layout.cell(sq);
        let (x, y) = layout.corner(col, row);
        // Each goal row is tinted in the colour of the player who aims
        // for it.
        let fill = Player::ALL
            .into_iter()
            .find(|p| sq.rank() == p.goal_rank())
            .map_or(CELL, tint);
        c.rect(x, y, SQUARE, SQUARE).num("rx", 6.0).fill(fill);
    }
    if options.coordinates {
        coordinates(&mut c, layout);
    }

    let mover = pos.turn().opponent();
    if options.highlights {
        if let Some(Action::Move(square)) = last {
            let (col, row) = layout.cell(square);
            let (x, y) = layout.corner(col, row);
            c.rect(x + 3.0, y + 3.0, SQUARE - 6.0, SQUARE - 6.0)
                .num("rx", 5.0)
                .fill(colour(mover))
                .num("fill-opacity", 0.25)
                .stroke(colour(mover), 5.0);
        }
        for player in Player::ALL {
            draw_path(&mut c, layout, pos, player);
        }
    }

    let walls = pos.walls();
    for &wall in &walls {
        let (x, y, w, h) = layout.wall(wall);
        c.rect(x + 2.0, y + 3.0, w, h)
            .num("rx", 3.0)
            .fill("#000")
            .opacity(0.35);
        c.rect(x, y, w, h)
            .num("rx", 3.0)
            .fill(WALL)
            .stroke(WALL_EDGE, 2.0);
    }
    if options.highlights {
        if let Some(Action::Wall(wall)) = last {
            let (x, y, w, h) = layout.wall(wall);
            c.rect(x - 4.0, y - 4.0, w + 8.0, h + 8.0)
                .num("rx", 6.0)
                .fill("none")
                .stroke(colour(mover), 5.0);
        }
    }

    for player in Player::ALL {
        let (x, y) = layout.centre(pos.pawn(player));
        pawn(&mut c, x, y, 29.0, player);
    }

    // Player 1's band at the bottom, player 2's at the top (swapped when
    // flipped), as their pawns start.
    let ongoing = pos.status().is_ongoing();
    for player in Player::ALL {
        let at_bottom = (player == Player::One) != options.flip;
        let y = if at_bottom {
            board_y + BOARD + labels + BAND / 2.0
        } else {
            MARGIN + BAND / 2.0
        };
        let to_move = ongoing && pos.turn() == player;
        walls_left(&mut c, board_x, y, player, pos.walls_left(player), to_move);
    }
    Ok(c)
}

/// A pawn with its shadow.
fn pawn(c: &mut Canvas, x: f64, y: f64, r: f64, player: Player) {
    c.circle(x + 2.0, y + 4.0, r).fill("#000").opacity(0.35);
    c.circle(x, y, r)
        .fill(colour(player))
        .stroke("#fdf6e8", r * 0.16);
    c.circle(x - r * 0.3, y - r * 0.32, r * 0.28)
        .fill("#ffffff")
        .opacity(0.3);
}

/// A band: the player's pawn, a stick for each of the ten walls (bright
/// while left, faint once placed) and the number left. The player to move
/// gets a pointer before the pawn.
fn walls_left(c: &mut Canvas, x: f64, y: f64, player: Player, left: u8, to_move: bool) {
    let pawn_x = x + 60.0;
    if to_move {
        let mut d = PathData::default();
        d.move_to(x + 6.0, y - 14.0)
            .line_to(x + 24.0, y)
            .line_to(x + 6.0, y + 14.0)
            .close();
        c.path(d.as_str()).fill(TEXT);
    }
    pawn(c, pawn_x, y, 24.0, player);
    let (stick_w, stick_h, pitch) = (16.0, 56.0, 52.0);
    for i in 0..WALLS_PER_PLAYER {
        let sx = pawn_x + 58.0 + f64::from(i) * pitch;
        let el = c
            .rect(sx, y - stick_h / 2.0, stick_w, stick_h)
            .num("rx", 3.0);
        if i < left {
            el.fill(WALL).stroke(WALL_EDGE, 2.0);
        } else {
            el.fill("none").stroke(TEXT, 2.0).opacity(0.25);
        }
    }
    let style = Style {
        font: Font::Latin,
        size: 44.0,
        fill: TEXT,
    };
    fonts::text(
        c,
        &left.to_string(),
        x + BOARD - 10.0,
        y,
        style,
        Anchor::End,
        Middle::Cap,
    );
}

/// Files `a`–`i` under the board, ranks `1`–`9` on its left.
fn coordinates(c: &mut Canvas, layout: Layout) {
    let style = Style {
        font: Font::Latin,
        size: 34.0,
        fill: TEXT,
    };
    let board_x = layout.x0 - RIM;
    let board_bottom = layout.y0 - RIM + BOARD;
    for file in 0..SIZE {
        let Some(sq) = Square::new(file, 0) else {
            continue;
        };
        let (x, _) = layout.centre(sq);
        let name = char::from(b'a' + file).to_string();
        fonts::text(
            c,
            &name,
            x,
            board_bottom + LABELS / 2.0,
            style,
            Anchor::Middle,
            Middle::XHeight,
        );
    }
    for rank in 0..SIZE {
        let Some(sq) = Square::new(0, rank) else {
            continue;
        };
        let (_, y) = layout.centre(sq);
        fonts::text(
            c,
            &(rank + 1).to_string(),
            board_x - LABELS / 2.0,
            y,
            style,
            Anchor::Middle,
            Middle::Cap,
        );
    }
}

/// Draws `player`'s shortest path to its goal as a dashed line in its
/// colour, ending in a dot on the goal row.
fn draw_path(c: &mut Canvas, layout: Layout, pos: &Position, player: Player) {
    let squares = shortest_path(pos, player);
    if squares.len() < 2 {
        return;
    }
    // The two paths are set off to either side so that both show where
    // they share squares.
    let shift = match player {
        Player::One => -7.0,
        Player::Two => 7.0,
    };
    let mut d = PathData::default();
    for (i, &sq) in squares.iter().enumerate() {
        let (x, y) = layout.centre(sq);
        if i == 0 {
            d.move_to(x + shift, y + shift);
        } else {
            d.line_to(x + shift, y + shift);
        }
    }
    let col = colour(player);
    c.path(d.as_str())
        .fill("none")
        .stroke(col, 8.0)
        .attr("stroke-linecap", "round")
        .attr("stroke-linejoin", "round")
        .attr("stroke-dasharray", "16 12")
        .opacity(0.85);
    if let Some(&end) = squares.last() {
        let (x, y) = layout.centre(end);
        c.circle(x + shift, y + shift, 11.0)
            .fill(col)
            .stroke("#fdf6e8", 3.0);
    }
}

/// One shortest path of `player`'s pawn to its goal row, pawn square
/// first, ignoring pawns as the rules' path search does.
///
/// The rules crate answers how far a square is from the goal
/// ([`Position::shortest_path`]); the path walks from the pawn to a
/// neighbour one step nearer, until the goal. A neighbour's distance is
/// asked of the same position with the pawn set on that neighbour.
/// Preferred steps: towards the goal, then straight on, then sideways.
fn shortest_path(pos: &Position, player: Player) -> Vec<Square> {
    let walls = pos.walls();
    let blocked = |a: Square, b: Square| {
        walls.iter().any(|w| {
            w.separates()
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        })
    };
    let setup = pos.to_setup();
    let other = player.opponent();
    let distance = |from: Square, to: Square| -> Option<u8> {
        if to.rank() == player.goal_rank() {
            return Some(0);
        }
        let mut s: Setup = setup.clone();
        s.pawns[player.index()] = to;
        if s.pawns[other.index()] == to {
            // The pawns swap; `from` is joined to `to`, so the other pawn
            // keeps its way to its goal.
            s.pawns[other.index()] = from;
        }
        s.to_move = player;
        Position::from_setup(&s).ok()?.shortest_path(player)
    };
    let forward: i8 = if player.goal_rank() > 0 { 1 } else { -1 };
    let mut cur = pos.pawn(player);
    let mut path = vec![cur];
    let Some(mut left) = pos.shortest_path(player) else {
        return path;
    };
    let mut heading: (i8, i8) = (0, forward);
    while left > 0 && path.len() <= usize::from(SIZE) * usize::from(SIZE) {
        let order = [(0, forward), heading, (1, 0), (-1, 0), (0, -forward)];
        let next = order.into_iter().find_map(|(df, dr)| {
            let file = cur.file().checked_add_signed(df)?;
            let rank = cur.rank().checked_add_signed(dr)?;
            let n = Square::new(file, rank)?;
            (!blocked(cur, n) && distance(cur, n) == Some(left - 1)).then_some((n, (df, dr)))
        });
        let Some((n, step)) = next else {
            break;
        };
        path.push(n);
        cur = n;
        heading = step;
        left -= 1;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(line: &str) -> Position {
        line.split_whitespace()
            .fold(Position::start(), |pos, text| {
                let action: Action = text.parse().expect("valid notation");
                pos.play(action).expect("legal action")
            })
    }

    /// Each step goes to a neighbour with no wall between, the path is as
    /// long as the rules' distance and ends on the goal rank.
    #[test]
    fn paths_are_shortest_and_go_around_walls() {
        for line in [
            "",
            "e2 e8 d7h d3h c7v f3v d2 f8h",
            "e2 e8 e3 e7h e4 d6v f4",
            "a3h e8 c3h e7 e3h d7 g3h",
        ] {
            let pos = play(line);
            let walls = pos.walls();
            for player in Player::ALL {
                let path = shortest_path(&pos, player);
                let steps = pos.shortest_path(player).expect("a path exists");
                assert_eq!(path.len(), usize::from(steps) + 1, "{line:?} {player}");
                assert_eq!(path[0], pos.pawn(player));
                let end = path[path.len() - 1];
                assert_eq!(end.rank(), player.goal_rank(), "{line:?} {player}");
                for pair in path.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    let apart = a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank());
                    assert_eq!(apart, 1, "{line:?}: {a} {b}");
                    assert!(
                        !walls
                            .iter()
                            .any(|w| w.separates().contains(&(a, b))
                                || w.separates().contains(&(b, a))),
                        "{line:?}: a wall between {a} and {b}"
                    );
                }
            }
        }
    }
}
