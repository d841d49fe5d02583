//! Sequence Stacks rules engine (RULES.md Part 2, S1–S7). Pure: no I/O, no
//! clock, no global state.
//!
//! * [`Game`]: the full state; [`Game::legal_into`] lists the
//!   [`Decision`]s of the seat to act ([`Game::to_act`]) and [`Game::play`]
//!   applies one or refuses it with a [`PlayError`] naming the rule. No
//!   allocation on that path.
//! * [`SeatView`]: what one seat may see ([`Game::view`]), and
//!   [`SeatView::determinize`] to deal the unseen cards at random.
//! * [`record`]: RECORD-STACKS.md records: [`record::replay`],
//!   [`record::verify`], [`record::Record`], and [`record::Match`], a live
//!   game dealt from a seed that records itself.
//! * [`Options`]: one option per Interpretation (S3a, S4a, S5a, S5b, S6a),
//!   listed in `docs/stacks-options.md`.
//!
//! ```
//! use sequence_stacks::{Match, Options, Status};
//! use rand::Rng;
//!
//! // Deal from a seed (ChaCha8), let every seat play random legal decisions.
//! let mut m = Match::new(4, Options::default(), 7).expect("2 to 6 players");
//! let mut rng = sequence_common::rng::playout_rng(7);
//! while let Some(seat) = m.to_act() {
//!     let view = m.view(seat); // what this seat may see, with its legal decisions
//!     let d = view.legal[rng.random_range(0..view.legal.len())];
//!     m.play(seat, d).expect("listed decisions are legal");
//! }
//! assert_ne!(m.game().status(), Status::Playing);
//! // The record replays to the same game.
//! let (_, g) = sequence_stacks::record::replay(&m.to_json()).expect("valid record");
//! assert_eq!(&g, m.game());
//! ```

#![warn(missing_docs)]

pub mod card;
pub mod game;
pub mod options;
pub mod record;
pub mod view;

pub use card::{Card, Colour, Place};
pub use game::{
    meets_win, BlockOffer, Decision, Decisions, Game, NoReshuffle, PlayError, Reshuffler,
    SetupError, Source, Status,
};
pub use options::{BlockWindow, Options, Refill, ReshuffleActions};
pub use record::{Match, Record};
pub use view::SeatView;

#[cfg(test)]
mod tests;
