//! An arena run's results: per game, per bot (wins, draws, losses, the
//! Wilson interval, Elo) and with duplicate games per deal; as JSON and a
//! text table.

use super::duplicate::{self, DuplicateStats};
use super::game::GameResult;
use crate::stats;
use serde::Serialize;

/// One bot's totals.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BotStats {
    /// The bot's name.
    pub name: String,
    /// Games it took part in.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Games lost by failing (crash, timeout, illegal move).
    pub failures: u32,
    /// Elo rating (mean of all bots = 1500).
    pub elo: f64,
}

impl BotStats {
    /// Wins / games.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// Wilson 95 % interval of the win rate.
    pub fn win_ci(&self) -> (f64, f64) {
        stats::wilson(self.wins as f64, self.games as f64)
    }
}

/// An arena run's results.
#[derive(Debug, Clone)]
pub struct ArenaReport {
    /// Per game.
    pub games: Vec<GameResult>,
    /// Per bot, in the order given.
    pub bots: Vec<BotStats>,
    /// With duplicate games: seatings per deal and the statistics over
    /// deals.
    pub duplicate: Option<(usize, Vec<DuplicateStats>)>,
}

/// Totals per bot and Elo ratings from game results.
pub fn tally(names: &[String], games: &[GameResult]) -> Vec<BotStats> {
    let n = names.len();
    let mut stats: Vec<BotStats> = names
        .iter()
        .map(|name| BotStats {
            name: name.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            failures: 0,
            elo: 1500.0,
        })
        .collect();
    // Pairwise scores for Elo: score[a][b] = points of a against b.
    let mut score = vec![vec![0.0f64; n]; n];
    let mut count = vec![vec![0.0f64; n]; n];
    for r in games {
        let mut present: Vec<usize> = r.sides.clone();
        present.sort_unstable();
        present.dedup();
        let winner_bot = r.winner.map(|u| r.sides[u]);
        for &b in &present {
            let s = &mut stats[b];
            s.games += 1;
            match winner_bot {
                Some(w) if w == b => s.wins += 1,
                Some(_) => s.losses += 1,
                None => {
                    if r.failure
                        .as_ref()
                        .is_some_and(|(side, _)| r.sides[*side] == b)
                    {
                        s.losses += 1
                    } else {
                        s.draws += 1
                    }
                }
            }
        }
        if let Some((side, _)) = &r.failure {
            stats[r.sides[*side]].failures += 1;
        }
        for &a in &present {
            for &b in &present {
                if a == b {
                    continue;
                }
                let failed = r.failure.as_ref().map(|(side, _)| r.sides[*side]);
                let pts = match (winner_bot, failed) {
                    (Some(w), _) if w == a => 1.0,
                    (Some(w), _) if w == b => 0.0,
                    // With 3 sides or more a failure leaves no winner: the
                    // failing bot loses to every other.
                    (None, Some(f)) if f == a => 0.0,
                    (None, Some(f)) if f == b => 1.0,
                    _ => 0.5,
                };
                score[a][b] += pts;
                count[a][b] += 1.0;
            }
        }
    }
    for (b, e) in stats::elo(&score, &count).into_iter().enumerate() {
        stats[b].elo = e;
    }
    stats
}

impl ArenaReport {
    /// `{"games": N, "bots": [{"name", "games", "wins", "draws", "losses",
    /// "elo"}]}`; a bot's `games` are those it took part in (fewer than `N`
    /// when there are more bots than sides).
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "games": self.games.len(),
            "bots": self.bots.iter().map(|b| serde_json::json!({
                "name": b.name,
                "games": b.games,
                "wins": b.wins,
                "draws": b.draws,
                "losses": b.losses,
                "elo": (b.elo * 10.0).round() / 10.0,
            })).collect::<Vec<_>>(),
        });
        if let Some((seatings, stats)) = &self.duplicate {
            let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
            v["duplicate"] = serde_json::json!({
                "seatings": seatings,
                "bots": stats.iter().map(|b| serde_json::json!({
                    "name": b.name,
                    "deals": b.deals,
                    "score": r3(b.score),
                    "ci": [r3(b.ci.0), r3(b.ci.1)],
                    "plain_game_ci": [r3(b.naive_ci.0), r3(b.naive_ci.1)],
                    "narrowing": (b.narrowing * 100.0).round() / 100.0,
                    "elo": b.elo.round(),
                    "elo_ci": [b.elo_ci.0.round(), b.elo_ci.1.round()],
                })).collect::<Vec<_>>(),
            });
        }
        v
    }

    /// The results as a text table.
    pub fn table(&self) -> String {
        let w = self
            .bots
            .iter()
            .map(|b| b.name.chars().count())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut s = format!(
            "{:<w$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6}  {:>15}  {:>6}\n",
            "bot", "games", "wins", "draws", "losses", "win %", "95% CI", "Elo"
        );
        for b in &self.bots {
            let (lo, hi) = b.win_ci();
            s += &format!(
                "{:<w$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6.1}  {:>15}  {:>6.0}\n",
                b.name,
                b.games,
                b.wins,
                b.draws,
                b.losses,
                100.0 * b.win_rate(),
                format!("{:.1}–{:.1}", 100.0 * lo, 100.0 * hi),
                b.elo
            );
        }
        let failures: u32 = self.bots.iter().map(|b| b.failures).sum();
        if failures > 0 {
            s += &format!(
                "{failures} game(s) lost by a bot failing (crash, timeout or illegal move)\n"
            );
        }
        if let Some((seatings, stats)) = &self.duplicate {
            s += &duplicate::table(stats, *seatings);
        }
        s
    }
}
