//! Who plays each seat of a game screen (people at one keyboard, bots),
//! whose hand is on screen (hot seat), and the one bot request in flight.
//! Shared by the classic and the Stacks screens.

use crate::setup::SeatKind;
use crate::ui::Seen;
use sequence_common::Seat;

/// The seats of one screen.
#[derive(Clone, Debug)]
pub(crate) struct Seating {
    kinds: Vec<SeatKind>,
    /// The person whose hand is shown (hot seat: set after the "pass the
    /// device" screen, cleared after that person's turn); with a single
    /// person at the table, always that person.
    pub viewer: Option<Seat>,
    bot_pending: Option<u64>,
    next_job: u64,
}

impl Seating {
    /// `kinds[i]` plays seat `i`.
    pub fn new(kinds: Vec<SeatKind>) -> Seating {
        let mut people = (0..kinds.len())
            .filter(|&i| kinds[i] == SeatKind::Human)
            .map(|i| Seat(i as u8));
        let viewer = match (people.next(), people.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        };
        Seating {
            kinds,
            viewer,
            bot_pending: None,
            next_job: 1,
        }
    }

    /// Who plays each seat, seat 0 first.
    pub fn kinds(&self) -> &[SeatKind] {
        &self.kinds
    }

    /// How many seats people play.
    pub fn humans(&self) -> usize {
        self.kinds.iter().filter(|k| **k == SeatKind::Human).count()
    }

    /// Who plays `seat` (a seat past the list is a level-1 bot).
    pub fn kind(&self, seat: Seat) -> SeatKind {
        self.kinds
            .get(seat.index())
            .copied()
            .unwrap_or(SeatKind::Bot(1))
    }

    /// Who plays `seat`, in words: "you", "person" (hot seat) or "bot L3".
    pub fn who(&self, seat: Seat) -> String {
        match self.kind(seat) {
            SeatKind::Human if self.humans() == 1 => "you".into(),
            SeatKind::Human => "person".into(),
            SeatKind::Bot(l) => format!("bot L{l}"),
        }
    }

    /// What is on screen while `deciding` must act (`None`: game over).
    pub fn seen(&self, deciding: Option<Seat>) -> Seen {
        let Some(seat) = deciding else {
            return Seen::Over;
        };
        match self.kind(seat) {
            SeatKind::Bot(_) => Seen::Bot(seat),
            SeatKind::Human if self.viewer == Some(seat) => Seen::Human(seat),
            SeatKind::Human => Seen::PassDevice(seat),
        }
    }

    /// After `seat` ended its turn: with several people at the keyboard its
    /// hand leaves the screen.
    pub fn turn_ended(&mut self, seat: Seat) {
        if self.kind(seat) == SeatKind::Human && self.humans() > 1 {
            self.viewer = None;
        }
    }

    /// A new bot request for `seen`, as `(id, seat, level)`: `None` unless a bot
    /// is to act and no request is in flight.
    pub fn start_job(&mut self, seen: Seen) -> Option<(u64, Seat, u8)> {
        let Seen::Bot(seat) = seen else {
            return None;
        };
        if self.bot_pending.is_some() {
            return None;
        }
        let SeatKind::Bot(level) = self.kind(seat) else {
            return None;
        };
        let id = self.next_job;
        self.next_job += 1;
        self.bot_pending = Some(id);
        Some((id, seat, level))
    }

    /// Whether the reply `id` answers the request in flight (then it is no
    /// longer in flight); a stale reply gives `false`.
    pub fn finish_job(&mut self, id: u64) -> bool {
        if self.bot_pending != Some(id) {
            return false;
        }
        self.bot_pending = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_person_is_always_the_viewer() {
        let s = Seating::new(vec![SeatKind::Bot(2), SeatKind::Human]);
        assert_eq!(s.viewer, Some(Seat(1)));
        assert_eq!(s.who(Seat(1)), "you");
        assert_eq!(s.seen(Some(Seat(1))), Seen::Human(Seat(1)));
        assert_eq!(s.seen(Some(Seat(0))), Seen::Bot(Seat(0)));
        assert_eq!(s.seen(None), Seen::Over);
    }

    #[test]
    fn hot_seat_hides_the_hand_after_a_turn() {
        let mut s = Seating::new(vec![SeatKind::Human, SeatKind::Human]);
        assert_eq!(s.viewer, None);
        assert_eq!(s.seen(Some(Seat(0))), Seen::PassDevice(Seat(0)));
        s.viewer = Some(Seat(0));
        assert_eq!(s.seen(Some(Seat(0))), Seen::Human(Seat(0)));
        s.turn_ended(Seat(0));
        assert_eq!(s.viewer, None);
        assert_eq!(s.who(Seat(1)), "person");
    }

    #[test]
    fn one_bot_request_at_a_time_and_stale_replies_are_refused() {
        let mut s = Seating::new(vec![SeatKind::Human, SeatKind::Bot(3)]);
        assert_eq!(s.start_job(Seen::Human(Seat(0))), None);
        let (id, seat, level) = s.start_job(Seen::Bot(Seat(1))).expect("a job");
        assert_eq!((seat, level), (Seat(1), 3));
        assert_eq!(s.start_job(Seen::Bot(Seat(1))), None, "one in flight");
        assert!(!s.finish_job(id + 1), "stale");
        assert!(s.finish_job(id));
        assert!(!s.finish_job(id), "already answered");
        let (next, _, _) = s.start_job(Seen::Bot(Seat(1))).expect("a new job");
        assert_ne!(next, id);
    }
}
