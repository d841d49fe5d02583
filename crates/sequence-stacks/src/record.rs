//! Game records of Sequence Stacks (RECORD-STACKS.md): reading (strict),
//! writing, replaying, the `sequence verify` summary, and [`Match`], a live
//! game dealt from a seed that records itself.

use crate::card::{Card, Colour, Place};
use crate::game::{Decision, Game, PlayError, Reshuffler, Source, Status};
use crate::options::Options;
use sequence_common::record::{
    deny_unknown, deny_unknown_move, req_uint, MalformedRecord, MoveError, ReplayError,
    STACKS_FORMAT,
};
use sequence_common::{GameRng, Seat};
use serde_json::{json, Map, Value};

/// A Sequence Stacks game record (RECORD-STACKS.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 2 to 6.
    pub players: u8,
    /// Rule options (written as the fields that differ from the defaults).
    pub options: Options,
    /// The dealer (S2).
    pub dealer: Seat,
    /// Every card in draw order, top first (120, or 112 with 2 players).
    pub deck: Vec<Card>,
    /// Each new draw pile (S6, S6a), top first, in the order they happen.
    pub reshuffles: Vec<Vec<Card>>,
    /// Every written decision with its seat (no [`Decision::Pass`]).
    pub moves: Vec<(Seat, Decision)>,
    /// `None`: no `result`; `Some(None)`: `{"winner": null}`.
    pub result: Option<Option<Seat>>,
}

impl Record {
    /// The record as JSON (RECORD-STACKS.md field order).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("format".into(), json!(STACKS_FORMAT));
        o.insert("players".into(), json!(self.players));
        o.insert("options".into(), self.options.to_record_json());
        o.insert("dealer".into(), json!(self.dealer.0));
        o.insert("deck".into(), cards_json(&self.deck));
        if !self.reshuffles.is_empty() {
            o.insert(
                "reshuffles".into(),
                Value::Array(self.reshuffles.iter().map(|r| cards_json(r)).collect()),
            );
        }
        o.insert(
            "moves".into(),
            Value::Array(
                self.moves
                    .iter()
                    .filter_map(|&(s, d)| d.to_record_json(s))
                    .collect(),
            ),
        );
        if let Some(r) = self.result {
            o.insert("result".into(), json!({"winner": r.map(|s| s.0)}));
        }
        Value::Object(o)
    }

    /// The record as one line of JSON text.
    pub fn to_json_string(&self) -> String {
        self.to_json().to_string()
    }

    /// Reads and replays a record from JSON text.
    ///
    /// # Errors
    /// As [`replay`]; text that is not JSON is [`ReplayError::Malformed`]
    /// with the line and column.
    pub fn from_json_str(text: &str) -> Result<(Record, Game), ReplayError> {
        let v = sequence_common::json::parse_strict(text).map_err(MalformedRecord)?;
        replay(&v)
    }
}

fn cards_json(cards: &[Card]) -> Value {
    Value::Array(cards.iter().map(|c| json!(c.code())).collect())
}

fn cards_field(v: Option<&Value>, what: &str) -> Result<Vec<Card>, MalformedRecord> {
    let a = v.and_then(Value::as_array).ok_or_else(|| {
        MalformedRecord(format!(
            "field `{what}`: missing or not a list of card codes"
        ))
    })?;
    a.iter()
        .enumerate()
        .map(|(i, c)| {
            c.as_str()
                .ok_or_else(|| {
                    MalformedRecord(format!(
                        "field `{what}`[{i}]: {} is not a card code string",
                        sequence_common::json::echo(&c.to_string())
                    ))
                })?
                .parse::<Card>()
                .map_err(|e| MalformedRecord(format!("field `{what}`[{i}]: {e}")))
        })
        .collect()
}

/// Every key a Stacks move entry may have (RECORD-STACKS.md), whatever its
/// kind.
const MOVE_KEYS: &[&str] = &[
    "seat", "play", "from", "target", "colour", "to", "discard", "end",
];

