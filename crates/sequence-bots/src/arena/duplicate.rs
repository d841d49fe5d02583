//! Duplicate games (as in duplicate bridge): each deal — deck order,
//! reshuffle orders, dealer — is played once per seating, the bots' sides
//! rotated, so the luck of the cards cancels. A bot's result on a deal is
//! its mean score over that deal's games (win 1, draw ½, loss 0); the deals
//! are independent, so the 95 % interval is computed over deals. The same
//! games counted one by one give the interval plain (non-duplicate) games
//! would have; the ratio of the two widths is how much the pairing
//! narrows it. The formulas are in [`crate::stats`].

use super::game::GameResult;
use crate::stats::{deal_interval, elo_of_score, mean_ci, wilson};
use serde::Serialize;

/// One bot's duplicate statistics.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DuplicateStats {
    /// The bot's name.
    pub name: String,
    /// Deals it played.
    pub deals: u32,
    /// Mean score per game (win 1, draw ½, loss 0).
    pub score: f64,
    /// 95 % interval of the score, over deals.
    pub ci: (f64, f64),
    /// 95 % interval of the score as if the games were independent (what
    /// plain games give).
    pub naive_ci: (f64, f64),
    /// Width of `naive_ci` over the width of `ci` (above 1: duplicate
    /// narrows the interval).
    pub narrowing: f64,
    /// Elo against the rest of the field from the score (1500 ± half the
    /// difference a score `p` means between two players, 400·log10(p/(1−p))).
    pub elo: f64,
    /// The Elo of the interval's ends.
    pub elo_ci: (f64, f64),
}

/// The points of bot `b` in game `r` (it plays at least one side there):
/// 1 for a win of one of its sides, ½ for a draw without a failure of its
/// own, 0 otherwise.
fn points(r: &GameResult, b: usize) -> f64 {
    match r.winner {
        Some(w) if r.sides[w] == b => 1.0,
        Some(_) => 0.0,
        None => {
            if r.failure
                .as_ref()
                .is_some_and(|(side, _)| r.sides[*side] == b)
            {
                0.0
            } else {
                0.5
            }
        }
    }
}

/// Duplicate statistics per bot from games played in sets of one deal
/// (`GameResult::deal`).
pub fn stats(names: &[String], games: &[GameResult]) -> Vec<DuplicateStats> {
    let deals = games.iter().map(|g| g.deal + 1).max().unwrap_or(0) as usize;
    names
        .iter()
        .enumerate()
        .map(|(b, name)| {
            let mut per_deal = vec![(0.0f64, 0u32); deals];
            let mut per_game = Vec::new();
            for r in games.iter().filter(|r| r.sides.contains(&b)) {
                let p = points(r, b);
                per_game.push(p);
                let d = &mut per_deal[r.deal as usize];
                d.0 += p;
                d.1 += 1;
            }
            let deal_scores: Vec<f64> = per_deal
                .iter()
                .filter(|d| d.1 > 0)
                .map(|d| d.0 / d.1 as f64)
                .collect();
            let (score, _) = mean_ci(&deal_scores);
            let ci = deal_interval(&deal_scores);
            // As the plain arena table has it: the Wilson interval of the
            // points over games.
            let naive_ci = wilson(per_game.iter().sum::<f64>(), per_game.len() as f64);
            let width = ci.1 - ci.0;
            DuplicateStats {
                name: name.clone(),
                deals: deal_scores.len() as u32,
                score,
                ci,
                naive_ci,
                narrowing: if width > 0.0 {
                    (naive_ci.1 - naive_ci.0) / width
                } else {
                    1.0
                },
                elo: elo_of_score(score),
                elo_ci: (elo_of_score(ci.0), elo_of_score(ci.1)),
            }
        })
        .collect()
}

