//! Glue to the bots: a seat given to a bot moves by itself. The choice is
//! made from that seat's view only (the bots of `sequence-bots`), on a
//! blocking thread. Only the named levels below are accepted from the
//! network (never `cmd:` bots, which would start a program).

use rand::seq::IndexedRandom;
use sequence_common::Seat;
use serde_json::{json, Value};

/// The bot levels a table may ask for: `random`, `greedy`, and `level:1`
/// (beginner) … `level:5` (ISMCTS, 1 s a move; see `sequence_bots::level`).
pub const LEVELS: [&str; 7] = [
    "random", "greedy", "level:1", "level:2", "level:3", "level:4", "level:5",
];

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
/// `None` when the view has no legal move (not its turn). `seed` seeds the
/// bot (ChaCha8), so a table's bot moves are reproducible. If the level
/// cannot be built the bot plays a random legal move.
pub fn choose(level: &str, seat: Seat, view: &BotView, seed: u64) -> Option<Value> {
    let mut rng = sequence_common::rng::game_rng(seed);
    match view {
        BotView::Classic(v, len) => {
            let moves = v.legal_moves();
            if moves.is_empty() {
                return None;
            }
            let m = match sequence_bots::classic_bot(level, seed) {
                Ok(mut bot) => bot.choose(v),
                Err(e) => {
                    tracing::warn!("bot {level:?}: {e}; playing at random");
                    *moves.choose(&mut rng)?
                }
            };
            Some(sequence_classic::record::move_to_json(seat, &m, *len))
        }
        BotView::Stacks(v) => {
            if v.legal.is_empty() {
                return None;
            }
            let d = match sequence_bots::stacks_bot(level, seed) {
                Ok(mut bot) => bot.choose(v),
                Err(e) => {
                    tracing::warn!("bot {level:?}: {e}; playing at random");
                    *v.legal.choose(&mut rng)?
                }
            };
            Some(
                d.to_record_json(seat)
                    .unwrap_or_else(|| json!({"seat": seat.0, "pass": true})),
            )
        }
    }
}
