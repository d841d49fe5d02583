//! What the classic engine's integration tests share: spaces and cards
//! from their names, and positions set up from text.
#![allow(dead_code)]

use sequence_classic::{Card, Config, Game, Options, Position, Seat, Space, Team, Window};

/// The space named `s` (`"a1"`).
pub fn sq(s: &str) -> Space {
    s.parse().unwrap()
}

/// The card named `s` (`"7H"`).
pub fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// The cards named in `s`, apart by white space (`"7H 8D"`).
pub fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(card).collect()
}

/// A position of the table of `players` in `teams` under `options`:
/// `chips` as (team, "a1 b2 …"), `sequences` as (team, first space, last
/// space), hands as "7H 8D …" per seat, the seat to move; no discards and
/// the draw pile every other card.
pub fn position_with(
    players: u8,
    teams: Option<u8>,
    options: Options,
    chips: &[(Team, &str)],
    sequences: &[(Team, &str, &str)],
    hands: &[&str],
    turn: u8,
) -> Game {
    let config = Config::new(players, teams, options).unwrap();
    let len = config.sequence_length();
    let pos = Position {
        chips: chips
            .iter()
            .flat_map(|(t, s)| s.split_whitespace().map(move |x| (*t, sq(x))))
            .collect(),
        sequences: sequences
            .iter()
            .map(|(t, a, b)| (*t, Window::from_ends(sq(a), sq(b), len).unwrap()))
            .collect(),
        hands: hands.iter().map(|h| cards(h)).collect(),
        discards: vec![],
        draw_pile: None,
        turn: Seat(turn),
    };
    Game::from_position(config, &pos).unwrap()
}
