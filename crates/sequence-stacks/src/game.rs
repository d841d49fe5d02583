//! The game state of Sequence Stacks: its types ([`Status`],
//! [`BlockOffer`], [`Config`], [`Game`]), setup and the deal (S1, S2), and
//! what can be read of a game. A turn is in [`crate::turn`], random play in
//! [`crate::playout`], the decisions in [`crate::moves`]. Everything here is
//! fixed-size: no allocation when listing, choosing or playing decisions.

use crate::card::{Card, Colour, Place, KINDS, MAX_CARDS, MAX_PLACES};
use crate::moves::Decision;
use crate::options::{Options, OptionsError};
use rand::Rng;
use sequence_common::{Direction, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// Most seats at a table (S1).
pub const MAX_SEATS: usize = 6;
/// Cards dealt to each seat and the hand size drawn back up to (S2, S4).
pub const HAND_SIZE: u8 = 5;
/// Chips of each colour in the supply at the start (S1).
pub const CHIPS_PER_COLOUR: u8 = 20;

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

/// A bad table: player count, teams, dealer or deck (S1, S2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 2 to 6 players.
    #[error("field `players`: {0} is not 2 to 6 (S1)")]
    Players(u8),
    /// A team count given: every seat plays alone (S1).
    #[error("Sequence Stacks has no teams (S1); every player plays alone")]
    Teams(u8),
    /// Dealer not a seat.
    #[error("field `dealer`: seat {0} does not exist with {1} players")]
    Dealer(u8, u8),
    /// Deck of the wrong size or content.
    #[error("field `deck`: {0}")]
    Deck(String),
    /// Options out of range (S3a), said from the option list.
    #[error(transparent)]
    Options(#[from] OptionsError),
}

impl RuleError for SetupError {
    /// `S1.players`, `S1.teams`, `S2.dealer`, `S1.deck`, `S3a.option`.
    fn code(&self) -> &'static str {
        match self {
            SetupError::Players(_) => "S1.players",
            SetupError::Teams(_) => "S1.teams",
            SetupError::Dealer(..) => "S2.dealer",
            SetupError::Deck(_) => "S1.deck",
            SetupError::Options(_) => "S3a.option",
        }
    }
}

/// A validated table of Sequence Stacks: 2 to 6 seats (S1), each playing
/// alone, and rule options in range.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub(crate) players: u8,
    pub(crate) options: Options,
}

impl Config {
    /// A validated table.
    ///
    /// # Errors
    /// [`SetupError::Players`] outside 2–6 (S1), [`SetupError::Options`]
    /// for an option out of range.
    pub fn new(players: u8, options: Options) -> Result<Config, SetupError> {
        if !(2..=MAX_SEATS as u8).contains(&players) {
            return Err(SetupError::Players(players));
        }
        options.validate()?;
        Ok(Config { players, options })
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.options
    }
}

