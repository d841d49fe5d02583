//! The game state of Sequence Stacks, its decisions and their rules
//! (S2–S7). Everything here is fixed-size: no allocation when listing,
//! choosing or playing decisions.

use crate::card::{Card, Colour, Place, KINDS, MAX_CARDS, MAX_PLACES};
use crate::options::{BlockWindow, Options, Refill, ReshuffleActions};
use rand::Rng;
use sequence_common::{Direction, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Most seats at a table (S1).
pub const MAX_SEATS: usize = 6;
/// Cards dealt to each seat and the hand size drawn back up to (S2, S4).
pub const HAND_SIZE: u8 = 5;
/// Chips of each colour in the supply at the start (S1).
pub const CHIPS_PER_COLOUR: u8 = 20;
/// Capacity of a [`Decisions`] list; no position has more legal decisions.
pub const MAX_DECISIONS: usize = 64;

/// Where a played card comes from (S4 step 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The seat's hand.
    Hand,
    /// The top of the seat's own discard pile (`"from": "discard"`).
    Discard,
}

/// One decision of a seat. A turn is a series of these (S4): plays onto
/// piles (S3), action cards (S5), and a closing [`Decision::Discard`] or
/// [`Decision::End`]; after a completion each opponent offered the Block
/// window (S5b) answers [`Decision::Block`] or [`Decision::Pass`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// A number or wild card onto the pile at `place` (S3).
    Pile {
        /// The card played.
        card: Card,
        /// Hand or top of own discard pile.
        from: Source,
        /// The pile's place.
        place: Place,
    },
    /// Skip: the next player loses their turn (S5).
    Skip {
        /// Hand or top of own discard pile.
        from: Source,
    },
    /// Reverse: the direction of play changes at once (S5).
    Reverse {
        /// Hand or top of own discard pile.
        from: Source,
    },
    /// Steal-a-Card: the top card of `target`'s discard pile into the hand
    /// (S5).
    StealCard {
        /// Hand or top of own discard pile.
        from: Source,
        /// The opponent robbed.
        target: Seat,
    },
    /// Steal-a-Chip: one chip of `colour` from `target` (S5, S5a).
    StealChip {
        /// Hand or top of own discard pile.
        from: Source,
        /// The opponent robbed.
        target: Seat,
        /// The chip's colour.
        colour: Colour,
    },
    /// Block the completion just made (from the hand, out of turn, S5b).
    Block,
    /// Decline to Block (S5b). Not written in records.
    Pass,
    /// Discard `card` from the hand onto the own discard pile: ends the turn
    /// (S4 step 4).
    Discard {
        /// The card discarded.
        card: Card,
    },
    /// End the turn with an empty hand (S4 step 4).
    End,
}

impl Decision {
    /// The card this decision plays or discards (`None` for Pass and End).
    pub fn card(self) -> Option<Card> {
        match self {
            Decision::Pile { card, .. } | Decision::Discard { card } => Some(card),
            Decision::Skip { .. } => Some(Card::Skip),
            Decision::Reverse { .. } => Some(Card::Reverse),
            Decision::StealCard { .. } => Some(Card::StealCard),
            Decision::StealChip { .. } => Some(Card::StealChip),
            Decision::Block => Some(Card::Block),
            Decision::Pass | Decision::End => None,
        }
    }

    /// The move as a RECORD-STACKS.md entry for `seat`; `None` for
    /// [`Decision::Pass`], which records do not write.
    pub fn to_record_json(self, seat: Seat) -> Option<serde_json::Value> {
        use serde_json::{json, Value};
        let mut m = serde_json::Map::new();
        m.insert("seat".into(), json!(seat.0));
        let from = |m: &mut serde_json::Map<String, Value>, f: Source| {
            if f == Source::Discard {
                m.insert("from".into(), json!("discard"));
            }
        };
        match self {
            Decision::Pile {
                card,
                from: f,
                place,
            } => {
                m.insert("play".into(), json!(card.code()));
                m.insert("to".into(), json!(place.name()));
                from(&mut m, f);
            }
            Decision::Skip { from: f } | Decision::Reverse { from: f } => {
                m.insert("play".into(), json!(self.card().map(Card::code)));
                from(&mut m, f);
            }
            Decision::StealCard { from: f, target } => {
                m.insert("play".into(), json!("STEAL-CARD"));
                m.insert("target".into(), json!(target.0));
                from(&mut m, f);
            }
            Decision::StealChip {
                from: f,
                target,
                colour,
            } => {
                m.insert("play".into(), json!("STEAL-CHIP"));
                m.insert("target".into(), json!(target.0));
                m.insert("colour".into(), json!(colour.name()));
                from(&mut m, f);
            }
            Decision::Block => {
                m.insert("play".into(), json!("BLOCK"));
            }
            Decision::Pass => return None,
            Decision::Discard { card } => {
                m.insert("discard".into(), json!(card.code()));
            }
            Decision::End => {
                m.insert("end".into(), json!(true));
            }
        }
        Some(Value::Object(m))
    }
}

