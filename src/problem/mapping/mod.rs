//! The one place where domain errors become problems: each error of the
//! games, the matches and the request extractors gets its kind, its
//! sentence and its typed members here, and nowhere below the routes.

mod records;

use qipan_rules::{GameKind, Reason};

use super::{ApiError, Problem, ProblemKind};
use crate::analysis::{AnalysisError, AVAILABLE};
use crate::games::line::LineMismatch;
use crate::games::{BodyFault, GameError};
use crate::matches::computer::ComputerError;
use crate::matches::{ClaimRefusal, InvalidMatchId, MatchError};
use crate::storage::StorageError;
use crate::wire::problem::Location;
use crate::wire::problem::{
    ActionMembers, AnalysisMembers, ClaimMembers, FaultMembers, FieldMembers, GameOverMembers,
    KeptMembers, MatchMembers, Members, OfferMembers, PliesMembers, SeatMembers, SeekMembers,
    StaleMembers, TurnMembers,
};

fn field(name: &str) -> Members {
    Members::Field(FieldMembers {
        field: name.to_owned(),
        index: None,
        supported: None,
    })
}

fn one_of(name: &str, supported: Vec<&'static str>) -> Members {
    Members::Field(FieldMembers {
        field: name.to_owned(),
        index: None,
        supported: Some(supported),
    })
}

fn game_names() -> Vec<&'static str> {
    GameKind::ALL.iter().map(|g| g.as_str()).collect()
}

/// Where a game request came from: the stateless API names query
/// parameters, a match's creation names members of its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Stateless,
    MatchBody,
    /// The `import` member of a match's creation: the import body's
    /// members are named under it.
    MatchImport,
}

impl Context {
    /// A member of the game's body as this context names it.
    fn member(self, name: &str) -> String {
        match self {
            Context::MatchImport => format!("import.{name}"),
            Context::Stateless | Context::MatchBody => name.to_owned(),
        }
    }
}

/// `malformed-action` or `illegal-action`: which action, why, and what may
/// be played there.
fn action_problem(
    kind: ProblemKind,
    detail: String,
    index: usize,
    action: String,
    reason: &'static str,
    legal: Box<serde_json::value::RawValue>,
) -> Problem {
    let members = ActionMembers {
        index,
        action,
        reason,
        legal_actions: legal,
    };
    Problem::with(kind, detail, Members::Action(members))
}

