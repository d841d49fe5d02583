//! The game being played at a table, written once for both games.
//!
//! * [`LiveGame`]: a dyn-safe view of a live game for the table core — who
//!   acts, where the game stands, playing a move sent as JSON, the view of
//!   a seat or a spectator, the record, a bot's move. Implemented once, for
//!   [`Match<G>`] of every game `G` the bots know ([`BotGame`]).
//! * [`TableGame`]: what the server needs of a game before a table starts
//!   (checking a [`Spec`], the teams, dealing). [`game_of`] is the one place
//!   that picks the concrete game of a [`GameKind`].

use super::error::TableError;
use super::game::ServerGame;
use super::spec::{read_options, Spec};
use sequence_common::record::{penalty_from_json, Match};
use sequence_common::{GameKind, Outcome, RuleError, Seat, SeatView, TableConfig};
use serde_json::{json, Map, Value};
use std::any::Any;
use std::marker::PhantomData;

/// A bot's move, to be computed away from the table (on a blocking
/// thread): the move as the API takes it (with `seat`), or `None` when the
/// seat has no legal move.
pub type BotMove = Box<dyn FnOnce() -> Option<Value> + Send>;

/// A hint to compute away from the table ([`LiveGame::hint`]).
pub type Hint = Box<dyn FnOnce() -> Value + Send>;

/// What a move did, for the log ([`LiveGame::play_logged`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Logged {
    /// The move's own entry (`None`: records do not write the move).
    pub entry: Option<Map<String, Value>>,
    /// Fields to merge into the log's last entry.
    pub previous: Map<String, Value>,
}

/// A live game of either kind, as the table core uses it. Everything a
/// player is shown comes from the engine's views: the engine, not the
/// server, decides what a seat or a spectator may see.
pub trait LiveGame: Send + Sync {
    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// The seat that must decide now; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;

    /// Where the game stands.
    fn outcome(&self) -> Outcome;

    /// The winning side as records write it (a colour, a seat), `null`
    /// while playing or drawn.
    fn winner_json(&self) -> Value;

    /// Moves made so far (every decision counts one).
    fn move_number(&self) -> u32;

    /// Reads a move sent by a player or a bot (a record entry with its
    /// `seat`, or what records leave out, such as a declined Block) and
    /// plays it. Nothing changes on error.
    ///
    /// # Errors
    /// [`TableError::Malformed`] with the notation's code when it cannot be
    /// read, [`TableError::Illegal`] with the rule's code when the rules
    /// refuse it.
    fn play_json(&mut self, mv: &Value) -> Result<(), TableError>;

    /// The engine's view of `seat` as JSON, or the spectator view (`None`).
    fn view_json(&self, seat: Option<Seat>) -> Value;

    /// The game's record so far as JSON (RECORD.md, RECORD-STACKS.md).
    fn record_json(&self) -> Value;

    /// A bot of `level` to choose `seat`'s move from that seat's view only,
    /// seeded with `seed`. Levels a table may not have (see
    /// [`crate::bots::level_ok`]) play at random.
    fn bot_move(&self, seat: Seat, level: &str, seed: u64) -> BotMove;

    /// Plays a move as [`LiveGame::play_json`] and says what it did for
    /// the move log: `Some(entry)` with `seat`, `move` (the record entry,
    /// with the sequences it declared), `text` (in words) and its public
    /// effects (see [`super::game::ServerGame::log_effects`]); `None` for a
    /// move records do not write (a declined Block), whose effects (the
    /// chip of a pile that stood) go to `previous`, the fields to merge
    /// into the log's last entry.
    ///
    /// # Errors
    /// As [`LiveGame::play_json`]; nothing changes then.
    fn play_logged(&mut self, mv: &Value) -> Result<Logged, TableError>;

    /// The search's best moves for `seat` from its view (a practice
    /// game's hint), to compute away from the table; `None` when the seat
    /// has no decision to make.
    fn hint(&self, seat: Seat, iterations: u64, top: usize, seed: u64) -> Option<Hint>;

