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

use crate::game::{GameKind, Outcome, RuleError, Rules, SeatView};
use crate::live::Match;
use crate::notation::{Notation, NotationError};
use crate::record::penalty_from_json;
use crate::seat::Seat;
use crate::table::{LogEffects, TableFacts};
use serde_json::{Map, Value};
use std::any::Any;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A move of some game: the engine's own move value, with its game and,
/// when it came from a table, that table ([`Rules::Config`]), which its
/// record entry is written with (classic: the sequence length of a
/// placement's `declare`, C8a).
///
/// Two moves are equal when they are the same move of the same game
/// written the same way (a move without a table equals only moves without
/// one); a hash is the game's and the move's.
#[derive(Clone)]
pub struct AnyMove {
    mv: Arc<dyn MoveBox>,
}

/// What [`AnyMove`] holds: a move of `G` with its table, behind one type.
trait MoveBox: Send + Sync {
    fn kind(&self) -> GameKind;
    fn as_any(&self) -> &dyn Any;
    fn key(&self) -> usize;
    fn text(&self) -> String;
    fn entry(&self, seat: Seat) -> Option<Value>;
    fn same(&self, other: &dyn MoveBox) -> bool;
    fn hash_move(&self, state: &mut dyn Hasher);
}

/// A move of `G` and the table it was made at, if known.
struct Typed<G: Rules> {
    mv: G::Move,
    table: Option<Arc<G::Config>>,
}

impl<G: Notation> MoveBox for Typed<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn key(&self) -> usize {
        G::move_key(&self.mv)
    }

    fn text(&self) -> String {
        G::move_text(&self.mv)
    }

    fn entry(&self, seat: Seat) -> Option<Value> {
        let table = self.table.as_ref()?;
        Some(G::move_to_json(seat, &self.mv, table))
    }

    fn same(&self, other: &dyn MoveBox) -> bool {
        let Some(o) = other.as_any().downcast_ref::<Typed<G>>() else {
            return false;
        };
        if o.mv != self.mv {
            return false;
        }
        match (&self.table, &o.table) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                Arc::ptr_eq(a, b)
                    || a == b
                    || G::move_to_json(Seat(0), &self.mv, a) == G::move_to_json(Seat(0), &o.mv, b)
            }
            _ => false,
        }
    }

    fn hash_move(&self, mut state: &mut dyn Hasher) {
        G::KIND.hash(&mut state);
        self.mv.hash(&mut state);
    }
}

impl AnyMove {
    /// Wraps a move of the game `G` made at no known table
    /// ([`AnyMove::entry`] is then `None`).
    pub fn of<G: Notation>(mv: G::Move) -> AnyMove {
        AnyMove {
            mv: Arc::new(Typed::<G> { mv, table: None }),
        }
    }

    /// Wraps a move of the game `G` made at the table `table` (shared by
    /// the moves of one list).
    pub fn at<G: Notation>(mv: G::Move, table: Arc<G::Config>) -> AnyMove {
        AnyMove {
            mv: Arc::new(Typed::<G> {
                mv,
                table: Some(table),
            }),
        }
    }

    /// The game it is a move of.
    pub fn kind(&self) -> GameKind {
        self.mv.kind()
    }

    /// The move, if it is a move of `G` (`None` for another game's).
    pub fn get<G: Rules>(&self) -> Option<G::Move> {
        self.typed::<G>().map(|t| t.mv)
    }

    /// The table the move was made at, if it is a move of `G` made at a
    /// known table.
    pub fn table<G: Rules>(&self) -> Option<&G::Config> {
        self.typed::<G>()?.table.as_deref()
    }

    fn typed<G: Rules>(&self) -> Option<&Typed<G>> {
        self.mv.as_any().downcast_ref::<Typed<G>>()
    }

    /// The engine's dense move key ([`Rules::move_key`]).
    pub fn key(&self) -> usize {
        self.mv.key()
    }

    /// The move in words ([`Notation::move_text`]).
    pub fn text(&self) -> String {
        self.mv.text()
    }

    /// The move by `seat` as a record entry ([`Notation::move_to_json`];
    /// a move records leave out, such as a declined Block, as its input
    /// entry); `None` for a move made at no known table.
    pub fn entry(&self, seat: Seat) -> Option<Value> {
        self.mv.entry(seat)
    }
}

impl PartialEq for AnyMove {
    fn eq(&self, other: &AnyMove) -> bool {
        Arc::ptr_eq(&self.mv, &other.mv) || self.mv.same(other.mv.as_ref())
    }
}

impl Eq for AnyMove {}

impl Hash for AnyMove {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.mv.hash_move(state);
    }
}

impl fmt::Debug for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyMove({}: {})", self.kind(), self.text())
    }
}

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
}