/// The duplicate statistics as a text table.
pub fn table(stats: &[DuplicateStats], seatings: usize) -> String {
    let w = stats
        .iter()
        .map(|b| b.name.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    let deals = stats.iter().map(|s| s.deals).max().unwrap_or(0);
    let mut s = format!(
        "duplicate: {deals} deals × {seatings} seatings (intervals over deals)\n{:<w$}  {:>7}  {:>13}  {:>6}  {:>11}  {:>13}  {:>9}\n",
        "bot", "score %", "95% CI", "Elo", "Elo 95% CI", "plain-game CI", "narrowing"
    );
    for b in stats {
        s += &format!(
            "{:<w$}  {:>7.1}  {:>13}  {:>6.0}  {:>11}  {:>13}  {:>8.2}×\n",
            b.name,
            100.0 * b.score,
            format!("{:.1}–{:.1}", 100.0 * b.ci.0, 100.0 * b.ci.1),
            b.elo,
            format!("{:.0}–{:.0}", b.elo_ci.0, b.elo_ci.1),
            format!("{:.1}–{:.1}", 100.0 * b.naive_ci.0, 100.0 * b.naive_ci.1),
            b.narrowing
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(deal: u32, sides: [usize; 2], winner: Option<usize>) -> GameResult {
        GameResult {
            index: 0,
            deal,
            sides: sides.to_vec(),
            winner,
            moves: 10,
            failure: None,
        }
    }

    #[test]
    fn a_deal_won_by_each_seat_cancels_and_the_interval_is_over_deals() {
        let names = vec!["a".to_string(), "b".to_string()];
        // Deal 0: side 0 wins both games (the cards decided): 1–1.
        // Deals 1, 2: bot a wins both seatings.
        let games = vec![
            game(0, [0, 1], Some(0)),
            game(0, [1, 0], Some(0)),
            game(1, [0, 1], Some(0)),
            game(1, [1, 0], Some(1)),
            game(2, [0, 1], Some(0)),
            game(2, [1, 0], Some(1)),
        ];
        let s = stats(&names, &games);
        assert_eq!(s[0].deals, 3);
        assert!((s[0].score - 5.0 / 6.0).abs() < 1e-9);
        assert!((s[1].score - 1.0 / 6.0).abs() < 1e-9);
        // Per-deal scores of a: 0.5, 1, 1 (and the pseudo-deals 0 and 1).
        assert_eq!(s[0].ci, deal_interval(&[0.5, 1.0, 1.0]));
        let (m, h) = mean_ci(&[0.5, 1.0, 1.0, 0.0, 1.0]);
        assert!((s[0].ci.0 - (m - h)).abs() < 1e-9);
        assert!(s[0].elo > 1500.0 && s[1].elo < 1500.0);
        assert!((s[0].elo - 1500.0 + s[1].elo - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn pairing_narrows_the_interval_when_the_cards_decide() {
        // In every deal the seat decides: each bot wins once per deal.
        let names = vec!["a".to_string(), "b".to_string()];
        let mut games = Vec::new();
        for d in 0..50 {
            let w = (d % 2) as usize;
            games.push(game(d, [0, 1], Some(w)));
            games.push(game(d, [1, 0], Some(w)));
        }
        let s = stats(&names, &games);
        assert!((s[0].score - 0.5).abs() < 1e-9);
        // Every deal scores exactly ½: almost no variance over deals left,
        // but never a zero-width interval.
        let width = s[0].ci.1 - s[0].ci.0;
        assert!(width > 0.0 && width < 0.06, "{:?}", s[0].ci);
        assert!(s[0].naive_ci.1 - s[0].naive_ci.0 > 0.15);
        assert!(s[0].narrowing > 3.0);
    }

    #[test]
    fn a_few_deals_all_won_do_not_claim_certainty() {
        // Regression: 10 deals, bot a won every game: the interval was
        // 100.0–100.0 (Elo 900–900 for b).
        let names = vec!["a".to_string(), "b".to_string()];
        let mut games = Vec::new();
        for d in 0..10 {
            games.push(game(d, [0, 1], Some(0)));
            games.push(game(d, [1, 0], Some(1)));
        }
        let s = stats(&names, &games);
        assert_eq!(s[1].score, 0.0);
        assert_eq!(s[1].ci.0, 0.0);
        assert!(s[1].ci.1 > 0.1, "{:?}", s[1].ci);
        assert!(s[0].ci.0 < 0.9, "{:?}", s[0].ci);
    }
}