/// Reads one `moves` entry: its seat and decision.
///
/// # Errors
/// A message naming the bad or unknown key (the caller makes it a
/// [`MoveError`]).
pub fn move_from_json(v: &Value) -> Result<(Seat, Decision), String> {
    let o = v.as_object().ok_or("a move must be a JSON object")?;
    let seat = Seat(req_uint(o, "seat", 255)? as u8);
    let from = match o.get("from") {
        None => Source::Hand,
        Some(Value::String(s)) if s == "discard" => Source::Discard,
        Some(Value::String(s)) if s == "hand" => Source::Hand,
        Some(f) => return Err(format!("field `from`: {f} is not \"discard\"")),
    };
    let target = || -> Result<Seat, String> { Ok(Seat(req_uint(o, "target", 255)? as u8)) };
    if let Some(p) = o.get("play") {
        let card: Card = p
            .as_str()
            .ok_or_else(|| {
                format!(
                    "field `play`: {} is not a card code",
                    sequence_common::json::echo(&p.to_string())
                )
            })?
            .parse()
            .map_err(|e| format!("field `play`: {e}"))?;
        let kind = format!("play: {}", card.code());
        let d = match card {
            Card::Skip | Card::Reverse => {
                deny_unknown_move(o, &["seat", "play", "from"], &kind, MOVE_KEYS)?;
                if card == Card::Skip {
                    Decision::Skip { from }
                } else {
                    Decision::Reverse { from }
                }
            }
            Card::StealCard => {
                deny_unknown_move(o, &["seat", "play", "from", "target"], &kind, MOVE_KEYS)?;
                Decision::StealCard {
                    from,
                    target: target()?,
                }
            }
            Card::StealChip => {
                deny_unknown_move(
                    o,
                    &["seat", "play", "from", "target", "colour"],
                    &kind,
                    MOVE_KEYS,
                )?;
                let colour = match o.get("colour") {
                    Some(Value::String(s)) => Colour::from_name(s)
                        .ok_or_else(|| format!("field `colour`: {s:?} is not blue or red"))?,
                    Some(c) => return Err(format!("field `colour`: {c} is not blue or red")),
                    None => {
                        return Err(
                            "field `colour` is missing (STEAL-CHIP names a colour, S5)".into()
                        )
                    }
                };
                Decision::StealChip {
                    from,
                    target: target()?,
                    colour,
                }
            }
            Card::Block => {
                if o.contains_key("from") {
                    return Err("a Block is played from the hand (S5)".into());
                }
                deny_unknown_move(o, &["seat", "play"], &kind, MOVE_KEYS)?;
                Decision::Block
            }
            _ => {
                deny_unknown_move(o, &["seat", "play", "from", "to"], &kind, MOVE_KEYS)?;
                let to = o
                    .get("to")
                    .ok_or("field `to` is missing (a pile card goes to a place, S3)")?;
                let place = to.as_str().and_then(Place::from_name).ok_or_else(|| {
                    format!(
                        "field `to`: {} is not a place (blue-a, blue-b, red-a, red-b)",
                        sequence_common::json::echo(&to.to_string())
                    )
                })?;
                Decision::Pile { card, from, place }
            }
        };
        return Ok((seat, d));
    }
    if let Some(c) = o.get("discard") {
        deny_unknown_move(o, &["seat", "discard"], "discard", MOVE_KEYS)?;
        let card: Card = c
            .as_str()
            .ok_or_else(|| {
                format!(
                    "field `discard`: {} is not a card code",
                    sequence_common::json::echo(&c.to_string())
                )
            })?
            .parse()
            .map_err(|e| format!("field `discard`: {e}"))?;
        return Ok((seat, Decision::Discard { card }));
    }
    if let Some(e) = o.get("end") {
        deny_unknown_move(o, &["seat", "end"], "end", MOVE_KEYS)?;
        if e != &Value::Bool(true) {
            return Err(format!("field `end`: expected true, found {e}"));
        }
        return Ok((seat, Decision::End));
    }
    Err("a move needs `play`, `discard` or `end`".into())
}

