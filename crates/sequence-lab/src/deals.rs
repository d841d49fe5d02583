//! Duplicate deals for classic Sequence: every deal (deck order, dealer,
//! reshuffle orders) is played once per side with the bot under test (the
//! *hero*) moved one side along each time, the other sides played by the
//! *field* bot. With two sides the deal is played twice with the seats
//! swapped; with three sides, three times. Intervals are computed over
//! deals (the mean of the hero's results on one deal is one observation),
//! so the luck of the cards, which both sides meet alike, cancels.
//!
//! The same deal means: the same cut for the dealer and the same deck from
//! the deal's seed (ChaCha8), and at the `k`-th reshuffle (C7) the cards of
//! the discard piles are sorted and then shuffled by a ChaCha8 generator
//! seeded by the deal's seed and `k`, so that equal piles get equal orders.
//! Bots are seeded by the deal and the seat.
//!
//! `sequence arena --duplicate` ([`sequence_bots::arena::duplicate`]) is the tool for
//! bots by name; this harness stays for experiments that build their bots
//! in code (`examples/variants.rs` with experimental names,
//! `examples/hidden_cost.rs` with a bot told the other hands): [`run`]
//! takes two bot constructors.

use sequence_bots::seeds::mix;
use sequence_bots::stats;
use sequence_bots::Bot;
use sequence_classic::{Card, Config, Game, Reshuffler, Seat, Status};
use sequence_common::rng::game_rng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A duplicate run's settings.
#[derive(Debug, Clone)]
pub struct DuplicateConfig {
    /// The table (players, teams, options).
    pub config: Config,
    /// Deals to play (each is played once per side).
    pub deals: u32,
    /// Seed of the deals and the bots.
    pub seed: u64,
    /// Games played at once (threads).
    pub jobs: usize,
    /// Progress lines on stderr.
    pub progress: bool,
}

/// One deal's results.
#[derive(Debug, Clone, PartialEq)]
pub struct DealResult {
    /// Deal number.
    pub deal: u32,
    /// Per rotation `r` (hero on side `r`): the hero's score, 1 for a win,
    /// ½ for a draw, 0 for a loss.
    pub scores: Vec<f64>,
    /// Per rotation: decisions played.
    pub moves: Vec<u32>,
}

impl DealResult {
    /// The hero's mean score over the rotations of this deal.
    pub fn mean(&self) -> f64 {
        self.scores.iter().sum::<f64>() / self.scores.len().max(1) as f64
    }
}

/// A mean with its 95 % interval (normal approximation,
/// [`sequence_bots::stats::mean_se`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// Its standard error (0 for fewer than two values).
    pub se: f64,
}

impl Estimate {
    /// The 95 % interval.
    pub fn ci(&self) -> (f64, f64) {
        (self.mean - self.half_width(), self.mean + self.half_width())
    }

    /// Half the width of the 95 % interval.
    pub fn half_width(&self) -> f64 {
        stats::Z95 * self.se
    }
}

/// A run's results.
#[derive(Debug, Clone, Default)]
pub struct DuplicateReport {
    /// Per deal, in deal order.
    pub deals: Vec<DealResult>,
}

fn mean_se(xs: &[f64]) -> Estimate {
    let (mean, se) = stats::mean_se(xs);
    Estimate { mean, se }
}

impl DuplicateReport {
    /// Games played.
    pub fn games(&self) -> usize {
        self.deals.iter().map(|d| d.scores.len()).sum()
    }

    /// The hero's score with the interval over deals (duplicate).
    pub fn duplicate(&self) -> Estimate {
        let xs: Vec<f64> = self.deals.iter().map(DealResult::mean).collect();
        mean_se(&xs)
    }

    /// The same games taken as independent games (what the arena reports
    /// for as many games with fresh deals): the interval from the spread of
    /// single games.
    pub fn plain(&self) -> Estimate {
        let xs: Vec<f64> = self
            .deals
            .iter()
            .flat_map(|d| d.scores.iter().copied())
            .collect();
        mean_se(&xs)
    }

    /// The hero's score on side `r` only (one game per deal).
    pub fn side(&self, r: usize) -> Estimate {
        let xs: Vec<f64> = self
            .deals
            .iter()
            .filter_map(|d| d.scores.get(r).copied())
            .collect();
        mean_se(&xs)
    }

    /// How many plain games one duplicate game is worth: the ratio of the
    /// variances of the two estimates.
    pub fn variance_ratio(&self) -> f64 {
        let (d, p) = (self.duplicate().se, self.plain().se);
        (p * p) / (d * d)
    }

    /// Mean decisions per game.
    pub fn mean_moves(&self) -> f64 {
        let n = self.games().max(1) as f64;
        self.deals
            .iter()
            .flat_map(|d| d.moves.iter())
            .map(|&m| m as f64)
            .sum::<f64>()
            / n
    }

