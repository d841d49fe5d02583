//! The Python exceptions: one class per kind of refusal, each with the
//! engine's stable `code` (e.g. `C6.space_taken`) and its `rule` (`C6`).

use crate::dynamic::{Failure, FailureKind};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    sequence_game,
    SequenceError,
    PyValueError,
    "Base of every error of sequence_game: `code` is a stable code such as `C6.space_taken`, `rule` its rule id (`C6`) or None."
);
create_exception!(
    sequence_game,
    IllegalMoveError,
    SequenceError,
    "A move the rules refuse; `code` names the rule (`C6.space_taken`, `S5.steal_from_self`). The game is unchanged."
);
create_exception!(
    sequence_game,
    SetupError,
    SequenceError,
    "A table or options that break the rules (`C3.players`, `S1.players`, `C11.option`)."
);
create_exception!(
    sequence_game,
    NotationError,
    SequenceError,
    "A move entry that cannot be read (`notation.missing`, `notation.field`, …)."
);
create_exception!(
    sequence_game,
    ActionError,
    SequenceError,
    "An action outside the mask (`env.not_legal`, `env.out_of_range`, or the rule's code). Nothing moves."
);
create_exception!(
    sequence_game,
    RecordError,
    SequenceError,
    "A record that does not verify, with `sequence verify`'s message: `exit_code` (2 malformed, 1 an illegal or malformed move or a mismatch), `index` and `entry` of the offending move, `why`."
);
create_exception!(
    sequence_game,
    BotError,
    SequenceError,
    "A bot name that cannot be built, or a bot that failed."
);
create_exception!(
    sequence_game,
    UsageError,
    SequenceError,
    "A call the API refuses: a seat not at the table, a move of the other game, a game without a record, a wrong argument type."
);

/// The rule id of a code (`C6` of `C6.space_taken`), if it names a rule.
fn rule_of(code: &str) -> Option<&str> {
    let head = code.split('.').next()?;
    let mut cs = head.chars();
    match cs.next() {
        Some('C' | 'S') if cs.next().is_some_and(|c| c.is_ascii_digit()) => Some(head),
        _ => None,
    }
}

/// A [`Failure`] as its Python exception, with `code`, `rule` and (for
/// records) `exit_code`, `index`, `entry` and `why`.
pub(crate) fn fail(f: Failure) -> PyErr {
    let msg = f.message.clone();
    let err = match f.kind {
        FailureKind::IllegalMove => IllegalMoveError::new_err(msg),
        FailureKind::Setup => SetupError::new_err(msg),
        FailureKind::Notation => NotationError::new_err(msg),
        FailureKind::Action => ActionError::new_err(msg),
        FailureKind::Record => RecordError::new_err(msg),
        FailureKind::Bot => BotError::new_err(msg),
        FailureKind::Usage => UsageError::new_err(msg),
    };
    Python::attach(|py| {
        let v = err.value(py);
        let _ = v.setattr("code", f.code.as_str());
        let _ = v.setattr("rule", rule_of(&f.code));
        if let Some(d) = &f.record {
            let _ = v.setattr("exit_code", d.exit_code);
            let _ = v.setattr("index", d.index);
            let _ = v.setattr("entry", d.entry.as_deref());
            let _ = v.setattr("why", d.why.as_str());
        }
    });
    err
}

/// A [`FailureKind::Usage`] error.
pub(crate) fn usage(code: &str, message: impl Into<String>) -> PyErr {
    fail(Failure::new(FailureKind::Usage, code, message))
}

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SequenceError", py.get_type::<SequenceError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("NotationError", py.get_type::<NotationError>())?;
    m.add("ActionError", py.get_type::<ActionError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("BotError", py.get_type::<BotError>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    Ok(())
}
