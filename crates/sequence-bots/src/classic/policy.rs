//! A learned policy over a seat's moves in classic Sequence: a linear
//! softmax over features of the move and of the position as the seat to
//! move sees it (the board, its own hand, the draw pile's size, the
//! sequences made, C2–C9; never another seat's hand), fitted by expert
//! iteration to the choices of the search (`cargo run --release -p
//! sequence-lab --example expert_iteration`, docs/bots.md).
//!
//! The search uses it twice when `learned` is on
//! ([`crate::config::ClassicSearch::learned`]): the root's candidate moves
//! are the policy's best ([`ranked`]) instead of greedy's, and the playouts
//! move by it ([`policy_move`]) instead of the hand-written tactical
//! policy. The weights are the file `crates/sequence-bots/data/policy.json`
//! (compiled in; it carries a format version, the features' names and how
//! it was trained).

use super::heuristic::{lines, Heuristic};
use super::playout::{jacks_of, Threats};
use super::value::table_kind;
use rand::RngCore;
use sequence_classic::{Bitboard, Card, Game, Move, Space, Team, BOARD, CORNERS};
use sequence_common::rng::PlayoutRng;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The format version of the weights file this code reads.
pub const FORMAT: u32 = 1;

/// Features per move.
pub const FEATURES: usize = 28;

/// Feature names, in order (the weights file repeats them).
pub const NAMES: [&str; FEATURES] = [
    "own windows through the space missing 1 (makes a sequence)",
    "own windows through the space missing 2 (makes a four)",
    "own windows through the space missing 3",
    "own windows through the space missing 4",
    "own windows through the space missing 5",
    "opponent fours blocked (not winning)",
    "opponent threes blocked",
    "opponent windows missing 3 blocked",
    "opponent windows missing 4 blocked",
    "opponent winning fours blocked",
    "fours made whose gap the rest of the hand fills",
    "two-eyed jack placed",
    "two-eyed jack placed, draw pile left",
    "two-eyed jack placed, own team one sequence from the win",
    "two-eyed jack placed, 3 teams or more",
    "natural card on its last open space",
    "natural card held twice",
    "one-eyed jack removal",
    "one-eyed jack removal, draw pile left",
    "one-eyed jack removal, 3 teams or more",
    "removal breaks fours (not winning)",
    "removal breaks threes",
    "removal breaks windows missing 3",
    "removal breaks windows missing 4",
    "removal breaks winning fours",
    "removal reopens own fours",
    "dead-card exchange",
    "pass or discard",
];

/// One table kind's weights.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PolicyModel {
    /// `2p`, `4p` or `3p` (as [`table_kind`]).
    pub kind: String,
    /// One weight per feature: a move's score is `weights · features`,
    /// its probability the softmax of the scores over the moves.
    pub weights: Vec<f32>,
}

/// The policy's weights file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Policy {
    /// Format version ([`FORMAT`]).
    pub format: u32,
    /// The feature names the weights were fitted with ([`NAMES`]).
    pub features: Vec<String>,
    /// How the weights were made (command, rounds, games, time).
    pub trained: String,
    /// One model per table kind; a kind without one is played by the
    /// default search.
    pub models: Vec<PolicyModel>,
}

impl Policy {
    /// Reads a weights file and checks it.
    ///
    /// # Errors
    /// A message naming what is wrong: bad JSON, another format version,
    /// other features, a model of the wrong size or with non-finite weights.
    pub fn from_json(text: &str) -> Result<Policy, String> {
        let p: Policy = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if p.format != FORMAT {
            return Err(format!(
                "policy format {} (this build reads {FORMAT})",
                p.format
            ));
        }
        if p.features != NAMES {
            return Err("the policy was fitted with other features".into());
        }
        if let Some(m) = p
            .models
            .iter()
            .find(|m| m.weights.len() != FEATURES || m.weights.iter().any(|w| !w.is_finite()))
        {
            return Err(format!("policy model {} does not fit the features", m.kind));
        }
        Ok(p)
    }

