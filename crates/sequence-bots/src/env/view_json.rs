//! A seat's view read back from its JSON (`view.to_json()`, what the
//! server and the bot protocol send a seat): [`super::EnvGame::view_from_json`]. Stacks
//! views read back as they are (serde); a classic view is rebuilt as a
//! position ([`sequence_classic::position::Position`]) with the seat's
//! hand, the board, the sequences and the discard piles it shows, the
//! other hands' cards standing in from the unseen ones (they are hidden
//! from the seat anyway, so its view, observation and legal moves are
//! the same). What the JSON does not carry stays at its start value: the
//! classic `stuck_turns` count (C6a) and, in classic, whether a dead card
//! was already exchanged this turn (the protocol's legal moves say it).

use sequence_classic::position::Position;
use sequence_classic::{Card, Team};
use sequence_common::{Notation, Rules, Seat};
use serde_json::Value;

fn bad(message: impl Into<String>) -> String {
    message.into()
}

fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, String> {
    v.get(name)
        .ok_or_else(|| bad(format!("view: field `{name}` is missing")))
}

fn uint(v: &Value, name: &str) -> Result<u64, String> {
    field(v, name)?
        .as_u64()
        .ok_or_else(|| bad(format!("view: field `{name}` is not an unsigned integer")))
}

fn cards(v: &Value, what: &str) -> Result<Vec<Card>, String> {
    v.as_array()
        .ok_or_else(|| bad(format!("view: `{what}` is not a list of cards")))?
        .iter()
        .map(|c| {
            c.as_str()
                .and_then(|s| s.parse::<Card>().ok())
                .ok_or_else(|| bad(format!("view: `{what}`: {c} is not a card code")))
        })
        .collect()
}

/// A Stacks seat's view read back from its JSON, with its table.
pub(super) fn stacks_view(
    v: &Value,
) -> Result<(sequence_stacks::view::SeatView, sequence_stacks::Config), String> {
    // `to_json` writes the legal decisions and the last one as
    // record entries: read them back as such.
    type S = sequence_stacks::Game;
    let mut o = v
        .as_object()
        .cloned()
        .ok_or_else(|| bad("view: not an object"))?;
    let options: sequence_stacks::Options = serde_json::from_value(field(v, "options")?.clone())
        .map_err(|e| bad(format!("view: field `options`: {e}")))?;
    let players = uint(v, "players")? as u8;
    let config = <S as Rules>::table(players, None, options).map_err(|e| bad(e.to_string()))?;
    let entries = |x: Option<&Value>| -> Result<Vec<sequence_stacks::Decision>, String> {
        let one = |e: &Value| {
            <S as Notation>::move_from_input(e, &config)
                .map(|(_, d)| d)
                .map_err(|err| bad(format!("view: move {e}: {err}")))
        };
        match x {
            None | Some(Value::Null) => Ok(vec![]),
            Some(Value::Array(a)) => a.iter().map(one).collect(),
            Some(e) => one(e).map(|d| vec![d]),
        }
    };
    let legal = entries(o.get("legal_moves"))?;
    let last = match o.get("last_move") {
        Some(e @ Value::Object(_)) => {
            let seat = uint(e, "seat")? as u8;
            entries(Some(e))?.pop().map(|d| (Seat(seat), d))
        }
        _ => None,
    };
    o.insert(
        "legal".into(),
        serde_json::to_value(legal).map_err(|e| bad(e.to_string()))?,
    );
    o.insert(
        "last_move".into(),
        serde_json::to_value(last).map_err(|e| bad(e.to_string()))?,
    );
    let view: sequence_stacks::view::SeatView =
        serde_json::from_value(Value::Object(o)).map_err(|e| bad(format!("view: {e}")))?;
    Ok((view, config))
}

