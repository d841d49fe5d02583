//! The one-ply value bot (`value[:N]`): the move whose resulting position
//! the learned value ([`sequence_bots::classic::value`]) rates best,
//! averaged over determinizations. Weaker than the search; its results
//! are in docs/bots.md.

use rand::RngCore;
use sequence_bots::classic::obvious::obvious_move;
use sequence_bots::classic::value::{evaluate, outcome};
use sequence_bots::classic::with_declaration;
use sequence_bots::ismcts::{Rewards, MAX_SIDES};
use sequence_bots::{Decide, Shell};
use sequence_classic::{Game, Move, RngReshuffler, SeatView};
use sequence_common::rng::playout_rng;

/// Determinizations a [`ValueBot`] averages over.
pub const ONE_PLY_DEALS: usize = 16;

/// Plays the move whose resulting position [`value_of`] rates best for its
/// team, averaged over [`ONE_PLY_DEALS`] determinizations of the view (the
/// same deals for every move). A winning placement and a dead-card
/// exchange (free, C6) are made at once; a placement declares as
/// [`sequence_bots::classic::best_declaration`] says.
pub struct ValueBot {
    deals: usize,
    /// The evaluation of positions (default [`evaluate`]).
    pub eval: fn(&Game) -> Rewards,
}

impl ValueBot {
    /// A one-ply value bot.
    pub fn new(deals: usize) -> ValueBot {
        ValueBot {
            deals: deals.max(1),
            eval: evaluate,
        }
    }
}

/// The one-ply values of `moves` for the view's team: the mean of
/// [`value_of`] after each move over `deals` determinizations.
pub fn one_ply_values(view: &SeatView, moves: &[Move], deals: usize, seed: u64) -> Vec<f64> {
    one_ply_values_with(view, moves, deals, seed, evaluate)
}

/// [`one_ply_values`] with another evaluation of unfinished positions.
pub fn one_ply_values_with(
    view: &SeatView,
    moves: &[Move],
    deals: usize,
    seed: u64,
    eval: fn(&Game) -> Rewards,
) -> Vec<f64> {
    let team = view.team().map_or(0, |t| t.index()) % MAX_SIDES;
    let mut rng = playout_rng(seed);
    let games: Vec<Game> = (0..deals).map(|_| view.determinize(&mut rng)).collect();
    moves
        .iter()
        .map(|&mv| {
            let mut sum = 0.0;
            for (k, g) in games.iter().enumerate() {
                let mut g = g.clone();
                // The draw after the move comes from the deal's own pile; a
                // reshuffle is seeded by the deal so that moves compare
                // alike.
                let mut r = playout_rng(seed ^ k as u64);
                let seat = g.turn();
                if g.apply(seat, mv, &mut RngReshuffler(&mut r)).is_err() {
                    continue;
                }
                let r = if g.is_over() { outcome(&g) } else { eval(&g) };
                sum += r[team] as f64;
            }
            sum / deals as f64
        })
        .collect()
}

impl Decide for ValueBot {
    type Game = Game;

    fn decide(&mut self, shell: &mut Shell, view: &SeatView, moves: &[Move]) -> Move {
        let rng = &mut shell.rng;
        let game = view.determinize(rng);
        if let Some(m) = obvious_move(&game, moves) {
            return m;
        }
        let values = one_ply_values_with(view, moves, self.deals, rng.next_u64(), self.eval);
        let mut best = 0;
        for (i, v) in values.iter().enumerate() {
            if *v > values[best] {
                best = i;
            }
        }
        with_declaration(&game, moves[best])
    }
}
