//! The game being played at a table, written once for both games: a
//! [`sequence_common::AnyGame`] (a [`Match`] of the engine's game behind
//! one type), played by [`play_logged`] for the move log.
//!
//! [`TableGame`] is what the server does where it needs a game's type
//! (checking a [`Spec`], dealing, bots, hints, replays); [`game_of`] gives
//! the one of a [`GameKind`], through the workspace's one registration of
//! its games ([`sequence_bots::with_game`]).

use super::error::TableError;
use super::spec::{read_options, Spec};
use sequence_bots::{with_game, BotGame, ForGame};
use sequence_common::record::Match;
use sequence_common::{AnyGame, GameKind, Seat, TableConfig};
use serde_json::{json, Value};
use std::marker::PhantomData;

/// A bot's move, to be computed away from the table (on a blocking
/// thread): the move as the API takes it (with `seat`), or `None` when the
/// seat has no legal move.
pub type BotMove = Box<dyn FnOnce() -> Option<Value> + Send>;

/// A hint to compute away from the table ([`TableGame::hint`]).
pub type Hint = Box<dyn FnOnce() -> Value + Send>;

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

/// What a hint asks of the search ([`TableGame::hint`]): iterations, how
/// many of the best moves to give, and the search's seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HintAsk {
    /// Search iterations.
    pub iterations: u64,
    /// How many of the best moves to give.
    pub top: usize,
    /// The search's seed.
    pub seed: u64,
}

/// What the server does with a game of one kind where it needs the
/// game's type: checking a [`Spec`] and dealing, the lobby's description,
/// and what takes a bot or a search (a bot's move, a penalty discard, a
/// hint, the replay and analysis of a finished game). Implemented once
/// for every game; [`game_of`] gives the one of a [`GameKind`].
pub trait TableGame: Sync {
    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// Checks a table's players, teams and rule options with the engine
    /// ([`sequence_common::Rules::table`]); returns the number of teams in a game with
    /// teams (the default applied), `None` in a game without.
    ///
    /// # Errors
    /// A message naming the bad field, option or rule (C3, S1).
    fn check(&self, spec: &Spec) -> Result<Option<u8>, String>;

    /// A team's name as views and records write it (classic: its colour).
    fn team_name(&self, team: u8) -> Value;

    /// Why a table of this game cannot be given the table-talk penalty
    /// (C10): `None` when it can ([`sequence_common::Notation::TABLE_TALK_PENALTY`]).
    fn no_penalty(&self) -> Option<String>;

    /// The teams of a table of `spec` and the team of each seat, by name,
    /// as the engine seats them (C3), known before the deal; `None` in a
    /// game without teams or for a spec the engine refuses.
    fn seat_teams(&self, spec: &Spec) -> Option<(u8, Vec<Value>)>;

    /// A new game of the table, dealt from `seed`.
    ///
    /// # Errors
    /// As [`TableGame::check`].
    fn start(&self, spec: &Spec, seed: u64) -> Result<Box<dyn AnyGame>, String>;

    /// The game for `GET /api/games` (see [`super::game::describe`]).
    fn describe(&self) -> Value;

    /// Replaces the lobby's shorthands in rule options (a random board,
    /// drawn from a fresh seed).
    fn prepare_options(&self, options: &mut Value);

    /// A bot of `level` to choose `seat`'s move in `live` from that seat's
    /// view only, seeded with `seed`, to run away from the table (on a
    /// blocking thread). Levels a table may not have (see
    /// [`crate::bots::level_ok`]) play at random.
    fn bot_move(&self, live: &dyn AnyGame, seat: Seat, level: &str, seed: u64) -> BotMove;

    /// The penalty discard (C10) a bot makes for `seat`, as the API takes
    /// it (`{"seat", "penalty": CARD}`).
    fn penalty_move(&self, live: &dyn AnyGame, seat: Seat, seed: u64) -> Option<Value>;

    /// The search's best moves for `seat` from its view (a practice
    /// game's hint), to compute away from the table; `None` when the seat
    /// has no decision to make.
    fn hint(&self, live: &dyn AnyGame, seat: Seat, ask: HintAsk) -> Option<Hint>;