    /// The seats of side `team` that hold a card, for the table-talk
    /// penalty (C10); `None` when the game has no such penalty.
    fn penalty_members(&self, team: u8) -> Option<Vec<Seat>>;

    /// The penalty discard (C10) a bot makes for `seat`, as the API takes
    /// it (`{"seat", "penalty": CARD}`).
    fn penalty_move(&self, seat: Seat, seed: u64) -> Option<Value>;

    /// Whether a seat is asked out of turn now (the Stacks Block window).
    fn in_window(&self) -> bool;

    /// The move that closes an open window for `seat` by default (a
    /// declined Block), as the API takes it.
    fn window_default(&self, seat: Seat) -> Option<Value>;

    /// Adds the game's table facts to a view (the classic board layout).
    fn decorate_view(&self, view: &mut Value);

    /// Public facts of the end of the game per side (sequences per team,
    /// chips per seat), for the end screen.
    fn final_sides(&self) -> Value;

    /// A copy (a table applies a change to a copy first).
    fn clone_box(&self) -> Box<dyn LiveGame>;

    /// The concrete game (a [`Match`] of the engine's game), for tests and
    /// tools that check the hidden state.
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn LiveGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<G: ServerGame> LiveGame for Match<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn to_act(&self) -> Option<Seat> {
        self.game().to_act()
    }

    fn outcome(&self) -> Outcome {
        self.game().outcome()
    }

    fn winner_json(&self) -> Value {
        self.game()
            .outcome()
            .winner()
            .map_or(Value::Null, G::side_to_json)
    }

    fn move_number(&self) -> u32 {
        self.game().ply()
    }

    fn play_json(&mut self, mv: &Value) -> Result<(), TableError> {
        play_input(self, mv).map(|_| ())
    }

    fn view_json(&self, seat: Option<Seat>) -> Value {
        match seat {
            Some(s) if s.0 < self.game().players() => self.game().view(s).to_json(),
            _ => self.game().spectator_view().to_json(),
        }
    }

    fn record_json(&self) -> Value {
        self.to_json()
    }

    fn bot_move(&self, seat: Seat, level: &str, seed: u64) -> BotMove {
        let view = self.game().view(seat);
        let config = self.game().config().clone();
        let level = level.to_string();
        Box::new(move || crate::bots::choose::<G>(&level, &view, &config, seed))
    }

    fn play_logged(&mut self, mv: &Value) -> Result<Logged, TableError> {
        if let Some((seat, card)) = penalty_from_json::<G>(mv).map_err(malformed)? {
            // the table-talk penalty (C10): out of turn, no draw
            return match self.penalty(seat, card) {
                None => Err(TableError::Illegal {
                    code: "C10.no_penalty",
                    message: format!(
                        "illegal move: {} has no table-talk penalty (C10)",
                        G::KIND.title()
                    ),
                }),
                Some(Err(e)) => Err(TableError::Illegal {
                    code: if e.code().ends_with(".not_in_hand") {
                        "C10.not_in_hand"
                    } else {
                        e.code()
                    },
                    message: format!("illegal move: {e} (C10)"),
                }),
                Some(Ok(())) => {
                    let mut e = Map::new();
                    e.insert("seat".into(), json!(seat.0));
                    e.insert(
                        "move".into(),
                        json!({"seat": seat.0, "penalty": G::card_code(card)}),
                    );
                    e.insert(
                        "text".into(),
                        json!(format!("penalty {}", G::card_code(card))),
                    );
                    Ok(Logged {
                        entry: Some(e),
                        previous: Map::new(),
                    })
                }
            };
        }
        let (seat, m, effects) = play_input(self, mv)?;
        let written = self
            .game()
            .last_move()
            .filter(|(s, _)| *s == seat)
            .map_or(m, |(_, w)| w);
        let fx = G::log_effects(self.game().config(), &effects);
        let entry = G::is_recorded(&m).then(|| {
            let mut e = Map::new();
            e.insert("seat".into(), json!(seat.0));
            e.insert(
                "move".into(),
                G::move_to_json(seat, &written, self.game().config()),
            );
            e.insert("text".into(), json!(G::move_text(&written)));
            e.extend(fx.own.clone());
            e
        });
        let mut previous = fx.previous;
        if entry.is_none() {
            previous.extend(fx.own);
        }
        Ok(Logged { entry, previous })
    }