/// The whole state of a game of Sequence Stacks, hidden cards included.
/// Use [`Game::view`] to show a seat only what it may see.
///
/// Fixed arrays throughout (about 1.2 KB); cloning is a memcpy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The table: players and rule options.
    pub(crate) config: Config,
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
    /// Decisions made so far (every one counts, passes included).
    pub(crate) ply: u32,
    /// The last decision and its seat.
    pub(crate) last: Option<(Seat, Decision)>,
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
    /// A game of the table `config` dealt from `deck` (every card in draw
    /// order, top first) by `dealer` (S2): 5 cards go one at a time to each
    /// seat from `dealer + 1`; seat `dealer + 1` plays first, clockwise.
    ///
    /// # Errors
    /// [`SetupError`] for a dealer not at the table or a deck that is not
    /// exactly the S1/S2 cards.
    pub fn new(config: Config, dealer: Seat, deck: &[Card]) -> Result<Game, SetupError> {
        let players = config.players;
        if dealer.0 >= players {
            return Err(SetupError::Dealer(dealer.0, players));
        }
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
        Ok(Self::deal_unchecked(players, config.options, dealer, deck))
    }

    /// A table with no card anywhere (filled by the caller).
    pub(crate) fn deal_empty(players: u8, options: Options, dealer: Seat) -> Game {
        Game {
            config: Config { players, options },
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
            ply: 0,
            last: None,
        }
    }

    fn deal_unchecked(players: u8, options: Options, dealer: Seat, deck: &[Card]) -> Game {
        let mut g = Self::deal_empty(players, options, dealer);
        let n = deck.len();
        for (i, &c) in deck.iter().rev().enumerate() {
            g.draw[i] = c;
        }
        g.draw_len = n as u8;
        g.deal_hands();
        g
    }

    /// A random game of the same table for playouts and research
    /// ([`sequence_common::Rules::fresh_deal`]): a uniformly random dealer
    /// and deck order from `rng` by the fast shuffle
    /// ([`sequence_common::rng::shuffle_batched`]; not the documented
    /// procedure of [`Game::deal`] that records rely on). The deck is built
    /// here, so it is not checked.
    pub fn fresh_deal<R: Rng + ?Sized>(&self, rng: &mut R) -> Game {
        let players = self.config.players;
        let dealer = Seat(sequence_common::rng::below(rng, u32::from(players)) as u8);
        let mut g = Self::deal_empty(players, self.config.options, dealer);
        let mut n = 0;
        for k in Card::ALL {
            for _ in 0..k.copies(players) {
                g.draw[n] = k;
                n += 1;
            }
        }
        sequence_common::rng::shuffle_batched(&mut g.draw[..n], rng);
        g.draw_len = n as u8;
        g.deal_hands();
        g
    }

    /// Deals 5 cards to each seat, one at a time from the dealer's left
    /// (S2), from the top of the draw pile.
    fn deal_hands(&mut self) {
        let players = self.config.players;
        let dealer = self.dealer;
        let g = self;
        let mut seat = dealer;
        for _ in 0..(HAND_SIZE as usize * players as usize) {
            seat = seat.next(players, Direction::Clockwise);
            g.draw_len -= 1;
            let c = g.draw[g.draw_len as usize];
            g.give(seat, c);
        }
    }

    /// A new game of the table `config` with the dealer and deck order
    /// drawn from `rng` (S2: the dealer first, `rng.random_range(0..players)`,
    /// then a Fisher–Yates shuffle of the deck in kind order with
    /// [`sequence_common::rng::shuffle`]). Returns the game and its deck,
    /// top first. See [`Game::deal_into`] for no allocation at all.
    pub fn deal<R: Rng + ?Sized>(config: Config, rng: &mut R) -> (Game, Vec<Card>) {
        let mut deck = [Card::B1; MAX_CARDS];
        let g = Self::deal_into(config, rng, &mut deck);
        let n = crate::card::deck_size(config.players);
        (g, deck[..n].to_vec())
    }

    /// As [`Game::deal`], writing the deck into `deck` (its first 120 or
    /// 112 entries).
    pub fn deal_into<R: Rng + ?Sized>(
        config: Config,
        rng: &mut R,
        deck: &mut [Card; MAX_CARDS],
    ) -> Game {
        let players = config.players;
        let dealer = Seat(rng.random_range(0..players));
        let mut n = 0;
        for k in Card::ALL {
            for _ in 0..k.copies(players) {
                deck[n] = k;
                n += 1;
            }
        }
        sequence_common::rng::shuffle(&mut deck[..n], rng);
        Self::deal_unchecked(players, config.options, dealer, &deck[..n])
    }

    #[inline]
    pub(crate) fn give(&mut self, seat: Seat, c: Card) {
        self.hands[seat.index()][c.index()] += 1;
        self.hand_len[seat.index()] += 1;
        self.hand_mask[seat.index()] |= 1 << c.index();
    }

    // ----- accessors -------------------------------------------------------

    /// The table.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.config.options
    }
    /// Number of seats (2–6).
    pub fn players(&self) -> u8 {
        self.config.players
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
    #[inline]
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
        Place::all(self.config.options.piles_per_colour)
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
        for s in 0..self.config.players as usize {
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
}