/// Reshuffle orders taken from a record, checked against the real cards
/// ([`sequence_common::record::RecordedOrders`], citing S6, S6a).
#[derive(Debug)]
pub struct RecordedReshuffles<'a>(sequence_common::record::RecordedOrders<'a, Card>);

impl<'a> RecordedReshuffles<'a> {
    /// Orders from a record's `reshuffles`.
    pub fn new(lists: &'a [Vec<Card>]) -> Self {
        RecordedReshuffles(sequence_common::record::RecordedOrders::new(lists))
    }

    /// How many were used.
    pub fn used(&self) -> usize {
        self.0.used()
    }
}

impl Reshuffler for RecordedReshuffles<'_> {
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), String> {
        self.0.next_into(cards)
    }
}

/// Applies one recorded decision: an open Block window is first answered
/// for the seats the record skips (no entry means no Block: those seats
/// passed, S5b), then `decision` is played.
///
/// # Errors
/// [`PlayError`] naming the rule.
pub fn apply_recorded<S: Reshuffler + ?Sized>(
    game: &mut Game,
    seat: Seat,
    decision: Decision,
    reshuffler: &mut S,
) -> Result<(), PlayError> {
    if let Some(w) = game.block_offer() {
        if decision == Decision::Block && seat != w.completer {
            loop {
                match game.block_offer() {
                    None => return Err(PlayError::NotOffered(seat.0)),
                    Some(w) if w.offered == seat => break,
                    Some(w) => game.play(w.offered, Decision::Pass, reshuffler)?,
                }
            }
        } else if decision != Decision::Block {
            close_window(game, reshuffler)?;
        }
    }
    game.play(seat, decision, reshuffler)
}

/// Answers an open Block window with Pass for every seat still to be asked
/// (what a record's silence means, S5b).
///
/// # Errors
/// [`PlayError::Reshuffle`] if the hand refill needs an order not given.
pub fn close_window<S: Reshuffler + ?Sized>(
    game: &mut Game,
    reshuffler: &mut S,
) -> Result<(), PlayError> {
    while let Some(w) = game.block_offer() {
        if game.status() != Status::Playing {
            break;
        }
        game.play(w.offered, Decision::Pass, reshuffler)?;
    }
    Ok(())
}

/// Replays a record given as JSON (RECORD-STACKS.md): checks the header,
/// plays each move, closes a Block window left open by the last move,
/// then checks that every listed reshuffle was used and that `result`,
/// when present, matches.
///
/// # Errors
/// [`ReplayError::Malformed`] (exit 2) for a bad header: unknown key, bad
/// `players`, `dealer`, `options`, a `deck` that is not the S1/S2 cards;
/// [`ReplayError::Move`] (exit 1) naming the move index and rule;
/// [`ReplayError::ResultMismatch`] (exit 1).
pub fn replay(v: &Value) -> Result<(Record, Game), ReplayError> {
    replay_with(v, |_, _, _, _| {})
}