impl Serialize for Decision {
    /// As a record entry without `seat`; Pass as `{"pass": true}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut v = self
            .to_record_json(Seat(0))
            .unwrap_or_else(|| serde_json::json!({"pass": true}));
        if let Some(o) = v.as_object_mut() {
            o.remove("seat");
        }
        v.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Decision {
    /// The shape [`Decision`]'s `Serialize` writes: a record entry without
    /// `seat` (RECORD-STACKS.md), or `{"pass": true}`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Decision, D::Error> {
        let mut v = serde_json::Value::deserialize(d)?;
        let Some(o) = v.as_object_mut() else {
            return Err(serde::de::Error::custom("a decision must be a JSON object"));
        };
        if o.get("pass") == Some(&serde_json::Value::Bool(true)) && o.len() == 1 {
            return Ok(Decision::Pass);
        }
        o.insert("seat".into(), serde_json::json!(0));
        crate::record::move_from_json(&v)
            .map(|(_, d)| d)
            .map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let src = |s: Source| {
            if s == Source::Discard {
                " from discard"
            } else {
                ""
            }
        };
        match *self {
            Decision::Pile { card, from, place } => write!(f, "{card} to {place}{}", src(from)),
            Decision::Skip { from } => write!(f, "SKIP{}", src(from)),
            Decision::Reverse { from } => write!(f, "REVERSE{}", src(from)),
            Decision::StealCard { from, target } => {
                write!(f, "STEAL-CARD from seat {}{}", target.0, src(from))
            }
            Decision::StealChip {
                from,
                target,
                colour,
            } => {
                write!(f, "STEAL-CHIP {colour} from seat {}{}", target.0, src(from))
            }
            Decision::Block => f.write_str("BLOCK"),
            Decision::Pass => f.write_str("pass"),
            Decision::Discard { card } => write!(f, "discard {card}"),
            Decision::End => f.write_str("end"),
        }
    }
}

/// A fixed-capacity list of decisions (no allocation). Derefs to a slice.
#[derive(Clone)]
pub struct Decisions {
    items: [Decision; MAX_DECISIONS],
    len: usize,
}

impl Default for Decisions {
    fn default() -> Self {
        Decisions {
            items: [Decision::End; MAX_DECISIONS],
            len: 0,
        }
    }
}

impl Decisions {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
    #[inline]
    fn push(&mut self, d: Decision) {
        debug_assert!(self.len < MAX_DECISIONS);
        if self.len < MAX_DECISIONS {
            self.items[self.len] = d;
            self.len += 1;
        }
    }
    /// Writes `d` and keeps it only if `keep` (branch-free).
    #[inline]
    fn push_if(&mut self, keep: bool, d: Decision) {
        if self.len < MAX_DECISIONS {
            self.items[self.len] = d;
            self.len += keep as usize;
        }
    }
    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }
}

impl std::ops::Deref for Decisions {
    type Target = [Decision];
    fn deref(&self) -> &[Decision] {
        &self.items[..self.len]
    }
}

impl fmt::Debug for Decisions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Whether the game goes on, who won (S7), or a draw (S6a).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Still being played.
    Playing,
    /// This seat met the win condition (S7).
    Won(Seat),
    /// Drawn: nothing could be drawn and a full round went by without a card
    /// played onto a pile (S6a), or no chip is left to win (option
    /// `dead_game_draw`).
    Draw,
}

/// An open Block window (S5b): a pile was just completed and opponents are
/// asked in order whether to Block.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BlockOffer {
    /// The seat that completed the pile (whose turn it is).
    pub completer: Seat,
    /// The seat asked now.
    pub offered: Seat,
    /// Seats still to be asked, the one asked now included.
    pub remaining: u8,
    /// The colour of the completed pile (the chip at stake).
    pub colour: Colour,
    /// Whether the completing card came from the hand (S4 step 3 applies
    /// once the window closes).
    pub from_hand: bool,
}

/// Supplies the order of a new draw pile (S6): given the cards in kind
/// order, it permutes them in place (top first) or refuses.
pub trait Reshuffler {
    /// Permutes `cards` into the new draw pile's order, top first.
    ///
    /// # Errors
    /// A message when no order can be given (e.g. a record lacks one).
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), String>;
}

impl<R: rand::RngCore> Reshuffler for R {
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), String> {
        sequence_common::rng::shuffle(cards, self);
        Ok(())
    }
}

/// A reshuffler for positions where no reshuffle may happen (refuses).
#[derive(Copy, Clone, Debug, Default)]
pub struct NoReshuffle;

impl Reshuffler for NoReshuffle {
    fn reshuffle(&mut self, _cards: &mut [Card]) -> Result<(), String> {
        Err("a reshuffle is needed but none was provided".into())
    }
}

/// Why a decision was refused; each message names the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over (won, S7, or drawn, S6a)")]
    GameOver,
    /// A seat number not at the table.
    #[error("seat {0} does not exist")]
    NoSuchSeat(u8),
    /// Not this seat's turn.
    #[error("not seat {0}'s turn (S4)")]
    NotYourTurn(u8),
    /// A Block window is open; the offered seat answers first.
    #[error("seat {offered} must first say whether to Block (S5b)")]
    WindowOpen {
        /// The seat asked now.
        offered: u8,
    },
    /// A seat answered the Block window out of order.
    #[error("seat {0} is not the seat offered to Block now (S5b)")]
    NotOffered(u8),
    /// Pass with no Block window open.
    #[error("no Block window is open (S5b)")]
    NoWindow,
    /// Block with no completion to cancel.
    #[error("a Block may only be played right after an opponent completes a pile (S5)")]
    NoCompletion,
    /// The completer tried to Block.
    #[error("cannot block one's own completion (S5)")]
    OwnBlock,
    /// The card is not in the seat's hand.
    #[error("{0} not in hand")]
    NotInHand(Card),
    /// The card is not the top of the seat's discard pile.
    #[error("{0} is not on top of the seat's discard pile (S4)")]
    NotOnDiscardTop(Card),
    /// An action card played onto a pile.
    #[error("{0} is an action card and cannot go onto a pile (S3)")]
    NotAPileCard(Card),
    /// A place beyond the `piles_per_colour` option.
    #[error("there is no place {0} with {1} piles per colour (S3a)")]
    NoSuchPlace(Place, u8),
    /// Wrong colour or number for the pile.
    #[error("{0} does not fit on {1} (S3)")]
    DoesNotFit(Card, Place),
    /// Steal from oneself.
    #[error("cannot steal from oneself (S5)")]
    StealFromSelf,
    /// Steal-a-Card from an empty discard pile.
    #[error("seat {0}'s discard pile is empty: no card to steal (S5)")]
    NothingToSteal(u8),
    /// Steal-a-Chip of a colour the target does not hold.
    #[error("no such chip to steal (S5)")]
    NoSuchChip,
    /// Steal-a-Chip that would win (S5a).
    #[error("Steal-a-Chip cannot be used to win (S5a)")]
    StealChipWins,
    /// End with cards in hand.
    #[error("the hand is not empty: the turn ends with a discard (S4)")]
    HandNotEmpty,
    /// The reshuffler refused (a record without the needed order).
    #[error("reshuffle: {0} (S6)")]
    Reshuffle(String),
}

