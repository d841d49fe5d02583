//! Every refusal of the Python package as a [`Failure`] with a stable
//! code and its Python exception ([`FailureKind`]).

use sequence_common::record::ReplayError;
use sequence_common::RuleError;

/// What kind of refusal a [`Failure`] is (each is one Python exception).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// A move the rules refuse (`IllegalMoveError`).
    IllegalMove,
    /// A table or options that break the rules (`SetupError`).
    Setup,
    /// A move entry that cannot be read (`NotationError`).
    Notation,
    /// An action outside the mask (`ActionError`).
    Action,
    /// A record that is malformed, illegal or inconsistent (`RecordError`).
    Record,
    /// A bot that cannot be built or fails (`BotError`).
    Bot,
    /// A seat that is not at the table, a move of the other game, a game
    /// without a record (`UsageError`).
    Usage,
}

/// Details of a record that does not verify (as `sequence verify`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordDetail {
    /// `sequence verify`'s exit code: 2 malformed, 1 illegal or mismatched.
    pub exit_code: i32,
    /// The index of the offending move, when a move is at fault.
    pub index: Option<usize>,
    /// The offending entry as compact JSON (cut to 200 characters).
    pub entry: Option<String>,
    /// Why, without the move prefix.
    pub why: String,
}

/// A refusal with a stable code (e.g. `C6.space_taken`) and the English
/// message the engine gives (naming the rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which exception.
    pub kind: FailureKind,
    /// The stable code.
    pub code: String,
    /// The message.
    pub message: String,
    /// For records: what `sequence verify` reports.
    pub record: Option<Box<RecordDetail>>,
}

impl Failure {
    /// A failure without record details.
    pub fn new(kind: FailureKind, code: impl Into<String>, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            code: code.into(),
            message: message.into(),
            record: None,
        }
    }

    pub(crate) fn setup<E: RuleError>(e: &E) -> Failure {
        Failure::new(FailureKind::Setup, e.code(), e.to_string())
    }

    pub(crate) fn usage(code: &str, message: impl Into<String>) -> Failure {
        Failure::new(FailureKind::Usage, code, message)
    }

    /// A record error, with the message `sequence verify` prints.
    pub fn from_replay(e: &ReplayError) -> Failure {
        let (code, detail) = match e {
            ReplayError::Malformed(m) => (
                "record.malformed",
                RecordDetail {
                    exit_code: 2,
                    index: None,
                    entry: None,
                    why: m.0.clone(),
                },
            ),
            ReplayError::Move(m) => (
                m.code(),
                RecordDetail {
                    exit_code: 1,
                    index: Some(m.index),
                    entry: Some(m.json.clone()),
                    why: m.why.clone(),
                },
            ),
            ReplayError::ResultMismatch(w) => (
                "record.mismatch",
                RecordDetail {
                    exit_code: 1,
                    index: None,
                    entry: None,
                    why: w.clone(),
                },
            ),
        };
        Failure {
            kind: FailureKind::Record,
            code: code.into(),
            message: e.to_string(),
            record: Some(Box::new(detail)),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}
