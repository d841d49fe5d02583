//! What one seat, or a spectator, may know: the view.
//!
//! A [`SeatView`] holds the public state (board, sequences, every discard
//! pile, hand sizes, draw pile size, whose turn) and the seat's own hand
//! (a spectator's view has none). It has no field for another seat's cards
//! or the draw pile's order: the internal copy of the game it keeps for
//! [`SeatView::determinize`] has every hidden card blanked when the view is
//! made.

use crate::bitboard::Bitboard;
use crate::card::Card;
use crate::game::{Game, Status, Team, DECK_SIZE};
use crate::moves::{Move, MoveList};
use crate::options::Config;
use crate::record::move_to_json;
use crate::sequences::Window;
use rand::Rng;
use sequence_common::Seat;
use serde_json::{json, Value};

/// The placeholder written over hidden cards inside a view.
const BLANK: Card = Card::JS;

/// One seat's (or a spectator's) knowledge of the game.
#[derive(Clone)]
pub struct SeatView {
    /// `None` for a spectator.
    seat: Option<Seat>,
    hand: Vec<Card>,
    hand_sizes: Vec<u8>,
    /// The game with other hands and the draw pile blanked.
    public: Game,
    /// The cards this seat cannot see ([`SeatView::unseen`]), in index
    /// order: counted once, dealt by every determinization.
    unseen: Vec<Card>,
}

impl SeatView {
    /// The view of `seat`.
    pub fn new(game: &Game, seat: Seat) -> SeatView {
        SeatView::of(game, Some(seat))
    }

    /// A spectator's view: the public state, no hand.
    pub fn spectator(game: &Game) -> SeatView {
        SeatView::of(game, None)
    }

    fn of(game: &Game, seat: Option<Seat>) -> SeatView {
        let mut public = game.clone();
        let hand = seat.map_or_else(Vec::new, |s| game.hand(s).to_vec());
        let hand_sizes: Vec<u8> = (0..game.players())
            .map(|s| game.hand(Seat(s)).len() as u8)
            .collect();
        let blank_hands: Vec<(Seat, Vec<Card>)> = (0..game.players())
            .map(Seat)
            .filter(|&s| Some(s) != seat)
            .map(|s| (s, vec![BLANK; hand_sizes[s.index()] as usize]))
            .collect();
        public.set_hidden(&blank_hands, &vec![BLANK; game.draw_pile_len()]);
        let mut v = SeatView {
            seat,
            hand,
            hand_sizes,
            public,
            unseen: Vec::new(),
        };
        let mut buf = [Card::JS; DECK_SIZE];
        let n = v.count_unseen(&mut buf);
        v.unseen = buf[..n].to_vec();
        v
    }

    /// The seat this view belongs to; `None` for a spectator.
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// The seat's team; `None` for a spectator.
    pub fn team(&self) -> Option<Team> {
        self.seat.map(|s| self.public.team_of(s))
    }

    /// The team of any seat (C3).
    pub fn team_of(&self, seat: Seat) -> Team {
        self.public.team_of(seat)
    }

    /// The seat's own hand (empty for a spectator).
    pub fn hand(&self) -> &[Card] {
        &self.hand
    }

    /// Cards in each seat's hand, by seat.
    pub fn hand_sizes(&self) -> &[u8] {
        &self.hand_sizes
    }

    /// Table configuration.
    pub fn config(&self) -> &Config {
        self.public.config()
    }

    /// Whose turn it is.
    pub fn turn(&self) -> Seat {
        self.public.turn()
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.public.status()
    }

    /// Moves made so far.
    pub fn move_number(&self) -> u32 {
        self.public.ply()
    }

    /// Cards in the draw pile.
    pub fn draw_pile_len(&self) -> usize {
        self.public.draw_pile_len()
    }

    /// A seat's discard pile, oldest first.
    pub fn discard_pile(&self, seat: Seat) -> Vec<Card> {
        self.public.discard_pile(seat).collect()
    }

    /// Chips of a team.
    pub fn chips(&self, team: Team) -> Bitboard {
        self.public.chips(team)
    }

    /// Chips locked in sequences.
    pub fn locked(&self) -> Bitboard {
        self.public.locked()
    }

