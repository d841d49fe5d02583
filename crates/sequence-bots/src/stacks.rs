//! Bots for Sequence Stacks: [`RandomBot`], [`GreedyBot`] and
//! [`IsmctsBot`], over the per-seat view ([`SeatView`]) and its decisions.

use crate::ismcts::{self, Budget, Rewards, SearchReport, SearchState, MAX_SIDES};
use crate::StacksBot;
use rand::Rng;
use sequence_common::rng::{game_rng, GameRng, PlayoutRng};
use sequence_common::Seat;
use sequence_stacks::{
    meets_win, Card, Colour, Decision, Decisions, Game, Place, SeatView, Source, Status,
};

// ----- random ----------------------------------------------------------------

/// Plays a uniformly random legal decision.
pub struct RandomBot {
    name: String,
    rng: GameRng,
}

impl RandomBot {
    /// A random bot named `name`, seeded with `seed` (ChaCha8).
    pub fn new(name: String, seed: u64) -> RandomBot {
        RandomBot {
            name,
            rng: game_rng(seed),
        }
    }
}

impl StacksBot for RandomBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Decision {
        if view.legal.is_empty() {
            return Decision::Pass;
        }
        view.legal[self.rng.random_range(0..view.legal.len())]
    }
}

// ----- heuristic --------------------------------------------------------------

/// Value for a seat holding `chips` (`[blue, red]`) of one more chip of
/// `colour` (S7: 5 chips, at least 2 of each colour).
fn chip_value(chips: [u8; 2], colour: Colour) -> f64 {
    let mut after = chips;
    after[colour.index()] += 1;
    if meets_win(after) {
        1000.0
    } else if chips[colour.index()] < 2 {
        100.0
    } else if chips[0] + chips[1] < 5 {
        50.0
    } else {
        10.0
    }
}

/// What the heuristic reads of a position: a seat's [`SeatView`] (greedy) or
/// a full [`Game`] (playouts, no allocation). One scoring function serves
/// both, so the bots and their playouts judge alike.
trait Position {
    /// The seat deciding (`None`: nobody, the game is over).
    fn deciding(&self) -> Option<Seat>;
    /// Number of seats.
    fn players(&self) -> u8;
    /// The seat after `seat` in the current direction of play (S5).
    fn next(&self, seat: Seat) -> Seat;
    /// `seat`'s chips, `[blue, red]`.
    fn chips(&self, seat: Seat) -> [u8; 2];
    /// Chips left in the supply, `[blue, red]`.
    fn supply(&self) -> [u8; 2];
    /// Piles per colour (S3).
    fn piles_per_colour(&self) -> u8;
    /// Cards on the pile at `place` (0: free).
    fn pile_height(&self, place: Place) -> usize;
    /// Whether the deciding seat's hand, without `played` when it comes
    /// from the hand, holds either card of `wanted`.
    fn holds_besides(&self, wanted: [Card; 2], played: Card, from: Source) -> bool;
    /// The top card of `seat`'s discard pile.
    fn discard_top(&self, seat: Seat) -> Option<Card>;
    /// The open Block window: the completer and the chip's colour (S5).
    fn block_offer(&self) -> Option<(Seat, Colour)>;
}

impl Position for SeatView {
    fn deciding(&self) -> Option<Seat> {
        Some(self.seat)
    }
    fn players(&self) -> u8 {
        self.players
    }
    fn next(&self, seat: Seat) -> Seat {
        seat.next(self.players, self.direction)
    }
    fn chips(&self, seat: Seat) -> [u8; 2] {
        self.chips
            .get(seat.index())
            .map_or([0, 0], |c| [c.blue, c.red])
    }
    fn supply(&self) -> [u8; 2] {
        [self.supply.blue, self.supply.red]
    }
    fn piles_per_colour(&self) -> u8 {
        self.options.piles_per_colour
    }
    fn pile_height(&self, place: Place) -> usize {
        self.piles
            .iter()
            .find(|p| p.place == place)
            .map_or(0, |p| p.cards.len())
    }
    fn holds_besides(&self, wanted: [Card; 2], played: Card, from: Source) -> bool {
        let mut skip = from == Source::Hand;
        self.hand.iter().any(|&c| {
            if skip && c == played {
                skip = false;
                return false;
            }
            wanted.contains(&c)
        })
    }
    fn discard_top(&self, seat: Seat) -> Option<Card> {
        self.discard_piles
            .get(seat.index())
            .and_then(|p| p.last())
            .copied()
    }
    fn block_offer(&self) -> Option<(Seat, Colour)> {
        self.block_window.map(|w| (w.completer, w.colour))
    }
}