fn game_problem(e: GameError, context: Context) -> ApiError {
    let detail = e.to_string();
    let problem = match e {
        GameError::UnknownGame { name } => Problem::with(
            ProblemKind::UnknownGame,
            format!(
                "there is no game {name:?}; the games are {}",
                game_names().join(", ")
            ),
            one_of("game", game_names()),
        ),
        GameError::InvalidCode(f) => Problem::with(
            ProblemKind::InvalidCode,
            f.detail,
            Members::Fault(FaultMembers {
                field: f.field.to_owned(),
                reason: f.reason,
                at: f.at,
            }),
        ),
        GameError::UnknownVariant {
            game,
            given,
            supported,
        } => Problem::with(
            ProblemKind::UnknownVariant,
            format!(
                "{game} has no variant {given:?}; it has: {}",
                supported.join(", ")
            ),
            one_of("variant", supported.to_vec()),
        ),
        GameError::StartParam { param, detail } => {
            let kind = match context {
                Context::Stateless => ProblemKind::InvalidQuery,
                Context::MatchBody | Context::MatchImport => ProblemKind::InvalidField,
            };
            Problem::with(kind, detail, field(param.as_str()))
        }
        GameError::EmptyBatch | GameError::BatchTooLong { .. } => {
            Problem::with(ProblemKind::InvalidField, detail, field("actions"))
        }
        GameError::GameOver {
            index,
            action,
            outcome,
        } => Problem::with(
            ProblemKind::GameOver,
            detail,
            Members::GameOver(GameOverMembers {
                index: Some(index),
                action: Some(action),
                outcome,
            }),
        ),
        GameError::NotYourTurn {
            index,
            to_move,
            seat,
        } => Problem::with(
            ProblemKind::NotYourTurn,
            detail,
            Members::Turn(TurnMembers {
                index,
                to_move: to_move.as_str(),
                seat: seat.as_str(),
            }),
        ),
        GameError::MalformedAction {
            index,
            action,
            reason,
            legal,
            ..
        } => action_problem(
            ProblemKind::MalformedAction,
            detail,
            index,
            action,
            reason,
            legal,
        ),
        GameError::IllegalAction {
            index,
            action,
            reason,
            legal,
            ..
        } => action_problem(
            ProblemKind::IllegalAction,
            detail,
            index,
            action,
            reason,
            legal,
        ),
        GameError::ImportBody(BodyFault::NotAnObject) => match context {
            Context::MatchImport => Problem::with(
                ProblemKind::InvalidField,
                "`import` must be a JSON object: the body of POST /v1/{game}/import",
                field("import"),
            ),
            Context::Stateless | Context::MatchBody => {
                Problem::new(ProblemKind::MalformedBody, "the body must be a JSON object")
            }
        },
        GameError::ImportBody(BodyFault::Other(detail)) => match context {
            Context::MatchImport => Problem::with(
                ProblemKind::InvalidField,
                format!("`import` is not valid here: {detail}"),
                field("import"),
            ),
            Context::Stateless | Context::MatchBody => Problem::new(
                ProblemKind::MalformedBody,
                format!("the body is not valid here: {detail}"),
            ),
        },
        GameError::ImportBody(BodyFault::Field {
            field,
            index,
            detail,
        }) => Problem::with(
            ProblemKind::InvalidField,
            detail,
            Members::Field(FieldMembers {
                field: context.member(&field),
                index,
                supported: None,
            }),
        ),
        GameError::InvalidImport(f) => Problem::with(
            ProblemKind::InvalidImport,
            f.detail,
            Members::Fault(FaultMembers {
                field: context.member(f.field),
                reason: f.reason,
                at: f.at,
            }),
        ),
        GameError::UnsupportedFormat {
            game,
            given,
            supported,
            import,
        } => {
            let (verb, reads) = if import {
                ("import", "reads")
            } else {
                ("export", "writes")
            };
            Problem::with(
                ProblemKind::UnsupportedFormat,
                format!(
                    "{game} does not {verb} {given:?}; it {reads} {}",
                    supported.join(", ")
                ),
                one_of(&context.member("format"), supported.to_vec()),
            )
        }
        GameError::HistoryMismatch(LineMismatch::Diverged { index }) => {
            return ApiError::Internal(anyhow::anyhow!(
                "the rules played action {index} but the line did not"
            ))
        }
        GameError::HistoryMismatch(e) => Problem::with(
            ProblemKind::HistoryMismatch,
            detail,
            Members::Fault(FaultMembers {
                field: e.field().to_owned(),
                reason: e.reason(),
                at: Box::new(Location {
                    index: e.index(),
                    ..Location::default()
                }),
            }),
        ),
        GameError::HistoryNotTaken { .. } => {
            Problem::with(ProblemKind::InvalidField, detail, field("history"))
        }
        GameError::Render(e) => return ApiError::Internal(e.into()),
    };
    ApiError::Problem(problem)
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        game_problem(e, Context::Stateless)
    }
}

impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> ApiError {
        if !matches!(e, StorageError::Conflict) {
            crate::metrics::metrics().database_error();
        }
        match e {
            StorageError::Unavailable(cause) => ApiError::Unavailable {
                problem: Problem::new(
                    ProblemKind::DatabaseUnavailable,
                    "the database cannot be reached just now; read the match before retrying a write (a write cut off mid-way may have landed)",
                ),
                cause: cause.into(),
            },
            StorageError::Conflict => Problem::new(
                ProblemKind::WriteConflict,
                "another write to this match landed first; nothing of this request was written",
            )
            .into(),
            e @ (StorageError::Corrupt { .. } | StorageError::Query(_)) => {
                ApiError::Internal(e.into())
            }
        }
    }
}

