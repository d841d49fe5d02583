//! `rmc:…`: the live classic flat search ([`sequence_bots::classic::flat`])
//! with its options set by name, and one option the live bot does not
//! have: `bel`, deals weighed by every other seat's moves since our last
//! turn ([`crate::belief`]) instead of the seat before ours only (no
//! gain measured, docs/bots.md).

use crate::belief::Belief;
use crate::vsearch::parse_options;
use sequence_bots::classic::flat::{decide_flat, search, search_with, FlatOptions};
use sequence_bots::classic::inference::Evidence;
use sequence_bots::{Bot, Budget, Decide, SearchConfig, SearchReport, Shell, ShellBot};
use sequence_classic::{Game, Move, SeatView};
use sequence_common::rng::PlayoutRng;

/// Reads `rmc[:OPTION…]`: a budget (`3000it`, `200ms`), `kN` candidates
/// (0 = all), `cN` policy moves before the value (`c0`: to the end), `gp`
/// (greedy opponents in playouts), `noinf`, `flat` (no halving), `bel`
/// (inference from every other seat's last move, [`crate::belief`]),
/// `learned` (the learned policy ranks the candidates and plays the
/// playouts), `vN` (the first N playout moves chosen one ply deep by the
/// learned value, [`FlatOptions::value_plies`]).
/// Defaults: 3000 iterations and the [`FlatOptions`] defaults; the last
/// value says whether `bel` was given.
///
/// # Errors
/// A message naming the option.
pub fn parse(spec: &str) -> Result<(Budget, FlatOptions, bool), String> {
    let mut o = FlatOptions::default();
    let mut belief = false;
    let budget = parse_options(spec, "rmc", |p, num| {
        match p {
            "gp" => o.greedy_opponents = true,
            "noinf" => o.inference = false,
            "flat" => o.halving = false,
            "bel" => belief = true,
            "learned" => o.policy = Some(sequence_bots::classic::policy::shipped()),
            "1t" => {}
            _ if p.starts_with('c') => o.cutoff = Some(num(&p[1..])? as u32).filter(|&c| c > 0),
            _ if p.starts_with('k') => o.candidates = num(&p[1..])? as usize,
            _ if p.starts_with('v') => o.value_plies = num(&p[1..])? as u32,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok((budget, o, belief))
}

/// The `rmc:…` bot named `spec`: the live flat bot, or with `bel` (and
/// inference on) [`BeliefFlatBot`].
///
/// # Errors
/// A message naming the option not understood.
pub fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<Game>>, String> {
    let (budget, opts, belief) = parse(spec)?;
    let name = spec.to_string();
    if belief && opts.inference {
        let b = BeliefFlatBot::new(budget, opts);
        return Ok(Box::new(ShellBot::new(name, seed, b)));
    }
    let b = sequence_bots::classic::FlatBot::new(budget, opts);
    Ok(Box::new(ShellBot::new(name, seed, b)))
}

/// The flat search bot with its deals drawn from a [`Belief`] over every
/// other seat's moves since its last turn.
pub struct BeliefFlatBot {
    budget: Budget,
    opts: FlatOptions,
    evidence: Evidence,
    belief: Belief,
    /// The last search's report.
    pub last: Option<SearchReport<Move>>,
}

impl BeliefFlatBot {
    /// A flat search bot weighing deals by its belief.
    pub fn new(budget: Budget, opts: FlatOptions) -> BeliefFlatBot {
        BeliefFlatBot {
            budget,
            opts,
            evidence: Evidence::new(&SearchConfig::default().classic),
            belief: Belief::default(),
            last: None,
        }
    }
}

impl Decide for BeliefFlatBot {
    type Game = Game;

    fn decide(&mut self, shell: &mut Shell, view: &SeatView, moves: &[Move]) -> Move {
        self.evidence.update(view);
        self.belief.observe(view);
        let (opts, budget, evidence, belief) =
            (&self.opts, self.budget, &self.evidence, &self.belief);
        let mv = decide_flat(shell, view, moves, &mut self.last, |seed| {
            if opts.inference {
                search_with(view, opts, budget, seed, &mut |rng: &mut PlayoutRng| {
                    belief.determinize(view, rng)
                })
            } else {
                search(view, opts, budget, seed, evidence)
            }
        });
        // a dead card's exchange leaves the turn going on (C6)
        if !matches!(mv, Move::Dead { .. }) {
            self.belief.record(view, mv);
        }
        mv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_by_name() {
        let (budget, o, bel) = parse("rmc:2000it:k8:c2:v2:learned").expect("spec");
        assert_eq!(budget, Budget::Iterations(2000));
        assert_eq!((o.candidates, o.cutoff, o.value_plies), (8, Some(2), 2));
        assert!(o.policy.is_some() && !bel);
        let (_, d, _) = parse("rmc").expect("spec");
        assert_eq!(d, FlatOptions::default());
        assert!(parse("rmc:vx").is_err());
        assert!(parse("rmc:fast").is_err());
    }
}
