//! Glue to the bots: a seat given to a bot moves by itself. The choice is
//! made from that seat's view only, on a blocking thread.
//!
//! The bots crate (`sequence-bots`) is being written concurrently; until
//! its API lands, [`choose`] plays a uniformly random legal move from the
//! view (seeded, reproducible). Swapping in the real bots only changes
//! this function.

use rand::seq::IndexedRandom;
use sequence_common::Seat;
use serde_json::{json, Value};

/// The bot levels a table may ask for.
pub const LEVELS: [&str; 6] = ["random", "level:1", "level:2", "level:3", "level:4", "level:5"];

/// Whether `level` names a bot.
pub fn level_ok(level: &str) -> bool {
    LEVELS.contains(&level)
}

/// What a bot is shown: the seat's own view.
pub enum BotView {
    /// A classic seat view and the table's sequence length.
    Classic(Box<sequence_classic::SeatView>, u8),
    /// A Stacks seat view.
    Stacks(Box<sequence_stacks::SeatView>),
}

/// The bot's move for `seat` as a record move entry (with `seat`), or
/// `None` when the view has no legal move (not its turn).
pub fn choose(level: &str, seat: Seat, view: &BotView, seed: u64) -> Option<Value> {
    let _ = level; // every level plays random legal moves until sequence-bots lands
    let mut rng = sequence_common::rng::game_rng(seed);
    match view {
        BotView::Classic(v, len) => {
            let moves = v.legal_moves();
            let m = moves.choose(&mut rng)?;
            Some(sequence_classic::record::move_to_json(seat, m, *len))
        }
        BotView::Stacks(v) => {
            let d = v.legal.choose(&mut rng)?;
            Some(d.to_record_json(seat).unwrap_or_else(|| json!({"seat": seat.0, "pass": true})))
        }
    }
}