    /// Completed sequences.
    pub fn sequences(&self) -> Vec<(Team, Window)> {
        self.public.sequences().collect()
    }

    /// The last move and its seat.
    pub fn last_move(&self) -> Option<(Seat, Move)> {
        self.public.last_move()
    }

    /// Whether `card` is dead (C6).
    pub fn is_dead(&self, card: Card) -> bool {
        self.public.is_dead(card)
    }

    /// Whether a dead card was exchanged this turn.
    pub fn dead_exchanged(&self) -> bool {
        self.public.dead_exchanged()
    }

    /// The board rows as `sequence verify` prints them.
    pub fn board_rows(&self) -> Vec<String> {
        self.public.board_rows()
    }

    /// The legal moves when it is this seat's turn; empty otherwise.
    pub fn legal_moves(&self) -> Vec<Move> {
        if Some(self.public.turn()) != self.seat || self.public.is_over() {
            return vec![];
        }
        let mut list = MoveList::new();
        self.public.legal_moves(&mut list);
        list.iter().copied().collect()
    }

    /// The cards this seat cannot see: every card but its hand and the
    /// discard piles (cards reshuffled into the draw pile are unseen again).
    pub fn unseen(&self) -> Vec<Card> {
        self.unseen.clone()
    }

    /// [`SeatView::unseen`] into `buf` (no allocation); returns how many.
    #[inline]
    fn unseen_into(&self, buf: &mut [Card; DECK_SIZE]) -> usize {
        let n = self.unseen.len().min(DECK_SIZE);
        buf[..n].copy_from_slice(&self.unseen[..n]);
        n
    }

    /// Counts the unseen cards into `buf` (when the view is made).
    fn count_unseen(&self, buf: &mut [Card; DECK_SIZE]) -> usize {
        let mut counts = [2u8; 52];
        for c in self
            .hand
            .iter()
            .copied()
            .chain(self.public.discards().map(|(_, c)| c))
        {
            counts[c.index()] = counts[c.index()].saturating_sub(1);
        }
        let mut n = 0;
        for c in Card::all() {
            for _ in 0..counts[c.index()] {
                buf[n] = c;
                n += 1;
            }
        }
        n
    }

    /// A full game consistent with this view: the unseen cards dealt at
    /// random into the other hands (their sizes are public) and the draw
    /// pile. Used by searching bots (ISMCTS determinization).
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> Game {
        let mut buf = [Card::JS; DECK_SIZE];
        let n = self.unseen_into(&mut buf);
        let unseen = &mut buf[..n];
        sequence_common::rng::shuffle_fast(unseen, rng);
        self.deal(unseen, None)
    }

