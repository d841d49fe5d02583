//! Classic Sequence rules engine (RULES.md Part 1, rule ids C1–C11).
//!
//! Pure: no I/O, no clock, no global state. Randomness comes in as a
//! generator argument. [`Game`] is the whole game and implements the one
//! game interface of the workspace, [`sequence_common::Rules`] (with
//! [`sequence_common::Notation`] for records); moves are [`Move`]s, refused
//! with an [`IllegalMove`] that names the rule and carries a stable code; a
//! seat's (or a spectator's) knowledge is a [`SeatView`]; records are
//! [`record::Record`]s and a live recorded game a [`record::Match`].
//!
//! ```
//! use sequence_classic::{Config, Game, Options, Status};
//! use sequence_classic::record::{Match, Record};
//! use sequence_common::Rules;
//!
//! // Two players, official rules, dealt from seed 7 (ChaCha8).
//! let config = Config::new(2, None, Options::default()).expect("C3");
//! let mut m = Match::new(config, 7);
//! let mut rng = sequence_common::rng::playout_rng(7);
//! while let Some(seat) = m.to_act() {
//!     let mv = m.game().random_move(&mut rng).expect("the game goes on");
//!     m.play(seat, mv).expect("a random move is legal");
//! }
//! assert_ne!(m.game().status(), Status::Playing);
//! // The record replays to the same game.
//! let (_, g) = Record::from_json_str(&m.record().expect("dealt from a seed").to_json_string()).expect("valid");
//! assert_eq!(g.board_rows(), m.game().board_rows());
//! ```
//!
//! | rule | where |
//! |---|---|
//! | C1 cards, C2 board | [`card`], [`layout`] ([`Layout::official`]) |
//! | C3 players and teams, C4 hand size, C9 sequences to win, C11 options | [`options`] ([`Config::new`], [`Config::hand_size`], [`Config::win_sequences`]) |
//! | C5 cut, dealer, deal | [`game::cut_for_dealer`], [`Game::new`], [`Game::deal`] |
//! | C6 a turn, C6a no legal play | [`turn`]: [`Game::legal_moves`], [`Game::check`], [`Game::apply`] |
//! | C7 reshuffle | [`Game::apply`] in [`turn`], with a [`sequence_common::Reshuffler`] |
//! | what a move did (chips, sequences made and broken, reshuffle, card drawn, end) | [`effects`]: [`Effects`], returned by [`Game::apply`] and [`Game::play`] |
//! | C8 sequences, C8a longer lines and declarations | [`sequences`] ([`Completions`]), counted in [`turn`] |
//! | C9 the win | [`Game::apply`] in [`turn`] (a team reaching [`Config::win_sequences`]) |
//! | C10 table talk | [`penalty`]: [`Game::penalty_discard`] (a host action of the server; records write it as a `penalty` entry) |
//! | C11 house rules | [`Options`]: `win_sequences`, `sequence_length`, `removable_sequences`, `no_reshuffle`, `board` (random layout: [`Layout::from_rows`]) |
//! | random play | [`playout`]: [`Game::random_move`], [`Game::playout`] |
//! | records and notation | [`notation`], [`record`] |

pub mod bitboard;
pub mod card;
pub mod effects;
pub mod game;
mod hand;
pub mod layout;
pub mod moves;
pub mod notation;
pub mod options;
pub mod penalty;
pub mod playout;
pub mod position;
pub mod record;
pub mod rules;
pub mod sequences;
mod setup;
pub mod table;
mod team;
pub mod text;
pub mod turn;
pub mod view;

pub use bitboard::{Bitboard, Space, BOARD, CORNERS};
pub use card::{Card, Rank, Suit};
pub use effects::{Chip, Effects};
pub use game::{Game, SetupError, Status, Team};
pub use layout::Layout;
pub use moves::{Declaration, IllegalMove, Move, MoveList};
pub use options::{Config, ConfigError, Options};
pub use position::Position;
pub use sequence_common::{
    MoveEffects, MoveSink, NoReshuffler, Reshuffler, RngReshuffler, RuleError, Rules, Seat,
};
pub use sequences::{Completions, DeclarationError, Dir, Window};
pub use view::SeatView;
