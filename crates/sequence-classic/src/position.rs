//! A game set up at an arbitrary position ([`Game::from_position`]), for
//! tests, puzzles and analysis.

use crate::bitboard::Space;
use crate::bitboard::{Bitboard, CORNERS};
use crate::card::Card;
use crate::game::{Game, Hand, SetupError, Team, MAX_HAND, MAX_PLAYERS, MAX_SEQUENCES};
use crate::options::Config;
use crate::sequences::Window;
use sequence_common::Seat;

/// An arbitrary position for [`Game::from_position`].
#[derive(Clone, Debug, Default)]
pub struct Position {
    /// Chips on the board.
    pub chips: Vec<(Team, Space)>,
    /// Completed sequences (their spaces must hold the team's chips).
    pub sequences: Vec<(Team, Window)>,
    /// Each seat's hand, by seat.
    pub hands: Vec<Vec<Card>>,
    /// Discarded cards with their seats, oldest first.
    pub discards: Vec<(Seat, Card)>,
    /// The draw pile, top first; `None` = every remaining card.
    pub draw_pile: Option<Vec<Card>>,
    /// The seat to move.
    pub turn: Seat,
}

impl Game {
    /// A game set up at an arbitrary position, for tests, puzzles and
    /// analysis. The cards of `pos` (hands, discards, draw pile) must be
    /// exactly two standard decks; when `pos.draw_pile` is `None` the draw
    /// pile is every remaining card in index order, top first.
    ///
    /// # Errors
    /// [`SetupError`] naming what is inconsistent (card counts, a chip on a
    /// corner or on two teams, a sequence not covered by its team's chips,
    /// a hand too large, a seat or team that does not exist).
    pub fn from_position(config: Config, pos: &Position) -> Result<Game, SetupError> {
        let players = config.players();
        let teams = config.teams();
        let bad = |m: String| SetupError::Deck(m);
        if pos.hands.len() != players as usize {
            return Err(bad(format!(
                "position has {} hands for {players} players",
                pos.hands.len()
            )));
        }
        if pos.turn.0 >= players {
            return Err(SetupError::Dealer(pos.turn.0));
        }
        let mut counts = [0u8; 52];
        let mut add = |c: Card| counts[c.index()] += 1;
        pos.hands.iter().flatten().copied().for_each(&mut add);
        pos.discards.iter().map(|(_, c)| *c).for_each(&mut add);
        let draw: Vec<Card> = match &pos.draw_pile {
            Some(d) => {
                d.iter().copied().for_each(&mut add);
                d.clone()
            }
            None => {
                let mut d = Vec::new();
                for c in Card::all() {
                    for _ in counts[c.index()]..2 {
                        d.push(c);
                    }
                }
                for c in &d {
                    counts[c.index()] += 1;
                }
                d
            }
        };
        if let Some(c) = Card::all().find(|c| counts[c.index()] != 2) {
            return Err(bad(format!(
                "{c} appears {} times, expected 2",
                counts[c.index()]
            )));
        }
        // A throwaway deck to build the struct, then overwrite.
        let mut g = Game::new(config, Seat(0), &Card::double_deck())?;
        g.hands = [Hand::default(); MAX_PLAYERS];
        for (s, h) in pos.hands.iter().enumerate() {
            if h.len() > MAX_HAND {
                return Err(bad(format!(
                    "seat {s} holds {} cards, at most {MAX_HAND}",
                    h.len()
                )));
            }
            g.set_hand(Seat(s as u8), h);
        }
        g.set_hidden(&[], &draw);
        g.ndiscard = 0;
        g.discarded = [0; 2];
        for &(seat, c) in &pos.discards {
            if seat.0 >= players {
                return Err(SetupError::Dealer(seat.0));
            }
            g.push_discard(seat, c);
        }
        for &(team, sq) in &pos.chips {
            if team.0 >= teams {
                return Err(bad(format!("team {} does not exist", team.0)));
            }
            if sq.is_corner() {
                return Err(bad(format!("chip on corner {sq}")));
            }
            if g.occupied.contains(sq) {
                return Err(bad(format!("two chips on {sq}")));
            }
            g.add_chip(team, sq);
        }
        for &(team, w) in &pos.sequences {
            let mask = w.mask(g.rules.len);
            if mask.count() != g.rules.len as u32
                || (g.chips[team.index()] | CORNERS) & mask != mask
            {
                return Err(bad(format!(
                    "sequence at {w:?} is not covered by {team}'s chips"
                )));
            }
            let n = g.nseq as usize;
            if n >= MAX_SEQUENCES {
                return Err(bad("too many sequences".into()));
            }
            g.seqs[n] = w;
            g.seq_team[n] = team.0;
            g.nseq += 1;
            g.seq_count[team.index()] += 1;
            g.locked |= Bitboard(mask.0 & !CORNERS.0);
        }
        g.turn = pos.turn;
        g.dealer = Seat(if pos.turn.0 == 0 {
            players - 1
        } else {
            pos.turn.0 - 1
        });
        Ok(g)
    }
}