    /// A summary in words (several lines).
    pub fn summary(&self, hero: &str, field: &str) -> String {
        let d = self.duplicate();
        let p = self.plain();
        let (dl, dh) = d.ci();
        let (pl, ph) = p.ci();
        let sides: Vec<String> = (0..self.deals.first().map_or(0, |x| x.scores.len()))
            .map(|r| format!("side {r}: {:.1} %", 100.0 * self.side(r).mean))
            .collect();
        format!(
            "{hero} vs {field}: {} deals, {} games, {:.1} moves per game\n\
             duplicate: {:.1} % (95 % CI {:.1}–{:.1}, ±{:.1})\n\
             as plain games: {:.1} % (95 % CI {:.1}–{:.1}, ±{:.1})\n\
             duplicate narrows the interval by {:.0} % (variance ratio {:.2}: one duplicate game is worth {:.2} plain games)\n\
             by side of the hero: {}",
            self.deals.len(),
            self.games(),
            self.mean_moves(),
            100.0 * d.mean,
            100.0 * dl,
            100.0 * dh,
            100.0 * d.half_width(),
            100.0 * p.mean,
            100.0 * pl,
            100.0 * ph,
            100.0 * p.half_width(),
            100.0 * (1.0 - d.half_width() / p.half_width()),
            self.variance_ratio(),
            self.variance_ratio(),
            sides.join(", ")
        )
    }

    /// One line per deal: `deal,score side 0,score side 1,…` (for joining
    /// runs).
    pub fn csv(&self) -> String {
        let mut s = String::new();
        for d in &self.deals {
            s.push_str(&d.deal.to_string());
            for x in &d.scores {
                s.push(',');
                s.push_str(&x.to_string());
            }
            s.push('\n');
        }
        s
    }
}

/// The seed of deal `d` of a run seeded `seed`.
pub fn deal_seed(seed: u64, d: u32) -> u64 {
    mix(seed ^ mix(0xD0_B1E0_0000 + d as u64))
}

/// Reshuffles (C7) alike in both games of a deal: the `k`-th reshuffle
/// sorts the cards and shuffles them with ChaCha8 seeded by the deal and
/// `k`.
pub struct DuplicateReshuffler {
    seed: u64,
    count: u64,
}

impl DuplicateReshuffler {
    /// For the deal seeded `seed`.
    pub fn new(seed: u64) -> DuplicateReshuffler {
        DuplicateReshuffler { seed, count: 0 }
    }
}

impl Reshuffler<Card> for DuplicateReshuffler {
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), sequence_common::ReshuffleError> {
        cards.sort_by_key(|c| c.index());
        let mut rng = game_rng(mix(self.seed ^ mix(0x5E5E + self.count)));
        self.count += 1;
        sequence_common::rng::shuffle(cards, &mut rng);
        Ok(())
    }
}

/// Per deal and side: the hero's score and the decisions played, once
/// that game is done.
type Slots = Vec<Vec<Option<(f64, u32)>>>;

/// Most decisions in one game before it is called a draw.
const MAX_DECISIONS: u32 = 20_000;

/// Plays deal `deal_seed` with the hero's team on side `hero_side`; the
/// hero's score (1, ½, 0) and the decisions played. A bot's illegal move
/// loses the game for its side (a draw among the others with 3 sides).
pub fn play_deal<H, F>(
    config: &Config,
    deal_seed: u64,
    hero_side: usize,
    hero: &H,
    field: &F,
) -> (f64, u32)
where
    H: Fn(u64) -> Box<dyn Bot<Game>> + ?Sized,
    F: Fn(u64) -> Box<dyn Bot<Game>> + ?Sized,
{
    let mut rng = game_rng(deal_seed);
    let (mut game, _deck) = Game::deal(config.clone(), &mut rng);
    let players = game.players();
    let teams = game.teams() as usize;
    let mut bots: Vec<Box<dyn Bot<Game>>> = (0..players)
        .map(|s| {
            // By deal and seat only: the same bot in the same seat plays
            // alike in every rotation.
            let seed = mix(deal_seed ^ mix(0xB07 + s as u64));
            if s as usize % teams == hero_side {
                hero(seed)
            } else {
                field(seed)
            }
        })
        .collect();
    let mut reshuffler = DuplicateReshuffler::new(deal_seed);
    let mut moves = 0;
    while !game.is_over() && moves < MAX_DECISIONS {
        let seat = game.turn();
        let view = game.view(seat);
        let mv = bots[seat.index()].choose(&view);
        if game.play(seat, mv, &mut reshuffler).is_err() {
            let side = game.team_of(seat).index();
            let score = if side == hero_side {
                0.0
            } else if teams == 2 {
                1.0
            } else {
                0.5
            };
            return (score, moves);
        }
        moves += 1;
    }
    for s in 0..players {
        bots[s as usize].game_over(&game.view(Seat(s)));
    }
    let score = match game.status() {
        Status::Won(t) if t.index() == hero_side => 1.0,
        Status::Won(_) => 0.0,
        _ => 0.5,
    };
    (score, moves)
}