    fn hint(&self, seat: Seat, iterations: u64, top: usize, seed: u64) -> Option<Hint> {
        if self.game().to_act() != Some(seat) {
            return None;
        }
        let view = self.game().view(seat);
        let config = self.game().config().clone();
        Some(Box::new(move || {
            super::replay::hint::<G>(&view, &config, iterations, top, seed)
        }))
    }

    fn penalty_members(&self, team: u8) -> Option<Vec<Seat>> {
        // C10 is the penalty of a game with teams (classic); a member who
        // holds no card has nothing to discard
        if !G::TEAMS {
            return None;
        }
        let g = self.game();
        Some(
            (0..g.players())
                .map(Seat)
                .filter(|&s| g.side_of(s) == team && G::penalty_choice(g, s, 0).is_some())
                .collect(),
        )
    }

    fn penalty_move(&self, seat: Seat, seed: u64) -> Option<Value> {
        let card = G::penalty_choice(self.game(), seat, seed)?;
        Some(json!({"seat": seat.0, "penalty": G::card_code(card)}))
    }

    fn in_window(&self) -> bool {
        G::in_window(self.game())
    }

    fn window_default(&self, seat: Seat) -> Option<Value> {
        G::window_default(seat)
    }

    fn decorate_view(&self, view: &mut Value) {
        if let Some(o) = view.as_object_mut() {
            G::view_extras(self.game(), o);
        }
    }

    fn final_sides(&self) -> Value {
        G::final_sides(self.game())
    }

    fn clone_box(&self) -> Box<dyn LiveGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What the server needs of a game before a table starts. Implemented
/// once for every game; [`game_of`] gives the one of a [`GameKind`].
pub trait TableGame: Sync {
    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// Checks a table's players, teams and rule options with the engine
    /// ([`Rules::table`]); returns the number of teams in a game with
    /// teams (the default applied), `None` in a game without.
    ///
    /// # Errors
    /// A message naming the bad field, option or rule (C3, S1).
    fn check(&self, spec: &Spec) -> Result<Option<u8>, String>;

    /// A team's name as views and records write it (classic: its colour).
    fn team_name(&self, team: u8) -> Value;

    /// A new game of the table, dealt from `seed`.
    ///
    /// # Errors
    /// As [`TableGame::check`].
    fn start(&self, spec: &Spec, seed: u64) -> Result<Box<dyn LiveGame>, String>;

    /// The game for `GET /api/games` (see [`super::game::describe`]).
    fn describe(&self) -> Value;

    /// Replaces the lobby's shorthands in rule options (a random board).
    fn prepare_options(&self, options: &mut Value);

    /// The positions of a finished game's record (see
    /// [`super::replay::positions`]).
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
    ) -> Result<Box<dyn super::replay::Analysis>, String>;
}

/// [`TableGame`] of the game `G`.
struct Game<G> {
    /// Rule options of this game, for the message of options that are not
    /// an object.
    options_example: &'static str,
    game: PhantomData<fn() -> G>,
}

/// A move that could not be read, refused (400).
fn malformed(e: sequence_common::NotationError) -> TableError {
    TableError::Malformed {
        code: e.code(),
        message: format!("malformed move: {e}"),
    }
}