impl Position for Game {
    fn deciding(&self) -> Option<Seat> {
        self.to_act()
    }
    fn players(&self) -> u8 {
        Game::players(self)
    }
    fn next(&self, seat: Seat) -> Seat {
        seat.next(Game::players(self), self.direction())
    }
    fn chips(&self, seat: Seat) -> [u8; 2] {
        Game::chips(self, seat)
    }
    fn supply(&self) -> [u8; 2] {
        Game::supply(self)
    }
    fn piles_per_colour(&self) -> u8 {
        self.options().piles_per_colour
    }
    fn pile_height(&self, place: Place) -> usize {
        self.pile_top(place).unwrap_or(0) as usize
    }
    fn holds_besides(&self, wanted: [Card; 2], played: Card, from: Source) -> bool {
        let Some(seat) = self.to_act() else {
            return false;
        };
        let mut hand = self.hand_counts(seat);
        if from == Source::Hand {
            hand[played.index()] = hand[played.index()].saturating_sub(1);
        }
        wanted.iter().any(|c| hand[c.index()] > 0)
    }
    fn discard_top(&self, seat: Seat) -> Option<Card> {
        Game::discard_top(self, seat)
    }
    fn block_offer(&self) -> Option<(Seat, Colour)> {
        Game::block_offer(self).map(|w| (w.completer, w.colour))
    }
}

/// How much a seat wants to keep `card` in hand (used to pick discards):
/// wilds and the strong action cards most, a numbered card by how soon a
/// pile of its colour could take it.
fn keep_value(pos: &impl Position, card: Card) -> f64 {
    if card.is_wild() {
        return 30.0;
    }
    match card {
        Card::Block | Card::StealChip => 25.0,
        Card::Skip | Card::StealCard | Card::Reverse => 15.0,
        _ => {
            let (Some(colour), Some(n)) = (card.colour(), card.number()) else {
                return 0.0;
            };
            let n = n as usize;
            // Cards still needed below it on the nearest pile that could take it.
            let best = (0..pos.piles_per_colour())
                .map(|slot| pos.pile_height(Place::new(colour, slot)))
                .filter(|&h| h < n)
                .map(|h| n - 1 - h)
                .min();
            match best {
                Some(d) => 10.0 - 2.0 * d as f64,
                None => 1.0,
            }
        }
    }
}

/// Scores a decision of `view`'s seat; higher is better. Plays onto piles
/// that complete them are worth the chip (more for a colour still needed);
/// leaving a pile at 4 for the next seat to complete is avoided; Blocks
/// stop a completion that would win or bring the completer close; a Steal-
/// a-Chip takes a needed colour from the leader; discards throw the card
/// least worth keeping.
pub fn score(view: &SeatView, d: Decision) -> f64 {
    score_at(view, d)
}

/// [`score`] read from a full game for the seat that must decide in `g`
/// (no [`SeatView`] is built: cheap enough for every playout move); 0 when
/// the game is over.
pub fn game_score(g: &Game, d: Decision) -> f64 {
    score_at(g, d)
}

