//! [`DynView`] and [`DynBot`]: a seat's view and a bot of either game,
//! implemented once for every registered game ([`EnvGame`]).

use super::{wrap, DynGame, Failure, FailureKind};
use crate::env::EnvGame;
use crate::session::Session;
use sequence_bots::Bot;
use sequence_common::AnyMove;
use sequence_common::{GameKind, Outcome, Rules, SeatView};
use serde_json::Value;
use std::any::Any;
use std::sync::Arc;

/// What one seat (or a spectator) may see, of either game.
pub trait DynView: Send + Sync {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn DynView>;
    /// The view's seat; `None` for a spectator.
    fn seat(&self) -> Option<u8>;
    /// The seat that must decide now.
    fn to_act(&self) -> Option<u8>;
    /// Where the game stands.
    fn outcome(&self) -> Outcome;
    /// Moves made.
    fn ply(&self) -> u32;
    /// The seat's legal moves when it must decide.
    fn legal_moves(&self) -> Vec<AnyMove>;
    /// The view as JSON (docs/api.md, docs/bot-protocol.md).
    fn to_json(&self) -> Value;
    /// A whole game consistent with the view, the unseen cards dealt from
    /// `seed`; it reshuffles from the same seed and keeps no record.
    ///
    /// # Errors
    /// A view that does not add up (never for a view made here).
    fn determinize(&self, seed: u64) -> Result<Box<dyn DynGame>, Failure>;
    /// For downcasting (bots).
    fn as_any(&self) -> &dyn Any;
}

/// A view with its table (for wrapping moves).
pub struct ViewBox<G: Rules> {
    /// The engine's view.
    pub view: G::View,
    pub(crate) config: G::Config,
}

impl<G: EnvGame> DynView for ViewBox<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn boxed_clone(&self) -> Box<dyn DynView> {
        Box::new(ViewBox::<G> {
            view: self.view.clone(),
            config: self.config.clone(),
        })
    }

    fn seat(&self) -> Option<u8> {
        self.view.seat().map(|s| s.0)
    }

    fn to_act(&self) -> Option<u8> {
        self.view.to_act().map(|s| s.0)
    }

    fn outcome(&self) -> Outcome {
        self.view.outcome()
    }

    fn ply(&self) -> u32 {
        self.view.ply()
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        let c = Arc::new(self.config.clone());
        self.view
            .legal_moves()
            .into_iter()
            .map(|m| AnyMove::at::<G>(m, c.clone()))
            .collect()
    }

    fn to_json(&self) -> Value {
        self.view.to_json()
    }

    fn determinize(&self, seed: u64) -> Result<Box<dyn DynGame>, Failure> {
        let mut rng = sequence_common::rng::game_rng(seed);
        let g = self.view.determinize(&mut rng).ok_or_else(|| {
            Failure::usage(
                "view.inconsistent",
                "the view does not add up to the game's cards",
            )
        })?;
        if G::VIEW_READS_BACK {
            // the view's JSON reads back as it is (Stacks): rebuildable
            let origin = crate::trail::Origin::View {
                view: self.view.to_json(),
                seed,
            };
            return Ok(Box::new(Session::with_origin(g, seed, origin)));
        }
        Ok(Box::new(Session::without_record(g, seed)))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A view of game `G` with its table, behind [`DynView`].
pub fn boxed_view<G: EnvGame>(view: G::View, config: G::Config) -> Box<dyn DynView> {
    Box::new(ViewBox::<G> { view, config })
}

/// A bot of either game.
pub trait DynBot: Send {
    /// Which game it plays.
    fn kind(&self) -> GameKind;
    /// Its name (the spec it was built from).
    fn name(&self) -> String;
    /// One of the view's legal moves.
    ///
    /// # Errors
    /// A view of the other game, a view whose seat need not decide, or a
    /// program bot that failed.
    fn choose(&mut self, view: &dyn DynView) -> Result<AnyMove, Failure>;
}

pub(crate) struct BotBox<G: Rules> {
    pub(crate) bot: Box<dyn Bot<G>>,
}

impl<G: EnvGame> DynBot for BotBox<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn name(&self) -> String {
        self.bot.name()
    }

    fn choose(&mut self, view: &dyn DynView) -> Result<AnyMove, Failure> {
        let Some(v) = view.as_any().downcast_ref::<ViewBox<G>>() else {
            return Err(Failure::usage(
                "bot.wrong_game",
                format!("a {} bot was given a {} view", G::KIND, view.kind()),
            ));
        };
        if v.view.seat().is_none() || v.view.to_act() != v.view.seat() {
            return Err(Failure::usage(
                "bot.not_to_act",
                "the view's seat does not have to decide now (give the bot the view of the seat to act)",
            ));
        }
        let m = self
            .bot
            .try_choose(&v.view)
            .map_err(|e| Failure::new(FailureKind::Bot, "bot.failed", e.to_string()))?;
        Ok(wrap::<G>(m, &v.config))
    }
}