/// Plays `cfg.deals` deals, each once per side with the hero's team on that
/// side and every other seat played by the field bot. `hero` and `field`
/// build a bot from a seed.
pub fn run<H, F>(cfg: &DuplicateConfig, hero: &H, field: &F) -> DuplicateReport
where
    H: Fn(u64) -> Box<dyn Bot<Game>> + Sync + ?Sized,
    F: Fn(u64) -> Box<dyn Bot<Game>> + Sync + ?Sized,
{
    let sides = cfg.config.teams() as usize;
    let total = cfg.deals as usize * sides;
    let next = AtomicUsize::new(0);
    let slots: Mutex<Slots> = Mutex::new(vec![vec![None; sides]; cfg.deals as usize]);
    let done = Mutex::new((0usize, Instant::now()));
    let started = Instant::now();
    let jobs = cfg.jobs.max(1).min(total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let (d, r) = (i / sides, i % sides);
                let seed = deal_seed(cfg.seed, d as u32);
                let res = play_deal(&cfg.config, seed, r, hero, field);
                let Ok(mut s) = slots.lock() else { break };
                s[d][r] = Some(res);
                if cfg.progress {
                    if let Ok(mut dn) = done.lock() {
                        dn.0 += 1;
                        if dn.0 == total || dn.1.elapsed().as_secs() >= 30 {
                            dn.1 = Instant::now();
                            let report = report_of(&s);
                            let e = report.duplicate();
                            eprintln!(
                                "{} / {total} games after {:.0} s: {} complete deals, hero {:.1} % ± {:.1}",
                                dn.0,
                                started.elapsed().as_secs_f64(),
                                report.deals.len(),
                                100.0 * e.mean,
                                100.0 * e.half_width()
                            );
                        }
                    }
                }
            });
        }
    });
    let slots = slots.into_inner().unwrap_or_default();
    report_of(&slots)
}

/// The complete deals of `slots` as a report.
fn report_of(slots: &[Vec<Option<(f64, u32)>>]) -> DuplicateReport {
    let deals = slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.iter().all(Option::is_some))
        .map(|(d, s)| DealResult {
            deal: d as u32,
            scores: s.iter().flatten().map(|x| x.0).collect(),
            moves: s.iter().flatten().map(|x| x.1).collect(),
        })
        .collect();
    DuplicateReport { deals }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_classic::Options;

    /// Both games of a deal start from the same deck and dealer, and a
    /// bot against itself, seeded alike, plays both games alike.
    #[test]
    fn a_deal_replays_alike_with_the_seats_swapped() {
        let cfg = Config::new(2, None, Options::default()).expect("config");
        let seed = deal_seed(5, 0);
        let mk = |s: u64| sequence_bots::bot::<Game>("greedy", s).expect("bot");
        let a = play_deal(&cfg, seed, 0, &mk, &mk);
        let b = play_deal(&cfg, seed, 0, &mk, &mk);
        assert_eq!(a, b, "the same deal and seeds replay alike");
        let c = play_deal(&cfg, seed, 1, &mk, &mk);
        assert_eq!(
            a.0 + c.0,
            1.0,
            "the same bot wins on one side of the deal: {a:?} {c:?}"
        );
    }

    #[test]
    fn reshuffles_depend_only_on_the_cards_and_their_number() {
        let mut a: Vec<Card> = Card::all().take(30).collect();
        let mut b = a.clone();
        b.reverse();
        DuplicateReshuffler::new(9)
            .reshuffle(&mut a)
            .expect("order");
        DuplicateReshuffler::new(9)
            .reshuffle(&mut b)
            .expect("order");
        assert_eq!(a, b);
    }

    #[test]
    fn greedy_against_itself_scores_half_and_duplicate_narrows_the_interval() {
        let cfg = DuplicateConfig {
            config: Config::new(2, None, Options::default()).expect("config"),
            deals: 30,
            seed: 1,
            jobs: 1,
            progress: false,
        };
        let mk = |s: u64| sequence_bots::bot::<Game>("greedy", s).expect("bot");
        let r = run(&cfg, &mk, &mk);
        assert_eq!(r.games(), 60);
        assert!((r.duplicate().mean - r.plain().mean).abs() < 1e-12);
        assert!(r.duplicate().se < r.plain().se);
    }
}