impl From<MatchError> for ApiError {
    fn from(e: MatchError) -> ApiError {
        let detail = e.to_string();
        let problem = match e {
            MatchError::Disabled => Problem::new(ProblemKind::MatchesDisabled, detail),
            MatchError::UnknownMatch(id) => Problem::with(
                ProblemKind::UnknownMatch,
                detail,
                Members::Match(MatchMembers { id: id.to_string() }),
            ),
            MatchError::NoToken | MatchError::NotASeat => {
                Problem::new(ProblemKind::Unauthorized, detail)
            }
            MatchError::Stale { asked, current } => Problem::with(
                ProblemKind::StaleVersion,
                detail,
                Members::Stale(StaleMembers {
                    asked: asked.iter().map(|v| v.get()).collect(),
                    version: current.map(|v| v.get()),
                }),
            ),
            MatchError::Conflict => Problem::new(ProblemKind::WriteConflict, detail),
            MatchError::Finished { status, .. } => Problem::with(
                ProblemKind::GameOver,
                detail,
                Members::GameOver(GameOverMembers {
                    index: None,
                    action: None,
                    outcome: status.into(),
                }),
            ),
            MatchError::Game(e) => return game_problem(e, Context::MatchBody),
            MatchError::Import(e) => return game_problem(e, Context::MatchImport),
            MatchError::UnknownGame(name) => Problem::with(
                ProblemKind::InvalidField,
                format!(
                    "there is no game {name:?}; the games are {}",
                    game_names().join(", ")
                ),
                one_of("game", game_names()),
            ),
            MatchError::FromWithStart { field: name } => {
                Problem::with(ProblemKind::InvalidField, detail, field(name))
            }
            MatchError::SoloOnly(_) => Problem::with(
                ProblemKind::InvalidField,
                detail,
                one_of("mode", vec!["solo"]),
            ),
            MatchError::UnknownSeat { seats, .. } => Problem::with(
                ProblemKind::InvalidField,
                detail,
                one_of("seat", seats.iter().map(|s| s.as_str()).collect()),
            ),
            MatchError::NoInvite => {
                Problem::with(ProblemKind::InvalidField, detail, field("invite"))
            }
            MatchError::InvalidInvite => Problem::new(ProblemKind::InvalidInvite, detail),
            MatchError::NoOpenSeat(_) => Problem::new(ProblemKind::NoOpenSeat, detail),
            MatchError::InvalidText { field: name, .. } => {
                Problem::with(ProblemKind::InvalidField, detail, field(name))
            }
            MatchError::InvalidName(_) => {
                Problem::with(ProblemKind::InvalidField, detail, field("name"))
            }
            MatchError::InvalidClock(e) => {
                Problem::with(ProblemKind::InvalidField, detail, field(e.field()))
            }
            MatchError::Computer(ComputerError::Busy(_) | ComputerError::NoMove) => {
                Problem::new(ProblemKind::AnalysisBusy, detail)
            }
            MatchError::Computer(e) => {
                Problem::with(ProblemKind::InvalidField, detail, field(e.field()))
            }
            MatchError::NoDrawOffer => Problem::new(ProblemKind::NoDrawOffer, detail),
            MatchError::OwnDrawOffer(_) => Problem::new(ProblemKind::OwnDrawOffer, detail),
            MatchError::CannotClaim(why) => {
                let (seat, claimable_at) = match why {
                    ClaimRefusal::OpponentOnline(seat) | ClaimRefusal::OpponentNotSeated(seat) => {
                        (Some(seat.as_str()), None)
                    }
                    ClaimRefusal::TooSoon { seat, claimable_at } => {
                        (Some(seat.as_str()), Some(claimable_at.rfc3339()))
                    }
                    ClaimRefusal::OwnTurn | ClaimRefusal::Correspondence => (None, None),
                };
                Problem::with(
                    ProblemKind::ClaimRefused,
                    detail,
                    Members::Claim(ClaimMembers {
                        reason: why.as_str(),
                        seat,
                        claimable_at,
                    }),
                )
            }
            MatchError::UnknownSeek(_) => Problem::new(ProblemKind::UnknownSeek, detail),
            MatchError::SeekClosed(state) => Problem::with(
                ProblemKind::SeekClosed,
                detail,
                Members::Seek(SeekMembers {
                    state: state.as_str(),
                }),
            ),
            MatchError::OwnSeek => Problem::new(ProblemKind::OwnSeek, detail),
            MatchError::SeatTaken(seat) => Problem::with(
                ProblemKind::SeatTaken,
                detail,
                Members::Seat(SeatMembers {
                    seat: seat.as_str(),
                }),
            ),
            MatchError::NothingToUndo { ply, .. } => Problem::with(
                ProblemKind::NothingToUndo,
                detail,
                Members::Kept(KeptMembers {
                    ply,
                    kept: MatchError::KEPT,
                }),
            ),
            MatchError::UndoPending(offer) => Problem::with(
                ProblemKind::UndoPending,
                detail,
                Members::Offer(OfferMembers {
                    undo_offer: offer.into(),
                }),
            ),
            MatchError::NoUndoOffer => Problem::new(ProblemKind::NoUndoOffer, detail),
            MatchError::OwnUndoOffer(_) => Problem::new(ProblemKind::OwnUndoOffer, detail),
            MatchError::NotADuel => Problem::new(ProblemKind::NotADuel, detail),
            MatchError::PlyNotKept { oldest, latest, .. } => Problem::with(
                ProblemKind::PlyNotKept,
                detail,
                Members::Plies(PliesMembers {
                    field: "ply",
                    oldest,
                    latest,
                }),
            ),
            MatchError::Storage(e) => return e.into(),
            e @ (MatchError::NoRandomness(_) | MatchError::Render(_) | MatchError::Crashed(_)) => {
                return ApiError::Internal(e.into())
            }
        };
        ApiError::Problem(problem)
    }
}