    /// As [`SeatView::determinize`], with the hand of `seat` (another seat)
    /// drawn again until `accept` takes it, at most `tries` times (the last
    /// draw is kept). Each draw is a uniformly random set of the unseen
    /// cards; the other hands and the draw pile are dealt at random from the
    /// rest. For searches that weigh deals by what a seat's play revealed
    /// (rejection sampling). `accept` gets the candidate hand and the
    /// random generator.
    pub fn determinize_weighted<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        seat: Seat,
        tries: u32,
        mut accept: impl FnMut(&[Card], &mut R) -> bool,
    ) -> Game {
        let mut buf = [Card::JS; DECK_SIZE];
        let n = self.unseen_into(&mut buf);
        let unseen = &mut buf[..n];
        let k = if Some(seat) == self.seat || seat.0 >= self.public.players() {
            0
        } else {
            (self.hand_sizes[seat.index()] as usize).min(unseen.len())
        };
        let tries = tries.max(1);
        for t in 0..tries {
            // Partial Fisher–Yates: a uniformly random k-set in front.
            for i in 0..k {
                let j = i + ((rng.next_u32() as u64 * (n - i) as u64) >> 32) as usize;
                unseen.swap(i, j);
            }
            if t + 1 == tries || accept(&unseen[..k], rng) {
                break;
            }
        }
        sequence_common::rng::shuffle_fast(&mut unseen[k..], rng);
        self.deal(unseen, (k > 0).then_some(seat))
    }

    /// Deals `unseen` (already in random order): `first`'s hand from the
    /// front, then the other hidden hands in seat order, the rest as the
    /// draw pile.
    fn deal(&self, unseen: &[Card], first: Option<Seat>) -> Game {
        let mut g = self.public.clone();
        let mut from = 0;
        let mut take = |seat: Seat| {
            let to = (from + self.hand_sizes[seat.index()] as usize).min(unseen.len());
            let cards = &unseen[from..to];
            from = to;
            cards
        };
        if let Some(s) = first {
            g.set_hand(s, take(s));
        }
        for s in (0..self.public.players()).map(Seat) {
            if Some(s) == self.seat {
                g.set_hand(s, &self.hand);
            } else if Some(s) != first {
                g.set_hand(s, take(s));
            }
        }
        g.set_draw(&unseen[from..]);
        g
    }

    /// The view as JSON (what a server sends this seat): `game`, `seat`,
    /// `team`, `players`, `teams`, `options`, `win_sequences` (C9), `turn`,
    /// `move_number`, `status`, `winner`, `hand`, `dead` (dead cards in the
    /// hand), `dead_exchanged`, `hand_sizes`, `draw_pile`, `discard_piles`,
    /// `board` (as `sequence verify`), `sequences` (`[team, first, last]`),
    /// `last_move`, `legal_moves` (record format). A spectator's view has
    /// `seat` null, no `team`, `hand` or `dead`, and no legal moves.
    pub fn to_json(&self) -> Value {
        let len = self.public.sequence_length();
        let winner = match self.status() {
            Status::Won(t) => Some(t.colour()),
            _ => None,
        };
        let mut v = json!({
            "game": "classic",
            "seat": self.seat.map(|s| s.0),
            "players": self.public.players(),
            "teams": self.public.teams(),
            "options": self.config().options(),
            "win_sequences": self.public.win_sequences(),
            "turn": self.turn().0,
            "move_number": self.move_number(),
            "status": match self.status() { Status::Playing => "playing", Status::Won(_) => "won", Status::Draw => "draw" },
            "winner": winner,
            "dead_exchanged": self.dead_exchanged(),
            "hand_sizes": self.hand_sizes,
            "draw_pile": self.draw_pile_len(),
            "discard_piles": (0..self.public.players()).map(|s| self.discard_pile(Seat(s)).iter().map(|c| c.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "board": self.board_rows(),
            "sequences": self.sequences().iter().map(|(t, w)| json!([t.colour(), w.start.to_string(), w.last(len).to_string()])).collect::<Vec<_>>(),
            "last_move": self.last_move().map(|(s, m)| move_to_json(s, &m, len)),
            "legal_moves": self.seat.map_or_else(Vec::new, |seat| self.legal_moves().iter().map(|m| move_to_json(seat, m, len)).collect::<Vec<_>>()),
        });
        if let (Some(team), Some(o)) = (self.team(), v.as_object_mut()) {
            o.insert("team".into(), json!(team.colour()));
            o.insert(
                "hand".into(),
                json!(self.hand.iter().map(|c| c.to_string()).collect::<Vec<_>>()),
            );
            o.insert(
                "dead".into(),
                json!(self
                    .hand
                    .iter()
                    .filter(|c| self.is_dead(**c))
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()),
            );
        }
        v
    }
}

impl sequence_common::SeatView for SeatView {
    type Game = Game;

    fn seat(&self) -> Option<Seat> {
        self.seat
    }

    fn to_act(&self) -> Option<Seat> {
        (!self.public.is_over()).then(|| self.public.turn())
    }

    fn outcome(&self) -> sequence_common::Outcome {
        self.public.outcome()
    }

    fn ply(&self) -> u32 {
        self.public.ply()
    }

    fn legal_moves(&self) -> Vec<Move> {
        SeatView::legal_moves(self)
    }

    fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Game> {
        Some(SeatView::determinize(self, rng))
    }

    fn to_json(&self) -> Value {
        SeatView::to_json(self)
    }
}

impl Game {
    /// The view of `seat` (see [`SeatView`]).
    pub fn view(&self, seat: Seat) -> SeatView {
        SeatView::new(self, seat)
    }
}
