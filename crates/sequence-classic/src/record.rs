//! Game records, version 1 (RECORD.md): read, write, replay, verify.
//!
//! A record holds everything needed to replay a game exactly: the table,
//! the options, the dealer, the deck order, every reshuffle's order and
//! every move with its seat. [`replay_value`] checks a record move by move
//! and stops at the first illegal or malformed entry; [`Match`] plays a
//! live game from a seed and writes its record.

use crate::bitboard::Space;
use crate::card::Card;
use crate::game::{Game, Played, Reshuffler, Status, Team};
use crate::moves::{Declaration, IllegalMove, Move};
use crate::options::{Config, Options};
use crate::sequences::Window;
use sequence_common::record::{
    deny_unknown, deny_unknown_move, req_uint, MalformedRecord, MoveError, ReplayError,
    CLASSIC_FORMAT,
};
use sequence_common::{GameRng, Seat};
use serde_json::{json, Map, Value};

/// A classic game record (RECORD.md), typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Players, `2 … 12` (C3).
    pub players: u8,
    /// Teams, 2 or 3 (C3).
    pub teams: u8,
    /// Rule options differing from the defaults.
    pub options: Options,
    /// The dealer's seat (C5).
    pub dealer: Seat,
    /// All 104 cards in draw order, top first.
    pub deck: Vec<Card>,
    /// Each reshuffle's new draw pile, top first, in the order they happen.
    pub reshuffles: Vec<Vec<Card>>,
    /// Every move with its seat.
    pub moves: Vec<(Seat, Move)>,
    /// `Some(Some(team))` a win, `Some(None)` a draw or unfinished game,
    /// `None` when the record has no `result`.
    pub result: Option<Option<Team>>,
}

impl Record {
    /// The record as a JSON value in the RECORD.md layout. `declare` is
    /// written as `[first, last]` pairs of the table's sequence length.
    pub fn to_json(&self) -> Value {
        let len = self.options.sequence_length.unwrap_or(5);
        let mut o = Map::new();
        o.insert("format".into(), json!(CLASSIC_FORMAT));
        o.insert("players".into(), json!(self.players));
        o.insert("teams".into(), json!(self.teams));
        o.insert(
            "options".into(),
            serde_json::to_value(&self.options).unwrap_or_else(|_| json!({})),
        );
        o.insert("dealer".into(), json!(self.dealer.0));
        o.insert(
            "deck".into(),
            json!(self.deck.iter().map(|c| c.to_string()).collect::<Vec<_>>()),
        );
        if !self.reshuffles.is_empty() {
            o.insert(
                "reshuffles".into(),
                json!(self
                    .reshuffles
                    .iter()
                    .map(|p| p.iter().map(|c| c.to_string()).collect::<Vec<_>>())
                    .collect::<Vec<_>>()),
            );
        }
        o.insert(
            "moves".into(),
            Value::Array(
                self.moves
                    .iter()
                    .map(|(s, m)| move_to_json(*s, m, len))
                    .collect(),
            ),
        );
        if let Some(r) = self.result {
            o.insert("result".into(), json!({"winner": r.map(|t| t.colour())}));
        }
        Value::Object(o)
    }

    /// The record as compact JSON text.
    pub fn to_json_string(&self) -> String {
        self.to_json().to_string()
    }

    /// Reads and replays a record (see [`replay_value`]).
    ///
    /// # Errors
    /// As [`replay_value`].
    pub fn from_json_str(text: &str) -> Result<(Record, Game), ReplayError> {
        let v = sequence_common::json::parse_strict(text).map_err(MalformedRecord)?;
        replay_value(&v, |_, _, _, _| {})
    }
}

/// A move as a record entry, e.g. `{"seat":0,"card":"7H","at":"d6"}`.
/// `len` is the table's sequence length (for `declare`).
pub fn move_to_json(seat: Seat, m: &Move, len: u8) -> Value {
    match *m {
        Move::Place { card, at, declare } => {
            let mut v = json!({"seat": seat.0, "card": card.to_string(), "at": at.to_string()});
            if let Some(d) = declare {
                v["declare"] = json!(d
                    .windows()
                    .map(|w| [w.start.to_string(), w.last(len).to_string()])
                    .collect::<Vec<_>>());
            }
            v
        }
        Move::Remove { card, at } => {
            json!({"seat": seat.0, "card": card.to_string(), "remove": at.to_string()})
        }
        Move::Dead { card } => json!({"seat": seat.0, "dead": card.to_string()}),
        Move::Pass => json!({"seat": seat.0, "pass": true}),
        Move::Discard { card } => json!({"seat": seat.0, "discard": card.to_string()}),
    }
}

