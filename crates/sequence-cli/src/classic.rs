//! Classic Sequence on the command line: the board as text and moves in
//! words for `sequence replay`.

use crate::games::CliGame;
use sequence_classic::{Game, Move, Seat, Space, Team};

impl CliGame for Game {
    const MIDGAME_PLIES: u32 = 30;
    const BENCH_PLAYERS: u8 = 2;

    fn describe(game: &Game, seat: Seat, m: &Move) -> String {
        describe(game, seat, m)
    }

    fn render(game: &Game, color: bool, last: Option<&Move>) -> String {
        let at = match last {
            Some(Move::Place { at, .. } | Move::Remove { at, .. }) => Some(*at),
            _ => None,
        };
        render_board(game, color, at)
    }
}

/// The move in words, e.g. "green plays 7H on d6".
pub fn describe(game: &Game, seat: Seat, m: &Move) -> String {
    let team = game.team_of(seat);
    let who = if game.players() == game.teams() {
        team.colour().to_string()
    } else {
        format!("{} (seat {})", team.colour(), seat.0)
    };
    match m {
        Move::Place { card, at, .. } if card.is_jack() => {
            format!("{who} plays {card} (two-eyed jack) on {at}")
        }
        Move::Place { card, at, .. } => format!("{who} plays {card} on {at}"),
        Move::Remove { card, at } => {
            format!("{who} plays {card} (one-eyed jack) and removes the chip on {at}")
        }
        Move::Dead { card } => format!("{who} exchanges the dead card {card}"),
        Move::Pass => format!("{who} has no legal play and passes"),
        Move::Discard { card } => format!("{who} has no legal play and discards {card}"),
    }
}

/// The board as text: card labels under chips as coloured letters
/// (`B G R`, lower case when locked in a sequence), `*` for corners.
pub fn render_board(game: &Game, color: bool, last: Option<Space>) -> String {
    let mut out = String::from("     a   b   c   d   e   f   g   h   i   j\n");
    for r in 0..10u8 {
        out.push_str(&format!("{:>2} ", r + 1));
        for c in 0..10u8 {
            let Some(sq) = Space::new(r, c) else { continue };
            let mark = if Some(sq) == last { '>' } else { ' ' };
            let cell = if sq.is_corner() {
                " ** ".to_string()
            } else {
                match game.chip_at(sq) {
                    Some(t) => {
                        let l = if game.locked().contains(sq) {
                            t.letter().to_ascii_lowercase()
                        } else {
                            t.letter()
                        };
                        let text = format!("{mark}[{l}]");
                        if color {
                            let code = match t.0 {
                                0 => "34",
                                1 => "32",
                                _ => "31",
                            };
                            format!("\x1b[1;{code}m{text}\x1b[0m")
                        } else {
                            text
                        }
                    }
                    None => {
                        let card = game
                            .layout()
                            .card_at(sq)
                            .map(|c| c.to_string())
                            .unwrap_or_default();
                        format!("{mark}{card} ")
                    }
                }
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    let seqs: Vec<String> = (0..game.teams())
        .map(|t| format!("{} {}", Team(t).colour(), game.sequence_count(Team(t))))
        .collect();
    out.push_str(&format!(
        "sequences: {}   draw pile: {}\n",
        seqs.join(", "),
        game.draw_pile_len()
    ));
    out
}
