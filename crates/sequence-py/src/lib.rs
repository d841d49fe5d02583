//! `sequence_game`: both Sequence engines for Python (docs/python.md).
//!
//! The crate has two layers:
//!
//! * a pure Rust core, written once over the game interface
//!   ([`sequence_common::Rules`]) and each game's action space and
//!   observation encoding ([`env::EnvGame`], in `sequence-bots`, so that
//!   the workspace's one registration of games,
//!   [`sequence_bots::with_game`], reaches them):
//!   the [`dynamic`] layer the Python classes hold (the workspace's one
//!   type-erased game, [`sequence_common::AnyGame`] with its encodings,
//!   [`env::any::AnyEnv`], with refusals as Python's exceptions), and
//!   [`vector`] (N games stepped together). `cargo test` tests it without
//!   Python.
//! * the PyO3 bindings (`py`, feature `python`, enabled by maturin through
//!   `pyproject.toml`): the extension module `sequence_game._core`, wrapped
//!   by the Python package in `python/sequence_game` (PettingZoo and
//!   Gymnasium environments, typed stubs).

#![warn(missing_docs)]

pub mod dynamic;
pub mod isa;
pub mod trail;
pub mod vector;
pub mod view_json;

pub use sequence_bots::env;

#[cfg(feature = "python")]
mod py;