    /// The positions of a finished game's record (see
    /// [`sequence_bots::replay::positions`]).
    ///
    /// # Errors
    /// A record that does not replay.
    fn positions(&self, record: &Value) -> Result<Value, String>;

    /// The analysis of a finished game's record, to run step by step.
    ///
    /// # Errors
    /// A record that does not replay.
    fn analysis(
        &self,
        record: &Value,
        iterations: u64,
        seed: u64,
    ) -> Result<Box<dyn sequence_bots::replay::Analysis>, String>;
}

/// [`TableGame`] of the game `G`.
struct Game<G>(PhantomData<fn() -> G>);

impl<G: BotGame> Game<G> {
    /// The engine's table of `spec`.
    fn config(&self, spec: &Spec) -> Result<G::Config, String> {
        let hints = G::option_hints("options.");
        let options = read_options::<G::Options>(&spec.options, G::OPTIONS_EXAMPLE, &hints)?;
        // a value of the right kind out of range is the engine's to refuse,
        // said from its option list as one of the wrong kind is
        // (OptionSpec::out_of_range: C9, C11, S3a); so are teams (S1)
        G::table(spec.players, spec.teams, options).map_err(|e| e.to_string())
    }

    /// The match of `live` (a table's game is always one of its kind).
    fn of(live: &dyn AnyGame) -> Option<&Match<G>> {
        live.as_any().downcast_ref::<Match<G>>()
    }
}

impl<G: BotGame> TableGame for Game<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn check(&self, spec: &Spec) -> Result<Option<u8>, String> {
        self.config(spec).map(|c| c.team_count())
    }

    fn team_name(&self, team: u8) -> Value {
        G::side_to_json(team)
    }

    fn no_penalty(&self) -> Option<String> {
        (!G::TABLE_TALK_PENALTY)
            .then(|| sequence_common::penalty::PenaltyError::NoPenalty(G::KIND).to_string())
    }

    fn seat_teams(&self, spec: &Spec) -> Option<(u8, Vec<Value>)> {
        let config = self.config(spec).ok()?;
        let teams = config.team_count()?;
        let seats = (0..config.players())
            .map(|s| G::side_to_json(config.side_of(Seat(s))))
            .collect();
        Some((teams, seats))
    }

    fn start(&self, spec: &Spec, seed: u64) -> Result<Box<dyn AnyGame>, String> {
        Ok(Box::new(Match::<G>::new(self.config(spec)?, seed)))
    }

    fn describe(&self) -> Value {
        super::game::describe::<G>()
    }

    fn prepare_options(&self, options: &mut Value) {
        G::prepare_options(options, rand::random());
    }

    fn bot_move(&self, live: &dyn AnyGame, seat: Seat, level: &str, seed: u64) -> BotMove {
        let Some(m) = Self::of(live) else {
            return Box::new(|| None);
        };
        let view = m.game().view(seat);
        let config = m.game().config().clone();
        let level = level.to_string();
        Box::new(move || crate::bots::choose::<G>(&level, &view, &config, seed))
    }

    fn penalty_move(&self, live: &dyn AnyGame, seat: Seat, seed: u64) -> Option<Value> {
        let card = G::penalty_choice(&Self::of(live)?.game().view(seat), seed)?;
        Some(sequence_common::record::penalty_entry::<G>(seat, card))
    }

    fn hint(&self, live: &dyn AnyGame, seat: Seat, ask: HintAsk) -> Option<Hint> {
        let m = Self::of(live)?;
        if m.to_act() != Some(seat) {
            return None;
        }
        let g = m.game();
        if m.penalty_owed().is_some() {
            // the table-talk penalty (C10): the discard a bot makes, not a
            // move of play the search weighs
            let card = G::penalty_choice(&g.view(seat), ask.seed)?;
            let mv = sequence_common::record::penalty_entry::<G>(seat, card);
            let text = format!("penalty {}", G::card_code(card));
            return Some(Box::new(
                move || json!({"moves": [{"move": mv, "text": text}], "iterations": 0}),
            ));
        }
        let view = g.view(seat);
        let config = g.config().clone();
        Some(Box::new(move || {
            sequence_bots::replay::hint::<G>(&view, &config, ask.iterations, ask.top, ask.seed)
        }))
    }

    fn positions(&self, record: &Value) -> Result<Value, String> {
        sequence_bots::replay::positions::<G>(record)
    }

    fn analysis(
        &self,
        record: &Value,
        iterations: u64,
        seed: u64,
    ) -> Result<Box<dyn sequence_bots::replay::Analysis>, String> {
        sequence_bots::replay::analysis::<G>(record, iterations, seed)
    }
}