/// A bad table: player count, dealer or deck (S1, S2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2 to 6 players.
    #[error("field `players`: {0} is not 2 to 6 (S1)")]
    Players(u8),
    /// Dealer not a seat.
    #[error("field `dealer`: seat {0} does not exist with {1} players")]
    Dealer(u8, u8),
    /// Deck of the wrong size or content.
    #[error("field `deck`: {0}")]
    Deck(String),
    /// Options out of range.
    #[error("field `options`: {0}")]
    Options(String),
}

/// The whole state of a game of Sequence Stacks, hidden cards included.
/// Use [`Game::view`] to show a seat only what it may see.
///
/// Fixed arrays throughout (about 1.2 KB); cloning is a memcpy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) options: Options,
    pub(crate) players: u8,
    pub(crate) dealer: Seat,
    pub(crate) hands: [[u8; KINDS]; MAX_SEATS],
    pub(crate) hand_len: [u8; MAX_SEATS],
    /// Bit `k` set when the hand holds a card of kind `k`.
    pub(crate) hand_mask: [u32; MAX_SEATS],
    /// Cards every seat knows to be in each hand (taken with Steal-a-Card
    /// and not yet seen to leave it), per kind.
    pub(crate) known: [[u8; KINDS]; MAX_SEATS],
    pub(crate) discards: [[Card; MAX_CARDS]; MAX_SEATS],
    pub(crate) discard_len: [u8; MAX_SEATS],
    /// Bottom first: the top is `draw[draw_len - 1]`.
    pub(crate) draw: [Card; MAX_CARDS],
    pub(crate) draw_len: u8,
    pub(crate) piles: [[Card; 5]; MAX_PLACES],
    pub(crate) pile_len: [u8; MAX_PLACES],
    /// Per-kind counts of the completed piles set aside (kinds 0–11).
    pub(crate) completed: [u8; 12],
    pub(crate) completed_len: u8,
    /// Per-kind counts of the action-card discard pile (kinds 12–16).
    pub(crate) actions: [u8; 5],
    pub(crate) actions_len: u8,
    pub(crate) chips: [[u8; 2]; MAX_SEATS],
    pub(crate) supply: [u8; 2],
    pub(crate) turn: Seat,
    pub(crate) direction: Direction,
    pub(crate) skips: u8,
    pub(crate) window: Option<BlockOffer>,
    pub(crate) pile_played: bool,
    pub(crate) quiet_turns: u8,
    pub(crate) status: Status,
    pub(crate) reshuffles: u16,
}

