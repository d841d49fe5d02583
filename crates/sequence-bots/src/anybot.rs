//! A bot of either game behind one type: [`AnyBot`], a [`Bot<G>`] that is
//! sent an [`AnyView`] and answers an [`AnyMove`] (the server's tables,
//! the terminal UI's and the Python package's bots), built by name for a
//! [`GameKind`] ([`any_bot`]); the table-talk penalty discard a bot makes
//! from an [`AnyView`] too ([`penalty_discard`]).

use crate::bot::{Bot, BotFailure};
use crate::env::EnvGame;
use crate::games::{with_game, ForGame};
use crate::spec::{bot, BotError};
use sequence_common::{view_table, AnyEntry, AnyMove, AnyView, GameKind};

/// A bot of some game, deciding from a view behind [`AnyView`].
pub trait AnyBot: Send {
    /// Which game it plays.
    fn kind(&self) -> GameKind;
    /// Its name (the spec it was built from).
    fn name(&self) -> String;
    /// One of the view's legal moves, written with the view's table when
    /// the view knows it ([`sequence_common::any_view_at`]). Call it only
    /// with a view whose seat must decide.
    ///
    /// # Errors
    /// [`AnyBotError::WrongGame`] for a view of another game,
    /// [`AnyBotError::Failed`] for a bot that failed (a program).
    fn choose_any(&mut self, view: &dyn AnyView) -> Result<AnyMove, AnyBotError>;
}

/// Why an [`AnyBot`] gave no move.
#[derive(Debug, thiserror::Error)]
pub enum AnyBotError {
    /// The view is of another game than the bot's.
    #[error("a {bot} bot was given a {view} view")]
    WrongGame {
        /// The bot's game.
        bot: GameKind,
        /// The view's game.
        view: GameKind,
    },
    /// The bot failed ([`Bot::try_choose`]).
    #[error("{0}")]
    Failed(BotFailure),
}

/// A bot of the game `G` behind [`AnyBot`].
struct Boxed<G: EnvGame>(Box<dyn Bot<G>>);

impl<G: EnvGame> AnyBot for Boxed<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn name(&self) -> String {
        self.0.name()
    }

    fn choose_any(&mut self, view: &dyn AnyView) -> Result<AnyMove, AnyBotError> {
        let Some(v) = view.as_any().downcast_ref::<G::View>() else {
            return Err(AnyBotError::WrongGame {
                bot: G::KIND,
                view: view.kind(),
            });
        };
        let m = self.0.try_choose(v).map_err(AnyBotError::Failed)?;
        Ok(match view_table::<G>(view) {
            Some(t) => AnyMove::at::<G>(m, t),
            None => AnyMove::of::<G>(m),
        })
    }
}

/// Builds a bot of the game `kind` by name ([`bot`]: `random`, `greedy`,
/// `level:3`, `search:500it`, `cmd:PROGRAM` …) with its own generator
/// seeded by `seed`.
///
/// # Errors
/// [`BotError`] naming what is wrong with the name.
pub fn any_bot(kind: GameKind, spec: &str, seed: u64) -> Result<Box<dyn AnyBot>, BotError> {
    struct New<'a>(&'a str, u64);
    impl ForGame for New<'_> {
        type Out = Result<Box<dyn AnyBot>, BotError>;
        fn call<G: EnvGame>(self) -> Self::Out {
            Ok(Box::new(Boxed::<G>(bot::<G>(self.0, self.1)?)))
        }
    }
    with_game(kind, New(spec, seed))
}

/// The card a bot (or a table's clock) discards for the view's seat under
/// the table-talk penalty (C10), chosen from the seat's view with a
/// generator seeded by `seed` ([`crate::BotGame::penalty_choice`]), as the
/// seat's entry; `None` in a game without the penalty, for a spectator's
/// view or an empty hand.
pub fn penalty_discard(view: &dyn AnyView, seed: u64) -> Option<AnyEntry> {
    struct Discard<'a>(&'a dyn AnyView, u64);
    impl ForGame for Discard<'_> {
        type Out = Option<AnyEntry>;
        fn call<G: EnvGame>(self) -> Self::Out {
            let view = self.0.as_any().downcast_ref::<G::View>()?;
            let seat = self.0.seat()?;
            let card = G::penalty_choice(view, self.1)?;
            Some(AnyEntry::of_penalty::<G>(seat, card, G::card_code(card)))
        }
    }
    with_game(view.kind(), Discard(view, seed))
}
