//! The bots behind the bot seats of a terminal game.
//!
//! The UI sends a [`BotJob`] (a seat's view only, never the full game) and
//! gets a [`BotReply`]. [`BotPool`] keeps one bot per seat; it is what the
//! terminal loop runs on its worker thread and what tests call directly.

use rand::seq::IndexedRandom;
use rand::Rng;
use sequence_classic::{Move, SeatView};
use sequence_common::rng::game_rng;
use sequence_common::{GameRng, Seat};
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

/// One bot per seat, created on first use from the game's seed, so a game
/// with a fixed `--seed` is reproducible.
pub struct BotPool {
    seed: u64,
    bots: HashMap<u8, LocalBot>,
}

impl BotPool {
    /// A pool whose bots draw their randomness from `seed` (ChaCha8, one
    /// stream per seat).
    pub fn new(seed: u64) -> BotPool {
        BotPool {
            seed,
            bots: HashMap::new(),
        }
    }

    /// Decides the job.
    pub fn decide(&mut self, job: &BotJob) -> BotReply {
        let seed = self.seed;
        let bot = self.bots.entry(job.seat.0).or_insert_with(|| {
            LocalBot::new(
                job.level,
                seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(job.seat.0 as u64 + 1)),
            )
        });
        let choice = match &job.view {
            BotView::Classic(v) => bot.classic(v).map(BotChoice::Classic),
            BotView::Stacks(v) => bot.stacks(v).map(BotChoice::Stacks),
        };
        BotReply {
            id: job.id,
            seat: job.seat,
            choice,
        }
    }
}

/// The bot used until the strong bots of `sequence-bots` are wired in: it
/// picks among the seat's legal moves. Level 1 picks at random; higher
/// levels prefer a move that completes a sequence or a pile, and never
/// waste a jack when a plain card will do.
struct LocalBot {
    level: u8,
    rng: GameRng,
}

impl LocalBot {
    fn new(level: u8, seed: u64) -> LocalBot {
        LocalBot {
            level,
            rng: game_rng(seed),
        }
    }

    fn classic(&mut self, view: &SeatView) -> Option<Move> {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if self.level >= 2 {
            // Exchange a dead card first (C6 step 1): it never hurts.
            if let Some(m) = moves.iter().find(|m| matches!(m, Move::Dead { .. })) {
                return Some(*m);
            }
            let best = moves.iter().map(|m| (classic_score(view, m), m)).fold(
                None::<(i32, Vec<Move>)>,
                |acc, (s, m)| match acc {
                    Some((b, mut v)) if s == b => {
                        v.push(*m);
                        Some((b, v))
                    }
                    Some((b, v)) if s < b => Some((b, v)),
                    _ => Some((s, vec![*m])),
                },
            );
            if let Some((_, v)) = best {
                return v.choose(&mut self.rng).copied();
            }
        }
        moves.choose(&mut self.rng).copied()
    }

    fn stacks(&mut self, view: &sequence_stacks::SeatView) -> Option<Decision> {
        let legal = &view.legal;
        if legal.is_empty() {
            return None;
        }
        if self.level >= 2 {
            if legal.contains(&Decision::Block) {
                return Some(Decision::Block);
            }
            let piles: Vec<&Decision> = legal
                .iter()
                .filter(|d| matches!(d, Decision::Pile { .. }))
                .collect();
            if let Some(d) = piles.choose(&mut self.rng) {
                return Some(**d);
            }
        }
        // Level 1 and the rest: anything but an early discard half the time,
        // so that turns do not always end at once.
        let non_closing: Vec<&Decision> = legal
            .iter()
            .filter(|d| !matches!(d, Decision::Discard { .. } | Decision::End | Decision::Pass))
            .collect();
        if !non_closing.is_empty() && self.rng.random_bool(0.5) {
            return non_closing.choose(&mut self.rng).map(|d| **d);
        }
        legal.choose(&mut self.rng).copied()
    }
}

/// A one-ply score of a classic move for the own team: chips of the own
/// team in the lines through the space, a bonus for a move that fills a
/// line, and a cost for using a jack.
fn classic_score(view: &SeatView, m: &Move) -> i32 {
    let team = view.team();
    let own = view.chips(team);
    let len = view.config().sequence_length() as i32;
    match *m {
        Move::Place { card, at, .. } => {
            let mut score = 0;
            for (dr, dc) in [(0i8, 1i8), (1, 0), (1, 1), (1, -1)] {
                let mut run = 1;
                for sign in [1i8, -1] {
                    let (mut r, mut c) = (at.row() as i8, at.col() as i8);
                    loop {
                        r += dr * sign;
                        c += dc * sign;
                        if !(0..10).contains(&r) || !(0..10).contains(&c) {
                            break;
                        }
                        let Some(s) = sequence_classic::Space::new(r as u8, c as u8) else {
                            break;
                        };
                        if own.contains(s) || s.is_corner() {
                            run += 1;
                        } else {
                            break;
                        }
                    }
                }
                score += if run >= len { 1000 } else { run * run };
            }
            if card.is_jack() {
                score -= 6;
            }
            score
        }
        Move::Remove { at, .. } => {
            // Prefer breaking the longest opposing line through `at`.
            let occupied = !own.contains(at);
            if occupied {
                3
            } else {
                0
            }
        }
        _ => 0,
    }
}
