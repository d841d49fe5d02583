//! One object-safe, type-erased game for everything that holds a game of
//! either kind behind one type (the server's tables, the terminal UI's
//! bot seats): [`AnyGame`], a live game with its record, implemented once
//! for [`Match<G>`] of every game `G`; [`AnyView`], a seat's (or a
//! spectator's) view, implemented once for every engine's view; and
//! [`AnyMove`], a move of some game. Moves come in and go out as JSON (the
//! record entries of RECORD.md and RECORD-STACKS.md) or as [`AnyMove`];
//! refusals carry the engine's stable codes ([`PlayError`]).
//!
//! What needs more than the engine (a bot, a search) turns the kind back
//! into a type: `sequence_bots::with_game`, the one registration of the
//! workspace's games, and a downcast with [`AnyGame::as_any`] /
//! [`AnyView::as_any`].

use crate::game::{GameKind, Outcome, RuleError, SeatView, TableConfig};
use crate::live::Match;
use crate::moves::MoveList;
use crate::notation::{Notation, NotationError};
use crate::penalty::{Owed, PenaltyError};
use crate::record::penalty_from_json;
use crate::rng::GameRng;
use crate::seat::Seat;
use crate::table::{LogEffects, TableFacts};
use serde_json::{Map, Value};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

mod anymove;
mod entry;
mod rules;
mod table_view;
mod view;

pub use anymove::AnyMove;
pub use entry::{penalty_text, AnyEntry};
pub use rules::{rules_of, AnyRules, TableSetup};
pub use table_view::TableContext;
pub use view::{any_view, any_view_at, view_table, AnyView};

/// The code of a decision sent once the game is over ([`AnyGame::may_decide`]).
pub const GAME_OVER: &str = "move.game_over";
/// The code of a decision sent by a seat that is not to decide now
/// ([`AnyGame::may_decide`]).
pub const NOT_YOUR_TURN: &str = "move.not_your_turn";

/// Why a move sent as JSON was not played; nothing changed. The text is
/// the message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// It cannot be read (the notation's code, e.g. `notation.missing`).
    #[error("{message}")]
    Malformed {
        /// The stable code.
        code: &'static str,
        /// `malformed move: …`, naming the field.
        message: String,
    },
    /// The rules refuse it (the rule's code, e.g. `C6.space_taken`).
    #[error("{message}")]
    Illegal {
        /// The stable code.
        code: &'static str,
        /// `illegal move: …`, naming the rule.
        message: String,
    },
    /// Not now: another decision comes first (`C10.owed`: the seat owes a
    /// table-talk penalty discard before it plays on, C10). A player who
    /// sent it has not yet seen the game as it stands.
    #[error("{message}")]
    NotNow {
        /// The stable code.
        code: &'static str,
        /// What comes first, naming the rule.
        message: String,
    },
}

impl PlayError {
    /// The stable code (`notation.missing`, `C6.space_taken`, …).
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::Malformed { code, .. }
            | PlayError::Illegal { code, .. }
            | PlayError::NotNow { code, .. } => code,
        }
    }

    /// The message in words.
    pub fn message(&self) -> &str {
        match self {
            PlayError::Malformed { message, .. }
            | PlayError::Illegal { message, .. }
            | PlayError::NotNow { message, .. } => message,
        }
    }

    fn malformed(e: NotationError) -> PlayError {
        PlayError::Malformed {
            code: e.code(),
            message: format!("malformed move: {e}"),
        }
    }

    fn illegal<E: RuleError>(e: &E) -> PlayError {
        PlayError::Illegal {
            code: e.code(),
            message: naming_the_rule(&e.to_string(), e.code()),
        }
    }

    /// A table-talk penalty discard (C10) the rule refuses.
    fn penalty(e: &PenaltyError) -> PlayError {
        PlayError::Illegal {
            code: e.code(),
            message: format!("illegal move: {e}"),
        }
    }

    /// An entry read for another game.
    fn wrong_game(want: GameKind, got: GameKind) -> PlayError {
        PlayError::Illegal {
            code: "move.wrong_game",
            message: format!("illegal move: a {got} move given to a {want} game"),
        }
    }
}