/// As [`replay`], calling `on_move(index, seat, decision, game_after)`
/// after each move.
///
/// # Errors
/// As [`replay`].
pub fn replay_with(
    v: &Value,
    mut on_move: impl FnMut(usize, Seat, Decision, &Game),
) -> Result<(Record, Game), ReplayError> {
    let o = sequence_common::record::open_record(
        v,
        STACKS_FORMAT,
        &[
            "format",
            "players",
            "options",
            "dealer",
            "deck",
            "reshuffles",
            "moves",
            "result",
        ],
    )?;
    let players = req_uint(o, "players", 255).map_err(MalformedRecord)? as u8;
    let options = match o.get("options") {
        None | Some(Value::Null) => Options::default(),
        Some(v) => {
            Options::from_json(v).map_err(|e| MalformedRecord(format!("field `options`: {e}")))?
        }
    };
    let dealer = Seat(req_uint(o, "dealer", 255).map_err(MalformedRecord)? as u8);
    let deck = cards_field(o.get("deck"), "deck")?;
    let reshuffles: Vec<Vec<Card>> = match o.get("reshuffles") {
        None | Some(Value::Null) => vec![],
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, l)| cards_field(Some(l), &format!("reshuffles[{i}]")))
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(MalformedRecord(
                "field `reshuffles`: expected a list of lists of card codes".into(),
            )
            .into())
        }
    };
    let moves = o
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| MalformedRecord("field `moves`: missing or not a list".into()))?;
    let result: Option<Option<Seat>> = match o.get("result") {
        None => None,
        Some(Value::Object(r)) => {
            deny_unknown(r, &["winner"], "field `result`").map_err(MalformedRecord)?;
            match r.get("winner") {
                None | Some(Value::Null) => Some(None),
                Some(w) => match w.as_u64() {
                    Some(n) if n < players as u64 => Some(Some(Seat(n as u8))),
                    _ => {
                        return Err(MalformedRecord(format!(
                            "field `result.winner`: {w} is not a seat or null"
                        ))
                        .into())
                    }
                },
            }
        }
        Some(_) => return Err(MalformedRecord("field `result`: expected an object".into()).into()),
    };
    let mut game =
        Game::deal(players, options, dealer, &deck).map_err(|e| MalformedRecord(e.to_string()))?;
    let mut rec = Record {
        players,
        options,
        dealer,
        deck,
        reshuffles: vec![],
        moves: Vec::with_capacity(moves.len()),
        result,
    };
    let mut resh = RecordedReshuffles::new(&reshuffles);
    for (i, mv) in moves.iter().enumerate() {
        let err = |why: String| MoveError {
            index: i,
            json: sequence_common::record::entry_text(mv),
            why,
        };
        let (seat, d) = move_from_json(mv).map_err(err)?;
        if seat.0 >= players {
            return Err(err(format!(
                "seat {} does not exist ({players} players)",
                seat.0
            ))
            .into());
        }
        apply_recorded(&mut game, seat, d, &mut resh).map_err(|e| err(e.to_string()))?;
        rec.moves.push((seat, d));
        on_move(i, seat, d, &game);
    }
    if game.block_offer().is_some() {
        close_window(&mut game, &mut resh).map_err(|e| {
            let i = moves.len().saturating_sub(1);
            MoveError {
                index: i,
                json: moves
                    .get(i)
                    .map(sequence_common::record::entry_text)
                    .unwrap_or_default(),
                why: e.to_string(),
            }
        })?;
    }
    if resh.used() != reshuffles.len() {
        return Err(ReplayError::ResultMismatch(format!(
            "`reshuffles` lists {} but {} happened (S6)",
            reshuffles.len(),
            resh.used()
        )));
    }
    rec.reshuffles = reshuffles;
    if let Some(r) = result {
        let actual = game.winner();
        if r != actual {
            let show = |s: Option<Seat>| s.map_or("null".to_string(), |s| s.0.to_string());
            return Err(ReplayError::ResultMismatch(format!(
                "record says winner {}, replay gives {}",
                show(r),
                show(actual)
            )));
        }
    }
    Ok((rec, game))
}

/// The summary `sequence verify` prints (RECORD-STACKS.md "Verifying"):
/// `moves` (count), `winner` (seat or null), `chips` (per seat
/// `{"blue": n, "red": n}`), `piles` (`{"blue-a": top number or null, …}`),
/// plus `status` (`playing`, `won`, `draw`), `turn`, `supply`,
/// `draw_pile` (cards left) and `reshuffles` (count).
pub fn summary(game: &Game, moves: usize) -> Value {
    let chips: Vec<Value> = (0..game.players())
        .map(|s| {
            let c = game.chips(Seat(s));
            json!({"blue": c[0], "red": c[1]})
        })
        .collect();
    let mut piles = Map::new();
    for p in game.places() {
        piles.insert(p.name().into(), json!(game.pile_top(p)));
    }
    let s = game.supply();
    json!({
        "moves": moves,
        "winner": game.winner().map(|s| s.0),
        "chips": chips,
        "piles": piles,
        "status": match game.status() { Status::Playing => "playing", Status::Won(_) => "won", Status::Draw => "draw" },
        "turn": game.turn().0,
        "supply": {"blue": s[0], "red": s[1]},
        "draw_pile": game.draw_pile_len(),
        "reshuffles": game.reshuffle_count(),
    })
}

