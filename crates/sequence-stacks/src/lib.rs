//! Sequence Stacks rules engine (RULES.md Part 2, S1–S7). Pure: no I/O, no
//! clock, no global state.
//!
//! * [`Game`]: the full state; it implements the one game interface of the
//!   workspace, [`sequence_common::Rules`] (and [`sequence_common::Notation`]
//!   for records): [`Game::legal_moves`] lists the [`Decision`]s of the seat
//!   to act ([`Game::to_act`]) and [`Game::play`] applies one or refuses it
//!   with a [`PlayError`] naming the rule and carrying a stable code. No
//!   allocation on that path.
//! * [`SeatView`]: what one seat ([`Game::view`]) or a spectator
//!   ([`Game::spectator_view`]) may see, and [`SeatView::determinize`] to
//!   deal the unseen cards at random.
//! * [`record`]: RECORD-STACKS.md records ([`record::Record`],
//!   [`record::replay`], [`record::verify`]) and [`record::Match`], a live
//!   game dealt from a seed that records itself; the notation itself is in
//!   [`notation`].
//! * [`Options`]: one option per Interpretation (S3a, S4a, S5a, S5b, S6a),
//!   listed in `docs/stacks-options.md`; a table is a [`Config`].
//!
//! ```
//! use sequence_stacks::{Config, Match, Options, Status};
//! use rand::Rng;
//!
//! // Deal from a seed (ChaCha8), let every seat play random legal decisions.
//! let config = Config::new(4, Options::default()).expect("2 to 6 players");
//! let mut m = Match::new(config, 7);
//! let mut rng = sequence_common::rng::playout_rng(7);
//! while let Some(seat) = m.to_act() {
//!     let view = m.view(seat); // what this seat may see, with its legal decisions
//!     let d = view.legal[rng.random_range(0..view.legal.len())];
//!     m.play(seat, d).expect("listed decisions are legal");
//! }
//! assert_ne!(m.game().status(), Status::Playing);
//! // The record replays to the same game.
//! let (_, g) = sequence_stacks::record::replay(&m.to_json().expect("dealt from a seed")).expect("valid record");
//! assert_eq!(&g, m.game());
//! ```
//!
//! | rule | where |
//! |---|---|
//! | S1 cards, players | [`card`] ([`card::deck_counts`]), [`Config::new`] |
//! | S2 setup, the deal | [`Game::new`], [`Game::deal`] |
//! | S3 piles, S3a piles per colour | [`Game::fits`], [`Game::apply`] in [`turn`]; [`Place`] |
//! | S4 a turn, S4a refill | [`turn`]: [`Game::legal_moves`], [`Game::check`], [`Game::apply`] |
//! | S5 action cards, S5a, S5b Block window | [`turn`] ([`Decision`], [`BlockOffer`]) |
//! | S6 reshuffle, S6a draws | [`Game::reshuffle_content`] in [`turn`], with a [`sequence_common::Reshuffler`] |
//! | S7 the win | [`meets_win`]; checked in [`turn`] |
//! | what a decision did (piles, Block windows, steals, reshuffles, cards drawn, end) | [`effects`]: [`Effects`], returned by [`Game::apply`] and [`Game::play`] |
//! | random play | [`playout`]: [`Game::random_move`], [`Game::playout`] |
//! | records and notation | [`notation`], [`record`] |

#![warn(missing_docs)]

pub mod card;
pub mod effects;
pub mod game;
pub mod moves;
pub mod notation;
pub mod options;
pub mod playout;
pub mod record;
pub mod rules;
pub mod table;
pub mod turn;
pub mod view;

pub use card::{Card, Colour, Place};
pub use effects::{Effects, WindowClosed};
pub use game::{meets_win, BlockOffer, Config, Game, SetupError, Status};
pub use moves::{Decision, Decisions, PlayError, Source};
pub use options::{BlockWindow, Options, Refill, ReshuffleActions};
pub use record::{Match, Record};
pub use sequence_common::{
    MoveEffects, MoveSink, NoReshuffler, Reshuffler, RngReshuffler, RuleError, Rules, Seat,
};
pub use view::SeatView;

#[cfg(test)]
mod tests;
