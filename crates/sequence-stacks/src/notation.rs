//! The notation of Sequence Stacks (RECORD-STACKS.md): decisions as record
//! entries and back, card and place codes, options, the winner's seat and
//! the `sequence verify` summary; and what a record's silence means (the
//! seats that let a completion stand, S5b). [`Game`] implements
//! [`Notation`], so that records, views and the bot protocol read and
//! write Stacks decisions through one interface
//! ([`sequence_common::record`]).

use crate::card::{Card, Colour, Place};
use crate::game::{Config, Game, Status};
use crate::moves::{Decision, PlayError, Source};
use crate::options::Options;
use sequence_common::json::echo;
use sequence_common::notation::{deny_unknown_move, parsed_field, seat_field};
use sequence_common::record::req_uint;
use sequence_common::{Notation, NotationError, Reshuffler, Seat};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::fmt;

/// A decision by `seat` as a RECORD-STACKS.md entry; a declined Block
/// ([`Decision::Pass`], which records do not write) as
/// `{"seat": S, "pass": true}`, the form views and the bot protocol use.
pub fn decision_json(seat: Seat, d: &Decision) -> Value {
    let d = *d;
    {
        let mut m = serde_json::Map::new();
        m.insert("seat".into(), json!(seat.0));
        let from = |m: &mut serde_json::Map<String, Value>, f: Source| {
            if f == Source::Discard {
                m.insert("from".into(), json!("discard"));
            }
        };
        match d {
            Decision::Pile {
                card,
                from: f,
                place,
            } => {
                m.insert("play".into(), json!(card.code()));
                m.insert("to".into(), json!(place.name()));
                from(&mut m, f);
            }
            Decision::Skip { from: f } | Decision::Reverse { from: f } => {
                m.insert("play".into(), json!(d.card().map(Card::code)));
                from(&mut m, f);
            }
            Decision::StealCard { from: f, target } => {
                m.insert("play".into(), json!("STEAL-CARD"));
                m.insert("target".into(), json!(target.0));
                from(&mut m, f);
            }
            Decision::StealChip {
                from: f,
                target,
                colour,
            } => {
                m.insert("play".into(), json!("STEAL-CHIP"));
                m.insert("target".into(), json!(target.0));
                m.insert("colour".into(), json!(colour.name()));
                from(&mut m, f);
            }
            Decision::Block => {
                m.insert("play".into(), json!("BLOCK"));
            }
            Decision::Pass => {
                m.insert("pass".into(), json!(true));
            }
            Decision::Discard { card } => {
                m.insert("discard".into(), json!(card.code()));
            }
            Decision::End => {
                m.insert("end".into(), json!(true));
            }
        }
        Value::Object(m)
    }
}

impl Serialize for Decision {
    /// As a record entry without `seat`; Pass as `{"pass": true}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut v = decision_json(Seat(0), self);
        if let Some(o) = v.as_object_mut() {
            o.remove("seat");
        }
        v.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Decision {
    /// The shape [`Decision`]'s `Serialize` writes: a record entry without
    /// `seat` (RECORD-STACKS.md), or `{"pass": true}`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Decision, D::Error> {
        let mut v = serde_json::Value::deserialize(d)?;
        let Some(o) = v.as_object_mut() else {
            return Err(serde::de::Error::custom("a decision must be a JSON object"));
        };
        if o.get("pass") == Some(&serde_json::Value::Bool(true)) && o.len() == 1 {
            return Ok(Decision::Pass);
        }
        o.insert("seat".into(), serde_json::json!(0));
        move_from_json(&v)
            .map(|(_, d)| d)
            .map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let src = |s: Source| {
            if s == Source::Discard {
                " from discard"
            } else {
                ""
            }
        };
        match *self {
            Decision::Pile { card, from, place } => write!(f, "{card} to {place}{}", src(from)),
            Decision::Skip { from } => write!(f, "SKIP{}", src(from)),
            Decision::Reverse { from } => write!(f, "REVERSE{}", src(from)),
            Decision::StealCard { from, target } => {
                write!(f, "STEAL-CARD from seat {}{}", target.0, src(from))
            }
            Decision::StealChip {
                from,
                target,
                colour,
            } => {
                write!(f, "STEAL-CHIP {colour} from seat {}{}", target.0, src(from))
            }
            Decision::Block => f.write_str("BLOCK"),
            Decision::Pass => f.write_str("pass"),
            Decision::Discard { card } => write!(f, "discard {card}"),
            Decision::End => f.write_str("end"),
        }
    }
}