    /// A policy with one model per kind given.
    pub fn new(trained: &str, models: Vec<PolicyModel>) -> Policy {
        Policy {
            format: FORMAT,
            features: NAMES.iter().map(|s| s.to_string()).collect(),
            trained: trained.to_string(),
            models,
        }
    }

    /// The weights for a table (`None`: not trained for it).
    pub fn model_for(&self, players: u8, teams: u8) -> Option<&[f32]> {
        let kind = table_kind(players, teams);
        self.models
            .iter()
            .find(|m| m.kind == kind)
            .map(|m| m.weights.as_slice())
    }

    /// The weights for `game`'s table.
    pub fn model_of(&self, game: &Game) -> Option<&[f32]> {
        self.model_for(game.players(), game.teams())
    }
}

/// The weights compiled in (`crates/sequence-bots/data/policy.json`).
pub fn shipped() -> Arc<Policy> {
    static P: OnceLock<Arc<Policy>> = OnceLock::new();
    P.get_or_init(|| {
        Arc::new(
            Policy::from_json(include_str!("../../data/policy.json")).unwrap_or_else(|e| {
                tracing::warn!("policy weights not usable ({e}); the learned search is off");
                Policy::default()
            }),
        )
    })
    .clone()
}

/// What a decision's moves share: the board as the seat to move sees it.
pub struct Context<'a> {
    h: Heuristic,
    game: &'a Game,
    team: usize,
    empty: u128,
    /// Empty spaces the seat's natural cards reach.
    reach: u128,
    draw_left: f32,
    race: bool,
    one_from_win: bool,
}

