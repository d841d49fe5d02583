//! `sequence-wasm`: both Sequence engines and the bots in the browser
//! (issue 27; docs/wasm.md).
//!
//! Two layers:
//!
//! * [`session`], the pure core: a live game of either kind
//!   ([`session::Session`]) with moves, views, records, bots and hints as
//!   the server's JSON, and the entry points that pick the concrete game.
//!   `cargo test -p sequence-wasm` tests it natively.
//! * `bindings` (WebAssembly builds only): the JavaScript API made with
//!   wasm-bindgen, JSON text in and out, refusals thrown as `Error`s with
//!   a `code` (and `exit_code` for records). `scripts/build-wasm.sh`
//!   builds it into `crates/sequence-server/web/wasm/`.

#![warn(missing_docs)]

pub mod session;

#[cfg(target_arch = "wasm32")]
mod bindings;
