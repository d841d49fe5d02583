//! `sequence hint`'s analysis: the best moves for a seat of an
//! unfinished game (a record), with the search bot's chance to win.

use crate::bot::BotGame;
use crate::config::SearchSpec;
use crate::games::{with_game, ForGame};
use crate::search::Budget;
use anyhow::bail;
use sequence_common::record::{detect_kind, Record};
use sequence_common::Seat;
use serde_json::{json, Value};

/// A seat the record's table does not have (a bad argument: `sequence
/// hint` exits with code 2 for it).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NoSuchSeat(pub String);

/// The hint for `seat` in the record `text` as JSON:
/// `{"game", "seat", "move_number", "iterations", "seconds", "moves": [{"move": record move, "text", "win", "visits"}]}`,
/// best first (`win` is the estimated chance to win, draws half).
///
/// # Errors
/// A malformed record, a finished game, a seat the table does not have
/// ([`NoSuchSeat`]) or one that is not to move.
pub fn hint(text: &str, seat: u8, budget: Budget, top: usize, seed: u64) -> anyhow::Result<Value> {
    /// [`hint_for`] of the record's game.
    struct Hint<'a>(&'a str, u8, Budget, usize, u64);
    impl ForGame for Hint<'_> {
        type Out = anyhow::Result<Value>;
        fn call<G: BotGame>(self) -> Self::Out {
            hint_for::<G>(self.0, self.1, self.2, self.3, self.4)
        }
    }
    let (kind, _) = detect_kind(text)?;
    with_game(kind, Hint(text, seat, budget, top, seed))
}

/// [`hint`] for a record of the game `G`.
fn hint_for<G: BotGame>(
    text: &str,
    seat: u8,
    budget: Budget,
    top: usize,
    seed: u64,
) -> anyhow::Result<Value> {
    let (_, game) = Record::<G>::from_json_str(text)?;
    let Some(to_act) = game.to_act() else {
        bail!("the game is over: no move to advise");
    };
    if seat >= game.players() {
        return Err(NoSuchSeat(format!(
            "--seat {seat}: the table has seats 0 to {}",
            game.players() - 1
        ))
        .into());
    }
    if to_act != Seat(seat) {
        bail!(
            "--seat {seat}: it is not its turn (seat {} must decide now)",
            to_act.0
        );
    }
    let view = game.view(Seat(seat));
    let Some(report) = G::analyse(&view, seed, &SearchSpec::new(budget, None)) else {
        bail!("the record's position cannot be searched (inconsistent view)");
    };
    let moves: Vec<Value> = report
        .moves
        .iter()
        .take(top.max(1))
        .map(|(m, v, w)| {
            json!({
                "move": G::move_to_json(Seat(seat), m, game.config()),
                "text": G::move_text(m),
                "win": (w * 1000.0).round() / 1000.0,
                "visits": v,
            })
        })
        .collect();
    let mut out = json!({
        "game": G::KIND.name(),
        "seat": seat,
        "move_number": game.ply(),
        "iterations": report.iterations,
        "seconds": report.elapsed.as_secs_f64(),
        "moves": moves,
    });
    if G::TEAMS {
        out["team"] = G::side_to_json(game.side_of(Seat(seat)));
    }
    Ok(out)
}

/// The hint JSON (see [`hint`]) as a text table.
pub fn hint_table(h: &Value) -> String {
    let mut s = format!(
        "seat {} ({}) — {} iterations in {:.2} s\n  #  {:<34} {:>6}  {:>8}\n",
        h["seat"],
        h["game"].as_str().unwrap_or(""),
        h["iterations"],
        h["seconds"].as_f64().unwrap_or(0.0),
        "move",
        "win %",
        "visits"
    );
    for (i, m) in h["moves"].as_array().into_iter().flatten().enumerate() {
        s += &format!(
            "{:>3}  {:<34} {:>6.1}  {:>8}\n",
            i + 1,
            m["text"].as_str().unwrap_or(""),
            100.0 * m["win"].as_f64().unwrap_or(0.0),
            m["visits"]
        );
    }
    s
}
