//! What the end of a game leaves for history and ratings ([`GameEnd`]):
//! built from the table's state after the move that ends the game
//! ([`game_end`]) and written by the database in the same transaction as
//! that move ([`crate::db::Append::finish`]), so it is stored exactly once
//! whichever instance ends the game.
//!
//! A table is rated unless its host made it casual; a game with a bot at
//! a seat is casual whatever the host chose, and so is one where a seat
//! is a guest's (no account): only the games of players with accounts
//! are rated. A person who left the game, or was marked away (their
//! turn clock ran out three times in a row and they never came back),
//! lost it: their side is placed last. A bot the host sets at their
//! seat during the game stands in for them: the game stays theirs, lost.

use crate::ratings::RatingKind;
use crate::tables::{Core, SeatKind, Status};
use sequence_common::{Outcome, Seat};

/// A seat's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatResult {
    /// Its side won.
    Win,
    /// Its side lost (or it left).
    Loss,
    /// Drawn.
    Draw,
}

impl SeatResult {
    /// `win`, `loss` or `draw` (stored and in the API).
    pub fn name(self) -> &'static str {
        match self {
            SeatResult::Win => "win",
            SeatResult::Loss => "loss",
            SeatResult::Draw => "draw",
        }
    }
}

/// One seat at the end of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatEnd {
    /// The seat.
    pub seat: u8,
    /// Its side: the team (classic) or the seat (Stacks).
    pub side: u8,
    /// The name it played under.
    pub name: String,
    /// A bot held it.
    pub bot: bool,
    /// SHA-256 (hex) of the seat token of the person who played it (also
    /// of one who left), to find its account.
    pub token_hash: Option<String>,
    /// Its person left or was away at the end (an abandoned game).
    pub left: bool,
    /// Its result.
    pub result: SeatResult,
    /// Its side's place for the rating (1 = first; equal places tie).
    pub place: usize,
}

/// A finished game, as stored in `games` and `game_seats`.
#[derive(Debug, Clone, PartialEq)]
pub struct GameEnd {
    /// The table.
    pub table_id: String,
    /// The game's number at the table (1 = first).
    pub game_no: u32,
    /// Its rating kind.
    pub kind: RatingKind,
    /// Rated as the table stood at the end ([`Core::rated_now`]: the
    /// host's choice, no bot, every seat a different account's); the
    /// database checks the seats' accounts again when it is written.
    pub rated: bool,
    /// When it ended (Unix ms).
    pub ended_ms: i64,
    /// Moves made.
    pub moves: u32,
    /// Every seat.
    pub seats: Vec<SeatEnd>,
}

/// The end of the game the table `after` holds, if the change from
/// `before` ended it (`None` otherwise), at `now` (Unix ms).
pub fn game_end(before: &Core, after: &Core, now: i64) -> Option<GameEnd> {
    let ended = after.status == Status::Over
        && (before.status != Status::Over || before.game_no != after.game_no);
    if !ended {
        return None;
    }
    // the engine says who plays on which side (C3 teams, S1 a side a seat)
    let live = after.live.as_ref()?;
    let outcome = live.outcome();
    let side_of = |seat: u8| live.side_of(Seat(seat));
    let sides = live.sides();
    let players = after.seats.len() as u8;
    // left, away at the end, or a bot stood in for the person
    let left = |i: usize| {
        let s = &after.seats[i];
        s.kind == SeatKind::Left
            || (s.kind == SeatKind::Bot && s.left_token.is_some())
            || after.away.get(i).copied().unwrap_or(false)
    };
    let side_left = |side: u8| (0..after.seats.len()).any(|i| side_of(i as u8) == side && left(i));
    // a side with a leaver lost and is placed last; when it had won,
    // the others share the win
    let result_of = |side: u8| match outcome {
        _ if side_left(side) => SeatResult::Loss,
        Outcome::Won(w) if w == side || side_left(w) => SeatResult::Win,
        Outcome::Draw => SeatResult::Draw,
        _ => SeatResult::Loss,
    };
    let place = |side: u8| match result_of(side) {
        _ if side_left(side) => 3,
        SeatResult::Win | SeatResult::Draw => 1,
        SeatResult::Loss => 2,
    };
    let seats = after
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let side = side_of(i as u8);
            let result = result_of(side);
            SeatEnd {
                seat: i as u8,
                side,
                name: s.name.clone().unwrap_or_default(),
                bot: s.kind == SeatKind::Bot && s.left_token.is_none(),
                token_hash: s.token.or(s.left_token).map(hex::encode),
                left: left(i),
                result,
                place: place(side),
            }
        })
        .collect::<Vec<_>>();
    let rated = after.rated_now();
    Some(GameEnd {
        table_id: after.id.clone(),
        game_no: after.game_no,
        kind: RatingKind::of(after.spec.game, players, sides),
        rated,
        ended_ms: now,
        moves: after.moves,
        seats,
    })
}