#[inline]
fn score_at(pos: &impl Position, d: Decision) -> f64 {
    let Some(seat) = pos.deciding() else {
        return 0.0;
    };
    let mine = pos.chips(seat);
    let supply = pos.supply();
    match d {
        Decision::Pile { card, from, place } => {
            let h = pos.pile_height(place) + 1;
            let colour = place.colour();
            let mut v = if h == 5 {
                if supply[colour.index()] > 0 {
                    chip_value(mine, colour) + 20.0
                } else {
                    5.0
                }
            } else if h == 4 {
                // Can we finish it ourselves this turn?
                let finishers = [Card::numbered(colour, 5), Card::wild(colour)];
                if pos.holds_besides(finishers, card, from) {
                    12.0
                } else {
                    -40.0
                }
            } else {
                6.0 + h as f64
            };
            if card.is_wild() && h != 5 {
                v -= 5.0;
            }
            if from == Source::Discard {
                v += 2.0;
            }
            v
        }
        Decision::Skip { .. } => {
            let c = pos.chips(pos.next(seat));
            if c[0] + c[1] >= 3 {
                8.0
            } else {
                2.0
            }
        }
        Decision::Reverse { .. } => 1.0,
        Decision::StealCard { target, .. } => match pos.discard_top(target) {
            Some(c) if c.is_wild() => 14.0,
            Some(c) if c.is_action() => 8.0,
            Some(c) => keep_value(pos, c).max(2.0),
            None => 0.0,
        },
        Decision::StealChip { target, colour, .. } => {
            let t = pos.chips(target);
            let lead = (0..pos.players())
                .map(Seat)
                .filter(|&s| s != seat)
                .map(|s| pos.chips(s).iter().sum::<u8>())
                .max()
                .unwrap_or(0);
            let mut v = chip_value(mine, colour) * 0.6;
            // Taking it from a seat that needs it.
            if t[colour.index()] <= 2 {
                v += 10.0;
            }
            if t[0] + t[1] == lead {
                v += 10.0;
            }
            v
        }
        Decision::Block => {
            let Some((completer, colour)) = pos.block_offer() else {
                return 0.0;
            };
            let c = pos.chips(completer);
            let mut after = c;
            after[colour.index()] += 1;
            if supply[colour.index()] == 0 {
                0.0
            } else if meets_win(after) {
                1000.0
            } else if c[0] + c[1] >= 3 {
                30.0
            } else {
                5.0
            }
        }
        Decision::Pass => 10.0,
        Decision::Discard { card } => -20.0 - keep_value(pos, card),
        Decision::End => 0.0,
    }
}

// ----- greedy -----------------------------------------------------------------

/// One-ply heuristic bot (see [`score`]); `blunder` is the chance of a
/// random decision instead (level 1).
pub struct GreedyBot {
    name: String,
    rng: GameRng,
    blunder: f64,
}

impl GreedyBot {
    /// A greedy bot; `blunder` is the chance (0–1) of a random decision.
    pub fn new(name: String, seed: u64, blunder: f64) -> GreedyBot {
        GreedyBot {
            name,
            rng: game_rng(seed),
            blunder,
        }
    }
}

/// The greedy choice for `view` (ties broken by `rng`).
pub fn greedy_choice(view: &SeatView, rng: &mut impl Rng) -> Decision {
    let mut best = Decision::Pass;
    let mut best_v = f64::NEG_INFINITY;
    for &d in &view.legal {
        let v = score(view, d) + rng.random::<f64>() * 0.5;
        if v > best_v {
            best_v = v;
            best = d;
        }
    }
    best
}

impl StacksBot for GreedyBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Decision {
        if view.legal.is_empty() {
            return Decision::Pass;
        }
        if self.blunder > 0.0 && self.rng.random::<f64>() < self.blunder {
            return view.legal[self.rng.random_range(0..view.legal.len())];
        }
        greedy_choice(view, &mut self.rng)
    }
}

// ----- search -----------------------------------------------------------------

/// A determinization of Sequence Stacks for [`ismcts`]. Sides are seats.
#[derive(Clone)]
pub struct StacksState(pub Game);

/// Playouts stop after this many decisions and are scored by chips.
pub const PLAYOUT_CAP: u32 = 400;

impl SearchState for StacksState {
    type Move = Decision;
    const KEYS: usize = 252;

    #[inline]
    fn mover(&self) -> Option<u8> {
        self.0.to_act().map(|s| s.0)
    }

    fn legal(&self, out: &mut Vec<Decision>) {
        let mut d = Decisions::new();
        self.0.legal_into(&mut d);
        out.clear();
        out.extend(d.iter().copied());
    }

    #[inline]
    fn key(d: &Decision) -> usize {
        let f = |s: Source| (s == Source::Discard) as usize;
        match *d {
            Decision::Pile { card, from, place } => card.index() * 16 + f(from) * 8 + place.index(),
            Decision::Skip { from } => 192 + f(from),
            Decision::Reverse { from } => 194 + f(from),
            Decision::StealCard { from, target } => 196 + f(from) * 6 + target.index() % 6,
            Decision::StealChip {
                from,
                target,
                colour,
            } => 208 + f(from) * 12 + (target.index() % 6) * 2 + colour.index(),
            Decision::Block => 232,
            Decision::Pass => 233,
            Decision::Discard { card } => 234 + card.index(),
            Decision::End => 251,
        }
    }