/// Every key a Stacks move entry may have (RECORD-STACKS.md), whatever its
/// kind.
const MOVE_KEYS: &[&str] = &[
    "seat", "play", "from", "target", "colour", "to", "discard", "end",
];

/// Reads one `moves` entry (RECORD-STACKS.md): its seat and decision. A
/// declined Block (`{"pass": true}`) is not a record entry: see
/// [`input_from_json`].
///
/// # Errors
/// [`NotationError`] naming the bad or unknown key.
pub fn move_from_json(v: &Value) -> Result<(Seat, Decision), NotationError> {
    let o = v.as_object().ok_or(NotationError::NotAnObject)?;
    let seat = seat_field(o)?;
    let from = match o.get("from") {
        None => Source::Hand,
        Some(Value::String(s)) if s == "discard" => Source::Discard,
        Some(Value::String(s)) if s == "hand" => Source::Hand,
        Some(f) => {
            return Err(NotationError::field(
                "from",
                format!("{} is not \"discard\"", echo(&f.to_string())),
            ))
        }
    };
    let target = || -> Result<Seat, NotationError> {
        req_uint(o, "target", 255)
            .map(|n| Seat(n as u8))
            .map_err(|e| NotationError::field("target", e.trim_start_matches("field `target`: ")))
    };
    if o.contains_key("play") {
        let card: Card = parsed_field(o, "play", "a card code")?;
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
                    Some(Value::String(s)) => Colour::from_name(s).ok_or_else(|| {
                        NotationError::field(
                            "colour",
                            format!("{} is not blue or red", echo(&format!("{s:?}"))),
                        )
                    })?,
                    Some(c) => {
                        return Err(NotationError::field(
                            "colour",
                            format!("{} is not blue or red", echo(&c.to_string())),
                        ))
                    }
                    None => {
                        return Err(NotationError::MissingFor {
                            field: "colour",
                            why: "STEAL-CHIP names a colour, S5",
                        })
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
                    return Err(NotationError::Rule("a Block is played from the hand (S5)"));
                }
                deny_unknown_move(o, &["seat", "play"], &kind, MOVE_KEYS)?;
                Decision::Block
            }
            _ => {
                deny_unknown_move(o, &["seat", "play", "from", "to"], &kind, MOVE_KEYS)?;
                let to = o.get("to").ok_or(NotationError::MissingFor {
                    field: "to",
                    why: "a pile card goes to a place, S3",
                })?;
                let place = to.as_str().and_then(Place::from_name).ok_or_else(|| {
                    NotationError::field(
                        "to",
                        format!(
                            "{} is not a place (blue-a, blue-b, red-a, red-b)",
                            echo(&to.to_string())
                        ),
                    )
                })?;
                Decision::Pile { card, from, place }
            }
        };
        return Ok((seat, d));
    }
    if o.contains_key("discard") {
        deny_unknown_move(o, &["seat", "discard"], "discard", MOVE_KEYS)?;
        let card: Card = parsed_field(o, "discard", "a card code")?;
        return Ok((seat, Decision::Discard { card }));
    }
    if let Some(e) = o.get("end") {
        deny_unknown_move(o, &["seat", "end"], "end", MOVE_KEYS)?;
        if e != &Value::Bool(true) {
            return Err(NotationError::field(
                "end",
                format!("expected true, found {}", echo(&e.to_string())),
            ));
        }
        return Ok((seat, Decision::End));
    }
    Err(NotationError::NoKind(
        "a move needs `play`, `discard` or `end`",
    ))
}

