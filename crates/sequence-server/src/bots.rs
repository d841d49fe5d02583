//! Glue to the bots: a seat given to a bot moves by itself. The choice is
//! made from that seat's view only (the bots of `sequence-bots`, written
//! once for both games), on a blocking thread, with the default search
//! settings ([`SearchConfig::default`]: nothing in the environment changes
//! a bot's strength). Only the named levels below are accepted from the
//! network (never `cmd:` bots, which would start a program).

use rand::seq::IndexedRandom;
use sequence_bots::{Bot, BotGame, SearchConfig};
use sequence_common::SeatView;
use serde_json::Value;

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

/// The bot of `level` for the game `G`, seeded with `seed`.
///
/// # Errors
/// A level a table may not have (see [`level_ok`]), or one the bots
/// cannot build.
pub fn bot<G: BotGame>(level: &str, seed: u64) -> Result<Box<dyn Bot<G>>, String> {
    if !level_ok(level) {
        return Err(format!("{level:?} is not a table's bot level"));
    }
    let spec = sequence_bots::parse_spec(level).map_err(|e| e.to_string())?;
    sequence_bots::bot_from::<G>(level, spec, seed, &SearchConfig::default())
        .map_err(|e| e.to_string())
}

/// The move a bot of `level` chooses from `view` (its seat's view at a
/// table `config`), as a move entry with `seat`; `None` when the view has
/// no legal move (not its turn, or a spectator's view). `seed` seeds the
/// bot (ChaCha8), so a table's bot moves are reproducible. If the level
/// cannot be built the bot plays a random legal move.
pub fn choose<G: BotGame>(
    level: &str,
    view: &G::View,
    config: &G::Config,
    seed: u64,
) -> Option<Value> {
    let seat = view.seat()?;
    let legal = view.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let mv = match bot::<G>(level, seed) {
        Ok(mut bot) => bot.choose(view),
        Err(e) => {
            tracing::warn!("bot {level:?}: {e}; playing at random");
            let mut rng = sequence_common::rng::game_rng(seed);
            *legal.choose(&mut rng)?
        }
    };
    Some(G::move_to_json(seat, &mv, config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sequence_common::Seat;

    fn first_to_act<G: BotGame>(config: G::Config) -> (G, Seat) {
        let (g, _) = G::deal(&config, &mut sequence_common::rng::game_rng(4));
        let seat = g.to_act().expect("someone acts");
        (g, seat)
    }

    #[test]
    fn every_level_moves_legally_in_both_games() {
        let classic = sequence_classic::Config::new(2, None, Default::default()).expect("C3");
        let (g, seat) = first_to_act::<sequence_classic::Game>(classic.clone());
        let stacks = sequence_stacks::Config::new(3, Default::default()).expect("S1");
        let (h, hseat) = first_to_act::<sequence_stacks::Game>(stacks);
        for level in [
            "random", "greedy", "level:1", "level:2", "nonsense", "cmd:true",
        ] {
            let mv = choose::<sequence_classic::Game>(level, &g.view(seat), &classic, 1)
                .expect("a classic move");
            assert_eq!(mv["seat"], seat.0, "{level}: {mv}");
            let mut g2 = g.clone();
            let (s, m) = <sequence_classic::Game as sequence_common::Notation>::move_from_input(
                &mv, &classic,
            )
            .expect("reads back");
            g2.play(s, m, &mut sequence_common::NoReshuffler)
                .expect("legal");
            let mv = choose::<sequence_stacks::Game>(level, &h.view(hseat), h.config(), 1)
                .expect("a stacks move");
            assert_eq!(mv["seat"], hseat.0, "{level}: {mv}");
        }
        // not its turn: no move
        let other = Seat(1 - seat.0);
        assert_eq!(
            choose::<sequence_classic::Game>("random", &g.view(other), &classic, 1),
            None
        );
        assert!(bot::<sequence_classic::Game>("cmd:true", 1).is_err());
    }
}
