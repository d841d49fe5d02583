//! The JavaScript API (wasm-bindgen). Everything crosses as JSON text so
//! that the page sees exactly the server's JSON; seeds are JavaScript
//! numbers (whole, 0 … 2^53). A refusal is thrown as an `Error` whose
//! `message` is the engine's and which carries `code` (e.g.
//! `C6.space_taken`) and, for records, `exit_code` (as `sequence verify`).

use crate::session::{self, Failure, Session};
use sequence_bots::replay;
use serde_json::Value;
use wasm_bindgen::prelude::*;

fn throw(f: &Failure) -> JsValue {
    let e = js_sys::Error::new(&f.message);
    let _ = js_sys::Reflect::set(&e, &"code".into(), &f.code.as_str().into());
    if let Some(c) = f.exit_code {
        let _ = js_sys::Reflect::set(&e, &"exit_code".into(), &c.into());
    }
    e.into()
}

fn usage(code: &str, message: String) -> JsValue {
    throw(&Failure {
        code: code.into(),
        message,
        exit_code: None,
    })
}

fn parse(text: &str, what: &str) -> Result<Value, JsValue> {
    serde_json::from_str(text).map_err(|e| usage("usage.json", format!("{what}: {e}")))
}

fn seed_of(seed: f64) -> Result<u64, JsValue> {
    if seed.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&seed) {
        Ok(seed as u64)
    } else {
        Err(usage(
            "usage.seed",
            format!("seed {seed} is not a whole number from 0 to 2^53"),
        ))
    }
}

fn seat_of(seat: f64) -> Result<u8, JsValue> {
    if seat.fract() == 0.0 && (0.0..=255.0).contains(&seat) {
        Ok(seat as u8)
    } else {
        Err(usage("usage.seat", format!("{seat} is not a seat")))
    }
}

/// A live game of either kind that keeps its record.
#[wasm_bindgen]
pub struct Game {
    inner: Session,
}

#[wasm_bindgen]
impl Game {
    /// A new game: `game` `classic` or `stacks`, `players` seats, `teams`
    /// (0: the default), `options_json` the record's `options` object (or
    /// `null`), dealt from `seed` as the server deals.
    #[wasm_bindgen(constructor)]
    pub fn new(
        game: &str,
        players: u8,
        teams: u8,
        options_json: &str,
        seed: f64,
    ) -> Result<Game, JsValue> {
        let options = parse(options_json, "options")?;
        let teams = (teams > 0).then_some(teams);
        session::new_game(game, players, teams, &options, seed_of(seed)?)
            .map(|inner| Game { inner })
            .map_err(|e| throw(&e))
    }

    /// A saved game (its record's JSON) taken up again; later reshuffles
    /// are drawn from `seed`.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(text: &str, seed: f64) -> Result<Game, JsValue> {
        session::resume(text, seed_of(seed)?)
            .map(|inner| Game { inner })
            .map_err(|e| throw(&e))
    }

    /// `classic` or `stacks`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.inner.kind().name().into()
    }

    /// Seats at the table.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> u8 {
        self.inner.players()
    }

    /// The seat that must decide now, or -1 once the game is over.
    #[wasm_bindgen(js_name = toAct)]
    pub fn to_act(&self) -> i32 {
        self.inner.to_act().map_or(-1, i32::from)
    }

    /// `{"status", "winner", "move_number"}` as JSON.
    pub fn outcome(&self) -> String {
        self.inner.outcome().to_string()
    }

    /// The legal moves of `seat` as a JSON list of move entries.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self, seat: f64) -> Result<String, JsValue> {
        Ok(Value::from(self.inner.legal_moves(seat_of(seat)?)).to_string())
    }

    /// Plays a move (JSON); returns what it did for the move log as JSON,
    /// as the server logs it: `{"entry": {"seat", "move", "text", effects}
    /// or null (a move records do not write), "previous": fields for the
    /// log's last entry}`. Throws with the rule's code.
    pub fn play(&mut self, move_json: &str) -> Result<String, JsValue> {
        let mv = parse(move_json, "move")?;
        self.inner
            .play(&mv)
            .map(|v| v.to_string())
            .map_err(|e| throw(&e))
    }

    /// The view of `seat` as JSON (a negative seat: the spectator's).
    pub fn view(&self, seat: f64) -> String {
        let seat = (seat >= 0.0).then(|| seat_of(seat).ok()).flatten();
        self.inner.view(seat).to_string()
    }

    /// The record so far as JSON.
    pub fn record(&self) -> String {
        self.inner.record().to_string()
    }

    /// A bot's move for `seat` as JSON (`null` when it has no decision).
    #[wasm_bindgen(js_name = botMove)]
    pub fn bot_move(&self, seat: f64, level: &str, seed: f64) -> Result<String, JsValue> {
        self.inner
            .bot_move(seat_of(seat)?, level, seed_of(seed)?)
            .map(|v| v.to_string())
            .map_err(|e| throw(&e))
    }

    /// Each seat's team as records write it (`null`s without teams), JSON.
    #[wasm_bindgen(js_name = seatTeams)]
    pub fn seat_teams(&self) -> String {
        Value::from(self.inner.seat_teams()).to_string()
    }

    /// The end screen's facts per side as JSON (the server's `final_sides`).
    #[wasm_bindgen(js_name = finalSides)]
    pub fn final_sides(&self) -> String {
        self.inner.final_sides().to_string()
    }

    /// The search's best moves for `seat` as JSON (the practice hint).
    pub fn hint(&self, seat: f64, iterations: f64, top: u32, seed: f64) -> Result<String, JsValue> {
        let iterations = seed_of(iterations)?;
        Ok(self
            .inner
            .hint(seat_of(seat)?, iterations, top as usize, seed_of(seed)?)
            .to_string())
    }
}