/// Picks the [`TableGame`] of a game ([`game_of`]).
struct Pick;

impl ForGame for Pick {
    type Out = &'static dyn TableGame;

    fn call<G: BotGame>(self) -> &'static dyn TableGame {
        &Game::<G>(PhantomData)
    }
}

/// The game of `kind`, through the workspace's one registration of its
/// games ([`sequence_bots::with_game`]).
pub fn game_of(kind: GameKind) -> &'static dyn TableGame {
    with_game(kind, Pick)
}

/// Checking a table's configuration is the engine's ([`TableGame::check`]).
impl Spec {
    /// Checks the configuration with the engine (players, teams, options).
    ///
    /// # Errors
    /// A message naming the bad field or rule (C3, S1, option names).
    pub fn check(&self) -> Result<(), String> {
        game_of(self.game).check(self).map(|_| ())
    }

    /// Number of teams (the default applied) in a game with teams; `None`
    /// in a game without (Stacks) or when the spec does not check.
    pub fn team_count(&self) -> Option<u8> {
        game_of(self.game).check(self).ok().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_common::any::naming_the_rule;
    use sequence_common::PlayError;

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
            assert_eq!(game_of(k).kind(), k);
            let live = game_of(k)
                .start(&spec(k, 2, None, Value::Null), 1)
                .expect("a two-seat table starts");
            assert_eq!(live.kind(), k);
            assert_eq!(live.ply(), 0);
            assert!(live.to_act().is_some());
            assert_eq!(live.winner_json(), Value::Null);
        }
    }

    #[test]
    fn the_engine_checks_the_table() {
        let classic = game_of(GameKind::Classic);
        assert_eq!(
            classic.check(&spec(GameKind::Classic, 4, None, Value::Null)),
            Ok(Some(2))
        );
        assert!(classic
            .check(&spec(GameKind::Classic, 5, None, Value::Null))
            .unwrap_err()
            .contains("C3"));
        let stacks = game_of(GameKind::Stacks);
        assert_eq!(
            stacks.check(&spec(GameKind::Stacks, 3, None, Value::Null)),
            Ok(None)
        );
        assert!(stacks
            .check(&spec(GameKind::Stacks, 9, None, Value::Null))
            .unwrap_err()
            .contains("2 to 6"));
        assert!(stacks
            .check(&spec(GameKind::Stacks, 3, Some(3), Value::Null))
            .unwrap_err()
            .contains("no teams"));
        assert!(stacks
            .check(&spec(GameKind::Stacks, 3, None, serde_json::json!([])))
            .unwrap_err()
            .contains("piles_per_colour"));
        assert_eq!(classic.team_name(0), serde_json::json!("blue"));
        assert_eq!(stacks.team_name(2), serde_json::json!(2));
        // each seat's team before the deal, as the engine seats them (C3)
        let (teams, seats) = classic
            .seat_teams(&spec(GameKind::Classic, 6, Some(3), Value::Null))
            .expect("teams");
        assert_eq!(teams, 3);
        assert_eq!(
            seats,
            ["blue", "green", "red", "blue", "green", "red"].map(|t| serde_json::json!(t))
        );
        let live = classic
            .start(&spec(GameKind::Classic, 6, Some(3), Value::Null), 1)
            .expect("starts");
        for (s, team) in seats.iter().enumerate() {
            assert_eq!(&live.side_json(live.side_of(Seat(s as u8))), team);
        }
        assert_eq!(
            stacks.seat_teams(&spec(GameKind::Stacks, 3, None, Value::Null)),
            None
        );
    }

    #[test]
    fn refused_moves_carry_the_engine_codes() {
        let mut live = game_of(GameKind::Classic)
            .start(&spec(GameKind::Classic, 2, None, Value::Null), 3)
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