fn card_field(o: &Map<String, Value>, k: &str) -> Result<Card, String> {
    match o.get(k) {
        Some(Value::String(s)) => s.parse::<Card>().map_err(|e| format!("field `{k}`: {e}")),
        Some(v) => Err(format!(
            "field `{k}`: expected a card code string, found {}",
            sequence_common::json::echo(&v.to_string())
        )),
        None => Err(format!("field `{k}` is missing")),
    }
}

fn space_field(o: &Map<String, Value>, k: &str) -> Result<Space, String> {
    match o.get(k) {
        Some(Value::String(s)) => s.parse::<Space>().map_err(|e| format!("field `{k}`: {e}")),
        Some(v) => Err(format!(
            "field `{k}`: expected a space name string, found {}",
            sequence_common::json::echo(&v.to_string())
        )),
        None => Err(format!("field `{k}` is missing")),
    }
}

/// Every key a classic move entry may have (RECORD.md), whatever its kind.
const MOVE_KEYS: &[&str] = &[
    "seat", "card", "at", "declare", "remove", "dead", "discard", "pass",
];

/// Reads one record move entry. `len` is the table's sequence length.
///
/// # Errors
/// A message naming the field that is missing, unknown or malformed.
pub fn move_from_json(v: &Value, len: u8) -> Result<(Seat, Move), String> {
    let o = v.as_object().ok_or("a move must be a JSON object")?;
    let seat = match o.get("seat") {
        Some(s) => match s.as_u64() {
            Some(n) if n < 256 => Seat(n as u8),
            _ => {
                return Err(format!(
                    "field `seat`: expected a seat number, found {}",
                    sequence_common::json::echo(&s.to_string())
                ))
            }
        },
        None => return Err("field `seat` is missing".into()),
    };
    let m = if o.contains_key("pass") {
        deny_unknown_move(o, &["seat", "pass"], "pass", MOVE_KEYS)?;
        if o.get("pass") != Some(&Value::Bool(true)) {
            return Err("field `pass`: must be true".into());
        }
        Move::Pass
    } else if o.contains_key("dead") {
        deny_unknown_move(o, &["seat", "dead"], "dead", MOVE_KEYS)?;
        Move::Dead {
            card: card_field(o, "dead")?,
        }
    } else if o.contains_key("discard") {
        deny_unknown_move(o, &["seat", "discard"], "discard", MOVE_KEYS)?;
        Move::Discard {
            card: card_field(o, "discard")?,
        }
    } else if o.contains_key("remove") {
        deny_unknown_move(o, &["seat", "card", "remove"], "remove", MOVE_KEYS)?;
        Move::Remove {
            card: card_field(o, "card")?,
            at: space_field(o, "remove")?,
        }
    } else if o.contains_key("at") {
        deny_unknown_move(o, &["seat", "card", "at", "declare"], "at", MOVE_KEYS)?;
        let card = card_field(o, "card")?;
        let at = space_field(o, "at")?;
        let declare = match o.get("declare") {
            None => None,
            Some(Value::Array(items)) => {
                let mut ws: Vec<Window> = Vec::new();
                for it in items {
                    let pair = it.as_array().filter(|a| a.len() == 2).ok_or_else(|| {
                        format!("field `declare`: each entry must be [first space, last space], found {}", sequence_common::json::echo(&it.to_string()))
                    })?;
                    let mut ends = [None, None];
                    for (i, e) in pair.iter().enumerate() {
                        let s = e.as_str().ok_or_else(|| {
                            format!(
                                "field `declare`: {} is not a space name",
                                sequence_common::json::echo(&e.to_string())
                            )
                        })?;
                        ends[i] = Some(
                            s.parse::<Space>()
                                .map_err(|er| format!("field `declare`: {er}"))?,
                        );
                    }
                    let (Some(a), Some(b)) = (ends[0], ends[1]) else {
                        return Err("field `declare`: missing space".into());
                    };
                    ws.push(
                        Window::from_ends(a, b, len)
                            .map_err(|e| format!("field `declare`: {e} (C8)"))?,
                    );
                }
                if ws.len() > 8 {
                    return Err("field `declare`: more than 8 sequences".into());
                }
                Some(Declaration::new(&ws))
            }
            Some(other) => {
                return Err(format!(
                    "field `declare`: expected a list, found {}",
                    sequence_common::json::echo(&other.to_string())
                ))
            }
        };
        Move::Place { card, at, declare }
    } else {
        return Err("move has none of `at`, `remove`, `dead`, `pass`, `discard`".into());
    };
    Ok((seat, m))
}