/// Reads the move `mv` sent as JSON and plays it: its seat, the move and
/// what it did.
///
/// # Errors
/// [`TableError::Malformed`] for a move that cannot be read,
/// [`TableError::Illegal`] (with the rule's code) for one the rules refuse.
fn play_input<G: ServerGame>(
    game: &mut Match<G>,
    mv: &Value,
) -> Result<(Seat, G::Move, G::Effects), TableError> {
    let (seat, m) = G::move_from_input(mv, game.game().config()).map_err(malformed)?;
    let effects = game.play(seat, m).map_err(|e| TableError::Illegal {
        code: e.code(),
        message: naming_the_rule(&e.to_string(), e.code()),
    })?;
    Ok((seat, m, effects))
}

/// A refusal's message that names its rule (docs/api.md): the engine's
/// text, with the rule of `code` (`C6.not_in_hand` → `(C6)`) added when
/// the text does not name it already.
fn naming_the_rule(text: &str, code: &str) -> String {
    let rule = code.split('.').next().unwrap_or_default();
    if rule.is_empty() || text.contains(rule) {
        format!("illegal move: {text}")
    } else {
        format!("illegal move: {text} ({rule})")
    }
}

impl<G: ServerGame> Game<G> {
    /// The engine's table of `spec`.
    fn config(&self, spec: &Spec) -> Result<G::Config, String> {
        let options = read_options::<G::Options>(&spec.options, self.options_example)?;
        let config = G::table(spec.players, spec.teams, options).map_err(|e| e.to_string())?;
        if spec.teams.is_some() && config.team_count().is_none() {
            return Err(format!("field `teams`: {} has no teams", G::KIND.title()));
        }
        Ok(config)
    }
}

impl<G: ServerGame> TableGame for Game<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn check(&self, spec: &Spec) -> Result<Option<u8>, String> {
        self.config(spec).map(|c| c.team_count())
    }

    fn team_name(&self, team: u8) -> Value {
        G::side_to_json(team)
    }

    fn start(&self, spec: &Spec, seed: u64) -> Result<Box<dyn LiveGame>, String> {
        Ok(Box::new(Match::<G>::new(self.config(spec)?, seed)))
    }

    fn describe(&self) -> Value {
        super::game::describe::<G>()
    }

    fn prepare_options(&self, options: &mut Value) {
        G::prepare_options(options);
    }

    fn positions(&self, record: &Value) -> Result<Value, String> {
        super::replay::positions::<G>(record)
    }

    fn analysis(
        &self,
        record: &Value,
        iterations: u64,
        seed: u64,
    ) -> Result<Box<dyn super::replay::Analysis>, String> {
        super::replay::analysis::<G>(record, iterations, seed)
    }
}

/// The game of `kind`: the one place where the server picks a concrete
/// game.
pub fn game_of(kind: GameKind) -> &'static dyn TableGame {
    const CLASSIC: Game<sequence_classic::Game> = Game {
        options_example: r#"{"sequence_length": 4}"#,
        game: PhantomData,
    };
    const STACKS: Game<sequence_stacks::Game> = Game {
        options_example: r#"{"piles_per_colour": 3}"#,
        game: PhantomData,
    };
    match kind {
        GameKind::Classic => &CLASSIC,
        GameKind::Stacks => &STACKS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(live.move_number(), 0);
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
    }

    #[test]
    fn refused_moves_carry_the_engine_codes() {
        let mut live = game_of(GameKind::Classic)
            .start(&spec(GameKind::Classic, 2, None, Value::Null), 3)
            .expect("starts");
        let seat = live.to_act().expect("someone acts").0;
        let e = live
            .play_json(&serde_json::json!({"seat": seat, "at": "e5"}))
            .unwrap_err();
        assert_eq!(e.code(), Some("notation.missing"), "{e}");
        assert!(e.message().starts_with("malformed move: "), "{e}");
        let e = live
            .play_json(&serde_json::json!({"seat": seat, "pass": true}))
            .unwrap_err();
        assert!(matches!(e, TableError::Illegal { .. }), "{e}");
        assert!(e.code().is_some_and(|c| c.starts_with('C')), "{e}");
        assert!(e.message().starts_with("illegal move: "), "{e}");
        assert_eq!(live.move_number(), 0);
    }
}
