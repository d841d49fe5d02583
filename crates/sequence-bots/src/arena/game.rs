//! One arena game: the table dealt from its deal's seed, every seat's bot
//! built from its side's bot name and seeded for that seat and game, and
//! how the game ended ([`GameResult`]).

use crate::bot::{Bot, BotFailure, BotGame};
use crate::config::SearchConfig;
use crate::seeds::mix;
use crate::spec::{bot_from, BotSpec};
use sequence_common::record::Match;
use sequence_common::{Seat, TableConfig};

/// How one game ended.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// Game number (0-based).
    pub index: u32,
    /// The deal it was dealt from: the game number, or with duplicate
    /// games the set of games sharing one deal.
    pub deal: u32,
    /// The bot (index into the arena's list) playing each side.
    pub sides: Vec<usize>,
    /// The winning side, `None` for a draw.
    pub winner: Option<usize>,
    /// Decisions played.
    pub moves: u32,
    /// A bot that failed (crash, timeout, illegal move): `(side, reason)`.
    /// Its side lost.
    pub failure: Option<(usize, String)>,
}

/// The seed of deal (or game) `g` of a run seeded with `seed`.
pub fn game_seed(seed: u64, g: u32) -> u64 {
    mix(seed ^ mix(0xA12E_4A00 + g as u64))
}

/// The seed of the bot at `seat` in game `g`.
pub fn bot_seed(seed: u64, g: u32, seat: u8) -> u64 {
    mix(game_seed(seed, g) ^ mix(1000 + seat as u64))
}

/// Most decisions in one game before it is called a draw (a guard; real
/// games end long before).
pub const MAX_DECISIONS: u32 = 20_000;

fn failure_result(
    index: u32,
    deal: u32,
    sides: &[usize],
    side: usize,
    why: String,
    moves: u32,
) -> GameResult {
    // The failing side loses: with two sides the other wins, otherwise the
    // game is scored as a draw among the others.
    let winner = if sides.len() == 2 {
        Some(1 - side)
    } else {
        None
    };
    GameResult {
        index,
        deal,
        sides: sides.to_vec(),
        winner,
        moves,
        failure: Some((side, why)),
    }
}

/// Plays game `g` of a run seeded with `seed` (the bots' names `names`): the table dealt from the seed of deal `deal`,
/// every seat's bot built from the spec of its side's bot (`assign`) and
/// seeded for that seat and game. A bot that fails (or answers an illegal
/// move) loses the game for its side.
pub fn play_game<G: BotGame>(
    (seed, names): (u64, &[String]),
    table: &G::Config,
    specs: &[BotSpec],
    assign: &[usize],
    g: u32,
    deal: u32,
) -> GameResult {
    let mut m = Match::<G>::new(table.clone(), game_seed(seed, deal));
    let players = table.players();
    let mut bots: Vec<Box<dyn Bot<G>>> = Vec::new();
    for s in 0..players {
        let side = m.game().side_of(Seat(s)) as usize;
        let b = assign[side];
        match bot_from::<G>(
            &names[b],
            specs[b].clone(),
            bot_seed(seed, g, s),
            &SearchConfig::default(),
        ) {
            Ok(bot) => bots.push(bot),
            Err(e) => {
                return failure_result(
                    g,
                    deal,
                    assign,
                    side,
                    BotFailure::Crashed(e.to_string()).to_string(),
                    0,
                )
            }
        }
    }
    let mut moves = 0;
    let mut failure = None;
    while moves < MAX_DECISIONS {
        let Some(seat) = m.to_act() else { break };
        let side = m.game().side_of(seat) as usize;
        let view = m.view(seat);
        let mv = match bots[seat.index()].try_choose(&view) {
            Ok(mv) => mv,
            Err(e) => {
                failure = Some((side, e.to_string()));
                break;
            }
        };
        if let Err(e) = m.play(seat, mv) {
            failure = Some((side, BotFailure::Illegal(e.to_string()).to_string()));
            break;
        }
        moves += 1;
    }
    for s in 0..players {
        let view = m.view(Seat(s));
        bots[s as usize].game_over(&view);
    }
    if let Some((side, why)) = failure {
        return failure_result(g, deal, assign, side, why, moves);
    }
    GameResult {
        index: g,
        deal,
        sides: assign.to_vec(),
        winner: m.game().outcome().winner().map(usize::from),
        moves,
        failure: None,
    }
}