/// A refusal's message that names its rule (docs/api.md): the engine's
/// text, with the rule of `code` (`C6.not_in_hand` → `(C6)`) added when
/// the text does not name it already.
pub fn naming_the_rule(text: &str, code: &str) -> String {
    let rule = code.split('.').next().unwrap_or_default();
    if rule.is_empty() || text.contains(rule) {
        format!("illegal move: {text}")
    } else {
        format!("illegal move: {text} ({rule})")
    }
}

/// What a move sent as JSON did ([`AnyGame::play_json`]), for a move log.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The seat that moved.
    pub seat: Seat,
    /// The move as the record writes it (classic: with the sequences it
    /// declared); `None` for a move records do not write (a declined
    /// Block, S5b).
    pub entry: Option<Value>,
    /// The move in words.
    pub text: String,
    /// Its public effects ([`TableFacts::log_effects`]).
    pub effects: LogEffects,
}

/// What a move did, for a move log ([`play_logged`]): the server's tables
/// and the page's practice tables keep the same log.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Logged {
    /// The move's own entry (`None`: records do not write the move).
    pub entry: Option<Map<String, Value>>,
    /// Fields to merge into the log's last entry.
    pub previous: Map<String, Value>,
}

impl Logged {
    /// As JSON: `{"entry": {…} or null, "previous": {…}}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"entry": self.entry, "previous": self.previous})
    }
}

/// Plays a move sent as JSON on `live` and says what it did for the move
/// log: `entry` with `seat`, `move` (the record entry, with the sequences
/// it declared), `text` (in words) and its public effects
/// ([`TableFacts::log_effects`]: sequences made, chips taken, …); no entry
/// for a move records do not write (a declined Block, S5b), whose effects
/// (the chip of a pile that stood) go to `previous`, the fields to merge
/// into the log's last entry. A table-talk penalty discard (C10) is logged
/// as `{"seat", "move": {"seat", "penalty": CARD}, "text", "penalty":
/// TEAM}`. [`AnyGame::read_entry`] for the entry's `seat`, then
/// [`AnyGame::play_entry`].
///
/// # Errors
/// As [`AnyGame::read_entry`] and [`AnyGame::play_entry`]; nothing
/// changes then.
pub fn play_logged(live: &mut dyn AnyGame, mv: &Value) -> Result<Logged, PlayError> {
    let o = mv
        .as_object()
        .ok_or_else(|| PlayError::malformed(NotationError::NotAnObject))?;
    let seat = crate::notation::seat_field(o).map_err(PlayError::malformed)?;
    let entry = live.read_entry(seat, mv)?;
    live.play_entry(&entry)
}

impl Logged {
    /// What a move of play did ([`Played`]) for the log.
    fn of_played(played: Played) -> Logged {
        let fx = played.effects;
        let entry = played.entry.map(|m| {
            let mut e = Map::new();
            e.insert("seat".into(), Value::from(played.seat.0));
            e.insert("move".into(), m);
            e.insert("text".into(), Value::from(played.text));
            e.extend(fx.own.clone());
            e
        });
        let mut previous = fx.previous;
        if entry.is_none() {
            previous.extend(fx.own);
        }
        Logged { entry, previous }
    }

    /// `seat`'s discard of `card` for the table-talk penalty (C10) given
    /// to `team` (as views name it), for the log.
    fn of_penalty<G: Notation>(seat: Seat, card: G::Card, team: Option<Value>) -> Logged {
        let mut e = Map::new();
        e.insert("seat".into(), Value::from(seat.0));
        e.insert("move".into(), crate::record::penalty_entry::<G>(seat, card));
        e.insert(
            "text".into(),
            Value::from(penalty_text(&G::card_code(card))),
        );
        if let Some(team) = team {
            e.insert("penalty".into(), team);
        }
        Logged {
            entry: Some(e),
            previous: Map::new(),
        }
    }
}

