//! Ratings of finished rated games (the `skillratings` crate): Glicko-2
//! for one against one (classic 2-player, Stacks 2-player), Weng-Lin
//! (OpenSkill's Bayesian model) for teams and three or more sides. One
//! rating per account and [`RatingKind`]; each game is its own rating
//! period, as lichess does. What a game's end holds and how it is stored:
//! [`crate::db`] (`record_game`, in the transaction of the move that ends
//! the game).
//!
//! Ratings are shown on one scale: Glicko-2 as it is (1500 ± 350 at the
//! start), Weng-Lin's μ and σ times [`WENG_LIN_SCALE`] (25 ± 8.3 → 1500 ±
//! 500). A rating is provisional while its shown deviation is over
//! [`PROVISIONAL_DEVIATION`] (lichess's rule), which takes about ten
//! games from the start.

use sequence_common::GameKind;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

/// Weng-Lin μ and σ times this are the shown rating and deviation.
pub const WENG_LIN_SCALE: f64 = 60.0;
/// A rating whose shown deviation is over this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The kinds of game rated apart (one rating each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RatingKind {
    /// Classic, two players, one against one (Glicko-2).
    Classic1v1,
    /// Classic, two teams of two or more (Weng-Lin).
    ClassicTeams,
    /// Classic, three sides of one or more (Weng-Lin).
    Classic3Sides,
    /// Stacks, two players (Glicko-2).
    Stacks1v1,
    /// Stacks, three to six players (Weng-Lin).
    StacksMulti,
}

/// Every kind, in the order pages show them.
pub const KINDS: [RatingKind; 5] = [
    RatingKind::Classic1v1,
    RatingKind::ClassicTeams,
    RatingKind::Classic3Sides,
    RatingKind::Stacks1v1,
    RatingKind::StacksMulti,
];

impl RatingKind {
    /// The kind of a game of `game` with `players` seats in `sides` sides
    /// (teams for classic; Stacks: a side per seat).
    pub fn of(game: GameKind, players: u8, sides: u8) -> RatingKind {
        match game {
            GameKind::Classic if sides >= 3 => RatingKind::Classic3Sides,
            GameKind::Classic if players > 2 => RatingKind::ClassicTeams,
            GameKind::Classic => RatingKind::Classic1v1,
            GameKind::Stacks if players > 2 => RatingKind::StacksMulti,
            GameKind::Stacks => RatingKind::Stacks1v1,
        }
    }

    /// The stored name: `classic-1v1`, `classic-teams`, `classic-3sides`,
    /// `stacks-1v1`, `stacks-multi`.
    pub fn name(self) -> &'static str {
        match self {
            RatingKind::Classic1v1 => "classic-1v1",
            RatingKind::ClassicTeams => "classic-teams",
            RatingKind::Classic3Sides => "classic-3sides",
            RatingKind::Stacks1v1 => "stacks-1v1",
            RatingKind::StacksMulti => "stacks-multi",
        }
    }

    /// The kind of a stored name.
    pub fn from_name(name: &str) -> Option<RatingKind> {
        KINDS.into_iter().find(|k| k.name() == name)
    }

    /// Whether Glicko-2 rates it (one against one); else Weng-Lin.
    pub fn glicko(self) -> bool {
        matches!(self, RatingKind::Classic1v1 | RatingKind::Stacks1v1)
    }
}

/// A stored rating: `rating` and `deviation` in the system's own units
/// (Glicko-2 rating and RD; Weng-Lin μ and σ), `volatility` (Glicko-2
/// only), and games rated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// Glicko-2 rating or Weng-Lin μ.
    pub rating: f64,
    /// Glicko-2 deviation or Weng-Lin σ.
    pub deviation: f64,
    /// Glicko-2 volatility (0.06 at the start; unused by Weng-Lin).
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

impl Rating {
    /// The start of every account in `kind`.
    pub fn initial(kind: RatingKind) -> Rating {
        if kind.glicko() {
            let g = Glicko2Rating::new();
            Rating {
                rating: g.rating,
                deviation: g.deviation,
                volatility: g.volatility,
                games: 0,
            }
        } else {
            let w = WengLinRating::new();
            Rating {
                rating: w.rating,
                deviation: w.uncertainty,
                volatility: 0.0,
                games: 0,
            }
        }
    }

    /// `(rating, deviation)` as pages show them (one scale for both
    /// systems).
    pub fn shown(&self, kind: RatingKind) -> (f64, f64) {
        if kind.glicko() {
            (self.rating, self.deviation)
        } else {
            (
                self.rating * WENG_LIN_SCALE,
                self.deviation * WENG_LIN_SCALE,
            )
        }
    }

    /// Whether the rating is still provisional.
    pub fn provisional(&self, kind: RatingKind) -> bool {
        self.shown(kind).1 > PROVISIONAL_DEVIATION
    }

    fn glicko2(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.rating,
            uncertainty: self.deviation,
        }
    }
}

