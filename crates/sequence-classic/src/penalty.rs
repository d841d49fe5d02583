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
    use sequence_common::penalty::PenaltyError;

    /// C10: each member of a team discards a card of their choice, in
    /// seat order, out of turn, draws none, and plays on one card short;
    /// records write and replay it.
    #[test]
    fn c10_a_penalty_discard_leaves_the_hand_one_card_short() {
        let config = Config::new(4, None, Options::default()).expect("C3");
        let mut m = Match::new(config, 11);
        let to_act = m.to_act().expect("someone acts");
        let other = Seat((to_act.0 + 1) % 4);
        let (first, second) = (Seat(other.0 % 2), Seat(other.0 % 2 + 2));
        let card = m.game().hand(other)[0];
        let before = m.game().hand(other).len();
        // no discard before the penalty is given
        assert_eq!(m.penalty(first, card), Err(PenaltyError::NotOwed));
        m.give_penalty(sequence_common::Rules::side_of(m.game(), other))
            .expect("C10");
        assert_eq!(m.to_act(), Some(first), "the first member discards first");
        assert_eq!(m.give_penalty(0), Err(PenaltyError::StillPaying));
        // a card the seat does not hold is refused, nothing changes
        let missing = crate::card::Card::all()
            .find(|c| !m.game().hand(first).contains(c))
            .expect("a card not held");
        let e = m.penalty(first, missing).expect_err("not held");
        assert_eq!(e.code(), "C10.not_in_hand", "{e}");
        assert_eq!(
            m.penalty(second, m.game().hand(second)[0]),
            Err(PenaltyError::NotNext {
                first: first.0,
                seat: second.0
            })
        );
        for s in [first, second] {
            let c = if s == other {
                card
            } else {
                m.game().hand(s)[0]
            };
            assert_eq!(m.penalty(s, c), Ok(()));
        }
        assert_eq!(m.penalty_owed(), None, "paid");
        assert_eq!(m.game().hand(other).len(), before - 1);
        assert_eq!(m.game().discard_pile(other).last(), Some(card));
        assert_eq!(m.to_act(), Some(to_act), "the turn does not change");
        // play on: the short hand stays short (each play draws one)
        let mut rng = sequence_common::rng::playout_rng(3);
        for _ in 0..8 {
            let Some(seat) = m.to_act() else { break };
            let mv = m.game().random_move(&mut rng).expect("a move");
            m.play(seat, mv).expect("legal");
        }
        assert_eq!(m.game().hand(other).len(), before - 1);
        // the record writes it as a move entry and replays to the same game
        let rec = m.record().expect("dealt from a seed");
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

    /// The record `v` with `entries` put before its move `at`: the error
    /// of its replay.
    fn refused_with(v: &serde_json::Value, at: usize, entries: &[serde_json::Value]) -> String {
        let mut v = v.clone();
        let moves = v["moves"].as_array_mut().expect("moves");
        for (k, e) in entries.iter().enumerate() {
            moves.insert(at + k, e.clone());
        }
        match Record::from_json_str(&v.to_string()) {
            Ok(_) => panic!("replayed: {entries:?}"),
            Err(e) => e.to_string(),
        }
    }

    /// Regression (a fresh user's test): a record's penalty discard that
    /// the server refuses is refused by the record check too, at that
    /// entry, naming C10: a player without a teammate (2 players), a
    /// normal move while a teammate still owes the discard, a member out
    /// of seat order.
    #[test]
    fn c10_record_entries_follow_the_penalty_of_a_team() {
        let mut rng = sequence_common::rng::playout_rng(5);
        let record_of = |players: u8, rng: &mut _| {
            let config = Config::new(players, None, Options::default()).expect("C3");
            let mut m = Match::new(config, 7);
            for _ in 0..4 {
                let seat = m.to_act().expect("playing");
                let mv = m.game().random_move(rng).expect("a move");
                m.play(seat, mv).expect("legal");
            }
            (m.record().expect("dealt from a seed").to_json(), m)
        };
        // two players: no team of two (the first entry, move 0)
        let (v, m) = record_of(2, &mut rng);
        let hand1 = Config::new(2, None, Options::default())
            .map(|c| Match::new(c, 7).game().hand(Seat(1))[0])
            .expect("C3");
        let e = refused_with(
            &v,
            0,
            &[serde_json::json!({"seat": 1, "penalty": hand1.to_string()})],
        );
        assert!(
            e.contains("move 0 ") && e.contains("team of two or more players (C10)"),
            "{e}"
        );
        assert_eq!(m.game().players(), 2);
        // four players, team 1 (seats 1 and 3): seat 3's discard left out
        let (v, m) = record_of(4, &mut rng);
        let c1 = m.game().hand(Seat(1))[0];
        let c3 = m.game().hand(Seat(3))[0];
        let pay1 = serde_json::json!({"seat": 1, "penalty": c1.to_string()});
        let pay3 = serde_json::json!({"seat": 3, "penalty": c3.to_string()});
        let n = v["moves"].as_array().expect("moves").len();
        // at the end of the moves, with a move after it: the move is refused
        let mut longer = m;
        let seat = longer.to_act().expect("playing");
        let mv = longer.game().random_move(&mut rng).expect("a move");
        longer.play(seat, mv).expect("legal");
        let v5 = longer.record().expect("dealt from a seed").to_json();
        let e = refused_with(&v5, n, std::slice::from_ref(&pay1));
        assert!(
            e.contains(&format!("move {} ", n + 1))
                && e.contains("seat 3 must first discard a card for the table-talk penalty (C10)"),
            "{e}"
        );
        // out of seat order
        let e = refused_with(&v5, n, &[pay3.clone(), pay1.clone()]);
        assert!(
            e.contains(&format!("move {n} ")) && e.contains("seat 1 discards"),
            "{e}"
        );
        // both in order: replays
        let mut ok = v5.clone();
        let moves = ok["moves"].as_array_mut().expect("moves");
        moves.insert(n, pay3);
        moves.insert(n, pay1);
        Record::from_json_str(&ok.to_string()).expect("a whole penalty replays");
    }

    /// Regression (issue 23's review): the penalty given to a team none of
    /// whose members holds a card is refused (it was accepted and did
    /// nothing); a team that does not exist or of one player too.
    #[test]
    fn c10_a_team_with_no_card_to_discard_is_not_given_the_penalty() {
        let config = Config::new(4, None, Options::default()).expect("C3");
        let mut m = Match::new(config, 5);
        let team = sequence_common::Rules::side_of(m.game(), Seat(0));
        // give the penalty until the team's hands are empty
        let mut given = 0;
        while m.game().hand(Seat(0)).len() + m.game().hand(Seat(2)).len() > 0 {
            m.give_penalty(team).expect("cards to discard");
            given += 1;
            while let Some(owed) = m.penalty_owed().cloned() {
                let s = owed.seats[0];
                assert_eq!(m.to_act(), Some(s));
                m.penalty(s, m.game().hand(s)[0]).expect("held");
            }
            assert!(given <= 8, "hands shrink by one per penalty");
        }
        assert_eq!(m.give_penalty(team), Err(PenaltyError::NoCards));
        assert_eq!(
            m.give_penalty(7),
            Err(PenaltyError::NoTeam { team: 7, last: 1 })
        );
        let two = Config::new(2, None, Options::default()).expect("C3");
        let mut m2 = Match::new(two, 5);
        assert_eq!(m2.give_penalty(0), Err(PenaltyError::TeamTooSmall));
    }
}