/// A classic seat's view read back from its JSON, with its table.
pub(super) fn classic_view(
    v: &Value,
) -> Result<(sequence_classic::view::SeatView, sequence_classic::Config), String> {
    type G = sequence_classic::Game;
    let players = uint(v, "players")? as u8;
    let teams = v.get("teams").and_then(Value::as_u64).map(|t| t as u8);
    let options = <G as Notation>::options_from_json(v.get("options")).map_err(bad)?;
    let config = <G as Rules>::table(players, teams, options).map_err(|e| bad(e.to_string()))?;
    let seat = Seat(uint(v, "seat")? as u8);
    let turn = Seat(uint(v, "turn")? as u8);
    let hand = cards(field(v, "hand")?, "hand")?;
    let sizes: Vec<usize> = field(v, "hand_sizes")?
        .as_array()
        .ok_or_else(|| bad("view: `hand_sizes` is not a list"))?
        .iter()
        .map(|x| x.as_u64().map(|n| n as usize))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("view: `hand_sizes` holds a non-integer"))?;
    let mut discards = Vec::new();
    for (s, pile) in field(v, "discard_piles")?
        .as_array()
        .ok_or_else(|| bad("view: `discard_piles` is not a list"))?
        .iter()
        .enumerate()
    {
        for c in cards(pile, "discard_piles")? {
            discards.push((Seat(s as u8), c));
        }
    }
    // The unseen cards (two decks less the hand and the discards) stand
    // in for the other hands; the rest is the draw pile.
    let mut counts = [2u8; 52];
    for c in hand.iter().chain(discards.iter().map(|(_, c)| c)) {
        let n = &mut counts[c.index()];
        *n = n
            .checked_sub(1)
            .ok_or_else(|| bad(format!("view: more than two {c} in sight")))?;
    }
    let mut unseen = (0..52u8)
        .filter_map(Card::from_index)
        .flat_map(|c| std::iter::repeat_n(c, counts[c.index()] as usize));
    let mut hands = Vec::with_capacity(players as usize);
    for s in 0..players {
        if Seat(s) == seat {
            hands.push(hand.clone());
        } else {
            let n = sizes.get(s as usize).copied().unwrap_or(0);
            hands.push(unseen.by_ref().take(n).collect());
        }
    }
    let mut chips = Vec::new();
    for (r, row) in field(v, "board")?
        .as_array()
        .ok_or_else(|| bad("view: `board` is not a list of rows"))?
        .iter()
        .enumerate()
    {
        let row = row
            .as_str()
            .ok_or_else(|| bad("view: a `board` row is not text"))?;
        for (c, ch) in row.chars().enumerate() {
            let team = match ch.to_ascii_uppercase() {
                '.' | '*' => continue,
                l => (0..3u8)
                    .map(Team)
                    .find(|t| t.letter() == l)
                    .ok_or_else(|| bad(format!("view: board cell {ch:?} is no team")))?,
            };
            let name = format!("{}{}", (b'a' + c as u8) as char, r + 1);
            let at = name
                .parse()
                .map_err(|_| bad(format!("view: no space {name}")))?;
            chips.push((team, at));
        }
    }
    let len = config.sequence_length();
    let mut sequences = Vec::new();
    for s in field(v, "sequences")?
        .as_array()
        .ok_or_else(|| bad("view: `sequences` is not a list"))?
    {
        let part = |i: usize| s.get(i).and_then(Value::as_str).unwrap_or("");
        let team = Team::from_colour(part(0))
            .ok_or_else(|| bad(format!("view: sequence {s}: no team")))?;
        let (a, b) = (part(1).parse(), part(2).parse());
        let (Ok(a), Ok(b)) = (a, b) else {
            return Err(bad(format!("view: sequence {s}: no spaces")));
        };
        let w = sequence_classic::sequences::Window::from_ends(a, b, len)
            .map_err(|_| bad(format!("view: sequence {s} is not a line")))?;
        sequences.push((team, w));
    }
    let pos = Position {
        chips,
        sequences,
        hands,
        discards,
        draw_pile: None,
        turn,
    };
    let game = G::from_position(config.clone(), &pos).map_err(|e| bad(e.to_string()))?;
    Ok((game.view(seat), config))
}