/// A uniform integer in `0..n` (`n > 0`): Lemire's multiply-shift with
/// rejection, exact and almost never dividing.
#[inline]
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let t = n.wrapping_neg() % n;
        while (m as u32) < t {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// S7: 5 or more chips with at least 2 of each colour.
#[inline]
pub fn meets_win(chips: [u8; 2]) -> bool {
    chips[0] >= 2 && chips[1] >= 2 && chips[0] + chips[1] >= 5
}

/// Accessors taking a [`Seat`] expect a seat at the table (`seat.0 <
/// players`, at most 5) and panic on a seat number of 6 or more; [`Game::play`]
/// and [`Game::check`] refuse any seat that is not at the table.
impl Game {
    /// Deals a game (S2): `deck` is every card in draw order, top first;
    /// 5 cards go one at a time to each seat from `dealer + 1`; seat
    /// `dealer + 1` plays first, clockwise.
    ///
    /// # Errors
    /// [`SetupError`] for a player count outside 2–6, a dealer not at the
    /// table, bad options, or a deck that is not exactly the S1/S2 cards.
    pub fn deal(
        players: u8,
        options: Options,
        dealer: Seat,
        deck: &[Card],
    ) -> Result<Game, SetupError> {
        if !(2..=MAX_SEATS as u8).contains(&players) {
            return Err(SetupError::Players(players));
        }
        if dealer.0 >= players {
            return Err(SetupError::Dealer(dealer.0, players));
        }
        options
            .validate()
            .map_err(|e| SetupError::Options(e.to_string()))?;
        let want = crate::card::deck_counts(players);
        let size = crate::card::deck_size(players);
        if deck.len() != size {
            return Err(SetupError::Deck(format!(
                "{} cards, expected {size} for {players} players (S1, S2)",
                deck.len()
            )));
        }
        let mut have = [0u8; KINDS];
        for c in deck {
            have[c.index()] += 1;
        }
        for k in Card::ALL {
            if have[k.index()] != want[k.index()] {
                return Err(SetupError::Deck(format!(
                    "{} cards {k}, expected {} for {players} players (S1, S2)",
                    have[k.index()],
                    want[k.index()]
                )));
            }
        }
        Ok(Self::deal_unchecked(players, options, dealer, deck))
    }

    /// A table with no card anywhere (filled by the caller).
    pub(crate) fn deal_empty(players: u8, options: Options, dealer: Seat) -> Game {
        Game {
            options,
            players,
            dealer,
            hands: [[0; KINDS]; MAX_SEATS],
            hand_len: [0; MAX_SEATS],
            hand_mask: [0; MAX_SEATS],
            known: [[0; KINDS]; MAX_SEATS],
            discards: [[Card::B1; MAX_CARDS]; MAX_SEATS],
            discard_len: [0; MAX_SEATS],
            draw: [Card::B1; MAX_CARDS],
            draw_len: 0,
            piles: [[Card::B1; 5]; MAX_PLACES],
            pile_len: [0; MAX_PLACES],
            completed: [0; 12],
            completed_len: 0,
            actions: [0; 5],
            actions_len: 0,
            chips: [[0; 2]; MAX_SEATS],
            supply: [CHIPS_PER_COLOUR; 2],
            turn: dealer.next(players, Direction::Clockwise),
            direction: Direction::Clockwise,
            skips: 0,
            window: None,
            pile_played: false,
            quiet_turns: 0,
            status: Status::Playing,
            reshuffles: 0,
        }
    }

    fn deal_unchecked(players: u8, options: Options, dealer: Seat, deck: &[Card]) -> Game {
        let mut g = Self::deal_empty(players, options, dealer);
        let n = deck.len();
        for (i, &c) in deck.iter().rev().enumerate() {
            g.draw[i] = c;
        }
        g.draw_len = n as u8;
        let mut seat = dealer;
        for _ in 0..(HAND_SIZE as usize * players as usize) {
            seat = seat.next(players, Direction::Clockwise);
            g.draw_len -= 1;
            let c = g.draw[g.draw_len as usize];
            g.give(seat, c);
        }
        g
    }

    /// A new game with the dealer and deck order drawn from `rng` (dealer
    /// first, `rng.random_range(0..players)`, then a Fisher–Yates shuffle of
    /// the deck in kind order with [`sequence_common::rng::shuffle`]).
    /// Returns the game and its deck, top first. No allocation but the
    /// returned deck; see [`Game::random_into`] for none at all.
    ///
    /// # Errors
    /// [`SetupError`] for a bad player count or options.
    pub fn random<R: Rng + ?Sized>(
        players: u8,
        options: Options,
        rng: &mut R,
    ) -> Result<(Game, Vec<Card>), SetupError> {
        let mut deck = [Card::B1; MAX_CARDS];
        let g = Self::random_into(players, options, rng, &mut deck)?;
        let n = crate::card::deck_size(players);
        Ok((g, deck[..n].to_vec()))
    }

    /// As [`Game::random`], writing the deck into `deck` (its first 120 or
    /// 112 entries).
    ///
    /// # Errors
    /// [`SetupError`] for a bad player count or options.
    pub fn random_into<R: Rng + ?Sized>(
        players: u8,
        options: Options,
        rng: &mut R,
        deck: &mut [Card; MAX_CARDS],
    ) -> Result<Game, SetupError> {
        if !(2..=MAX_SEATS as u8).contains(&players) {
            return Err(SetupError::Players(players));
        }
        options
            .validate()
            .map_err(|e| SetupError::Options(e.to_string()))?;
        let dealer = Seat(rng.random_range(0..players));
        let mut n = 0;
        for k in Card::ALL {
            for _ in 0..k.copies(players) {
                deck[n] = k;
                n += 1;
            }
        }
        sequence_common::rng::shuffle(&mut deck[..n], rng);
        Ok(Self::deal_unchecked(players, options, dealer, &deck[..n]))
    }

    #[inline]
    pub(crate) fn give(&mut self, seat: Seat, c: Card) {
        self.hands[seat.index()][c.index()] += 1;
        self.hand_len[seat.index()] += 1;
        self.hand_mask[seat.index()] |= 1 << c.index();
    }

    // ----- accessors -------------------------------------------------------

    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Number of seats (2–6).
    pub fn players(&self) -> u8 {
        self.players
    }
    /// The dealer (S2).
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    /// Whose turn it is (the completer while a Block window is open).
    pub fn turn(&self) -> Seat {
        self.turn
    }
    /// The current direction of play (S5 Reverse).
    pub fn direction(&self) -> Direction {
        self.direction
    }
    /// Skips played this turn, not yet applied (S5).
    pub fn pending_skips(&self) -> u8 {
        self.skips
    }
    /// The open Block window, if any (S5b).
    pub fn block_offer(&self) -> Option<BlockOffer> {
        self.window
    }
    /// Playing, won or drawn.
    pub fn status(&self) -> Status {
        self.status
    }
    /// The winner, if any (S7).
    pub fn winner(&self) -> Option<Seat> {
        match self.status {
            Status::Won(s) => Some(s),
            _ => None,
        }
    }
    /// The seat that must decide now: the offered seat during a Block
    /// window, else the seat whose turn it is; `None` once the game ended.
    pub fn to_act(&self) -> Option<Seat> {
        if self.status != Status::Playing {
            return None;
        }
        Some(self.window.map_or(self.turn, |w| w.offered))
    }
    /// Per-kind counts of `seat`'s hand, indexed by [`Card::index`].
    pub fn hand_counts(&self, seat: Seat) -> [u8; KINDS] {
        self.hands[seat.index()]
    }
    /// `seat`'s hand in kind order.
    pub fn hand(&self, seat: Seat) -> Vec<Card> {
        let mut v = Vec::with_capacity(self.hand_len[seat.index()] as usize);
        for k in Card::ALL {
            for _ in 0..self.hands[seat.index()][k.index()] {
                v.push(k);
            }
        }
        v
    }
    /// Number of cards in `seat`'s hand.
    pub fn hand_len(&self, seat: Seat) -> u8 {
        self.hand_len[seat.index()]
    }
    /// Per-kind counts of the cards every seat knows `seat` holds: taken
    /// with Steal-a-Card (public) and not seen to leave the hand since.
    pub fn known_in_hand(&self, seat: Seat) -> [u8; KINDS] {
        self.known[seat.index()]
    }
    /// `seat`'s discard pile, bottom first (public).
    pub fn discard_pile(&self, seat: Seat) -> &[Card] {
        &self.discards[seat.index()][..self.discard_len[seat.index()] as usize]
    }
    /// The top of `seat`'s discard pile.
    pub fn discard_top(&self, seat: Seat) -> Option<Card> {
        let n = self.discard_len[seat.index()] as usize;
        (n > 0).then(|| self.discards[seat.index()][n - 1])
    }
    /// The cards of the pile at `place`, bottom first (empty when free).
    pub fn pile(&self, place: Place) -> &[Card] {
        &self.piles[place.index()][..self.pile_len[place.index()] as usize]
    }
    /// The number the top of the pile at `place` stands for (a wild counts
    /// as the number it replaces), `None` when the place is free (S3).
    pub fn pile_top(&self, place: Place) -> Option<u8> {
        let n = self.pile_len[place.index()];
        (n > 0).then_some(n)
    }
    /// The places of this table (S3a).
    pub fn places(&self) -> impl Iterator<Item = Place> {
        Place::all(self.options.piles_per_colour)
    }
    /// `[blue, red]` chips held by `seat`.
    pub fn chips(&self, seat: Seat) -> [u8; 2] {
        self.chips[seat.index()]
    }
    /// `[blue, red]` chips left in the supply.
    pub fn supply(&self) -> [u8; 2] {
        self.supply
    }
    /// Cards in the draw pile.
    pub fn draw_pile_len(&self) -> u8 {
        self.draw_len
    }
    /// The draw pile, top first (hidden information).
    pub fn draw_pile(&self) -> Vec<Card> {
        self.draw[..self.draw_len as usize]
            .iter()
            .rev()
            .copied()
            .collect()
    }
    /// Per-kind counts (kinds 0–11) of the completed piles set aside.
    pub fn completed_counts(&self) -> [u8; 12] {
        self.completed
    }
    /// Per-kind counts (`SKIP`, `REVERSE`, `STEAL-CARD`, `STEAL-CHIP`,
    /// `BLOCK`) of the action-card discard pile.
    pub fn action_discard_counts(&self) -> [u8; 5] {
        self.actions
    }
    /// How many reshuffles happened (S6).
    pub fn reshuffle_count(&self) -> u16 {
        self.reshuffles
    }
    /// Every card of the game, counted per kind wherever it is (a
    /// conservation check: always equals the deck's counts).
    pub fn card_census(&self) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        for s in 0..self.players as usize {
            for (ck, h) in c.iter_mut().zip(self.hands[s]) {
                *ck += h;
            }
            for &d in &self.discards[s][..self.discard_len[s] as usize] {
                c[d.index()] += 1;
            }
        }
        for &d in &self.draw[..self.draw_len as usize] {
            c[d.index()] += 1;
        }
        for p in 0..MAX_PLACES {
            for &d in &self.piles[p][..self.pile_len[p] as usize] {
                c[d.index()] += 1;
            }
        }
        for (ck, n) in c
            .iter_mut()
            .zip(self.completed.iter().chain(self.actions.iter()))
        {
            *ck += n;
        }
        c
    }

    // ----- legal decisions -------------------------------------------------

    /// The legal decisions of the seat that must decide ([`Game::to_act`]),
    /// written into `out` (cleared first). Empty once the game ended.
    pub fn legal_into(&self, out: &mut Decisions) {
        self.list_decisions(out, true);
    }

    /// Lists the legal decisions, the discards only if `with_discards`;
    /// returns the hand mask of the seat whose turn it is (0 in a window).
    #[inline]
    fn list_decisions(&self, out: &mut Decisions, with_discards: bool) -> u32 {
        out.clear();
        if self.status != Status::Playing {
            return 0;
        }
        if let Some(w) = self.window {
            out.push(Decision::Pass);
            if self.hand_mask[w.offered.index()] & (1 << Card::Block.index()) != 0 {
                out.push(Decision::Block);
            }
            return 0;
        }
        let s = self.turn;
        let mask = self.hand_mask[s.index()];
        let ppc = self.options.piles_per_colour;
        for colour in Colour::ALL {
            let base = colour.index() * 6;
            let wild = mask & (1 << (base + 5)) != 0;
            for slot in 0..ppc {
                let p = Place::new(colour, slot);
                let n = self.pile_len[p.index()] as usize;
                out.push_if(
                    mask & (1 << (base + n)) != 0,
                    Decision::Pile {
                        card: Card::from_index(base + n),
                        from: Source::Hand,
                        place: p,
                    },
                );
                out.push_if(
                    wild,
                    Decision::Pile {
                        card: Card::from_index(base + 5),
                        from: Source::Hand,
                        place: p,
                    },
                );
            }
        }
        if let Some(top) = self.discard_top(s) {
            if let Some(colour) = top.colour() {
                for slot in 0..ppc {
                    let p = Place::new(colour, slot);
                    if self.fits(top, p) {
                        out.push(Decision::Pile {
                            card: top,
                            from: Source::Discard,
                            place: p,
                        });
                    }
                }
            } else {
                self.push_actions(top, Source::Discard, out);
            }
        }
        let mut acts = mask & (0b1111 << 12);
        while acts != 0 {
            let k = acts.trailing_zeros() as usize;
            acts &= acts - 1;
            self.push_actions(Card::from_index(k), Source::Hand, out);
        }
        if with_discards {
            let mut m = mask;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                out.push(Decision::Discard {
                    card: Card::from_index(k),
                });
            }
        }
        if mask == 0 {
            out.push(Decision::End);
        }
        mask
    }

    /// The legal decisions as a new list (see [`Game::legal_into`]).
    pub fn legal(&self) -> Decisions {
        let mut d = Decisions::new();
        self.legal_into(&mut d);
        d
    }

    #[inline]
    fn push_actions(&self, k: Card, from: Source, out: &mut Decisions) {
        let s = self.turn;
        match k {
            Card::Skip => out.push(Decision::Skip { from }),
            Card::Reverse => out.push(Decision::Reverse { from }),
            Card::StealCard => {
                for t in 0..self.players {
                    out.push_if(
                        (t != s.0) & (self.discard_len[t as usize] > 0),
                        Decision::StealCard {
                            from,
                            target: Seat(t),
                        },
                    );
                }
            }
            Card::StealChip => {
                let ok = [
                    !self.steal_would_be_refused(s, Colour::Blue),
                    !self.steal_would_be_refused(s, Colour::Red),
                ];
                for t in 0..self.players {
                    let c = self.chips[t as usize];
                    let other = t != s.0;
                    out.push_if(
                        other & ok[0] & (c[0] > 0),
                        Decision::StealChip {
                            from,
                            target: Seat(t),
                            colour: Colour::Blue,
                        },
                    );
                    out.push_if(
                        other & ok[1] & (c[1] > 0),
                        Decision::StealChip {
                            from,
                            target: Seat(t),
                            colour: Colour::Red,
                        },
                    );
                }
            }
            _ => {}
        }
    }

    #[inline]
    fn steal_would_be_refused(&self, s: Seat, colour: Colour) -> bool {
        if self.options.steal_chip_can_win {
            return false;
        }
        let mut c = self.chips[s.index()];
        c[colour.index()] += 1;
        meets_win(c)
    }

    /// Whether `card` may go onto the pile at `place` now (S3): same colour,
    /// one higher than the top (1 on a free place), a wild standing for that
    /// number.
    #[inline]
    pub fn fits(&self, card: Card, place: Place) -> bool {
        if place.slot() >= self.options.piles_per_colour || card.colour() != Some(place.colour()) {
            return false;
        }
        let n = self.pile_len[place.index()];
        n < 5 && (card.is_wild() || card.number() == Some(n + 1))
    }

    /// A uniformly random legal decision of the seat to act, or `None` once
    /// the game ended. No allocation.
    pub fn random_decision<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Decision> {
        let mut d = Decisions::new();
        self.random_with(&mut d, rng)
    }

    /// As [`Game::random_decision`], using `scratch` as working space. The
    /// discards are counted rather than listed: the choice is uniform over
    /// exactly the decisions [`Game::legal_into`] lists.
    #[inline]
    pub fn random_with<R: Rng + ?Sized>(
        &self,
        scratch: &mut Decisions,
        rng: &mut R,
    ) -> Option<Decision> {
        let mask = self.list_decisions(scratch, false);
        let listed = scratch.len();
        let discards = mask.count_ones() as usize;
        let total = listed + discards;
        if total == 0 {
            return None;
        }
        let r = below(rng, total as u32) as usize;
        if r < listed {
            return Some(scratch[r]);
        }
        let mut m = mask;
        for _ in 0..(r - listed) {
            m &= m - 1;
        }
        Some(Decision::Discard {
            card: Card::from_index(m.trailing_zeros() as usize),
        })
    }

    /// Plays uniformly random legal decisions (reshuffling with `rng`) until
    /// the game ends or `max_decisions` were played; returns how many were.
    /// No allocation.
    pub fn playout<R: Rng>(&mut self, rng: &mut R, max_decisions: u32) -> u32 {
        let mut list = Decisions::new();
        let mut n = 0;
        while n < max_decisions {
            let Some(seat) = self.to_act() else { break };
            let Some(d) = self.random_with(&mut list, rng) else {
                break;
            };
            if self.apply(seat, d, rng).is_err() {
                debug_assert!(false, "legal decision {d} refused");
                break;
            }
            n += 1;
        }
        n
    }

    // ----- playing ---------------------------------------------------------

    /// Plays `decision` for `seat`, drawing as the rules say (S4) and asking
    /// `reshuffler` for the order of any new draw pile (S6). The same as
    /// [`Game::check`] followed by [`Game::apply`].
    ///
    /// # Errors
    /// [`PlayError`] naming the rule; nothing changes then, except for
    /// [`PlayError::Reshuffle`] (the reshuffler refused mid-draw), after
    /// which the game must be dropped.
    pub fn play<S: Reshuffler + ?Sized>(
        &mut self,
        seat: Seat,
        decision: Decision,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        self.check(seat, decision)?;
        self.apply(seat, decision, reshuffler)
    }

    /// Whether `seat` may make `decision` now: `Ok` exactly for the
    /// decisions [`Game::legal_into`] lists for [`Game::to_act`].
    ///
    /// # Errors
    /// [`PlayError`] naming the rule (S3–S7).
    pub fn check(&self, seat: Seat, decision: Decision) -> Result<(), PlayError> {
        if self.status != Status::Playing {
            return Err(PlayError::GameOver);
        }
        if seat.0 >= self.players {
            return Err(PlayError::NoSuchSeat(seat.0));
        }
        if let Some(w) = self.window {
            return match decision {
                Decision::Block if seat == w.completer => Err(PlayError::OwnBlock),
                Decision::Block | Decision::Pass if seat != w.offered => {
                    Err(PlayError::NotOffered(seat.0))
                }
                Decision::Block if self.hands[seat.index()][Card::Block.index()] == 0 => {
                    Err(PlayError::NotInHand(Card::Block))
                }
                Decision::Block | Decision::Pass => Ok(()),
                _ => Err(PlayError::WindowOpen {
                    offered: w.offered.0,
                }),
            };
        }
        match decision {
            Decision::Block => return Err(PlayError::NoCompletion),
            Decision::Pass => return Err(PlayError::NoWindow),
            _ => {}
        }
        if seat != self.turn {
            return Err(PlayError::NotYourTurn(seat.0));
        }
        match decision {
            Decision::Pile { card, from, place } => {
                self.check_source(seat, card, from)?;
                if card.is_action() {
                    return Err(PlayError::NotAPileCard(card));
                }
                if place.slot() >= self.options.piles_per_colour {
                    return Err(PlayError::NoSuchPlace(place, self.options.piles_per_colour));
                }
                if !self.fits(card, place) {
                    return Err(PlayError::DoesNotFit(card, place));
                }
            }
            Decision::Skip { from } => self.check_source(seat, Card::Skip, from)?,
            Decision::Reverse { from } => self.check_source(seat, Card::Reverse, from)?,
            Decision::StealCard { from, target } => {
                self.check_source(seat, Card::StealCard, from)?;
                self.check_target(seat, target)?;
                if self.discard_len[target.index()] == 0 {
                    return Err(PlayError::NothingToSteal(target.0));
                }
            }
            Decision::StealChip {
                from,
                target,
                colour,
            } => {
                self.check_source(seat, Card::StealChip, from)?;
                self.check_target(seat, target)?;
                if self.chips[target.index()][colour.index()] == 0 {
                    return Err(PlayError::NoSuchChip);
                }
                if self.steal_would_be_refused(seat, colour) {
                    return Err(PlayError::StealChipWins);
                }
            }
            Decision::Discard { card } => {
                if self.hands[seat.index()][card.index()] == 0 {
                    return Err(PlayError::NotInHand(card));
                }
            }
            Decision::End => {
                if self.hand_len[seat.index()] != 0 {
                    return Err(PlayError::HandNotEmpty);
                }
            }
            Decision::Block | Decision::Pass => {}
        }
        Ok(())
    }

    /// Applies a decision already known to be legal (listed by
    /// [`Game::legal_into`] or accepted by [`Game::check`]) without checking
    /// it again: the fast path of playouts. An illegal decision here leaves
    /// the game inconsistent (it may panic in debug builds).
    ///
    /// # Errors
    /// Only [`PlayError::Reshuffle`].
    pub fn apply<S: Reshuffler + ?Sized>(
        &mut self,
        seat: Seat,
        decision: Decision,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        debug_assert_eq!(self.check(seat, decision), Ok(()));
        match decision {
            Decision::Block => {
                self.take_from_hand(seat, Card::Block);
                self.onto_action_pile(Card::Block);
                self.close_window(false, reshuffler)
            }
            Decision::Pass => {
                let Some(mut w) = self.window else {
                    return Ok(());
                };
                if w.remaining <= 1 {
                    self.close_window(true, reshuffler)
                } else {
                    w.remaining -= 1;
                    w.offered = w.offered.next(self.players, self.direction);
                    self.window = Some(w);
                    Ok(())
                }
            }
            Decision::Pile { card, from, place } => {
                self.take(seat, card, from);
                let p = place.index();
                self.piles[p][self.pile_len[p] as usize] = card;
                self.pile_len[p] += 1;
                self.pile_played = true;
                if self.pile_len[p] == 5 {
                    for &c in &self.piles[p] {
                        self.completed[c.index()] += 1;
                    }
                    self.completed_len += 5;
                    self.pile_len[p] = 0;
                    let remaining = match self.options.block_window {
                        BlockWindow::AllOpponents => self.players - 1,
                        BlockWindow::NextPlayer => 1,
                    };
                    self.window = Some(BlockOffer {
                        completer: seat,
                        offered: seat.next(self.players, self.direction),
                        remaining,
                        colour: place.colour(),
                        from_hand: from == Source::Hand,
                    });
                    return Ok(());
                }
                self.after_play(from, reshuffler)
            }
            Decision::Skip { from } => {
                self.take(seat, Card::Skip, from);
                self.onto_action_pile(Card::Skip);
                self.skips = self.skips.saturating_add(1);
                self.after_play(from, reshuffler)
            }
            Decision::Reverse { from } => {
                self.take(seat, Card::Reverse, from);
                self.onto_action_pile(Card::Reverse);
                self.direction = self.direction.reversed();
                self.after_play(from, reshuffler)
            }
            Decision::StealCard { from, target } => {
                self.take(seat, Card::StealCard, from);
                self.onto_action_pile(Card::StealCard);
                let t = target.index();
                self.discard_len[t] -= 1;
                let c = self.discards[t][self.discard_len[t] as usize];
                self.give(seat, c);
                self.known[seat.index()][c.index()] += 1;
                self.after_play(from, reshuffler)
            }
            Decision::StealChip {
                from,
                target,
                colour,
            } => {
                self.take(seat, Card::StealChip, from);
                self.onto_action_pile(Card::StealChip);
                self.chips[target.index()][colour.index()] -= 1;
                self.chips[seat.index()][colour.index()] += 1;
                if meets_win(self.chips[seat.index()]) {
                    self.status = Status::Won(seat);
                    return Ok(());
                }
                self.after_play(from, reshuffler)
            }
            Decision::Discard { card } => {
                self.take_from_hand(seat, card);
                let s = seat.index();
                self.discards[s][self.discard_len[s] as usize] = card;
                self.discard_len[s] += 1;
                self.end_turn(reshuffler)
            }
            Decision::End => self.end_turn(reshuffler),
        }
    }

    #[inline]
    fn check_source(&self, seat: Seat, card: Card, from: Source) -> Result<(), PlayError> {
        match from {
            Source::Hand => {
                if self.hands[seat.index()][card.index()] == 0 {
                    return Err(PlayError::NotInHand(card));
                }
            }
            Source::Discard => {
                if self.discard_top(seat) != Some(card) {
                    return Err(PlayError::NotOnDiscardTop(card));
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn check_target(&self, seat: Seat, target: Seat) -> Result<(), PlayError> {
        if target.0 >= self.players {
            return Err(PlayError::NoSuchSeat(target.0));
        }
        if target == seat {
            return Err(PlayError::StealFromSelf);
        }
        Ok(())
    }

    #[inline]
    fn take_from_hand(&mut self, seat: Seat, card: Card) {
        let s = seat.index();
        self.hands[s][card.index()] -= 1;
        self.hand_len[s] -= 1;
        let kn = &mut self.known[s][card.index()];
        *kn = kn.saturating_sub(1);
        if self.hands[s][card.index()] == 0 {
            self.hand_mask[s] &= !(1 << card.index());
        }
    }

    #[inline]
    fn take(&mut self, seat: Seat, card: Card, from: Source) {
        match from {
            Source::Hand => self.take_from_hand(seat, card),
            Source::Discard => self.discard_len[seat.index()] -= 1,
        }
    }

    #[inline]
    fn onto_action_pile(&mut self, card: Card) {
        self.actions[card.index() - 12] += 1;
        self.actions_len += 1;
    }

    /// S4 step 3: a hand emptied by a play during the turn draws 5 more.
    #[inline]
    fn after_play<S: Reshuffler + ?Sized>(
        &mut self,
        from: Source,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        if from == Source::Hand && self.hand_len[self.turn.index()] == 0 {
            self.draw_up_to(self.turn, HAND_SIZE, reshuffler)?;
        }
        Ok(())
    }

    fn close_window<S: Reshuffler + ?Sized>(
        &mut self,
        award: bool,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        let Some(w) = self.window.take() else {
            return Ok(());
        };
        if award {
            let c = w.colour.index();
            if self.supply[c] > 0 {
                self.supply[c] -= 1;
                self.chips[w.completer.index()][c] += 1;
                if meets_win(self.chips[w.completer.index()]) {
                    self.status = Status::Won(w.completer);
                    return Ok(());
                }
                if self.supply == [0, 0]
                    && self.options.dead_game_draw
                    && !self.options.steal_chip_can_win
                {
                    self.status = Status::Draw;
                    return Ok(());
                }
            }
        }
        self.after_play(
            if w.from_hand {
                Source::Hand
            } else {
                Source::Discard
            },
            reshuffler,
        )
    }

    /// Nothing can be drawn: the draw pile is empty and a reshuffle would
    /// find no card (S6, S6a).
    pub fn nothing_to_draw(&self) -> bool {
        self.draw_len == 0
            && self.completed_len == 0
            && (self.actions_len == 0 || self.options.reshuffle_actions == ReshuffleActions::Never)
    }

    fn end_turn<S: Reshuffler + ?Sized>(&mut self, reshuffler: &mut S) -> Result<(), PlayError> {
        if self.options.refill == Refill::TurnEnd {
            self.draw_up_to(self.turn, HAND_SIZE, reshuffler)?;
        }
        if !self.pile_played && self.nothing_to_draw() {
            self.quiet_turns += 1;
            if self.quiet_turns >= self.players {
                self.status = Status::Draw;
                return Ok(());
            }
        } else {
            self.quiet_turns = 0;
        }
        let steps = 1 + (self.skips as u16 % self.players as u16) as u8;
        self.skips = 0;
        for _ in 0..steps {
            self.turn = self.turn.next(self.players, self.direction);
        }
        self.pile_played = false;
        if self.options.refill == Refill::TurnStart {
            self.draw_up_to(self.turn, HAND_SIZE, reshuffler)?;
        }
        Ok(())
    }

    #[inline]
    fn draw_up_to<S: Reshuffler + ?Sized>(
        &mut self,
        seat: Seat,
        n: u8,
        reshuffler: &mut S,
    ) -> Result<(), PlayError> {
        let s = seat.index();
        loop {
            let need = n.saturating_sub(self.hand_len[s]);
            if need == 0 {
                return Ok(());
            }
            if self.draw_len == 0 {
                self.reshuffle(reshuffler)?;
                if self.draw_len == 0 {
                    return Ok(());
                }
            }
            let k = need.min(self.draw_len);
            let top = self.draw_len as usize;
            let mut mask = self.hand_mask[s];
            let hand = &mut self.hands[s];
            for &c in self.draw[top - k as usize..top].iter() {
                hand[c.index()] += 1;
                mask |= 1 << c.index();
            }
            self.hand_mask[s] = mask;
            self.hand_len[s] += k;
            self.draw_len -= k;
        }
    }

    /// The cards a reshuffle would take now, per kind (S6, S6a).
    pub fn reshuffle_content(&self) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        let completed = self.completed_len > 0;
        let actions = match self.options.reshuffle_actions {
            ReshuffleActions::WhenNoCompleted => !completed,
            ReshuffleActions::Always => true,
            ReshuffleActions::Never => false,
        };
        if completed {
            c[..12].copy_from_slice(&self.completed);
        }
        if actions {
            c[12..].copy_from_slice(&self.actions);
        }
        c
    }

    fn reshuffle<S: Reshuffler + ?Sized>(&mut self, reshuffler: &mut S) -> Result<(), PlayError> {
        let content = self.reshuffle_content();
        let mut buf = [Card::B1; MAX_CARDS];
        let mut n = 0;
        for k in Card::ALL {
            for _ in 0..content[k.index()] {
                buf[n] = k;
                n += 1;
            }
        }
        if n == 0 {
            return Ok(());
        }
        reshuffler
            .reshuffle(&mut buf[..n])
            .map_err(PlayError::Reshuffle)?;
        for (have, take) in self.completed.iter_mut().zip(&content[..12]) {
            self.completed_len -= take;
            *have -= take;
        }
        for (have, take) in self.actions.iter_mut().zip(&content[12..]) {
            self.actions_len -= take;
            *have -= take;
        }
        for i in 0..n {
            self.draw[i] = buf[n - 1 - i];
        }
        self.draw_len = n as u8;
        self.reshuffles = self.reshuffles.saturating_add(1);
        Ok(())
    }
}
