//! Classic Sequence as text for a terminal: a move in words and the board
//! with its chips (what `sequence replay` prints, through
//! [`sequence_common::TableFacts`]).

use crate::game::{Game, Team};
use crate::{Move, Seat, Space};

/// The move in words, e.g. "green plays 7H on d6" (the seat is named
/// beside its colour when teams have several players, C3).
pub fn move_words(game: &Game, seat: Seat, m: &Move) -> String {
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

/// The space a move put a chip on or took one from, if any.
pub fn move_space(m: &Move) -> Option<Space> {
    match m {
        Move::Place { at, .. } | Move::Remove { at, .. } => Some(*at),
        _ => None,
    }
}

/// The board as text: card labels under chips as coloured letters
/// (`B G R`, lower case when locked in a sequence), `*` for corners, `>`
/// before the space `last`; then sequences per team and the draw pile.
/// `color`: ANSI colours (blue, green, red).
pub fn board_text(game: &Game, color: bool, last: Option<Space>) -> String {
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
                    Some(t) => chip_text(t, game.locked().contains(sq), mark, color),
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

/// One space holding a chip of `team`: `[B]`, lower case when `locked`.
fn chip_text(team: Team, locked: bool, mark: char, color: bool) -> String {
    let l = if locked {
        team.letter().to_ascii_lowercase()
    } else {
        team.letter()
    };
    let text = format!("{mark}[{l}]");
    if !color {
        return text;
    }
    let code = match team.0 {
        0 => "34",
        1 => "32",
        _ => "31",
    };
    format!("\x1b[1;{code}m{text}\x1b[0m")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn an_empty_board_shows_cards_and_corners() {
        let config = Config::new(2, None, Default::default()).unwrap();
        let mut rng = sequence_common::rng::game_rng(1);
        let (game, _) = Game::deal(config, &mut rng);
        let text = board_text(&game, false, None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 12, "{text}");
        assert!(lines[1].starts_with(" 1  ** "), "{text}");
        assert_eq!(lines[11], "sequences: blue 0, green 0   draw pile: 90");
    }
}