    #[inline]
    fn play(&mut self, d: Decision, rng: &mut PlayoutRng) {
        if let Some(seat) = self.0.to_act() {
            let _ = self.0.play(seat, d, rng);
        }
    }

    fn prior(&self, d: &Decision) -> f32 {
        let cfg = config();
        if cfg.prior_scale <= 0.0 {
            return 0.0;
        }
        // The greedy score for the deciding seat, squashed to 0..1.
        let v = game_score(&self.0, *d);
        (1.0 / (1.0 + (-v / cfg.prior_scale).exp())) as f32
    }

    fn rollout(&mut self, rng: &mut PlayoutRng) -> Rewards {
        let cfg = config();
        match cfg.playout {
            Playout::Random => {
                self.0.playout(rng, cfg.cap);
            }
            Playout::Guided => {
                guided_playout(&mut self.0, rng, cfg.cap);
            }
            Playout::Greedy => {
                greedy_playout(&mut self.0, rng, cfg.cap, cfg.epsilon);
            }
        }
        outcome(&self.0)
    }
}

/// The playout policy of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Playout {
    /// Uniformly random decisions.
    Random,
    /// [`guided_playout`].
    Guided,
    /// [`greedy_playout`].
    Greedy,
}

/// Search settings (defaults are the best found; environment variables
/// override them for experiments).
#[derive(Clone, Copy, Debug)]
struct Config {
    playout: Playout,
    cap: u32,
    epsilon: f64,
    /// Scale of the prior's sigmoid (0: no prior).
    prior_scale: f64,
    /// Root-level Monte Carlo ([`rollout_search`]) instead of the tree.
    flat: bool,
    /// Successive halving in [`rollout_search`].
    halving: bool,
    /// Variant of [`own_score`] for the searching seat in playouts (0: plain greedy).
    own: u32,
}

fn config() -> &'static Config {
    static CFG: std::sync::OnceLock<Config> = std::sync::OnceLock::new();
    CFG.get_or_init(|| {
        let playout = match std::env::var("SEQUENCE_STACKS_PLAYOUT").as_deref() {
            Ok("random") => Playout::Random,
            Ok("guided") => Playout::Guided,
            Ok("greedy") => Playout::Greedy,
            _ if std::env::var_os("SEQUENCE_STACKS_RANDOM_PLAYOUTS").is_some() => Playout::Random,
            _ => Playout::Greedy,
        };
        let prior_scale = if std::env::var_os("SEQUENCE_NO_PRIOR").is_some() {
            0.0
        } else {
            crate::env_or("SEQUENCE_STACKS_PRIOR_SCALE", 20.0)
        };
        Config {
            playout,
            cap: crate::env_or("SEQUENCE_STACKS_CAP", PLAYOUT_CAP),
            epsilon: crate::env_or("SEQUENCE_STACKS_EPSILON", 0.0),
            prior_scale,
            flat: crate::env_or("SEQUENCE_STACKS_FLAT", 1u8) != 0,
            halving: crate::env_or("SEQUENCE_STACKS_HALVING", 1u8) != 0,
            own: crate::env_or("SEQUENCE_STACKS_OWN", 3u32),
        }
    })
}

/// The searching seat's own playout policy: [`game_score`] with two
/// changes (bits of `SEQUENCE_STACKS_OWN`, default both): 1 — always Block
/// an opponent's completion when holding a Block; 2 — do not raise a pile
/// to 3 without holding its 4 (the opponent would need only the 4 and 5).
/// Opponents keep plain greedy (a model of the usual opponent).
fn own_score(g: &Game, d: Decision) -> f64 {
    let base = game_score(g, d);
    let v = config().own;
    match d {
        Decision::Block if v & 1 != 0 => base.max(30.0),
        Decision::Pile { card, from, place } if v & 2 != 0 => {
            let mut hand = g.hand_counts(g.to_act().unwrap_or(Seat(0)));
            if from == Source::Hand {
                hand[card.index()] -= 1;
            }
            let h = g.pile_top(place).unwrap_or(0) + 1;
            let c = place.colour();
            let has =
                |n: u8| hand[Card::numbered(c, n).index()] > 0 || hand[Card::wild(c).index()] > 0;
            if h == 3 && !has(4) {
                base - 8.0
            } else {
                base
            }
        }
        _ => base,
    }
}