/// The summary `sequence verify` prints (RECORD-STACKS.md "Verifying"):
/// `moves` (count), `winner` (seat or null), `chips` (per seat
/// `{"blue": n, "red": n}`), `piles` (`{"blue-a": top number or null, …}`),
/// plus `status` (`playing`, `won`, `draw`), `turn`, `supply`,
/// `draw_pile` (cards left) and `reshuffles` (count).
fn summary(game: &Game, moves: usize) -> Value {
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

/// Reads a decision sent by a player or a program (the server's API, the
/// bot protocol): a record entry, or `{"seat": S, "pass": true}` to let a
/// completion stand (S5b).
///
/// # Errors
/// [`NotationError`] naming the bad field.
pub fn input_from_json(v: &Value) -> Result<(Seat, Decision), NotationError> {
    if let Some(o) = v.as_object() {
        if o.contains_key("pass") {
            deny_unknown_move(o, &["seat", "pass"], "pass", MOVE_KEYS)?;
            if o.get("pass") != Some(&Value::Bool(true)) {
                return Err(NotationError::field("pass", "must be true"));
            }
            return Ok((seat_field(o)?, Decision::Pass));
        }
    }
    move_from_json(v)
}

impl Notation for Game {
    const TEAMS: bool = false;
    const RESHUFFLE_RULE: &'static str = "S6";

    fn parse_card(code: &str) -> Result<Card, String> {
        code.parse::<Card>().map_err(|e| e.to_string())
    }

    fn card_code(card: Card) -> String {
        card.code().to_string()
    }

    fn options_to_json(options: &Options) -> Value {
        options.to_record_json()
    }

    fn options_from_json(v: Option<&Value>) -> Result<Options, String> {
        match v {
            None => Ok(Options::default()),
            Some(v @ Value::Object(_)) => {
                Options::from_json(v).map_err(|e| format!("field `options`: {e}"))
            }
            Some(v) => Err(format!(
                "field `options`: expected an object, found {}",
                echo(&v.to_string())
            )),
        }
    }

    fn move_to_json(seat: Seat, mv: &Decision, _config: &Config) -> Value {
        decision_json(seat, mv)
    }

    fn is_recorded(mv: &Decision) -> bool {
        *mv != Decision::Pass
    }

    fn move_from_json(v: &Value, _config: &Config) -> Result<(Seat, Decision), NotationError> {
        move_from_json(v)
    }

    fn move_from_input(v: &Value, _config: &Config) -> Result<(Seat, Decision), NotationError> {
        input_from_json(v)
    }

    fn move_text(mv: &Decision) -> String {
        mv.to_string()
    }

    fn side_to_json(side: u8) -> Value {
        json!(side)
    }

    fn side_from_json(v: &Value, config: &Config) -> Result<u8, String> {
        match v.as_u64() {
            Some(n) if n < config.players() as u64 => Ok(n as u8),
            _ => Err(format!(
                "field `result.winner`: {} is not a seat or null",
                echo(&v.to_string())
            )),
        }
    }

    fn summary(&self, moves: usize) -> Value {
        summary(self, moves)
    }

    /// An open Block window is answered for the seats the record skips
    /// (no entry means no Block: those seats passed, S5b): all of them
    /// unless `decision` is a Block, up to the seat that blocks if it is.
    fn play_silence_before<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        seat: Seat,
        decision: &Decision,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        let decision = *decision;
        if let Some(w) = self.block_offer() {
            if decision == Decision::Block && seat != w.completer {
                loop {
                    match self.block_offer() {
                        None => return Err(PlayError::NotOffered(seat.0)),
                        Some(w) if w.offered == seat => break,
                        Some(w) => {
                            self.play(w.offered, Decision::Pass, reshuffler)?;
                        }
                    }
                }
            } else if decision != Decision::Block {
                self.finish_recorded(reshuffler)?;
            }
        }
        Ok(())
    }

    /// Answers an open Block window with Pass for every seat still to be
    /// asked (what a record's silence means, S5b).
    fn finish_recorded<S: Reshuffler<Card> + ?Sized>(
        &mut self,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        while let Some(w) = self.block_offer() {
            if self.status() != Status::Playing {
                break;
            }
            self.play(w.offered, Decision::Pass, reshuffler)?;
        }
        Ok(())
    }
}
