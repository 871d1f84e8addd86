//! Game records that cannot be read or written, as problems.

use qipan_records::gomoku::GomokuError;
use qipan_records::quoridor::QuoridorError;
use qipan_records::tetris::FumenError;
use qipan_records::xiangqi::dhtmlxq::DhtmlXqError;
use qipan_records::xiangqi::pgn::{Location as TextAt, PgnError};
use qipan_records::xiangqi::xqf::XqfError;
use qipan_records::xiangqi::{EncodingError, ReadError};
use qipan_rules::xiangqi::Side;
use qipan_rules::Reason;

use super::{field, ApiError, Problem, ProblemKind};
use crate::records::{ImportError, RecordError};
use crate::wire::problem::{FieldMembers, LimitMembers, Members, RecordMembers};

fn side(s: Side) -> &'static str {
    match s {
        Side::Red => "red",
        Side::Black => "black",
    }
}

fn text_at(m: &mut RecordMembers, at: TextAt) {
    m.offset = Some(at.offset);
    m.line = Some(at.line);
    m.column = Some(at.column);
}

fn encoding(m: &mut RecordMembers, e: &EncodingError) {
    if let EncodingError::Invalid { offset, .. } = e {
        m.offset = Some(*offset);
    }
}

/// The members of a xiangqi reader's error.
fn xiangqi(m: &mut RecordMembers, e: &ReadError) {
    match e {
        ReadError::Pgn(p) => match p {
            PgnError::Move(bad) => {
                m.game = Some(bad.game);
                m.move_number = Some(u64::from(bad.number));
                m.side = Some(side(bad.side));
                m.text = Some(bad.text.clone());
                m.legal_moves = Some(bad.legal.clone());
                text_at(m, bad.at);
            }
            PgnError::Encoding(e) => encoding(m, e),
            PgnError::MalformedTag { game, at, .. }
            | PgnError::Fen { game, at, .. }
            | PgnError::UnterminatedComment { game, at }
            | PgnError::UnterminatedVariation { game, at }
            | PgnError::UnbalancedParenthesis { game, at }
            | PgnError::TooDeep { game, at }
            | PgnError::VariationWithoutMove { game, at } => {
                m.game = Some(*game);
                text_at(m, *at);
            }
            PgnError::TooLarge { .. } | PgnError::Empty => {}
        },
        ReadError::Xqf(x) => match x {
            XqfError::Truncated { length, .. } => m.offset = Some(*length),
            XqfError::Overlap { offset, .. }
            | XqfError::BadSquare { offset, .. }
            | XqfError::BadComment { offset, .. }
            | XqfError::TooDeep { offset } => m.offset = Some(*offset),
            XqfError::IllegalMove { offset, ply, .. } => {
                m.offset = Some(*offset);
                m.ply = Some(*ply);
            }
            XqfError::TooLarge { .. } | XqfError::NotXqf { .. } | XqfError::Start(_) => {
                m.offset = matches!(x, XqfError::NotXqf { .. }).then_some(0);
            }
        },
        ReadError::DhtmlXq(d) => match d {
            DhtmlXqError::Encoding(e) => encoding(m, e),
            DhtmlXqError::Unclosed { offset, .. }
            | DhtmlXqError::BadStart { offset, .. }
            | DhtmlXqError::BadMoveList { offset, .. }
            | DhtmlXqError::TooDeep { offset } => m.offset = Some(*offset),
            DhtmlXqError::IllegalMove { ply, offset, .. } => {
                m.offset = Some(*offset);
                m.ply = Some(*ply);
            }
            DhtmlXqError::TooLarge { .. } | DhtmlXqError::NotDhtmlXq | DhtmlXqError::Start(_) => {}
        },
    }
}

fn invalid(detail: String, m: RecordMembers) -> ApiError {
    Problem::with(
        ProblemKind::InvalidRecord,
        detail,
        Members::Record(Box::new(m)),
    )
    .into()
}

