//! The notation of classic Sequence (RECORD.md): moves as record entries,
//! card and space codes, options, the winner's colour and the `sequence
//! verify` summary. [`Game`] implements [`Notation`], so that records,
//! views and the bot protocol read and write classic moves through one
//! interface ([`sequence_common::record`]).

use crate::bitboard::Space;
use crate::card::Card;
use crate::game::{Game, Status, Team};
use crate::moves::{Declaration, IllegalMove, Move};
use crate::options::{Config, Options};
use crate::sequences::Window;
use sequence_common::notation::{deny_unknown_move, seat_field};
use sequence_common::{Notation, NotationError, Seat, TableFacts};
use serde_json::{json, Map, Value};

/// A move as a record entry, e.g. `{"seat":0,"card":"7H","at":"d6"}`
/// (RECORD.md). `len` is the table's sequence length (for `declare`).
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

fn card_field(o: &Map<String, Value>, k: &'static str) -> Result<Card, NotationError> {
    sequence_common::notation::parsed_field(o, k, "a card code")
}

fn space_field(o: &Map<String, Value>, k: &'static str) -> Result<Space, NotationError> {
    sequence_common::notation::parsed_field(o, k, "a space name")
}

/// Every key a classic move entry may have (RECORD.md), whatever its kind.
const MOVE_KEYS: &[&str] = &[
    "seat", "card", "at", "declare", "remove", "dead", "discard", "pass",
];

/// Reads one record move entry (RECORD.md). `len` is the table's sequence
/// length.
///
/// # Errors
/// [`NotationError`] naming the field that is missing, unknown or
/// malformed.
pub fn move_from_json(v: &Value, len: u8) -> Result<(Seat, Move), NotationError> {
    let o = v.as_object().ok_or(NotationError::NotAnObject)?;
    let seat = seat_field(o)?;
    let m = if o.contains_key("pass") {
        deny_unknown_move(o, &["seat", "pass"], "pass", MOVE_KEYS)?;
        if o.get("pass") != Some(&Value::Bool(true)) {
            return Err(NotationError::field("pass", "must be true"));
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
            Some(d) => Some(declaration(d, len)?),
        };
        Move::Place { card, at, declare }
    } else {
        return Err(NotationError::NoKind(
            "move has none of `at`, `remove`, `dead`, `pass`, `discard`, `penalty`",
        ));
    };
    Ok((seat, m))
}

/// A move in words, e.g. `7♥ on d6`, `J♠ removes e5`.
pub fn move_text(m: &Move) -> String {
    match *m {
        Move::Place { card, at, declare } => {
            let mut s = format!("{} on {at}", card.pretty());
            if let Some(d) = declare {
                s += &format!(" (declares {} sequence(s))", d.len());
            }
            s
        }
        Move::Remove { card, at } => format!("{} removes {at}", card.pretty()),
        Move::Dead { card } => format!("exchange dead {}", card.pretty()),
        Move::Pass => "pass".into(),
        Move::Discard { card } => format!("discard {}", card.pretty()),
    }
}

/// Reads `declare`: `[[first, last], …]` (C8a).
fn declaration(d: &Value, len: u8) -> Result<Declaration, NotationError> {
    let bad = |why: String| NotationError::field("declare", why);
    let Value::Array(items) = d else {
        return Err(bad(format!(
            "expected a list, found {}",
            sequence_common::json::echo(&d.to_string())
        )));
    };
    let mut ws: Vec<Window> = Vec::new();
    for it in items {
        let pair = it.as_array().filter(|a| a.len() == 2).ok_or_else(|| {
            bad(format!(
                "each entry must be [first space, last space], found {}",
                sequence_common::json::echo(&it.to_string())
            ))
        })?;
        let mut ends = [None, None];
        for (i, e) in pair.iter().enumerate() {
            let s = e.as_str().ok_or_else(|| {
                bad(format!(
                    "{} is not a space name",
                    sequence_common::json::echo(&e.to_string())
                ))
            })?;
            ends[i] = Some(s.parse::<Space>().map_err(|er| bad(er.to_string()))?);
        }
        let (Some(a), Some(b)) = (ends[0], ends[1]) else {
            return Err(bad("missing space".into()));
        };
        ws.push(Window::from_ends(a, b, len).map_err(|e| bad(format!("{e} (C8)")))?);
    }
    if ws.len() > 8 {
        return Err(bad("more than 8 sequences".into()));
    }
    Ok(Declaration::new(&ws))
}

/// The summary `sequence verify` prints (RECORD.md "Verifying"): `moves`,
/// `winner`, `sequences` per colour, `board`, plus `status` and `turn`.
fn summary(game: &Game, moves: usize) -> Value {
    let mut seqs = Map::new();
    for t in 0..game.teams() {
        let team = Team(t);
        seqs.insert(team.colour().into(), json!(game.sequence_count(team)));
    }
    json!({
        "moves": moves,
        "winner": game.outcome().winner().map(|t| Team(t).colour()),
        "sequences": seqs,
        "board": game.board_rows(),
        "status": match game.status() { Status::Playing => "playing", Status::Won(_) => "won", Status::Draw => "draw" },
    })
}

impl Notation for Game {
    const TEAMS: bool = true;
    const TABLE_TALK_PENALTY: bool = true;
    const RESHUFFLE_RULE: &'static str = "C7";

    fn parse_card(code: &str) -> Result<Card, String> {
        code.parse::<Card>().map_err(|e| e.to_string())
    }

    fn options_to_json(options: &Options) -> Value {
        serde_json::to_value(options).unwrap_or_else(|_| json!({}))
    }

    fn options_from_json(v: Option<&Value>) -> Result<Options, String> {
        match v {
            None => Ok(Options::default()),
            Some(v @ Value::Object(_)) => {
                sequence_common::json::from_value_hinted(v, &Game::option_hints(""))
                    .map_err(|e| format!("field `options`: {e}"))
            }
            Some(v) => Err(format!("field `options`: expected an object, found {v}")),
        }
    }

    fn move_to_json(seat: Seat, mv: &Move, config: &Config) -> Value {
        move_to_json(seat, mv, config.sequence_length())
    }

    fn move_from_json(v: &Value, config: &Config) -> Result<(Seat, Move), NotationError> {
        move_from_json(v, config.sequence_length())
    }

    fn move_text(mv: &Move) -> String {
        move_text(mv)
    }

    fn side_to_json(side: u8) -> Value {
        json!(Team(side).colour())
    }

    fn side_from_json(v: &Value, _config: &Config) -> Result<u8, String> {
        match v {
            Value::String(s) => Team::from_colour(s).map(|t| t.0).ok_or_else(|| {
                format!("field `result.winner`: {s:?} is not blue, green, red or null")
            }),
            w => Err(format!("field `result.winner`: {w} is not a colour")),
        }
    }

    fn summary(&self, moves: usize) -> Value {
        summary(self, moves)
    }

    fn penalty_discard(&mut self, seat: Seat, card: Card) -> Option<Result<(), IllegalMove>> {
        Some(Game::penalty_discard(self, seat, card))
    }

    fn holds_a_card(&self, seat: Seat) -> bool {
        !self.hand(seat).is_empty()
    }

    fn penalty_cards(&self, seat: Seat) -> Vec<Card> {
        let mut cards: Vec<Card> = vec![];
        for &c in self.hand(seat) {
            if !cards.contains(&c) {
                cards.push(c);
            }
        }
        cards
    }
}