/// A move the rules refuse: the engine's stable code and its own words
/// (which name the rule; [`PlayError::Illegal`] adds `illegal move: `).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The stable code (`C6.space_taken`, …; `move.wrong_game` for a move
    /// of another game).
    pub code: &'static str,
    /// The engine's message.
    pub text: String,
}

impl Refusal {
    fn rule<E: RuleError>(e: &E) -> Refusal {
        Refusal {
            code: e.code(),
            text: e.to_string(),
        }
    }

    fn wrong_game(want: GameKind, got: &AnyMove) -> Refusal {
        Refusal {
            code: "move.wrong_game",
            text: format!("a {} move given to a {} game", got.kind(), want),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A live game of either kind with its generator and what it keeps of its
/// moves (its record; for a game without one, e.g. a determinization, its
/// trail): [`Match<G>`] behind
/// one type. Everything a player is shown comes from the engine's views.
pub trait AnyGame: Send + Sync {
    /// Which game this is.
    fn kind(&self) -> GameKind;
    /// Seats at the table.
    fn players(&self) -> u8;
    /// The side of `seat` (its team, C3; or the seat itself, S1).
    fn side_of(&self, seat: Seat) -> u8;
    /// The seat that must decide now; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;
    /// Where the game stands.
    fn outcome(&self) -> Outcome;
    /// The winning side as records write it (a colour, a seat), `null`
    /// while playing or drawn.
    fn winner_json(&self) -> Value;
    /// Moves made so far (every decision counts one).
    fn ply(&self) -> u32;

    /// The view of `seat`, or the spectator's (`None`, or a seat not at
    /// the table).
    fn view(&self, seat: Option<Seat>) -> Box<dyn AnyView>;
    /// [`AnyGame::view`] as JSON.
    fn view_json(&self, seat: Option<Seat>) -> Value;
    /// The game's record so far as JSON (RECORD.md, RECORD-STACKS.md);
    /// `None` for a game without a record ([`Match::unrecorded`]).
    fn record_json(&self) -> Option<Value>;
    /// `mv` by `seat` as a record entry; `None` for another game's move.
    fn move_json(&self, seat: Seat, mv: &AnyMove) -> Option<Value>;

    /// Reads a move sent by a player or a bot (a record entry with its
    /// `seat`, or what records leave out, such as a declined Block) and
    /// plays it: what it did. Nothing changes on error.
    ///
    /// # Errors
    /// [`PlayError::Malformed`] with the notation's code,
    /// [`PlayError::Illegal`] with the rule's code.
    fn play_json(&mut self, mv: &Value) -> Result<Played, PlayError>;

    /// Reads `seat`'s decision sent by a player or a bot: a `moves` entry
    /// (a move of play, what records leave out such as a declined Block,
    /// or a table-talk penalty discard `{"penalty": CARD}`, C10) whose
    /// `seat` may be left out, read once to be played as a typed value
    /// ([`AnyGame::play_entry`]).
    ///
    /// # Errors
    /// [`PlayError::Malformed`] with the notation's code (`notation.field`
    /// for an entry that names another seat).
    fn read_entry(&self, seat: Seat, mv: &Value) -> Result<AnyEntry, PlayError>;

    /// Whether `seat` decides now (a move of play, or a table-talk penalty
    /// discard owed, C10: [`AnyGame::to_act`]), asked before its entry is
    /// played (the server's tables ask it first, so that a decision sent
    /// out of turn is answered as not now whatever it is;
    /// [`AnyGame::play_entry`] refuses it too, with the rule's code).
    ///
    /// # Errors
    /// [`PlayError::NotNow`]: [`GAME_OVER`] once the game is over,
    /// [`NOT_YOUR_TURN`] (`it is not seat S's turn (seat T is to move)`)
    /// for another seat than the one to act.
    fn may_decide(&self, seat: Seat) -> Result<(), PlayError> {
        match self.to_act() {
            None => Err(PlayError::NotNow {
                code: GAME_OVER,
                message: "the game is over".into(),
            }),
            Some(to_act) if to_act != seat => Err(PlayError::NotNow {
                code: NOT_YOUR_TURN,
                message: format!(
                    "it is not seat {}'s turn (seat {} is to move)",
                    seat.0, to_act.0
                ),
            }),
            Some(_) => Ok(()),
        }
    }

    /// Plays a decision read by [`AnyGame::read_entry`] and says what it
    /// did for the move log ([`play_logged`]). A table-talk penalty
    /// discard (C10) must be the next one owed; a move of play waits
    /// until every discard owed is made. Nothing changes on error.
    ///
    /// # Errors
    /// [`PlayError::NotNow`] (`C10.owed`) for a move of play while a
    /// penalty discard is owed; [`PlayError::Illegal`] with the rule's
    /// code (`C6.space_taken`, `C10.no_penalty`, `C10.not_in_hand`, …;
    /// `move.wrong_game` for another game's entry).
    fn play_entry(&mut self, entry: &AnyEntry) -> Result<Logged, PlayError>;

    /// Gives side `team` the table-talk penalty (C10): each of its members
    /// holding a card owes a discard, in seat order, before play goes on
    /// ([`AnyGame::to_act`] is the next of them).
    ///
    /// # Errors
    /// [`PenaltyError`] naming C10 (a game without it or over, a penalty
    /// still being paid, a team of one, no card to discard).
    fn give_penalty(&mut self, team: u8) -> Result<(), PenaltyError>;

    /// The table-talk penalty being paid (C10): the team and who still
    /// owes a discard, the next first.
    fn penalty_owed(&self) -> Option<Owed>;
    /// The moves `seat` may make to pay the table-talk penalty (C10): a
    /// discard of each card it holds, as records write them
    /// (`{"seat": S, "penalty": CARD}`); empty in a game without it.
    fn penalty_moves(&self, seat: Seat) -> Vec<Value>;

    /// A side's name as views and records write it (a colour, a seat).
    fn side_json(&self, side: u8) -> Value;
    /// Whether a seat is asked out of turn now ([`TableFacts::in_window`]).
    fn in_window(&self) -> bool;
    /// The move that closes an open window for `seat` by default.
    fn window_default(&self, seat: Seat) -> Option<Value>;
    /// Adds the game's table facts to a view ([`TableFacts::view_extras`]).
    fn decorate_view(&self, view: &mut Value);
    /// `seat`'s view at a table (`None`: a spectator's), as the server
    /// sends it: [`AnyGame::view_json`] with [`AnyGame::decorate_view`],
    /// then the table's own fields, then what the rules give of the table
    /// ([`TableContext`]): the open window's deadline (S5b,
    /// [`TableFacts::window_view`]), `final_sides` once over, and while a
    /// table-talk penalty is paid (C10) `penalty` (`{"team", "pending"}`)
    /// with `legal_moves` the owing seat's discards
    /// ([`AnyGame::penalty_moves`]) for it and `[]` for everybody else;
    /// `legal_moves` `[]` at a closed table.
    fn table_view(&self, seat: Option<Seat>, ctx: &TableContext) -> Value;
    /// Public facts of the end per side ([`TableFacts::final_sides`]).
    fn final_sides(&self) -> Value;

    /// Teams (C3), `None` in a game without teams.
    fn teams(&self) -> Option<u8>;
    /// Sides: teams, or seats.
    fn sides(&self) -> u8;
    /// The dealer (C5, S2).
    fn dealer(&self) -> Seat;
    /// The rule options as a record writes them.
    fn options_json(&self) -> Value;
    /// The last move and its seat, as a record writes it.
    fn last_move(&self) -> Option<(Seat, AnyMove)>;
    /// The legal moves of the seat to act (empty once over).
    fn legal_moves(&self) -> Vec<AnyMove>;
    /// The legal moves' keys ([`Rules::move_key`]) into `out` (cleared
    /// first).
    fn legal_keys(&self, out: &mut Vec<usize>);
    /// The legal move of key `key`, if one is legal now.
    fn legal_move_of_key(&self, key: usize) -> Option<AnyMove>;
    /// Whether `seat` may make `mv` now.
    ///
    /// # Errors
    /// The rule it breaks; `move.wrong_game` for another game's move.
    fn check(&self, seat: Seat, mv: &AnyMove) -> Result<(), Refusal>;
    /// Checks and makes `mv` for `seat`, keeping it as
    /// [`Match::play`] does.
    ///
    /// # Errors
    /// As [`AnyGame::check`]; nothing changes then.
    fn play_move(&mut self, seat: Seat, mv: &AnyMove) -> Result<(), Refusal>;
    /// Reads a move entry (a record entry or what records leave out, with
    /// its `seat`; [`Notation::move_from_input`]).
    ///
    /// # Errors
    /// The notation's error naming the field.
    fn parse_move(&self, v: &Value) -> Result<(Seat, AnyMove), NotationError>;
    /// The moves written so far (empty without a record).
    fn history(&self) -> Vec<(Seat, AnyMove)>;
    /// What `sequence verify` prints for this game after its written
    /// moves ([`Notation::summary`]).
    fn summary(&self) -> Value;
    /// A uniformly random legal move of the seat to act, drawn from the
    /// game's generator; `None` once over.
    fn random_move(&mut self) -> Option<AnyMove>;
    /// Plays random legal moves (from the game's generator, kept as
    /// [`AnyGame::play_move`] keeps moves) until the end or `max_moves`;
    /// how many were made.
    fn playout(&mut self, max_moves: u32) -> u32;
    /// The generator later reshuffles draw from.
    fn rng(&self) -> GameRng;
    /// Replaces that generator (a game written out and read back).
    fn set_rng(&mut self, rng: GameRng);
    /// For a game without a record that can be rebuilt: its trail's JSON
    /// ([`crate::trail::Trail::to_json`]).
    fn trail_json(&self) -> Option<Value>;
    /// The moves made since the record's last entry that records do not
    /// write, as input entries ([`Match::unwritten`]).
    fn unwritten(&self) -> Vec<Value>;

    /// A copy (a table applies a change to a copy first).
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// The concrete game (a [`Match<G>`]), for what needs its type (bots,
    /// tests that check the hidden state).
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<G: TableFacts> AnyGame for Match<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn players(&self) -> u8 {
        self.game().players()
    }

    fn side_of(&self, seat: Seat) -> u8 {
        self.game().side_of(seat)
    }

    fn to_act(&self) -> Option<Seat> {
        Match::to_act(self)
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

    fn ply(&self) -> u32 {
        self.game().ply()
    }

    fn view(&self, seat: Option<Seat>) -> Box<dyn AnyView> {
        let table = Arc::new(self.game().config().clone());
        match seat {
            Some(s) if s.0 < self.game().players() => any_view_at(self.game().view(s), table),
            _ => any_view_at(self.game().spectator_view(), table),
        }
    }

    fn view_json(&self, seat: Option<Seat>) -> Value {
        match seat {
            Some(s) if s.0 < self.game().players() => self.game().view(s).to_json(),
            _ => self.game().spectator_view().to_json(),
        }
    }

    fn record_json(&self) -> Option<Value> {
        self.to_json()
    }

    fn move_json(&self, seat: Seat, mv: &AnyMove) -> Option<Value> {
        Some(G::move_to_json(seat, &mv.get::<G>()?, self.game().config()))
    }

    fn play_json(&mut self, mv: &Value) -> Result<Played, PlayError> {
        let (seat, m) =
            G::move_from_input(mv, self.game().config()).map_err(PlayError::malformed)?;
        self.play_typed(seat, m)
    }

    fn read_entry(&self, seat: Seat, mv: &Value) -> Result<AnyEntry, PlayError> {
        let seated = entry::seated(seat, mv).map_err(PlayError::malformed)?;
        let mv = seated.as_ref();
        // a game without the table-talk penalty (C10) reads `penalty` as
        // the unknown field it is for it
        if G::TABLE_TALK_PENALTY {
            let penalty = penalty_from_json::<G>(mv).map_err(PlayError::malformed)?;
            if let Some((seat, card)) = penalty {
                return Ok(AnyEntry::of_penalty::<G>(seat, card, G::card_code(card)));
            }
        }
        let (seat, m) =
            G::move_from_input(mv, self.game().config()).map_err(PlayError::malformed)?;
        Ok(AnyEntry::of_move(seat, self.at(m)))
    }

    fn play_entry(&mut self, entry: &AnyEntry) -> Result<Logged, PlayError> {
        let seat = entry.seat();
        if entry.kind() != G::KIND {
            return Err(PlayError::wrong_game(G::KIND, entry.kind()));
        }
        if let Some((card, _)) = entry.penalty_card::<G>() {
            let team = self.penalty_owed().map(|o| G::side_to_json(o.team));
            self.penalty(seat, card)
                .map_err(|e| PlayError::penalty(&e))?;
            return Ok(Logged::of_penalty::<G>(seat, card, team));
        }
        let m = entry
            .as_move()
            .and_then(AnyMove::get::<G>)
            .ok_or_else(|| PlayError::wrong_game(G::KIND, entry.kind()))?;
        if let Some(first) = self.penalty_owed().and_then(|o| o.seats.first()) {
            return Err(PlayError::NotNow {
                code: "C10.owed",
                message: format!(
                    "seat {} must first discard a card for the table-talk penalty (C10)",
                    first.0
                ),
            });
        }
        self.play_typed(seat, m).map(Logged::of_played)
    }

    fn give_penalty(&mut self, team: u8) -> Result<(), PenaltyError> {
        Match::give_penalty(self, team)
    }

    fn penalty_owed(&self) -> Option<Owed> {
        Match::penalty_owed(self).cloned()
    }

    fn penalty_moves(&self, seat: Seat) -> Vec<Value> {
        self.game()
            .penalty_cards(seat)
            .into_iter()
            .map(|card| crate::record::penalty_entry::<G>(seat, card))
            .collect()
    }

    fn side_json(&self, side: u8) -> Value {
        G::side_to_json(side)
    }

    fn in_window(&self) -> bool {
        self.game().in_window()
    }

    fn window_default(&self, seat: Seat) -> Option<Value> {
        G::window_default(seat)
    }

    fn decorate_view(&self, view: &mut Value) {
        if let Some(o) = view.as_object_mut() {
            self.game().view_extras(o);
        }
    }

    fn table_view(&self, seat: Option<Seat>, ctx: &TableContext) -> Value {
        table_view::table_view(self, seat, ctx, |o| {
            self.game().window_view(o, ctx.deadline_ms)
        })
    }

    fn final_sides(&self) -> Value {
        self.game().final_sides()
    }

    fn teams(&self) -> Option<u8> {
        self.game().config().team_count()
    }

    fn sides(&self) -> u8 {
        self.game().sides()
    }

    fn dealer(&self) -> Seat {
        self.game().dealer()
    }

    fn options_json(&self) -> Value {
        G::options_to_json(self.game().config().rule_options())
    }

    fn last_move(&self) -> Option<(Seat, AnyMove)> {
        let (s, m) = self.game().last_move()?;
        Some((s, self.at(m)))
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        let mut v = Vec::new();
        self.game().legal_moves(&mut v);
        let c = Arc::new(self.game().config().clone());
        v.into_iter()
            .map(|m| AnyMove::at::<G>(m, c.clone()))
            .collect()
    }

    fn legal_keys(&self, out: &mut Vec<usize>) {
        let mut list: MoveList<G::Move, 256> = MoveList::new();
        self.game().legal_moves(&mut list);
        out.clear();
        out.extend(list.iter().map(G::move_key));
    }

    fn legal_move_of_key(&self, key: usize) -> Option<AnyMove> {
        let mut list: MoveList<G::Move, 256> = MoveList::new();
        self.game().legal_moves(&mut list);
        let m = list.iter().find(|m| G::move_key(m) == key)?;
        Some(self.at(*m))
    }

    fn check(&self, seat: Seat, mv: &AnyMove) -> Result<(), Refusal> {
        let m = mv
            .get::<G>()
            .ok_or_else(|| Refusal::wrong_game(G::KIND, mv))?;
        self.game().check(seat, m).map_err(|e| Refusal::rule(&e))
    }

    fn play_move(&mut self, seat: Seat, mv: &AnyMove) -> Result<(), Refusal> {
        let m = mv
            .get::<G>()
            .ok_or_else(|| Refusal::wrong_game(G::KIND, mv))?;
        self.play(seat, m)
            .map(|_| ())
            .map_err(|e| Refusal::rule(&e))
    }

    fn parse_move(&self, v: &Value) -> Result<(Seat, AnyMove), NotationError> {
        let (s, m) = G::move_from_input(v, self.game().config())?;
        Ok((s, self.at(m)))
    }

    fn history(&self) -> Vec<(Seat, AnyMove)> {
        let c = Arc::new(self.game().config().clone());
        self.history()
            .iter()
            .map(|(s, m)| (*s, AnyMove::at::<G>(*m, c.clone())))
            .collect()
    }

    fn summary(&self) -> Value {
        self.game().summary(self.moves())
    }

    fn random_move(&mut self) -> Option<AnyMove> {
        let m = Match::random_move(self)?;
        Some(self.at(m))
    }

    fn playout(&mut self, max_moves: u32) -> u32 {
        let mut n = 0;
        while n < max_moves {
            let Some(seat) = self.game().to_act() else {
                break;
            };
            let Some(m) = Match::random_move(self) else {
                break;
            };
            if self.play(seat, m).is_err() {
                break;
            }
            n += 1;
        }
        n
    }

    fn rng(&self) -> GameRng {
        Match::rng(self).clone()
    }

    fn set_rng(&mut self, rng: GameRng) {
        Match::set_rng(self, rng);
    }

    fn trail_json(&self) -> Option<Value> {
        self.trail().map(|t| t.to_json(self.game().config()))
    }

    fn unwritten(&self) -> Vec<Value> {
        Match::unwritten(self)
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<G: TableFacts> Match<G> {
    /// Plays `seat`'s move `m` and says what it did ([`AnyGame::play_json`]).
    fn play_typed(&mut self, seat: Seat, m: G::Move) -> Result<Played, PlayError> {
        let fx = self.play(seat, m).map_err(|e| PlayError::illegal(&e))?;
        let written = self
            .game()
            .last_move()
            .filter(|(s, _)| *s == seat)
            .map_or(m, |(_, w)| w);
        let config = self.game().config();
        Ok(Played {
            seat,
            entry: G::is_recorded(&m).then(|| G::move_to_json(seat, &written, config)),
            text: G::move_text(&written),
            effects: G::log_effects(config, &fx),
        })
    }

    /// A move of this game at its table, as [`AnyMove`].
    fn at(&self, m: G::Move) -> AnyMove {
        AnyMove::at::<G>(m, Arc::new(self.game().config().clone()))
    }
}