impl<'a> Context<'a> {
    /// The context of the seat to move in `game` (not over).
    pub fn of(game: &'a Game) -> Context<'a> {
        let seat = game.turn();
        let team = game.team_of(seat);
        let h = Heuristic::from_game(game);
        let empty = BOARD.0 & !game.occupied().0 & !CORNERS.0;
        let layout = game.layout();
        let mut reach = 0u128;
        for &c in game.hand(seat) {
            if !c.is_jack() {
                reach |= layout.spaces_of(c).0 & empty;
            }
        }
        Context {
            game,
            team: team.index(),
            empty,
            reach,
            draw_left: game.draw_pile_len() as f32 / 104.0,
            race: game.teams() >= 3,
            one_from_win: game.sequence_count(team) + 1 >= game.win_sequences(),
            h,
        }
    }

    /// Empty spaces the seat's hand reaches without one copy of `card`.
    fn reach_without(&self, card: Card) -> (u128, bool) {
        let seat = self.game.turn();
        let layout = self.game.layout();
        let mut reach = 0u128;
        let mut skipped = false;
        let mut wild = false;
        for &c in self.game.hand(seat) {
            if c == card && !skipped {
                skipped = true;
            } else if c.is_two_eyed_jack() {
                wild = true;
            } else if !c.is_jack() {
                reach |= layout.spaces_of(c).0 & self.empty;
            }
        }
        (reach, wild)
    }

    /// Window counts of a chip of the seat's team on the empty space `at`:
    /// own windows by spaces missing, opponents' blocked, fours made whose
    /// gap the rest of the hand (without `card`) fills.
    fn place(&self, at: Space, card: Card, f: &mut [f32; FEATURES]) {
        let h = &self.h;
        let t = self.team;
        let ls = lines(h.len);
        let bit = at.bb().0;
        let (rest, wild) = self.reach_without(card);
        for &wi in &ls.through[at.bit() as usize] {
            let w = ls.windows[wi as usize];
            if let Some(m) = h.missing(w, t, h.locked[t]) {
                if (1..=5).contains(&m) {
                    f[m - 1] += 1.0;
                }
                if m == 2 {
                    let gap = w & self.empty & !bit;
                    if wild || gap & rest != 0 {
                        f[10] += 1.0;
                    }
                }
            }
            for o in (0..h.teams as usize).filter(|&o| o != t) {
                match h.missing(w, o, h.locked[o]) {
                    Some(1) if h.seq_count[o] + 1 >= h.win => f[9] += 1.0,
                    Some(m @ 1..=4) => f[4 + m] += 1.0,
                    _ => {}
                }
            }
        }
    }

    /// Window counts of removing the opponent chip on `at`.
    fn remove(&self, at: Space, f: &mut [f32; FEATURES]) {
        let h = &self.h;
        let bit = at.bb().0;
        let ls = lines(h.len);
        if let Some(o) = (0..h.teams as usize).find(|&o| h.chips[o] & bit != 0) {
            for &wi in &ls.through[at.bit() as usize] {
                let w = ls.windows[wi as usize];
                match h.missing(w, o, h.locked[o]) {
                    Some(1) if h.seq_count[o] + 1 >= h.win => f[24] += 1.0,
                    Some(m @ 1..=4) => f[19 + m] += 1.0,
                    _ => {}
                }
            }
        }
        f[25] = h.reopened_fours(Team(self.team as u8), at) as f32;
    }

    /// The features of `mv` (legal for the seat to move).
    pub fn features(&self, mv: Move) -> [f32; FEATURES] {
        let mut f = [0f32; FEATURES];
        match mv {
            Move::Place { card, at, .. } => {
                self.place(at, card, &mut f);
                if card.is_two_eyed_jack() {
                    f[11] = 1.0;
                    f[12] = self.draw_left;
                    f[13] = f32::from(u8::from(self.one_from_win));
                    f[14] = f32::from(u8::from(self.race));
                } else {
                    let spaces = self.game.layout().spaces_of(card).0;
                    f[15] = f32::from(u8::from(spaces & self.empty & !at.bb().0 == 0));
                    let held = self
                        .game
                        .hand(self.game.turn())
                        .iter()
                        .filter(|&&c| c == card)
                        .count();
                    f[16] = f32::from(u8::from(held >= 2));
                }
            }
            Move::Remove { at, .. } => {
                self.remove(at, &mut f);
                f[17] = 1.0;
                f[18] = self.draw_left;
                f[19] = f32::from(u8::from(self.race));
            }
            Move::Dead { .. } => f[26] = 1.0,
            Move::Pass | Move::Discard { .. } => f[27] = 1.0,
        }
        f
    }
}

/// A move's score under `weights`.
#[inline]
pub fn score(weights: &[f32], f: &[f32; FEATURES]) -> f32 {
    weights.iter().zip(f).map(|(w, x)| w * x).sum()
}

/// The moves ranked by the policy's score, best first, with their scores.
pub fn ranked(game: &Game, weights: &[f32], moves: &[Move]) -> Vec<(Move, f32)> {
    let ctx = Context::of(game);
    let mut out: Vec<(Move, f32)> = moves
        .iter()
        .map(|&m| (m, score(weights, &ctx.features(m))))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out
}

/// The best-scoring of `moves`, if any.
fn best_of(weights: &[f32], ctx: &Context, moves: impl Iterator<Item = Move>) -> Option<Move> {
    moves
        .map(|m| (m, score(weights, &ctx.features(m))))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|m| m.0)
}

