//! Glue to the bots: a seat given to a bot moves by itself. The choice is
//! made from that seat's view only (the bots of `sequence-bots`, written
//! once for every game, [`sequence_bots::AnyBot`]), on a blocking thread,
//! with the default search settings (`SearchConfig::default`: nothing in the environment changes
//! a bot's strength). Only the named levels below are accepted from the
//! network (never `cmd:` bots, which would start a program).

use rand::seq::IndexedRandom;
use sequence_bots::AnyBot;
use sequence_common::{AnyEntry, AnyView, GameKind};

/// The bot levels a table may ask for: `random`, `greedy`, and `level:1`
/// (beginner) … `level:5` (the search, 3,000 iterations a move; see
/// `sequence_bots::level`).
pub const LEVELS: [&str; 7] = [
    "random", "greedy", "level:1", "level:2", "level:3", "level:4", "level:5",
];

/// Whether `level` names a bot.
pub fn level_ok(level: &str) -> bool {
    LEVELS.contains(&level)
}

/// Why `seat` cannot be a bot at a table of `players` seats (seat 0, or
/// no such seat), and which seats can.
pub fn not_a_bot_seat(seat: u8, players: u8) -> String {
    let why = if seat == 0 {
        "seat 0 is the host's and cannot be a bot".to_string()
    } else {
        format!("there is no seat {seat} at a {players}-seat table")
    };
    let which = match players.saturating_sub(1) {
        0 => "no seat can be a bot".to_string(),
        1 => "bots may sit only in seat 1".to_string(),
        last => format!("bots may sit in seats 1–{last}"),
    };
    format!("{why}; {which}")
}

/// A bot's move to compute away from the table (on a blocking thread):
/// the seat's decision as the engine reads it (stored read, never parsed
/// again), or `None` when the seat has no legal move.
pub type BotMove = Box<dyn FnOnce() -> Option<AnyEntry> + Send>;

/// The bot of `level` for the game `kind`, seeded with `seed`
/// ([`sequence_bots::any_bot`]).
///
/// # Errors
/// A level a table may not have (see [`level_ok`]), or one the bots
/// cannot build.
pub fn bot(kind: GameKind, level: &str, seed: u64) -> Result<Box<dyn AnyBot>, String> {
    if !level_ok(level) {
        return Err(format!("{level:?} is not a table's bot level"));
    }
    sequence_bots::any_bot(kind, level, seed).map_err(|e| e.to_string())
}

/// The move a bot of `level` chooses from `view` (its seat's view at a
/// table, [`sequence_common::AnyGame::view`]), as that seat's entry;
/// `None` when the view has no legal move (not its turn, or a
/// spectator's view). `seed` seeds the bot (ChaCha8), so a table's bot
/// moves are reproducible. If the level cannot be built the bot plays a
/// random legal move.
pub fn choose(level: &str, view: &dyn AnyView, seed: u64) -> Option<AnyEntry> {
    let seat = view.seat()?;
    let legal = view.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let chosen = bot(view.kind(), level, seed)
        .and_then(|mut bot| bot.choose_any(view).map_err(|e| e.to_string()));
    let mv = match chosen {
        Ok(mv) => mv,
        Err(e) => {
            tracing::warn!("bot {level:?}: {e}; playing at random");
            let mut rng = sequence_common::rng::game_rng(seed);
            legal.choose(&mut rng)?.clone()
        }
    };
    Some(AnyEntry::of_move(seat, mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_common::Seat;

    #[test]
    fn every_level_moves_legally_in_both_games() {
        for (kind, players) in [(GameKind::Classic, 2), (GameKind::Stacks, 3)] {
            let live = sequence_bots::rules(kind)
                .deal(
                    sequence_common::TableSetup {
                        players,
                        teams: None,
                        options: &serde_json::Value::Null,
                    },
                    4,
                )
                .expect("a table");
            let seat = live.to_act().expect("someone acts");
            for level in [
                "random", "greedy", "level:1", "level:2", "nonsense", "cmd:true",
            ] {
                let entry = choose(level, live.view(Some(seat)).as_ref(), 1)
                    .unwrap_or_else(|| panic!("a {kind} move"));
                assert_eq!(entry.seat(), seat, "{level}: {entry:?}");
                let json = entry.to_json().expect("written at its table");
                assert_eq!(json["seat"], seat.0, "{level}: {json}");
                let mut played = live.clone();
                played.play_entry(&entry).expect("legal");
                assert_eq!(played.ply(), 1, "{level}");
            }
            // not its turn: no move
            let other = Seat((seat.0 + 1) % players);
            assert!(choose("random", live.view(Some(other)).as_ref(), 1).is_none());
            assert!(bot(kind, "cmd:true", 1).is_err());
        }
    }
}
