//! Tutorials (issue 25): practice tables whose game is the same every
//! time — a fixed deal (the start seed) and a bot whose moves are seeded
//! from it — so that a scripted lesson (the page's
//! `web/tutorial/<name>.json`, made by the `tutorial_script` example and
//! checked against the engine by `tests/tutorial.rs`) fits the game move
//! for move. The server stays the authority: the learner's moves are
//! ordinary moves, checked by the engine.

use sequence_common::GameKind;
use serde_json::{json, Value};

/// One tutorial: its game, the seed of its deal (ChaCha8, as every
/// table's), the bot that plays seat 1 and the rule options.
#[derive(Clone, Copy, Debug)]
pub struct Tutorial {
    /// Its name in requests (`"tutorial": "classic"`).
    pub name: &'static str,
    /// The game.
    pub game: GameKind,
    /// The seed of the deal and (through [`bot_seed`]) of the bot.
    pub seed: u64,
    /// The bot of seat 1 (a level of [`crate::bots::LEVELS`]).
    pub level: &'static str,
}

/// The tutorials. Classic: one sequence wins (C11 `win_sequences`), so
/// that the lesson ends with the learner's first sequence. Stacks: the
/// printed rules (S1–S7); its lesson (a pile, a wild, a completed pile, an
/// action card, a Block) ends before the game does, and the learner may
/// play the game on.
pub const TUTORIALS: [Tutorial; 2] = [
    Tutorial {
        name: "classic",
        game: GameKind::Classic,
        seed: 415,
        level: "random",
    },
    Tutorial {
        name: "stacks",
        game: GameKind::Stacks,
        seed: 1,
        level: "random",
    },
];

/// The tutorial called `name`.
pub fn find(name: &str) -> Option<&'static Tutorial> {
    TUTORIALS.iter().find(|t| t.name == name)
}

impl Tutorial {
    /// The rule options of its table (as the record formats write them).
    pub fn options(&self) -> Value {
        match self.game {
            GameKind::Classic => json!({"win_sequences": 1}),
            GameKind::Stacks => Value::Null,
        }
    }
}

/// The seed to deal a table's game number `game_no + 1` from (`game_no`:
/// the games it has had): a tutorial's first game is dealt from the
/// tutorial's seed, every other game from a fresh random one.
pub fn start_seed(spec: &super::spec::Spec, game_no: u32) -> u64 {
    match spec.tutorial.as_deref().and_then(find) {
        Some(t) if game_no == 0 => t.seed,
        _ => rand::random(),
    }
}

/// The seed of the bot's move at move `moves` of a tutorial dealt from
/// `seed` (a table's bots are otherwise seeded from its random id).
pub fn bot_seed(seed: u64, moves: u32) -> u64 {
    seed.rotate_left(17) ^ 0x7475_746f_7269_616c ^ u64::from(moves)
}
