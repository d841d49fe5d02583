//! The game being played at a table, written once for every game: a
//! [`sequence_common::AnyGame`] (a `Match` of the engine's game behind one
//! type), played by [`play_logged`] for the move log, and the rules of a
//! table's game before any deal ([`sequence_common::AnyRules`]: checking
//! a [`Spec`], seating and dealing it), through the workspace's one
//! registration of its games ([`sequence_bots::rules`]). The server names
//! no game type: bots, hints, replays and analyses are the bots' type-erased
//! API too ([`sequence_bots::AnyBot`], [`sequence_bots::replay`]).

use super::error::TableError;
use super::spec::Spec;
use sequence_common::{AnyGame, AnyRules, TableSetup};
use serde_json::Value;

pub use sequence_common::Logged;

/// Plays a move sent as JSON on a table's game and says what it did for
/// the move log ([`sequence_common::play_logged`]: the entry with its
/// public effects, the fields for the entry before it).
///
/// # Errors
/// [`TableError::Refused`]: with the notation's code when it cannot be
/// read, with the rule's code when the rules
/// refuse it; nothing changes then.
pub fn play_logged(live: &mut dyn AnyGame, mv: &Value) -> Result<Logged, TableError> {
    Ok(sequence_common::play_logged(live, mv)?)
}

/// Checking, seating and dealing a table are the engine's
/// ([`AnyRules`]).
impl Spec {
    /// The rules of the table's game ([`sequence_bots::rules`]).
    pub fn rules(&self) -> &'static dyn AnyRules {
        sequence_bots::rules(self.game)
    }

    /// The table as the engine is asked for it.
    fn setup(&self) -> TableSetup<'_> {
        TableSetup {
            players: self.players,
            teams: self.teams,
            options: &self.options,
        }
    }

    /// Checks the configuration with the engine (players, teams, options;
    /// [`AnyRules::check_table`]); the number of teams (the default
    /// applied) in a game with teams.
    ///
    /// # Errors
    /// A message naming the bad field or rule (C3, S1, option names).
    pub fn check_teams(&self) -> Result<Option<u8>, String> {
        self.rules().check_table(self.setup())
    }

    /// Checks the configuration with the engine (players, teams, options).
    ///
    /// # Errors
    /// A message naming the bad field or rule (C3, S1, option names).
    pub fn check(&self) -> Result<(), String> {
        self.check_teams().map(|_| ())
    }

    /// Number of teams (the default applied) in a game with teams; `None`
    /// in a game without (Stacks) or when the spec does not check.
    pub fn team_count(&self) -> Option<u8> {
        self.check_teams().ok().flatten()
    }

    /// The teams of the table and the team of each seat, by name, as the
    /// engine seats them (C3), known before the deal
    /// ([`AnyRules::seat_teams`]).
    pub fn seat_teams(&self) -> Option<(u8, Vec<Value>)> {
        self.rules().seat_teams(self.setup())
    }

    /// A new game of the table, dealt from `seed` ([`AnyRules::deal`]).
    ///
    /// # Errors
    /// As [`Spec::check`].
    pub fn deal(&self, seed: u64) -> Result<Box<dyn AnyGame>, String> {
        self.rules().deal(self.setup(), seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_common::any::naming_the_rule;
    use sequence_common::{GameKind, PlayError, Seat};

    fn spec(game: GameKind, players: u8, teams: Option<u8>, options: Value) -> Spec {
        Spec {
            teams,
            options,
            ..Spec::plain(game, players, "t")
        }
    }

    /// Regression (a fresh user's test): a card not in hand was refused
    /// as `illegal move: KD not in hand` without its rule (C6).
    #[test]
    fn refusals_name_their_rule() {
        use sequence_common::RuleError;
        let e = sequence_classic::IllegalMove::NotInHand("KD".parse().expect("a card"));
        assert_eq!(e.code(), "C6.not_in_hand");
        assert_eq!(
            naming_the_rule(&e.to_string(), e.code()),
            "illegal move: KD not in hand (C6)"
        );
        let e = sequence_classic::IllegalMove::GameOver;
        assert_eq!(
            naming_the_rule(&e.to_string(), e.code()),
            "illegal move: the game is over (C9)"
        );
    }

    #[test]
    fn each_kind_gets_its_game() {
        for k in GameKind::ALL {
            assert_eq!(spec(k, 2, None, Value::Null).rules().kind(), k);
            let live = spec(k, 2, None, Value::Null)
                .deal(1)
                .expect("a two-seat table starts");
            assert_eq!(live.kind(), k);
            assert_eq!(live.ply(), 0);
            assert!(live.to_act().is_some());
            assert_eq!(live.winner_json(), Value::Null);
        }
    }

    #[test]
    fn the_engine_checks_the_table() {
        let classic = |players, teams| spec(GameKind::Classic, players, teams, Value::Null);
        assert_eq!(classic(4, None).check_teams(), Ok(Some(2)));
        assert!(classic(5, None).check_teams().unwrap_err().contains("C3"));
        let stacks = |players, teams, options| spec(GameKind::Stacks, players, teams, options);
        assert_eq!(stacks(3, None, Value::Null).check_teams(), Ok(None));
        assert!(stacks(9, None, Value::Null)
            .check_teams()
            .unwrap_err()
            .contains("2 to 6"));
        assert!(stacks(3, Some(3), Value::Null)
            .check_teams()
            .unwrap_err()
            .contains("no teams"));
        assert!(stacks(3, None, serde_json::json!([]))
            .check_teams()
            .unwrap_err()
            .contains("piles_per_colour"));
        assert_eq!(
            classic(2, None).rules().side_json(0),
            serde_json::json!("blue")
        );
        assert_eq!(
            stacks(2, None, Value::Null).rules().side_json(2),
            serde_json::json!(2)
        );
        // each seat's team before the deal, as the engine seats them (C3)
        let (teams, seats) = classic(6, Some(3)).seat_teams().expect("teams");
        assert_eq!(teams, 3);
        assert_eq!(
            seats,
            ["blue", "green", "red", "blue", "green", "red"].map(|t| serde_json::json!(t))
        );
        let live = classic(6, Some(3)).deal(1).expect("starts");
        for (s, team) in seats.iter().enumerate() {
            assert_eq!(&live.side_json(live.side_of(Seat(s as u8))), team);
        }
        assert_eq!(stacks(3, None, Value::Null).seat_teams(), None);
    }

    #[test]
    fn refused_moves_carry_the_engine_codes() {
        let mut live = spec(GameKind::Classic, 2, None, Value::Null)
            .deal(3)
            .expect("starts");
        let seat = live.to_act().expect("someone acts").0;
        let e = play_logged(
            live.as_mut(),
            &serde_json::json!({"seat": seat, "at": "e5"}),
        )
        .unwrap_err();
        assert_eq!(e.code(), Some("notation.missing"), "{e}");
        assert!(e.message().starts_with("malformed move: "), "{e}");
        let e = play_logged(
            live.as_mut(),
            &serde_json::json!({"seat": seat, "pass": true}),
        )
        .unwrap_err();
        assert!(
            matches!(e, TableError::Refused(PlayError::Illegal { .. })),
            "{e}"
        );
        assert!(e.code().is_some_and(|c| c.starts_with('C')), "{e}");
        assert!(e.message().starts_with("illegal move: "), "{e}");
        assert_eq!(live.ply(), 0);
    }
}