/// Epsilon-greedy playout: each decision is the [`game_score`] best (ties
/// at random) except with chance `epsilon` a uniformly random legal one.
/// Stops when the game ends or after `max` decisions; returns how many
/// were played. No allocation.
pub fn greedy_playout(game: &mut Game, rng: &mut PlayoutRng, max: u32, epsilon: f64) -> u32 {
    playout_with(game, rng, max, epsilon, None)
}

/// [`greedy_playout`] where seat `me` (if any) plays by [`own_score`].
fn playout_with(
    game: &mut Game,
    rng: &mut PlayoutRng,
    max: u32,
    epsilon: f64,
    me: Option<Seat>,
) -> u32 {
    let mut list = Decisions::new();
    let mut n = 0;
    while n < max {
        let Some(seat) = game.to_act() else { break };
        game.legal_into(&mut list);
        if list.is_empty() {
            break;
        }
        let d = if list.len() == 1 {
            list[0]
        } else if rng.random::<f64>() < epsilon {
            list[rng.random_range(0..list.len())]
        } else {
            let mut best = list[0];
            let mut best_v = f64::NEG_INFINITY;
            for &d in list.iter() {
                let v = if Some(seat) == me {
                    own_score(game, d)
                } else {
                    game_score(game, d)
                } + rng.random::<f64>() * 0.5;
                if v > best_v {
                    best_v = v;
                    best = d;
                }
            }
            best
        };
        if game.play(seat, d, rng).is_err() {
            break;
        }
        n += 1;
    }
    n
}

/// A playout policy a little better than uniform: a seat plays what it can
/// (piles, action cards) before it discards, a pile-completing play first;
/// otherwise moves are random. No allocation.
pub fn guided_playout(game: &mut Game, rng: &mut PlayoutRng, max: u32) -> u32 {
    let mut list = Decisions::new();
    let mut n = 0;
    while n < max {
        let Some(seat) = game.to_act() else { break };
        game.legal_into(&mut list);
        if list.is_empty() {
            break;
        }
        let mut plays = 0usize;
        let mut complete = usize::MAX;
        for (i, d) in list.iter().enumerate() {
            match *d {
                Decision::Discard { .. } | Decision::End | Decision::Pass => {}
                Decision::Pile { place, .. } => {
                    plays += 1;
                    if game.pile_top(place) == Some(4) {
                        complete = i;
                    }
                }
                _ => plays += 1,
            }
        }
        let d = if complete != usize::MAX {
            list[complete]
        } else if plays > 0 && rng.random::<f32>() < 0.9 {
            let mut k = rng.random_range(0..plays);
            let mut pick = list[0];
            for d in list.iter() {
                if matches!(d, Decision::Discard { .. } | Decision::End | Decision::Pass) {
                    continue;
                }
                if k == 0 {
                    pick = *d;
                    break;
                }
                k -= 1;
            }
            pick
        } else {
            list[rng.random_range(0..list.len())]
        };
        if game.play(seat, d, rng).is_err() {
            break;
        }
        n += 1;
    }
    n
}

/// Rewards at the end of a playout: 1 to the winner; on a draw an equal
/// share; unfinished (cut off), shares by chip progress toward S7.
pub fn outcome(game: &Game) -> Rewards {
    let n = game.players() as usize;
    let mut r = [0.0; MAX_SIDES];
    match game.status() {
        Status::Won(s) => r[s.index() % MAX_SIDES] = 1.0,
        Status::Draw => r[..n].iter_mut().for_each(|x| *x = 1.0 / n as f32),
        Status::Playing => {
            let mut total = 0.0;
            for (s, x) in r.iter_mut().enumerate().take(n) {
                let c = game.chips(Seat(s as u8));
                let p = c[0].min(2) + c[1].min(2) + (c[0] + c[1]).min(5);
                *x = 1.0 + p as f32;
                total += *x;
            }
            r[..n].iter_mut().for_each(|x| *x /= total);
        }
    }
    r
}

