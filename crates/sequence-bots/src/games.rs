//! The games of the workspace by kind: [`with_game`] turns a
//! [`GameKind`] known at run time into the engine's type, the one
//! registration of every game. Everything that holds a game behind one
//! type ([`sequence_common::AnyGame`]: the server's tables, the terminal
//! UI's bot seats, the Python package's games) and needs its type back (a
//! bot, a search, a new deal, an observation) goes through it.

use crate::bot::BotGame;
use crate::env::EnvGame;
use sequence_common::record::{verify, ReplayError};
use sequence_common::{rules_of, AnyRules, GameKind};

/// Something done with a game's type once its kind is known
/// ([`with_game`]): `call::<G>()` for the game `G` of the kind. A game the
/// workspace registers has its bots ([`BotGame`]) and its environment
/// encodings ([`EnvGame`]); an implementation may ask for less
/// (`fn call<G: BotGame>`).
pub trait ForGame {
    /// What it gives.
    type Out;
    /// Does it for the game `G`.
    fn call<G: EnvGame>(self) -> Self::Out;
}

/// Calls `f` with the engine of `kind`. A new game is one more line here
/// (see docs/architecture.md "Adding a third game").
pub fn with_game<F: ForGame>(kind: GameKind, f: F) -> F::Out {
    match kind {
        GameKind::Classic => f.call::<sequence_classic::Game>(),
        GameKind::Stacks => f.call::<sequence_stacks::Game>(),
    }
}

/// The rules of the game `kind` before any deal, behind one type
/// ([`AnyRules`]: checking, seating and dealing a table, the lobby's
/// description).
pub fn rules(kind: GameKind) -> &'static dyn AnyRules {
    struct Rules;
    impl ForGame for Rules {
        type Out = &'static dyn AnyRules;
        fn call<G: EnvGame>(self) -> Self::Out {
            rules_of::<G>()
        }
    }
    with_game(kind, Rules)
}

/// Verifies a record of the game `kind` (RECORD.md, RECORD-STACKS.md
/// "Verifying"; [`sequence_common::record::detect_kind`] tells the game
/// from the record's `format`): its moves replayed by that engine. Gives
/// the summary `sequence verify` prints.
///
/// # Errors
/// The replay error: a record that is malformed (exit code 2) or the
/// first illegal or malformed move (exit code 1).
pub fn verify_record(
    kind: GameKind,
    value: &serde_json::Value,
) -> Result<serde_json::Value, ReplayError> {
    /// [`verify`] of the record's game.
    struct Verify<'a>(&'a serde_json::Value);
    impl ForGame for Verify<'_> {
        type Out = Result<serde_json::Value, ReplayError>;
        fn call<G: BotGame>(self) -> Self::Out {
            verify::<G>(self.0)
        }
    }
    with_game(kind, Verify(value))
}
