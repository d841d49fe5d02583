//! What both games' engines share, and what everything above them is
//! written on: the one game interface ([`Rules`], [`SeatView`],
//! [`Notation`], [`TableFacts`]) and its type-erased form ([`AnyGame`],
//! [`AnyView`], [`AnyMove`]), typed effects of a move ([`MoveEffects`]), generic records ([`record::Record`], [`record::Match`],
//! [`record::replay`]), moves lists, reshufflers, seats and the direction
//! of play, seeded reproducible randomness, and strict JSON helpers.
//!
//! Nothing here does I/O or keeps global state.

pub mod any;
pub mod effects;
mod forward;
pub mod game;
pub mod json;
mod live;
pub mod moves;
pub mod notation;
pub mod penalty;
pub mod record;
pub mod reshuffle;
pub mod rng;
pub mod seat;
pub mod table;
pub mod trail;

pub use any::{
    any_view, any_view_at, play_logged, rules_of, view_table, AnyEntry, AnyGame, AnyMove, AnyRules,
    AnyView, Logged, PlayError, Played, Refusal, TableContext, TableSetup,
};
pub use effects::{Drawn, MoveEffects};
pub use game::{GameKind, Outcome, RuleError, Rules, SeatView, TableConfig};
pub use moves::{MoveList, MoveSink};
pub use notation::{Notation, NotationError};
pub use reshuffle::{FastReshuffler, NoReshuffler, ReshuffleError, Reshuffler, RngReshuffler};
pub use rng::{GameRng, PlayoutRng};
pub use seat::{Direction, Seat};
pub use table::{LogEffects, OptionSpec, TableFacts};

#[doc(hidden)]
pub use rand as __rand;
#[doc(hidden)]
pub use serde as __serde;