/// A playout move of the seat to move by the policy `weights` (the game
/// must not be over): with chance `random_share` a uniformly random
/// move; a sequence is made when it can be, else an opponent's four
/// blocked (the best-scoring way), else a dead card exchanged (C6),
/// else the best-scoring move among natural placements, two-eyed jacks on
/// spaces that make or block fours and threes and one-eyed jacks on
/// opponents' fours and threes (every opponent chip with 3 teams) — the
/// moves a jack is worth spending on, which keeps playouts fast.
pub fn policy_move(game: &Game, weights: &[f32], rng: &mut PlayoutRng, random_share: f32) -> Move {
    if (rng.next_u32() as f32) < random_share * 4_294_967_296.0 {
        return game.random_move(rng).unwrap_or_default();
    }
    let seat = game.turn();
    let ctx = Context::of(game);
    let hand = game.hand(seat);
    let layout = game.layout();
    let (two_eyed, one_eyed) = jacks_of(hand, |_| {});
    let th = Threats::of(game);
    let team = ctx.team;
    let mine = th.fill[team];
    let place_natural =
        |at: Space| -> Move { Move::place(layout.card_at(at).unwrap_or(Card::JC), at) };
    // A sequence first (the window's last space).
    if let Some(at) = Bitboard(mine[0] & ctx.reach).iter().next() {
        return place_natural(at);
    }
    if let (Some(j), Some(at)) = (two_eyed, Bitboard(mine[0] & ctx.empty).iter().next()) {
        return Move::place(j, at);
    }
    let teams = game.teams().min(3) as usize;
    let mut opp_fill = 0u128;
    let mut opp_chips = 0u128;
    let mut opp_four = 0u128;
    let mut opp_four_chips = 0u128;
    for u in (0..teams).filter(|&u| u != team) {
        opp_fill |= th.fill[u][0] | th.fill[u][1];
        opp_four |= th.fill[u][0];
        opp_four_chips |= th.four_chips[u];
        opp_chips |= th.four_chips[u] | th.three_chips[u];
        if ctx.race {
            opp_chips |= game.chips(Team(u as u8)).0;
        }
    }
    opp_chips &= !game.locked().0 & !CORNERS.0;
    // Then an opponent's four is blocked, as the tactical policy does
    // (the policy chooses among the ways: a natural card on its gap, the
    // one-eyed jack on one of its chips, a two-eyed jack on its gap).
    if opp_four != 0 {
        let by_card = best_of(
            weights,
            &ctx,
            Bitboard(opp_four & ctx.reach).iter().map(place_natural),
        );
        let by_jack = || {
            let removals = one_eyed.into_iter().flat_map(|j| {
                Bitboard(opp_four_chips & opp_chips)
                    .iter()
                    .map(move |at| Move::Remove { card: j, at })
            });
            let wilds = two_eyed.into_iter().flat_map(|j| {
                Bitboard(opp_four & ctx.empty)
                    .iter()
                    .map(move |at| Move::place(j, at))
            });
            best_of(weights, &ctx, removals.chain(wilds))
        };
        if let Some(mv) = by_card.or_else(by_jack) {
            return mv;
        }
    }
    if !game.dead_exchanged() {
        if let Some(&card) = hand.iter().find(|&&c| game.is_dead(c)) {
            return Move::Dead { card };
        }
    }
    let mut best: Option<Move> = None;
    let mut best_v = f32::NEG_INFINITY;
    let mut consider = |mv: Move, rng: &mut PlayoutRng| {
        let v = score(weights, &ctx.features(mv)) + (rng.next_u32() >> 22) as f32 * 1e-6;
        if v > best_v {
            best_v = v;
            best = Some(mv);
        }
    };
    for at in Bitboard(ctx.reach) {
        consider(place_natural(at), rng);
    }
    if let Some(j) = two_eyed {
        for at in Bitboard((mine[1] | mine[2] | opp_fill) & ctx.empty & !ctx.reach) {
            consider(Move::place(j, at), rng);
        }
    }
    if let Some(j) = one_eyed {
        for at in Bitboard(opp_chips) {
            consider(Move::Remove { card: j, at }, rng);
        }
    }
    best.or_else(|| game.random_move(rng)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::testing::{blue_four, game_at, gap_hand, sp};
    use sequence_classic::{Config, Options, Seat};

    /// The compiled weights read, with the names of this build's features
    /// and a model for 2-player tables; a file of another format version
    /// or other features is refused by name.
    #[test]
    fn the_shipped_weights_read_and_others_are_refused() {
        let p = Policy::from_json(include_str!("../../data/policy.json")).expect("weights");
        assert!(p.model_for(2, 2).is_some());
        let mut other = p.clone();
        other.format = FORMAT + 1;
        let e = Policy::from_json(&serde_json::to_string(&other).expect("json"))
            .expect_err("another format");
        assert!(e.contains("format"), "{e}");
        let mut other = p.clone();
        other.features[0] = "something else".into();
        assert!(Policy::from_json(&serde_json::to_string(&other).expect("json")).is_err());
        let mut other = p;
        other.models[0].weights.pop();
        assert!(Policy::from_json(&serde_json::to_string(&other).expect("json")).is_err());
    }

    /// C8: blue holds b2–e2; the move on f2 or a2 counts one own window
    /// missing 1, and for green the same space blocks one four; the
    /// features read only the board and the mover's hand.
    #[test]
    fn features_count_the_windows_through_the_space() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let layout = cfg.layout();
        let f2 = layout.card_at(sp("f2")).expect("card");
        let filler: Vec<Card> = Card::all()
            .filter(|c| !c.is_jack() && *c != f2)
            .take(6)
            .collect();
        let mut hand = vec![f2];
        hand.extend(filler.iter().copied());
        for turn in [Seat(0), Seat(1)] {
            let game = game_at(&cfg, blue_four(), vec![hand.clone(), hand.clone()], turn);
            let ctx = Context::of(&game);
            let f = ctx.features(Move::place(f2, sp("f2")));
            if turn == Seat(0) {
                assert_eq!(f[0], 1.0, "{f:?}");
                assert_eq!(f[5] + f[9], 0.0);
            } else {
                assert_eq!(f[0], 0.0);
                assert_eq!(f[5], 1.0, "{f:?}");
            }
            // With a weight on making sequences and blocking fours, the
            // policy plays f2 for both seats.
            let mut w = vec![0.0; FEATURES];
            w[0] = 100.0;
            w[5] = 50.0;
            let moves = game.view(turn).legal_moves();
            let best = ranked(&game, &w, &moves)[0].0;
            assert!(matches!(best, Move::Place { at, .. } if at == sp("f2")));
        }
    }

    /// C8: green to move against blue's four b2–e2, holding the card of
    /// its gap f2: the playout policy blocks it whatever its weights (but
    /// for its share of random moves); blue in green's place makes the
    /// sequence.
    #[test]
    fn playouts_make_sequences_and_block_fours() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let hand = gap_hand(&cfg);
        for turn in [Seat(0), Seat(1)] {
            let game = game_at(&cfg, blue_four(), vec![hand.clone(), hand.clone()], turn);
            // Weights that prefer anything to the block.
            let mut w = vec![1.0; FEATURES];
            w[5] = -100.0;
            w[0] = -100.0;
            let on_gap = (0..40u64)
                .filter(|&seed| {
                    let mut rng = sequence_common::rng::playout_rng(seed);
                    matches!(policy_move(&game, &w, &mut rng, 0.05), Move::Place { at, .. } if at == sp("f2"))
                })
                .count();
            assert!(
                on_gap >= 32,
                "seat {}: f2 taken {on_gap} times of 40",
                turn.0
            );
        }
    }

    /// The playout policy plays legal moves to the end of the game.
    #[test]
    fn policy_playouts_are_legal() {
        let p = shipped();
        for players in [2u8, 3, 4] {
            let cfg = Config::new(players, None, Options::default()).expect("config");
            let w = p
                .model_for(players, cfg.teams())
                .map(|w| w.to_vec())
                .unwrap_or_else(|| vec![1.0; FEATURES]);
            for seed in 0..5u64 {
                let mut rng = sequence_common::rng::playout_rng(seed);
                let (mut game, _) = Game::deal(cfg.clone(), &mut rng);
                while !game.is_over() {
                    let mv = policy_move(&game, &w, &mut rng, 0.05);
                    game.apply(
                        game.turn(),
                        mv,
                        &mut sequence_classic::RngReshuffler(&mut rng),
                    )
                    .expect("the policy plays legal moves");
                }
            }
        }
    }
}