/// Verifies a record (JSON value) and returns its [`summary`]: what
/// `sequence verify` prints for a `"sequence-stacks-record/1"` file.
///
/// # Errors
/// As [`replay`].
pub fn verify(v: &Value) -> Result<Value, ReplayError> {
    let (rec, game) = replay(v)?;
    Ok(summary(&game, rec.moves.len()))
}

/// A live game that keeps its own record: dealt from a seed with the named
/// generator (ChaCha8, [`sequence_common::rng::game_rng`]): the dealer
/// first, then the deck shuffle, then every reshuffle (S6), each written
/// into the record. Used by `sequence selfplay`, the server and the TUI.
#[derive(Clone, Debug)]
pub struct Match {
    game: Game,
    record: Record,
    rng: GameRng,
}

struct Recording<'a> {
    rng: &'a mut GameRng,
    log: &'a mut Vec<Vec<Card>>,
}

impl Reshuffler for Recording<'_> {
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), String> {
        sequence_common::rng::shuffle(cards, self.rng);
        self.log.push(cards.to_vec());
        Ok(())
    }
}

impl Match {
    /// A new game of `players` seats under `options`, dealt from `seed`.
    ///
    /// # Errors
    /// [`crate::SetupError`] for a player count outside 2–6 or bad options.
    pub fn new(players: u8, options: Options, seed: u64) -> Result<Match, crate::SetupError> {
        let mut rng = sequence_common::rng::game_rng(seed);
        let (game, deck) = Game::random(players, options, &mut rng)?;
        let record = Record {
            players,
            options,
            dealer: game.dealer(),
            deck,
            reshuffles: vec![],
            moves: vec![],
            result: None,
        };
        Ok(Match { game, record, rng })
    }

    /// Resumes a replayed record; later reshuffles draw from ChaCha8 seeded
    /// with `seed`.
    pub fn resume(record: Record, game: Game, seed: u64) -> Match {
        Match {
            game,
            record,
            rng: sequence_common::rng::game_rng(seed),
        }
    }

    /// Resumes a game from a record's JSON (e.g. a saved game): replays it
    /// and continues with later reshuffles drawn from ChaCha8 seeded with
    /// `seed`. A Block window left open by the last move is closed as the
    /// record's silence means: nobody blocked (S5b).
    ///
    /// # Errors
    /// As [`replay`].
    pub fn from_record_json(v: &Value, seed: u64) -> Result<Match, ReplayError> {
        let (record, game) = replay(v)?;
        Ok(Match::resume(record, game, seed))
    }

    /// The game (full state; show players [`Match::view`]).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// What `seat` may see ([`Game::view`]).
    pub fn view(&self, seat: Seat) -> crate::SeatView {
        self.game.view(seat)
    }

    /// The seat that must decide now ([`Game::to_act`]).
    pub fn to_act(&self) -> Option<Seat> {
        self.game.to_act()
    }

    /// The legal decisions of the seat to act ([`Game::legal`]).
    pub fn legal(&self) -> crate::Decisions {
        self.game.legal()
    }

    /// Plays `decision` for `seat` and records it (a Pass is not written).
    ///
    /// # Errors
    /// [`PlayError`] naming the rule; nothing changes then.
    pub fn play(&mut self, seat: Seat, decision: Decision) -> Result<(), PlayError> {
        let mut r = Recording {
            rng: &mut self.rng,
            log: &mut self.record.reshuffles,
        };
        self.game.play(seat, decision, &mut r)?;
        if decision != Decision::Pass {
            self.record.moves.push((seat, decision));
        }
        Ok(())
    }

    /// The record so far, `result` set (`{"winner": null}` while unfinished
    /// or drawn).
    pub fn record(&self) -> Record {
        let mut r = self.record.clone();
        r.result = Some(self.game.winner());
        r
    }

    /// The record so far as JSON ([`Match::record`]).
    pub fn to_json(&self) -> Value {
        self.record().to_json()
    }

    /// Number of decisions written so far.
    pub fn moves(&self) -> usize {
        self.record.moves.len()
    }
}
