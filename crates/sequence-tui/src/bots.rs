//! The bots behind the bot seats of a terminal game, for either game.
//!
//! A screen sends a [`BotJob`] — one type for both games, carrying the
//! seat's view as a [`sequence_common::AnyView`] (never the full game) —
//! and gets a [`BotReply`] whose [`AnyMove`] the screen reads back as a
//! move of its game. [`BotPool`]
//! keeps one bot per seat (`level:1` … `level:5`), the bots' own
//! type-erased bot ([`AnyBot`], built by [`sequence_bots::any_bot`], as
//! the Python package's); it is what the terminal loop runs on its worker
//! thread and what tests call directly.

use sequence_bots::{any_bot, AnyBot};
use sequence_common::{AnyMove, AnyView, Seat};
use std::collections::HashMap;
use std::fmt;

/// A level bot of the game `view` is of (`spec` `level:N`), or a random
/// bot if the spec cannot be built (it always can for `level:1` …
/// `level:5`, which [`BotPool::decide`] asks for).
fn build(view: &dyn AnyView, spec: &str, seed: u64) -> Option<Box<dyn AnyBot>> {
    any_bot(view.kind(), spec, seed)
        .or_else(|e| {
            tracing::debug!("{e}; using a random bot");
            any_bot(view.kind(), "random", seed)
        })
        .ok()
}

/// A request for one decision of a bot seat, in either game.
pub struct BotJob {
    /// Identifies the request; the reply carries it back.
    pub id: u64,
    /// The bot's seat.
    pub seat: Seat,
    /// The bot's level, 1 (beginner) to 5 (very strong).
    pub level: u8,
    /// The seat's view.
    view: Box<dyn AnyView>,
}

impl BotJob {
    /// A job for the bot at `seat`, shown `view` (the seat's own view,
    /// [`sequence_common::AnyGame::view`]).
    pub fn new(id: u64, seat: Seat, level: u8, view: Box<dyn AnyView>) -> BotJob {
        BotJob {
            id,
            seat,
            level,
            view,
        }
    }
}

impl fmt::Debug for BotJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotJob")
            .field("id", &self.id)
            .field("seat", &self.seat)
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

/// The answer to a [`BotJob`].
#[derive(Debug)]
pub struct BotReply {
    /// The job's id.
    pub id: u64,
    /// The bot's seat.
    pub seat: Seat,
    /// Its move (the screen that asked reads it back with
    /// [`AnyMove::get`]); `None` when the view had no legal move.
    pub choice: Option<AnyMove>,
}

/// One bot per seat (`sequence_bots::bot` with spec `level:N`), created on
/// first use with a seed derived from the pool's seed and the seat, so a
/// game with a fixed `--seed` is reproducible (every level's budget is
/// counted in iterations, not time).
pub struct BotPool {
    seed: u64,
    bots: HashMap<u8, Box<dyn AnyBot>>,
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
    /// view has none). A seat keeps its bot between jobs; a seat whose
    /// game changed gets a bot of the new game.
    pub fn decide(&mut self, job: &BotJob) -> BotReply {
        let view = job.view.as_ref();
        let choice = if view.legal_moves().is_empty() {
            None
        } else {
            let seed = self.seat_seed(job.seat);
            let spec = format!("level:{}", job.level.clamp(1, 5));
            let seat = job.seat.0;
            if self.bots.get(&seat).is_none_or(|b| b.kind() != view.kind()) {
                if let Some(b) = build(view, &spec, seed) {
                    self.bots.insert(seat, b);
                }
            }
            let bot = self.bots.get_mut(&seat);
            bot.and_then(|b| b.choose_any(view).ok())
        };
        BotReply {
            id: job.id,
            seat: job.seat,
            choice,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_common::record::Match;
    use sequence_common::{AnyGame, Rules};

    /// One pool serves both games, and a seat that changes game gets a bot
    /// of the new game.
    #[test]
    fn one_pool_plays_both_games() {
        let mut pool = BotPool::new(3);
        let classic = sequence_classic::Game::table(2, None, Default::default()).expect("C3");
        let m = Match::<sequence_classic::Game>::new(classic, 1);
        let seat = m.to_act().expect("a seat to act");
        let job = BotJob::new(1, seat, 2, AnyGame::view(&m, Some(seat)));
        let reply = pool.decide(&job);
        let mv = reply.choice.and_then(|c| c.get::<sequence_classic::Game>());
        assert!(mv.is_some_and(|mv| m.game().check(seat, mv).is_ok()));
        let stacks = sequence_stacks::Game::table(2, None, Default::default()).expect("S1");
        let m = Match::<sequence_stacks::Game>::new(stacks, 1);
        let seat = m.to_act().expect("a seat to act");
        let job = BotJob::new(2, seat, 2, AnyGame::view(&m, Some(seat)));
        let reply = pool.decide(&job);
        assert_eq!(reply.id, 2);
        let choice = reply.choice.expect("a decision");
        assert!(choice.get::<sequence_classic::Game>().is_none());
        let d = choice
            .get::<sequence_stacks::Game>()
            .expect("a Stacks decision");
        assert!(m.game().check(seat, d).is_ok());
    }
}
