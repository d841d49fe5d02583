//! [`AnyView`]: a seat's (or a spectator's) view of a game of either kind.

use super::AnyMove;
use crate::game::{GameKind, Outcome, Rules, SeatView};
use crate::notation::Notation;
use crate::seat::Seat;
use serde_json::Value;
use std::any::Any;
use std::sync::Arc;

/// What one seat (or a spectator) may see of a game of either kind: the
/// engine's [`SeatView`] behind one type.
pub trait AnyView: Send + Sync {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// The view's seat; `None` for a spectator.
    fn seat(&self) -> Option<Seat>;
    /// The seat that must decide now; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;
    /// Where the game stands.
    fn outcome(&self) -> Outcome;
    /// Moves made so far.
    fn ply(&self) -> u32;
    /// The seat's legal moves when it must decide, else empty.
    fn legal_moves(&self) -> Vec<AnyMove>;
    /// The view as JSON (docs/api.md, docs/bot-protocol.md).
    fn to_json(&self) -> Value;
    /// A copy.
    fn clone_box(&self) -> Box<dyn AnyView>;
    /// The engine's view (`G::View`, not the box), for a bot of the game.
    fn as_any(&self) -> &dyn Any;
    /// The table the view is of, when known (an `Arc<G::Config>`): the
    /// table its moves are written with ([`AnyMove::at`]).
    fn table(&self) -> Option<&dyn Any>;
}

/// The table of `view` as the game `G`'s (`None`: unknown, or a view of
/// another game).
pub fn view_table<G: Rules>(view: &dyn AnyView) -> Option<Arc<G::Config>> {
    view.table()?.downcast_ref::<Arc<G::Config>>().cloned()
}

/// The view `view` behind [`AnyView`], its table unknown (its moves
/// write no record entry, [`AnyMove::of`]).
pub fn any_view<V: SeatView>(view: V) -> Box<dyn AnyView>
where
    V::Game: Notation,
{
    Box::new(ViewBox { view, table: None })
}

/// The view `view` of a game at the table `table` behind [`AnyView`]
/// (its moves are written with the table, [`AnyMove::at`]).
pub fn any_view_at<V: SeatView>(view: V, table: Arc<<V::Game as Rules>::Config>) -> Box<dyn AnyView>
where
    V::Game: Notation,
{
    Box::new(ViewBox {
        view,
        table: Some(table),
    })
}

/// An engine's view and its table, if known, behind [`AnyView`]
/// ([`any_view`], [`any_view_at`]).
struct ViewBox<V: SeatView> {
    view: V,
    table: Option<Arc<<V::Game as Rules>::Config>>,
}

impl<V: SeatView> AnyView for ViewBox<V>
where
    V::Game: Notation,
{
    fn kind(&self) -> GameKind {
        V::Game::KIND
    }

    fn seat(&self) -> Option<Seat> {
        self.view.seat()
    }

    fn to_act(&self) -> Option<Seat> {
        self.view.to_act()
    }

    fn outcome(&self) -> Outcome {
        self.view.outcome()
    }

    fn ply(&self) -> u32 {
        self.view.ply()
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        let moves = self.view.legal_moves().into_iter();
        match &self.table {
            Some(t) => moves
                .map(|m| AnyMove::at::<V::Game>(m, t.clone()))
                .collect(),
            None => moves.map(AnyMove::of::<V::Game>).collect(),
        }
    }

    fn to_json(&self) -> Value {
        self.view.to_json()
    }

    fn clone_box(&self) -> Box<dyn AnyView> {
        Box::new(ViewBox {
            view: self.view.clone(),
            table: self.table.clone(),
        })
    }

    fn as_any(&self) -> &dyn Any {
        &self.view
    }

    fn table(&self) -> Option<&dyn Any> {
        self.table.as_ref().map(|t| t as &dyn Any)
    }
}

impl Clone for Box<dyn AnyView> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
