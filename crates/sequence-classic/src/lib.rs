//! Classic Sequence rules engine (RULES.md Part 1, rule ids C1–C11).
//!
//! Pure: no I/O, no clock, no global state. Randomness comes in as a
//! generator argument. Start from [`Game`]; moves are [`Move`]s; a seat's
//! knowledge is a [`SeatView`]; records are [`record::Record`]s.
//!
//! | rule | where |
//! |---|---|
//! | C1, C2 board and cards | [`card`], [`layout`] |
//! | C3, C4, C9, C11 table and options | [`options`] |
//! | C5 dealer, deal | [`game::cut_for_dealer`], [`Game::new`] |
//! | C6, C6a turns | [`Game::legal_moves`], [`Game::check`], [`Game::apply`] |
//! | C7 reshuffle | [`game::Reshuffler`], [`Game::apply`] |
//! | C8, C8a sequences | [`sequences`] |
//! | records | [`record`] |

pub mod bitboard;
pub mod card;
pub mod game;
pub mod layout;
pub mod moves;
pub mod options;
pub mod record;
pub mod sequences;
pub mod view;

pub use bitboard::{Bitboard, Space, BOARD, CORNERS};
pub use card::{Card, Rank, Suit};
pub use game::{Game, Played, Position, Reshuffler, RngReshuffler, Status, Team};
pub use layout::Layout;
pub use moves::{Declaration, IllegalMove, Move, MoveList, MoveSink};
pub use options::{Config, ConfigError, Options};
pub use sequence_common::Seat;
pub use sequences::{Completions, Dir, Window};
pub use view::SeatView;
