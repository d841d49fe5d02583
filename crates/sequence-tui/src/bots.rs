//! The bots behind the bot seats of a terminal game.
//!
//! The UI sends a [`BotJob`] (a seat's view only, never the full game) and
//! gets a [`BotReply`]. [`BotPool`] keeps one `sequence-bots` bot per seat
//! (`level:1` … `level:5`); it is what the terminal loop runs on its worker
//! thread and what tests call directly.

use sequence_bots::{ClassicBot, StacksBot};
use sequence_classic::{Move, SeatView};
use sequence_common::Seat;
use sequence_stacks::Decision;
use std::collections::HashMap;

/// What a bot sees: the view of its own seat.
#[derive(Clone)]
pub enum BotView {
    /// A classic seat's view.
    Classic(Box<SeatView>),
    /// A Stacks seat's view.
    Stacks(Box<sequence_stacks::SeatView>),
}

/// A request for one decision of a bot seat.
#[derive(Clone)]
pub struct BotJob {
    /// Identifies the request; the reply carries it back.
    pub id: u64,
    /// The bot's seat.
    pub seat: Seat,
    /// The bot's level, 1 (beginner) to 5 (very strong).
    pub level: u8,
    /// The seat's view.
    pub view: BotView,
}

/// The decision a bot took.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotChoice {
    /// A classic move.
    Classic(Move),
    /// A Stacks decision.
    Stacks(Decision),
}

/// The answer to a [`BotJob`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BotReply {
    /// The job's id.
    pub id: u64,
    /// The bot's seat.
    pub seat: Seat,
    /// Its decision; `None` when the view had no legal decision.
    pub choice: Option<BotChoice>,
}

enum Seated {
    Classic(Box<dyn ClassicBot>),
    Stacks(Box<dyn StacksBot>),
}

/// One bot per seat (`sequence_bots::classic_bot` / `stacks_bot` with spec
/// `level:N`), created on first use with a seed derived from the pool's
/// seed and the seat, so a game with a fixed `--seed` is reproducible for
/// the bots of levels 1–2 (levels 3–5 search for a fixed time and so
/// depend on the machine's speed).
pub struct BotPool {
    seed: u64,
    bots: HashMap<u8, Seated>,
}

impl BotPool {
    /// A pool whose bots draw their randomness from `seed`.
    pub fn new(seed: u64) -> BotPool {
        BotPool {
            seed,
            bots: HashMap::new(),
        }
    }

    fn seat_seed(&self, seat: Seat) -> u64 {
        (self.seed ^ 0x5EA7_0000_0000_0000)
            .wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(seat.0 as u64 + 1))
    }

    /// Decides the job: one of the view's legal moves (`None` only when the
    /// view has none).
    pub fn decide(&mut self, job: &BotJob) -> BotReply {
        let seed = self.seat_seed(job.seat);
        let spec = format!("level:{}", job.level.clamp(1, 5));
        let choice = match &job.view {
            BotView::Classic(v) => {
                if v.legal_moves().is_empty() {
                    None
                } else {
                    let entry = self.bots.entry(job.seat.0);
                    let bot = entry.or_insert_with(|| Seated::Classic(classic_bot(&spec, seed)));
                    if !matches!(bot, Seated::Classic(_)) {
                        *bot = Seated::Classic(classic_bot(&spec, seed));
                    }
                    match bot {
                        Seated::Classic(b) => Some(BotChoice::Classic(b.choose(v))),
                        Seated::Stacks(_) => None,
                    }
                }
            }
            BotView::Stacks(v) => {
                if v.legal.is_empty() {
                    None
                } else {
                    let entry = self.bots.entry(job.seat.0);
                    let bot = entry.or_insert_with(|| Seated::Stacks(stacks_bot(&spec, seed)));
                    if !matches!(bot, Seated::Stacks(_)) {
                        *bot = Seated::Stacks(stacks_bot(&spec, seed));
                    }
                    match bot {
                        Seated::Stacks(b) => Some(BotChoice::Stacks(b.choose(v))),
                        Seated::Classic(_) => None,
                    }
                }
            }
        };
        BotReply {
            id: job.id,
            seat: job.seat,
            choice,
        }
    }
}

/// A level bot; `random` if the level cannot be built (it always can for
/// 1–5, which [`BotPool::decide`] guarantees).
fn classic_bot(spec: &str, seed: u64) -> Box<dyn ClassicBot> {
    sequence_bots::classic_bot(spec, seed)
        .or_else(|e| {
            tracing::debug!("{e}; using a random bot");
            sequence_bots::classic_bot("random", seed)
        })
        .unwrap_or_else(|_| unreachable!("the random bot always builds"))
}

fn stacks_bot(spec: &str, seed: u64) -> Box<dyn StacksBot> {
    sequence_bots::stacks_bot(spec, seed)
        .or_else(|e| {
            tracing::debug!("{e}; using a random bot");
            sequence_bots::stacks_bot("random", seed)
        })
        .unwrap_or_else(|_| unreachable!("the random bot always builds"))
}