fn cards_field(v: &Value, what: &str) -> Result<Vec<Card>, MalformedRecord> {
    let arr = v
        .as_array()
        .ok_or_else(|| MalformedRecord(format!("field `{what}`: expected a list of card codes")))?;
    arr.iter()
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

/// Reshuffle orders taken from a record, checked against the real cards
/// ([`sequence_common::record::RecordedOrders`], citing C7).
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

/// Replays a record given as JSON: checks the header (exit 2 on error),
/// then plays each move in turn, calling `on_move(index, seat, move,
/// game_after)`; stops at the first illegal or malformed move (exit 1).
/// Finally checks that every reshuffle was used and that `result`, when
/// present, matches the replay.
///
/// # Errors
/// [`ReplayError::Malformed`] for a bad header (unknown key, bad deck,
/// table breaking C3, …), [`ReplayError::Move`] naming the move index and
/// rule, [`ReplayError::ResultMismatch`].
pub fn replay_value(
    v: &Value,
    mut on_move: impl FnMut(usize, Seat, &Move, &Game),
) -> Result<(Record, Game), ReplayError> {
    let o = sequence_common::record::open_record(
        v,
        CLASSIC_FORMAT,
        &[
            "format",
            "players",
            "teams",
            "options",
            "dealer",
            "deck",
            "reshuffles",
            "moves",
            "result",
        ],
    )?;
    let players = req_uint(o, "players", 255).map_err(MalformedRecord)? as u8;
    let teams = match o.get("teams") {
        None => None,
        Some(_) => Some(req_uint(o, "teams", 255).map_err(MalformedRecord)? as u8),
    };
    let options: Options = match o.get("options") {
        None => Options::default(),
        Some(v @ Value::Object(_)) => sequence_common::json::from_value_named(v)
            .map_err(|e| MalformedRecord(format!("field `options`: {e}")))?,
        Some(v) => {
            return Err(
                MalformedRecord(format!("field `options`: expected an object, found {v}")).into(),
            )
        }
    };
    let config = Config::new(players, teams, options.clone())
        .map_err(|e| MalformedRecord(format!("{e}")))?;
    let dealer = req_uint(o, "dealer", 255).map_err(MalformedRecord)? as u8;
    let deck = cards_field(o.get("deck").unwrap_or(&Value::Null), "deck")?;
    let reshuffles: Vec<Vec<Card>> = match o.get("reshuffles") {
        None => vec![],
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, l)| cards_field(l, &format!("reshuffles[{i}]")))
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(
                MalformedRecord("field `reshuffles`: expected a list of lists".into()).into(),
            )
        }
    };
    let moves = o
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| MalformedRecord("field `moves`: missing or not a list".into()))?;
    let result: Option<Option<Team>> = match o.get("result") {
        None => None,
        Some(Value::Object(r)) => {
            deny_unknown(r, &["winner"], "field `result`").map_err(MalformedRecord)?;
            match r.get("winner") {
                None | Some(Value::Null) => Some(None),
                Some(Value::String(s)) => Some(Some(Team::from_colour(s).ok_or_else(|| {
                    MalformedRecord(format!(
                        "field `result.winner`: {s:?} is not blue, green, red or null"
                    ))
                })?)),
                Some(w) => {
                    return Err(MalformedRecord(format!(
                        "field `result.winner`: {w} is not a colour"
                    ))
                    .into())
                }
            }
        }
        Some(_) => return Err(MalformedRecord("field `result`: expected an object".into()).into()),
    };
    let mut game = Game::new(config.clone(), Seat(dealer), &deck)
        .map_err(|e| MalformedRecord(e.to_string()))?;
    let len = config.sequence_length();
    let mut rec = Record {
        players,
        teams: config.teams(),
        options,
        dealer: Seat(dealer),
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
        let (seat, m) = move_from_json(mv, len).map_err(err)?;
        if seat.0 >= players {
            return Err(err(format!(
                "seat {} does not exist ({} players)",
                seat.0, players
            ))
            .into());
        }
        game.play_as(seat, m, &mut resh)
            .map_err(|e: IllegalMove| err(e.to_string()))?;
        rec.moves.push((seat, m));
        on_move(i, seat, &m, &game);
    }
    if resh.used() != reshuffles.len() {
        return Err(ReplayError::ResultMismatch(format!(
            "`reshuffles` lists {} but {} happened (C7)",
            reshuffles.len(),
            resh.used()
        )));
    }
    rec.reshuffles = reshuffles;
    if let Some(r) = result {
        let actual = winner(&game);
        if r != actual {
            return Err(ReplayError::ResultMismatch(format!(
                "record says winner {}, replay gives {}",
                r.map_or("null", |t| t.colour()),
                actual.map_or("null", |t| t.colour())
            )));
        }
    }
    Ok((rec, game))
}