impl From<InvalidMatchId> for ApiError {
    fn from(e: InvalidMatchId) -> ApiError {
        Problem::with(ProblemKind::InvalidMatchId, e.to_string(), field("id")).into()
    }
}

impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> Self {
        let detail = e.to_string();
        let problem = match e {
            AnalysisError::OutOfRange { field: name, .. }
            | AnalysisError::Missing { field: name, .. } => {
                Problem::with(ProblemKind::InvalidQuery, detail, field(name))
            }
            AnalysisError::Finished { outcome } => Problem::with(
                ProblemKind::GameOver,
                detail,
                Members::GameOver(GameOverMembers {
                    index: None,
                    action: None,
                    outcome,
                }),
            ),
            AnalysisError::Unavailable { game } => Problem::with(
                ProblemKind::AnalysisUnavailable,
                detail,
                Members::Analysis(AnalysisMembers {
                    game: game.as_str(),
                    available: AVAILABLE.iter().map(|g| g.as_str()).collect(),
                }),
            ),
            AnalysisError::Busy { .. } | AnalysisError::Closed => {
                Problem::new(ProblemKind::AnalysisBusy, detail)
            }
        };
        ApiError::Problem(problem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::problem::Location;

    fn body(e: ApiError) -> serde_json::Value {
        match e {
            ApiError::Problem(p) | ApiError::Unavailable { problem: p, .. } => {
                let res = p.response();
                let bytes = actix_web::body::to_bytes(res.into_body());
                let bytes = futures_executor(bytes);
                serde_json::from_slice(&bytes).unwrap_or_default()
            }
            ApiError::Internal(e) => panic!("internal: {e}"),
        }
    }

    fn futures_executor<
        F: std::future::Future<Output = Result<actix_web::web::Bytes, E>>,
        E: std::fmt::Debug,
    >(
        f: F,
    ) -> actix_web::web::Bytes {
        actix_web::rt::System::new()
            .block_on(f)
            .expect("a problem body is in memory")
    }

    #[test]
    fn a_board_place_is_row_and_column_in_every_problem() {
        let fault = crate::games::Fault {
            field: "rows",
            reason: "invalid-character",
            detail: "json: row 1, column 3".to_owned(),
            at: Box::new(Location {
                row: Some(1),
                column: Some(3),
                character: Some("Q".to_owned()),
                ..Location::default()
            }),
        };
        let b = body(GameError::InvalidImport(fault).into());
        assert_eq!(b["type"], "/problems/invalid-import");
        assert_eq!(b["status"], 400);
        assert_eq!(b["field"], "rows");
        assert_eq!(b["reason"], "invalid-character");
        assert_eq!(
            (b["row"].clone(), b["column"].clone()),
            (1.into(), 3.into())
        );
        assert!(b.get("col").is_none() && b.get("line").is_none());
        assert!(
            b.get("offset").is_none(),
            "absent members are left out: {b}"
        );
    }

    #[test]
    fn start_parameters_are_query_parameters_or_body_members() {
        let e = || GameError::StartParam {
            param: crate::games::StartParam::Seed,
            detail: "no seed".to_owned(),
        };
        let q = body(e().into());
        assert_eq!(
            (q["type"].as_str(), q["field"].as_str()),
            (Some("/problems/invalid-query"), Some("seed"))
        );
        let b = body(MatchError::Game(e()).into());
        assert_eq!(
            (b["type"].as_str(), b["field"].as_str()),
            (Some("/problems/invalid-field"), Some("seed"))
        );
    }
}