/// Verifies a record (JSON text): its summary as JSON, as `sequence
/// verify` prints it. Throws with `sequence verify`'s message, `code`
/// (`record.malformed`, `record.malformed_move` — an entry that is not a
/// move, e.g. with an unknown key —, `record.illegal_move`,
/// `record.mismatch`) and `exit_code`.
#[wasm_bindgen]
pub fn verify(text: &str) -> Result<String, JsValue> {
    session::verify(text)
        .map(|v| v.to_string())
        .map_err(|e| throw(&e))
}

/// Plays `games` random games (default rules) as `sequence bench` does;
/// returns `[finished, moves]`.
#[wasm_bindgen(js_name = randomGames)]
pub fn random_games(game: &str, players: u8, games: u32, seed: f64) -> Result<Vec<f64>, JsValue> {
    session::random_games(game, players, games, seed_of(seed)?)
        .map(|(f, m)| vec![f64::from(f), m as f64])
        .map_err(|e| throw(&e))
}

/// The positions of a finished game's record (JSON text), as the server's
/// replay gives them: `{"positions", "extras"}` as JSON. Throws with
/// `record.*` codes.
#[wasm_bindgen]
pub fn replay(text: &str) -> Result<String, JsValue> {
    session::positions(text)
        .map(|v| v.to_string())
        .map_err(|e| throw(&e))
}

/// The analysis of a finished game, the server's: made from its record,
/// then one position a [`Analysis::step`] (a worker steps it and reports
/// its progress).
#[wasm_bindgen]
pub struct Analysis {
    inner: Box<dyn replay::Analysis>,
}

#[wasm_bindgen]
impl Analysis {
    /// The analysis of the record `text` with `iterations` of the search
    /// per position, seeded with `seed`. Throws with `record.*` codes.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str, iterations: f64, seed: f64) -> Result<Analysis, JsValue> {
        session::analysis(text, seed_of(iterations)?, seed_of(seed)?)
            .map(|inner| Analysis { inner })
            .map_err(|e| throw(&e))
    }

    /// Analyses the next position; `true` once every position is done.
    pub fn step(&mut self) -> bool {
        self.inner.step()
    }

    /// Positions analysed so far.
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> u32 {
        self.inner.done() as u32
    }

    /// Positions in all.
    #[wasm_bindgen(getter)]
    pub fn total(&self) -> u32 {
        self.inner.total() as u32
    }

    /// The analysis as JSON (`{"iterations", "sides", "points"}`, as the
    /// server stores it), complete once [`Analysis::step`] said so.
    pub fn result(&self) -> String {
        self.inner.result().to_string()
    }
}

/// The bot levels (`random`, `greedy`, `level:1` … `level:5`) as JSON.
#[wasm_bindgen]
pub fn levels() -> String {
    Value::from(session::LEVELS.to_vec()).to_string()
}
