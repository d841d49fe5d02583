//! The games of the workspace by kind: [`with_game`] turns a
//! [`GameKind`] known at run time into the engine's type, the one
//! registration of every game. Everything that holds a game behind one
//! type ([`sequence_common::AnyGame`]: the server's tables, the terminal
//! UI's bot seats) and needs its type back (a bot, a search, a new deal)
//! goes through it.

use crate::bot::BotGame;
use sequence_common::GameKind;

/// Something done with a game's type once its kind is known
/// ([`with_game`]): `call::<G>()` for the game `G` of the kind.
pub trait ForGame {
    /// What it gives.
    type Out;
    /// Does it for the game `G`.
    fn call<G: BotGame>(self) -> Self::Out;
}

/// Calls `f` with the engine of `kind`. A new game is one more line here
/// (see docs/architecture.md "Adding a third game").
pub fn with_game<F: ForGame>(kind: GameKind, f: F) -> F::Out {
    match kind {
        GameKind::Classic => f.call::<sequence_classic::Game>(),
        GameKind::Stacks => f.call::<sequence_stacks::Game>(),
    }
}