impl From<RecordError> for ApiError {
    fn from(e: RecordError) -> ApiError {
        let detail = e.to_string();
        match e {
            RecordError::TooLarge { limit } => Problem::with(
                ProblemKind::BodyTooLarge,
                detail,
                Members::Limit(LimitMembers { limit }),
            )
            .into(),
            RecordError::MediaType { .. } | RecordError::Charset { .. } => {
                Problem::new(ProblemKind::UnsupportedMediaType, detail).into()
            }
            RecordError::NoFormat { .. } => Problem::with(
                ProblemKind::UnsupportedFormat,
                detail,
                Members::Field(FieldMembers {
                    field: "game".to_owned(),
                    index: None,
                    supported: Some(vec!["xiangqi", "gomoku", "quoridor"]),
                }),
            )
            .into(),
            RecordError::Xiangqi { format, error } => {
                let mut m = RecordMembers {
                    format,
                    reason: error.reason(),
                    ..RecordMembers::default()
                };
                xiangqi(&mut m, &error);
                invalid(detail, m)
            }
            RecordError::Gomoku { format, error: g } => {
                let mut m = RecordMembers {
                    format,
                    reason: g.reason(),
                    offset: g.offset(),
                    ..RecordMembers::default()
                };
                match &g {
                    GomokuError::BadMove {
                        number, text, line, ..
                    } => {
                        m.move_number = Some(*number as u64);
                        m.text = Some(text.clone());
                        m.line = Some(*line);
                    }
                    GomokuError::PosPoint { number, value, .. } => {
                        m.move_number = Some(*number as u64);
                        m.text = Some(value.to_string());
                    }
                    GomokuError::LibPass { number, .. } => {
                        m.move_number = Some(*number as u64);
                        m.text = Some("pass".to_owned());
                    }
                    GomokuError::LibPoint { value, .. } => {
                        m.text = Some(format!("{value:#04x}"));
                    }
                    GomokuError::BadHeader { .. } => m.line = Some(1),
                    _ => {}
                }
                invalid(detail, m)
            }
            RecordError::Quoridor(q) => {
                let mut m = RecordMembers {
                    format: "moves",
                    reason: q.reason(),
                    ..RecordMembers::default()
                };
                match &q {
                    QuoridorError::BadMove { number, text, line } => {
                        m.move_number = Some(*number as u64);
                        m.text = Some(text.clone());
                        m.line = Some(*line);
                    }
                    QuoridorError::Encoding { offset } => m.offset = Some(*offset),
                    _ => {}
                }
                invalid(detail, m)
            }
            RecordError::Fumen(f) => {
                let mut m = RecordMembers {
                    format: "fumen",
                    reason: f.reason(),
                    ..RecordMembers::default()
                };
                match &f {
                    FumenError::BadCharacter { offset, .. } => m.offset = Some(*offset),
                    FumenError::Truncated { page, offset, .. }
                    | FumenError::BadField { page, offset, .. }
                    | FumenError::BadAction { page, offset, .. }
                    | FumenError::BadComment { page, offset } => {
                        m.page = Some(*page);
                        m.offset = Some(*offset);
                    }
                    FumenError::NoPiece { page } | FumenError::Position { page, .. } => {
                        m.page = Some(*page)
                    }
                    _ => {}
                }
                if matches!(f, FumenError::TooTall { .. }) {
                    // Writing a position: the state is what cannot be
                    // written, not a record sent.
                    return Problem::with(ProblemKind::InvalidCode, detail, field("code")).into();
                }
                invalid(detail, m)
            }
            RecordError::TooLong { .. } => invalid(
                detail,
                RecordMembers {
                    format: "record",
                    reason: "too-long",
                    ..RecordMembers::default()
                },
            ),
        }
    }
}

impl From<ImportError> for ApiError {
    fn from(e: ImportError) -> ApiError {
        match e {
            ImportError::Record(r) => r.into(),
            ImportError::Game(g) => g.into(),
        }
    }
}
