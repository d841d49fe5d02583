//! Sequence Stacks on the command line: piles and chips as text for
//! `sequence replay`.

use crate::games::CliGame;
use sequence_common::Notation;
use sequence_stacks::{Decision, Game};

impl CliGame for Game {
    const MIDGAME_PLIES: u32 = 40;
    const BENCH_PLAYERS: u8 = 4;

    fn render(game: &Game, _color: bool, _last: Option<&Decision>) -> String {
        let s = game.summary(0);
        format!("  piles {}  chips {}\n", s["piles"], s["chips"])
    }
}