/// Searches the view's position as the bot does (the view's seat must
/// decide): [`parallel_rollout_search`] by default, the SO-ISMCTS tree
/// ([`tree_search`]) with `SEQUENCE_STACKS_FLAT=0`. `None` when the view
/// cannot be determinized (inconsistent).
pub fn analyse(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
) -> Option<SearchReport<Decision>> {
    if config().flat {
        parallel_rollout_search(view, budget, trees, seed)
    } else {
        tree_search(view, budget, trees, seed)
    }
}

/// The SO-ISMCTS tree of [`crate::ismcts`] over [`StacksState`] (the
/// view's seat must decide). `None` when the view cannot be determinized.
pub fn tree_search(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
) -> Option<SearchReport<Decision>> {
    let mut probe = game_rng(seed);
    view.determinize(&mut probe).ok()?;
    let fallback = view.clone();
    let det = move |rng: &mut PlayoutRng| match fallback.determinize(rng) {
        Ok(g) => StacksState(g),
        // Checked above; the same view always determinizes.
        Err(_) => unreachable_view(),
    };
    Some(ismcts::search(&det, budget, trees, seed))
}

/// Root-level Monte Carlo with common random numbers: every legal
/// decision of the view's seat is tried on the same determinizations (and
/// the same playout seeds), each followed by a [`greedy_playout`]; the
/// decision with the best mean reward wins. One playout counts as one
/// iteration. A one-step policy improvement over the playout policy, with
/// the variance of the comparisons much reduced by the pairing.
/// `None` when the view cannot be determinized.
pub fn rollout_search(
    view: &SeatView,
    budget: Budget,
    seed: u64,
) -> Option<SearchReport<Decision>> {
    let start = std::time::Instant::now();
    let cfg = config();
    let mut rng = sequence_common::rng::playout_rng(seed);
    view.determinize(&mut rng).ok()?;
    let seat = view.seat;
    // (move, reward sum, playouts)
    let mut arms: Vec<(Decision, f64, u32)> = view.legal.iter().map(|&d| (d, 0.0, 0)).collect();
    let mut live: Vec<usize> = (0..arms.len()).collect();
    let mut iterations = 0u64;
    // One determinization (and playout seed) shared by every live move.
    let round = |arms: &mut [(Decision, f64, u32)], live: &[usize], rng: &mut PlayoutRng| {
        let Ok(det) = view.determinize(rng) else {
            return false;
        };
        let pseed: u64 = rng.random();
        for &i in live {
            let mut g = det.clone();
            let mut prng = sequence_common::rng::playout_rng(pseed);
            if g.play(seat, arms[i].0, &mut prng).is_err() {
                continue;
            }
            let me = (cfg.own > 0).then_some(seat);
            playout_with(&mut g, &mut prng, cfg.cap, cfg.epsilon, me);
            arms[i].1 += outcome(&g)[seat.index() % MAX_SIDES] as f64;
            arms[i].2 += 1;
        }
        true
    };
    let mean = |a: &(Decision, f64, u32)| a.1 / a.2.max(1) as f64;
    match budget {
        Budget::Iterations(n) => {
            // Successive halving: equal shares of the budget per phase,
            // the better half of the moves goes on to the next.
            let phases = if cfg.halving && arms.len() > 2 {
                (usize::BITS - (arms.len() - 1).leading_zeros()) as u64
            } else {
                1
            };
            for phase in 0..phases {
                let k = (n / phases / live.len() as u64).max(1);
                for _ in 0..k {
                    if !round(&mut arms, &live, &mut rng) {
                        break;
                    }
                    iterations += live.len() as u64;
                }
                if phase + 1 < phases {
                    live.sort_by(|&x, &y| {
                        mean(&arms[y])
                            .partial_cmp(&mean(&arms[x]))
                            .unwrap_or(std::cmp::Ordering::Equal)
                    });
                    live.truncate(live.len().div_ceil(2));
                }
            }
        }
        Budget::Time(d) => {
            let deadline = start + d;
            loop {
                if !round(&mut arms, &live, &mut rng) {
                    break;
                }
                iterations += live.len() as u64;
                if std::time::Instant::now() >= deadline {
                    break;
                }
            }
        }
    }
    // Most playouts first (the survivors), then the best mean.
    let mut out: Vec<(Decision, u32, f64)> = arms.iter().map(|a| (a.0, a.2, mean(a))).collect();
    out.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.2.partial_cmp(&a.2).unwrap_or(std::cmp::Ordering::Equal))
    });
    Some(SearchReport {
        moves: out,
        iterations,
        elapsed: start.elapsed(),
        trees: 1,
    })
}