impl PlayError {
    /// The stable code (`notation.missing`, `C6.space_taken`, …).
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::Malformed { code, .. } | PlayError::Illegal { code, .. } => code,
        }
    }

    /// The message in words.
    pub fn message(&self) -> &str {
        match self {
            PlayError::Malformed { message, .. } | PlayError::Illegal { message, .. } => message,
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
/// as `{"seat", "penalty": CARD}`.
///
/// # Errors
/// As [`AnyGame::play_json`] and [`AnyGame::play_penalty`]; nothing
/// changes then.
pub fn play_logged(live: &mut dyn AnyGame, mv: &Value) -> Result<Logged, PlayError> {
    if let Some((seat, card)) = live.play_penalty(mv)? {
        // the table-talk penalty (C10): out of turn, no draw
        let mut e = Map::new();
        e.insert("seat".into(), Value::from(seat.0));
        e.insert(
            "move".into(),
            serde_json::json!({"seat": seat.0, "penalty": card}),
        );
        e.insert("text".into(), Value::from(format!("penalty {card}")));
        return Ok(Logged {
            entry: Some(e),
            previous: Map::new(),
        });
    }
    let played = live.play_json(mv)?;
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
    Ok(Logged { entry, previous })
}

/// What one seat (or a spectator) may see of a game of either kind: the
/// engine's [`SeatView`] behind one type.
pub trait AnyView: Send + Sync {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// The view's seat; `None` for a spectator.
    fn seat(&self) -> Option<Seat>;
    /// The seat that must decide now; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;
    /// Where the game stands.
    fn outcome(&self) -> Outcome;
    /// Moves made so far.
    fn ply(&self) -> u32;
    /// The seat's legal moves when it must decide, else empty.
    fn legal_moves(&self) -> Vec<AnyMove>;
    /// The view as JSON (docs/api.md, docs/bot-protocol.md).
    fn to_json(&self) -> Value;
    /// A copy.
    fn clone_box(&self) -> Box<dyn AnyView>;
    /// The engine's view (`G::View`, not the box), for a bot of the game.
    fn as_any(&self) -> &dyn Any;
}

/// The view `view` behind [`AnyView`].
pub fn any_view<V: SeatView>(view: V) -> Box<dyn AnyView>
where
    V::Game: Notation,
{
    Box::new(ViewBox(view))
}

/// An engine's view behind [`AnyView`] ([`any_view`]).
struct ViewBox<V>(V);

impl<V: SeatView> AnyView for ViewBox<V>
where
    V::Game: Notation,
{
    fn kind(&self) -> GameKind {
        V::Game::KIND
    }

    fn seat(&self) -> Option<Seat> {
        self.0.seat()
    }

    fn to_act(&self) -> Option<Seat> {
        self.0.to_act()
    }

    fn outcome(&self) -> Outcome {
        self.0.outcome()
    }

    fn ply(&self) -> u32 {
        self.0.ply()
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        self.0
            .legal_moves()
            .into_iter()
            .map(AnyMove::of::<V::Game>)
            .collect()
    }

    fn to_json(&self) -> Value {
        self.0.to_json()
    }

    fn clone_box(&self) -> Box<dyn AnyView> {
        Box::new(ViewBox(self.0.clone()))
    }

    fn as_any(&self) -> &dyn Any {
        &self.0
    }
}

impl Clone for Box<dyn AnyView> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A live game of either kind that keeps its record: [`Match<G>`] behind
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
    /// The game's record so far as JSON (RECORD.md, RECORD-STACKS.md).
    fn record_json(&self) -> Value;
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

    /// Plays a table-talk penalty discard (C10) sent as a `moves` entry
    /// `{"seat", "penalty": CARD}`: its seat and card code; `Ok(None)` for
    /// an entry of another kind. Nothing changes on error.
    ///
    /// # Errors
    /// [`PlayError::Malformed`] for an entry that cannot be read,
    /// [`PlayError::Illegal`] (`C10.no_penalty`, `C10.not_in_hand`, …).
    fn play_penalty(&mut self, mv: &Value) -> Result<Option<(Seat, String)>, PlayError>;

    /// The seats of side `team` that hold a card, for the table-talk
    /// penalty (C10); `None` when the game has no teams.
    fn penalty_members(&self, team: u8) -> Option<Vec<Seat>>;

    /// A side's name as views and records write it (a colour, a seat).
    fn side_json(&self, side: u8) -> Value;
    /// Whether a seat is asked out of turn now ([`TableFacts::in_window`]).
    fn in_window(&self) -> bool;
    /// The move that closes an open window for `seat` by default.
    fn window_default(&self, seat: Seat) -> Option<Value>;
    /// Adds the game's table facts to a view ([`TableFacts::view_extras`]).
    fn decorate_view(&self, view: &mut Value);
    /// Public facts of the end per side ([`TableFacts::final_sides`]).
    fn final_sides(&self) -> Value;

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

    fn ply(&self) -> u32 {
        self.game().ply()
    }

    fn view(&self, seat: Option<Seat>) -> Box<dyn AnyView> {
        match seat {
            Some(s) if s.0 < self.game().players() => any_view(self.game().view(s)),
            _ => any_view(self.game().spectator_view()),
        }
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

    fn move_json(&self, seat: Seat, mv: &AnyMove) -> Option<Value> {
        Some(G::move_to_json(seat, &mv.get::<G>()?, self.game().config()))
    }

    fn play_json(&mut self, mv: &Value) -> Result<Played, PlayError> {
        let (seat, m) =
            G::move_from_input(mv, self.game().config()).map_err(PlayError::malformed)?;
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

    fn play_penalty(&mut self, mv: &Value) -> Result<Option<(Seat, String)>, PlayError> {
        let Some((seat, card)) = penalty_from_json::<G>(mv).map_err(PlayError::malformed)? else {
            return Ok(None);
        };
        match self.penalty(seat, card) {
            None => Err(PlayError::Illegal {
                code: "C10.no_penalty",
                message: format!(
                    "illegal move: {} has no table-talk penalty (C10)",
                    G::KIND.title()
                ),
            }),
            Some(Err(e)) => Err(PlayError::Illegal {
                code: if e.code().ends_with(".not_in_hand") {
                    "C10.not_in_hand"
                } else {
                    e.code()
                },
                message: format!("illegal move: {e} (C10)"),
            }),
            Some(Ok(())) => Ok(Some((seat, G::card_code(card)))),
        }
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
                .filter(|&s| g.side_of(s) == team && g.holds_a_card(s))
                .collect(),
        )
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

    fn final_sides(&self) -> Value {
        self.game().final_sides()
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
