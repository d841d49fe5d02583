//! The table-talk penalty (C10): when the table's host finds that a player
//! coached a teammate, every member of that team discards a card of their
//! choice and plays on one card short. Not a move of play (the seat need
//! not be the one to act, and it draws nothing), so it is not a [`Move`];
//! records write it as a `moves` entry `{"seat": S, "penalty": CARD}`
//! (RECORD.md) and replay it through
//! [`sequence_common::Notation::penalty_discard`].
//!
//! [`Move`]: crate::Move

use crate::card::Card;
use crate::game::{Game, Status};
use crate::moves::IllegalMove;
use sequence_common::Seat;

impl Game {
    /// `seat` discards `card` from its hand onto its discard pile, out of
    /// turn, and draws none (C10): its hand stays one card short, as each
    /// later play is followed by one draw. Nothing else changes.
    ///
    /// # Errors
    /// [`IllegalMove::GameOver`] once the game has ended,
    /// [`IllegalMove::WrongSeat`] for a seat the table does not have,
    /// [`IllegalMove::NotInHand`] for a card the seat does not hold; the
    /// game is then unchanged.
    pub fn penalty_discard(&mut self, seat: Seat, card: Card) -> Result<(), IllegalMove> {
        if self.status != Status::Playing {
            return Err(IllegalMove::GameOver);
        }
        if seat.0 >= self.rules.players {
            return Err(IllegalMove::WrongSeat(seat));
        }
        let spaces = self.rules.card_mask[card.index() & 63];
        if !self.hands[seat.index()].remove(card, spaces) {
            return Err(IllegalMove::NotInHand(card));
        }
        self.push_discard(seat, card);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Config, Options};
    use crate::record::{Match, Record};

    /// C10: a member of a team discards a card of their choice, out of
    /// turn, draws none, and plays on one card short; records write and
    /// replay it.
    #[test]
    fn c10_a_penalty_discard_leaves_the_hand_one_card_short() {
        let config = Config::new(4, None, Options::default()).expect("C3");
        let mut m = Match::new(config, 11);
        let to_act = m.to_act().expect("someone acts");
        let other = Seat((to_act.0 + 1) % 4);
        let card = m.game().hand(other)[0];
        let before = m.game().hand(other).len();
        assert_eq!(
            m.penalty(other, card).expect("classic has the penalty"),
            Ok(())
        );
        assert_eq!(m.game().hand(other).len(), before - 1);
        assert_eq!(m.game().discard_pile(other).last(), Some(card));
        assert_eq!(m.to_act(), Some(to_act), "the turn does not change");
        // a card the seat does not hold is refused, nothing changes
        let missing = crate::card::Card::all()
            .find(|c| !m.game().hand(other).contains(c))
            .expect("a card not held");
        assert_eq!(
            m.penalty(other, missing),
            Some(Err(IllegalMove::NotInHand(missing)))
        );
        // play on: the short hand stays short (each play draws one)
        let mut rng = sequence_common::rng::playout_rng(3);
        for _ in 0..8 {
            let Some(seat) = m.to_act() else { break };
            let mv = m.game().random_move(&mut rng).expect("a move");
            m.play(seat, mv).expect("legal");
        }
        assert_eq!(m.game().hand(other).len(), before - 1);
        // the record writes it as a move entry and replays to the same game
        let rec = m.record();
        let v = rec.to_json();
        assert!(
            v["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .any(|e| e["penalty"] == card.to_string() && e["seat"] == other.0),
            "{v}"
        );
        let (back, g) = Record::from_json_str(&v.to_string()).expect("replays");
        assert_eq!(back, rec);
        assert_eq!(g.hand(other), m.game().hand(other));
        assert_eq!(g.board_rows(), m.game().board_rows());
    }
}