/// [`rollout_search`] on several threads (root parallelism): `trees`
/// independent searches (default: one per core for a time budget, one for
/// an iteration budget, so that results do not depend on the machine),
/// seeds derived from `seed`, an iteration budget split between them; per
/// decision the playouts and rewards are summed. Most playouts first, then
/// the best mean. `None` when the view cannot be determinized.
pub fn parallel_rollout_search(
    view: &SeatView,
    budget: Budget,
    trees: Option<usize>,
    seed: u64,
) -> Option<SearchReport<Decision>> {
    let start = std::time::Instant::now();
    let n = trees
        .unwrap_or(match budget {
            Budget::Iterations(_) => 1,
            Budget::Time(_) => ismcts::cores(),
        })
        .max(1);
    if n == 1 {
        return rollout_search(view, budget, seed);
    }
    let each = match budget {
        Budget::Iterations(k) => Budget::Iterations(k.div_ceil(n as u64).max(1)),
        t => t,
    };
    let reports: Vec<Option<SearchReport<Decision>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n as u64)
            .map(|t| {
                let seed = crate::mix(seed ^ crate::mix(t + 1));
                scope.spawn(move || rollout_search(view, each, seed))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    // (decision, playouts, reward sum)
    let mut merged: Vec<(Decision, u32, f64)> = Vec::new();
    let mut iterations = 0;
    for r in reports.into_iter().flatten() {
        iterations += r.iterations;
        for (d, playouts, mean) in r.moves {
            let sum = mean * playouts as f64;
            match merged.iter_mut().find(|m| m.0 == d) {
                Some(m) => {
                    m.1 += playouts;
                    m.2 += sum;
                }
                None => merged.push((d, playouts, sum)),
            }
        }
    }
    if merged.is_empty() {
        return None;
    }
    let mut moves: Vec<(Decision, u32, f64)> = merged
        .into_iter()
        .map(|(d, p, sum)| (d, p, sum / p.max(1) as f64))
        .collect();
    moves.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    Some(SearchReport {
        moves,
        iterations,
        elapsed: start.elapsed(),
        trees: n,
    })
}

#[cold]
fn unreachable_view() -> ! {
    panic!("a view that determinized once failed to determinize")
}

/// Search bot for Sequence Stacks (spec `ismcts`). By default a
/// root-level Monte Carlo over common determinizations ([`rollout_search`]:
/// each legal decision tried on the same deals, followed by greedy
/// playouts, successive halving of the candidates); with
/// `SEQUENCE_STACKS_FLAT=0` the SO-ISMCTS tree of [`crate::ismcts`] over
/// [`StacksState`] instead. Completions that win, and Blocks that stop a
/// win, are played at once.
pub struct IsmctsBot {
    name: String,
    seed: u64,
    moves_made: u64,
    budget: Budget,
    trees: Option<usize>,
    rng: GameRng,
    /// The last search's report.
    pub last: Option<SearchReport<Decision>>,
}

impl IsmctsBot {
    /// An ISMCTS bot with a per-decision budget and tree count.
    pub fn new(name: String, seed: u64, budget: Budget, trees: Option<usize>) -> IsmctsBot {
        IsmctsBot {
            name,
            seed,
            moves_made: 0,
            budget,
            trees,
            rng: game_rng(seed),
            last: None,
        }
    }
}

impl StacksBot for IsmctsBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &SeatView) -> Decision {
        if view.legal.is_empty() {
            return Decision::Pass;
        }
        if view.legal.len() == 1 {
            return view.legal[0];
        }
        self.moves_made += 1;
        // Obvious cases: a win now, or a Block that stops one.
        for &d in &view.legal {
            if score(view, d) >= 1000.0 {
                return d;
            }
        }
        let seed = crate::mix(self.seed ^ crate::mix(self.moves_made));
        let report = analyse(view, self.budget, self.trees, seed);
        match report {
            Some(report) => {
                let best = report.best().unwrap_or(view.legal[0]);
                self.last = Some(report);
                best
            }
            None => greedy_choice(view, &mut self.rng),
        }
    }
}
