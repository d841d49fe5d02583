//! What the built-in bots of both games share, written once: the
//! [`Shell`] (name, random generator, per-move search seeds), the
//! [`Decide`] trait and [`ShellBot`] that make a [`Bot`] of one decision
//! function and the greedy bot of every game ([`GreedyBot`]).

use crate::bot::{Bot, BotGame};
use rand::Rng;
use sequence_common::rng::{game_rng, GameRng};
use sequence_common::{Rules, SeatView};
use std::marker::PhantomData;

/// What every built-in bot keeps: its name, its random generator (ChaCha8
/// seeded with the bot's seed) and the moves it decided, from which each
/// search's seed derives (so that a bot's games repeat exactly).
pub struct Shell {
    /// The bot's name as given to [`crate::bot`] (what [`Bot::name`]
    /// reports).
    pub name: String,
    /// The bot's own random generator.
    pub rng: GameRng,
    seed: u64,
    moves_made: u64,
}

impl Shell {
    /// A shell named `name` whose generator is seeded with `seed`.
    pub fn new(name: String, seed: u64) -> Shell {
        Shell {
            name,
            rng: game_rng(seed),
            seed,
            moves_made: 0,
        }
    }

    /// Counts one more move decided.
    pub fn count_move(&mut self) {
        self.moves_made += 1;
    }

    /// The seed of this move's search: the bot's seed mixed with the moves
    /// counted so far.
    pub fn search_seed(&self) -> u64 {
        crate::seeds::mix(self.seed ^ crate::seeds::mix(self.moves_made))
    }
}

/// A built-in bot's decision: what differs between the bots. A
/// [`ShellBot`] makes it a [`Bot`].
pub trait Decide: Send {
    /// The game the bot plays.
    type Game: Rules;

    /// One of `moves`, the view's legal moves (never empty); `shell` is
    /// the bot's generator and move count.
    fn decide(
        &mut self,
        shell: &mut Shell,
        view: &<Self::Game as Rules>::View,
        moves: &[<Self::Game as Rules>::Move],
    ) -> <Self::Game as Rules>::Move;
}

/// A built-in bot: its [`Shell`] and its decision. Its name is the
/// shell's, and a view without legal moves (never asked by the arena)
/// gets the game's pass (`Move::default()`).
pub struct ShellBot<D> {
    /// Name, generator and move count.
    pub shell: Shell,
    /// The bot's own state and decision.
    pub decider: D,
}

impl<D> ShellBot<D> {
    /// The bot `decider` named `name`, its generator seeded with `seed`.
    pub fn new(name: String, seed: u64, decider: D) -> ShellBot<D> {
        ShellBot {
            shell: Shell::new(name, seed),
            decider,
        }
    }
}

impl<D: Decide> Bot<D::Game> for ShellBot<D> {
    fn name(&self) -> String {
        self.shell.name.clone()
    }

    fn choose(&mut self, view: &<D::Game as Rules>::View) -> <D::Game as Rules>::Move {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return Default::default();
        }
        self.decider.decide(&mut self.shell, view, &moves)
    }
}

/// The one-ply heuristic decision of the game `G`
/// ([`BotGame::greedy_choice`]); `blunder` is the chance of a uniformly
/// random legal move instead (level 1).
pub struct Greedy<G> {
    blunder: f64,
    game: PhantomData<fn() -> G>,
}

/// The greedy bot of the game `G` ([`Greedy`]).
pub type GreedyBot<G> = ShellBot<Greedy<G>>;

impl<G> Greedy<G> {
    /// A greedy decision; `blunder` is the chance (0–1) of a random move.
    pub fn new(blunder: f64) -> Greedy<G> {
        Greedy {
            blunder,
            game: PhantomData,
        }
    }
}

impl<G: BotGame> Decide for Greedy<G> {
    type Game = G;

    fn decide(&mut self, shell: &mut Shell, view: &G::View, moves: &[G::Move]) -> G::Move {
        let rng = &mut shell.rng;
        if self.blunder > 0.0 && rng.random::<f64>() < self.blunder {
            return moves[rng.random_range(0..moves.len())];
        }
        G::greedy_choice(view, moves, rng)
    }
}

/// The move of `scored` (move, score) with the best score after a uniform
/// jitter below ½ is added to each (one draw of `rng` per move, in
/// order): near-ties are broken at random. `None` when `scored` is empty.
#[inline]
pub fn jittered_best<M: Copy, R: Rng + ?Sized>(
    scored: impl IntoIterator<Item = (M, f64)>,
    rng: &mut R,
) -> Option<M> {
    let mut best = None;
    let mut best_v = f64::NEG_INFINITY;
    for (m, v) in scored {
        let v = v + rng.random::<f64>() * 0.5;
        if v > best_v {
            best_v = v;
            best = Some(m);
        }
    }
    best
}