/// The ratings after one game: `sides` holds each side's players'
/// ratings and the side's place (1 = first; equal places tie). Glicko-2
/// for [`RatingKind::glicko`] kinds (exactly two sides of one player),
/// Weng-Lin otherwise. The answer has the same shape, games counted.
pub fn rate(kind: RatingKind, sides: &[(Vec<Rating>, usize)]) -> Vec<Vec<Rating>> {
    let counted = |r: Rating, new_rating: f64, new_dev: f64, vol: f64| Rating {
        rating: new_rating,
        deviation: new_dev,
        volatility: vol,
        games: r.games + 1,
    };
    if kind.glicko() && sides.len() == 2 && sides.iter().all(|(p, _)| p.len() == 1) {
        let (a, b) = (sides[0].0[0], sides[1].0[0]);
        let outcome = match sides[0].1.cmp(&sides[1].1) {
            std::cmp::Ordering::Less => Outcomes::WIN,
            std::cmp::Ordering::Greater => Outcomes::LOSS,
            std::cmp::Ordering::Equal => Outcomes::DRAW,
        };
        let (na, nb) = glicko2(&a.glicko2(), &b.glicko2(), &outcome, &Glicko2Config::new());
        return vec![
            vec![counted(a, na.rating, na.deviation, na.volatility)],
            vec![counted(b, nb.rating, nb.deviation, nb.volatility)],
        ];
    }
    let teams: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|(p, _)| p.iter().map(Rating::weng_lin).collect())
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(sides)
        .map(|(t, (_, place))| (t.as_slice(), MultiTeamOutcome::new(*place)))
        .collect();
    let new = weng_lin_multi_team(&ranked, &WengLinConfig::new());
    new.iter()
        .zip(sides)
        .map(|(team, (old, _))| {
            team.iter()
                .zip(old)
                .map(|(n, o)| counted(*o, n.rating, n.uncertainty, o.volatility))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example (glicko2.pdf, "Example calculation"): a
    /// player at 1500 / 200 / 0.06 against 1400 / 30, 1550 / 100 and
    /// 1700 / 300, winning the first and losing the others, ends at about
    /// 1464.06 with deviation about 151.52 (τ = 0.5).
    #[test]
    fn glickmans_worked_example() {
        let r = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (r(1400.0, 30.0), Outcomes::WIN),
            (r(1550.0, 100.0), Outcomes::LOSS),
            (r(1700.0, 300.0), Outcomes::LOSS),
        ];
        let new = glicko2_rating_period(&r(1500.0, 200.0), &results, &Glicko2Config::new());
        assert!((new.rating - 1464.06).abs() < 0.01, "{}", new.rating);
        assert!((new.deviation - 151.52).abs() < 0.01, "{}", new.deviation);
        assert!(
            (new.volatility - 0.05999).abs() < 0.00001,
            "{}",
            new.volatility
        );
    }

    /// The server's own path for one game: the same formula as a rating
    /// period of one game, the winner up, the loser down, games counted.
    #[test]
    fn one_against_one_uses_glicko2() {
        let k = RatingKind::Classic1v1;
        let a = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
            games: 4,
        };
        let b = Rating {
            rating: 1400.0,
            deviation: 30.0,
            volatility: 0.06,
            games: 9,
        };
        let new = rate(k, &[(vec![a], 1), (vec![b], 2)]);
        let want = glicko2_rating_period(
            &a.glicko2(),
            &[(b.glicko2(), Outcomes::WIN)],
            &Glicko2Config::new(),
        );
        assert!((new[0][0].rating - want.rating).abs() < 1e-9);
        assert!((new[0][0].deviation - want.deviation).abs() < 1e-9);
        assert!(new[0][0].rating > 1500.0 && new[1][0].rating < 1400.0);
        assert_eq!((new[0][0].games, new[1][0].games), (5, 10));
        // a draw between equals changes no rating
        let i = Rating::initial(k);
        let d = rate(k, &[(vec![i], 1), (vec![i], 1)]);
        assert!((d[0][0].rating - 1500.0).abs() < 1e-6);
        assert!(d[0][0].deviation < 350.0);
    }

    #[test]
    fn teams_and_three_sides_use_weng_lin() {
        let k = RatingKind::ClassicTeams;
        let i = Rating::initial(k);
        let (r, d) = i.shown(k);
        assert!(
            (r - 1500.0).abs() < 1e-9 && (d - 500.0).abs() < 1e-9,
            "{r} {d}"
        );
        assert!(i.provisional(k));
        let new = rate(k, &[(vec![i, i], 2), (vec![i, i], 1)]);
        assert!(new[1][0].rating > 25.0 && new[1][1].rating > 25.0);
        assert!(new[0][0].rating < 25.0);
        assert!(new[0][0].deviation < i.deviation);
        let k3 = RatingKind::Classic3Sides;
        let new = rate(k3, &[(vec![i], 1), (vec![i], 2), (vec![i], 2)]);
        assert!(new[0][0].rating > new[1][0].rating);
        assert!((new[1][0].rating - new[2][0].rating).abs() < 1e-9);
    }

    #[test]
    fn kinds_follow_the_table() {
        use GameKind::{Classic, Stacks};
        assert_eq!(RatingKind::of(Classic, 2, 2), RatingKind::Classic1v1);
        assert_eq!(RatingKind::of(Classic, 4, 2), RatingKind::ClassicTeams);
        assert_eq!(RatingKind::of(Classic, 3, 3), RatingKind::Classic3Sides);
        assert_eq!(RatingKind::of(Classic, 6, 3), RatingKind::Classic3Sides);
        assert_eq!(RatingKind::of(Stacks, 2, 2), RatingKind::Stacks1v1);
        assert_eq!(RatingKind::of(Stacks, 4, 4), RatingKind::StacksMulti);
        for k in KINDS {
            assert_eq!(RatingKind::from_name(k.name()), Some(k));
        }
    }
}