fn winner(g: &Game) -> Option<Team> {
    match g.status() {
        Status::Won(t) => Some(t),
        _ => None,
    }
}

/// The summary `sequence verify` prints (RECORD.md "Verifying"): `moves`,
/// `winner`, `sequences` per colour, `board`, plus `status` and `turn`.
pub fn summary(game: &Game, moves: usize) -> Value {
    let mut seqs = Map::new();
    for t in 0..game.teams() {
        let team = Team(t);
        seqs.insert(team.colour().into(), json!(game.sequence_count(team)));
    }
    json!({
        "moves": moves,
        "winner": winner(game).map(|t| t.colour()),
        "sequences": seqs,
        "board": game.board_rows(),
        "status": match game.status() { Status::Playing => "playing", Status::Won(_) => "won", Status::Draw => "draw" },
    })
}

/// A live game that keeps its own record: dealt from a seed with the named
/// generator (ChaCha8), reshuffling from it, and writing every move.
#[derive(Clone)]
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
    /// A new game: the cut for the dealer (C5) and the shuffle drawn from
    /// ChaCha8 seeded with `seed`.
    pub fn new(config: Config, seed: u64) -> Match {
        let mut rng = sequence_common::rng::game_rng(seed);
        let (game, deck) = Game::deal(config.clone(), &mut rng);
        let record = Record {
            players: config.players(),
            teams: config.teams(),
            options: config.options().clone(),
            dealer: game.dealer(),
            deck,
            reshuffles: vec![],
            moves: vec![],
            result: None,
        };
        Match { game, record, rng }
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

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plays `mv` for `seat` and records it. A placement that completes
    /// sequences is written with its `declare` (C8a).
    ///
    /// # Errors
    /// [`IllegalMove`] naming the rule; nothing changes then.
    pub fn play(&mut self, seat: Seat, mv: Move) -> Result<Played, IllegalMove> {
        let before = self.game.sequences().count();
        let mut r = Recording {
            rng: &mut self.rng,
            log: &mut self.record.reshuffles,
        };
        let played = self.game.play_as(seat, mv, &mut r)?;
        let mut mv = mv;
        if let Move::Place { card, at, .. } = mv {
            if played.new_sequences > 0 {
                let ws: Vec<Window> = self.game.sequences().skip(before).map(|(_, w)| w).collect();
                mv = Move::Place {
                    card,
                    at,
                    declare: Some(Declaration::new(&ws)),
                };
            }
        }
        self.record.moves.push((seat, mv));
        Ok(played)
    }

    /// The record so far, with `result` set (null while unfinished).
    pub fn record(&self) -> Record {
        let mut r = self.record.clone();
        r.result = Some(winner(&self.game));
        r
    }
}
