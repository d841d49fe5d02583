//! The game state of classic Sequence: its types ([`Team`], [`Status`],
//! [`Hand`], [`Game`]), the table's rule tables, setup and the deal (C1,
//! C3–C5) and what can be read of a game. A turn is in [`crate::turn`],
//! random play in [`crate::playout`], arbitrary positions in
//! [`crate::position`].
//!
//! [`Game`] is a plain value: no I/O, no clock, no global state. Cloning it
//! copies about 1 KiB and bumps one reference count; the hot path
//! ([`Game::legal_moves`], [`Game::random_move`], [`Game::apply`])
//! allocates nothing.

use crate::bitboard::{Bitboard, Space, BOARD, CORNERS};
use crate::card::Card;
use crate::layout::Layout;
use crate::moves::Move;
use crate::options::{Config, NoPlay};
use crate::sequences::{add_to_lines, remove_from_lines, Lines, Window, LINE_CORNERS};
use rand::Rng;
use sequence_common::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

pub use crate::hand::Hand;
pub use crate::setup::{check_deck, cut_for_dealer, SetupError};
pub use crate::team::Team;

/// Most seats at a table (C3).
pub const MAX_PLAYERS: usize = 12;
/// Cards in the two decks (C1).
pub const DECK_SIZE: usize = 104;
/// Capacity of a hand (the largest hand is 7, C4).
pub const MAX_HAND: usize = 8;
/// Every non-jack card, one bit per card index (C1): the cards with two
/// spaces on the board.
pub(crate) const NON_JACKS: u64 = {
    let mut m = (1u64 << 52) - 1;
    let mut s = 0;
    while s < 4 {
        m &= !(1u64 << (s * 13 + 10));
        s += 1;
    }
    m
};
/// The two-eyed jacks J♦ and J♣ (C6), one bit per card index.
pub(crate) const TWO_EYED: u64 = (1u64 << (2 * 13 + 10)) | (1u64 << (3 * 13 + 10));
/// The one-eyed jacks J♠ and J♥ (C6), one bit per card index.
pub(crate) const ONE_EYED: u64 = (1u64 << 10) | (1u64 << (13 + 10));

/// Most sequences kept on the board at once.
pub const MAX_SEQUENCES: usize = 24;

/// Where the game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "state", content = "team")]
pub enum Status {
    /// Moves remain to be made.
    Playing,
    /// A team reached its sequences (C9).
    Won(Team),
    /// A full round of passes (C6a).
    Draw,
}

#[derive(Debug)]
pub(crate) struct RuleTables {
    pub(crate) config: Config,
    pub(crate) layout: Layout,
    pub(crate) players: u8,
    pub(crate) teams: u8,
    /// `seat % teams` per seat (a table lookup beats a division; every
    /// `u8`, so that no index is checked).
    pub(crate) seat_team: [u8; 256],
    pub(crate) hand_size: u8,
    /// Per bit index: the bit (by card index) of the card the space shows;
    /// 0 for the corners and gap bits.
    pub(crate) space_card_bit: [u64; 128],
    /// Per bit index: 0 when the space is the first in reading order of
    /// the two of its card, 1 when the second ([`Game::free`]).
    pub(crate) space_side: [u8; 128],
    /// Per bit index: the card the space shows (a jack for the corners
    /// and gap bits, which no move names).
    pub(crate) space_card: [Card; 128],
    /// Per card index: its two spaces (none for jacks and past 51).
    pub(crate) card_mask: [u128; 64],
    pub(crate) win: u8,
    pub(crate) len: u8,
    pub(crate) reshuffle: bool,
    pub(crate) removable: bool,
    pub(crate) no_play: NoPlay,
    pub(crate) last_window: bool,
}

/// Rule tables already built, one per configuration: every game with the
/// same players and options shares one copy (a server holds thousands of
/// games; a copy is about 3 KB). At most [`SHARED_RULES_MAX`] are kept;
/// past that, games build their own.
static SHARED_RULES: std::sync::Mutex<Vec<Arc<RuleTables>>> = std::sync::Mutex::new(Vec::new());

/// How many configurations [`SHARED_RULES`] keeps.
const SHARED_RULES_MAX: usize = 256;

impl RuleTables {
    /// The rule tables of `config`, shared with every other game of the
    /// same configuration.
    fn shared(config: Config) -> Arc<RuleTables> {
        let Ok(mut kept) = SHARED_RULES.lock() else {
            return Arc::new(RuleTables::build(config));
        };
        if let Some(r) = kept.iter().find(|r| r.config == config) {
            return r.clone();
        }
        let r = Arc::new(RuleTables::build(config));
        if kept.len() < SHARED_RULES_MAX {
            kept.push(r.clone());
        }
        r
    }

    /// Builds the rule tables of `config`.
    fn build(config: Config) -> RuleTables {
        let layout = config.layout();
        RuleTables {
            players: config.players(),
            teams: config.teams(),
            seat_team: std::array::from_fn(|s| {
                sequence_common::TableConfig::side_of(&config, Seat((s % MAX_PLAYERS) as u8))
            }),
            hand_size: config.hand_size() as u8,
            win: config.win_sequences(),
            space_card_bit: std::array::from_fn(|b| {
                Space::from_bit(b as u8)
                    .and_then(|sq| layout.card_at(sq))
                    .map_or(0, |c| 1u64 << c.index())
            }),
            space_side: std::array::from_fn(|b| {
                Space::from_bit(b as u8)
                    .and_then(|sq| layout.card_at(sq))
                    .map_or(0, |c| {
                        u8::from(layout.spaces_of(c).first() != Space::from_bit(b as u8))
                    })
            }),
            space_card: std::array::from_fn(|b| {
                Space::from_bit(b as u8)
                    .and_then(|sq| layout.card_at(sq))
                    .unwrap_or(Card::JS)
            }),
            card_mask: std::array::from_fn(|i| {
                Card::from_index(i as u8).map_or(0, |c| layout.spaces_of(c).0)
            }),
            len: config.sequence_length(),
            reshuffle: !config.options().no_reshuffle,
            removable: config.options().removable_sequences,
            no_play: config.options().no_play,
            last_window: config.options().default_window == crate::options::DefaultWindow::Last,
            layout,
            config,
        }
    }
}

/// A game of classic Sequence in progress or ended.
#[derive(Clone)]
pub struct Game {
    pub(crate) rules: Arc<RuleTables>,
    pub(crate) chips: [Bitboard; 3],
    /// Per team, its chips and the corners in the four line boards
    /// ([`crate::sequences::LINE_BIT`]).
    pub(crate) lines: [Lines; 3],
    pub(crate) occupied: Bitboard,
    pub(crate) locked: Bitboard,
    /// `free[0]`: the cards (bit = card index) whose first space in reading
    /// order is empty; `free[1]`: whose second is. A non-jack in neither is
    /// dead (C6).
    pub(crate) free: [u64; 2],
    /// The completed sequences (their masks: [`Window::mask`]).
    pub(crate) seqs: [Window; MAX_SEQUENCES],
    pub(crate) seq_team: [u8; MAX_SEQUENCES],
    pub(crate) nseq: u8,
    pub(crate) seq_count: [u8; 3],
    pub(crate) hands: [Hand; MAX_PLAYERS],
    /// Draw pile, top at `draw[draw_len - 1]`.
    pub(crate) draw: [Card; DECK_SIZE],
    pub(crate) draw_len: u8,
    /// Every discard pile, oldest first, with the discarding seat.
    pub(crate) discards: [Card; DECK_SIZE],
    pub(crate) discard_seat: [u8; DECK_SIZE],
    pub(crate) ndiscard: u8,
    /// The cards of the discard piles as bitsets (bit = card index):
    /// `[0]` the cards there at least once, `[1]` twice ([`Game::push_discard`]).
    pub(crate) discarded: [u64; 2],
    pub(crate) dealer: Seat,
    pub(crate) turn: Seat,
    pub(crate) dead_done: bool,
    pub(crate) stuck_run: u8,
    pub(crate) status: Status,
    pub(crate) ply: u32,
    pub(crate) last: Option<(Seat, Move)>,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Game {{ turn: {}, status: {:?}, ply: {} }}",
            self.turn, self.status, self.ply
        )?;
        for row in self.board_rows() {
            writeln!(f, "  {row}")?;
        }
        Ok(())
    }
}

impl Game {
    /// A new game dealt from `deck` (top first) by `dealer` (C5): one card
    /// at a time to each seat from the dealer's left until every hand is
    /// full (C4). The seat at the dealer's left plays first.
    ///
    /// # Errors
    /// [`SetupError`] when the deck is not two standard decks or the
    /// dealer is not a seat.
    pub fn new(config: Config, dealer: Seat, deck: &[Card]) -> Result<Game, SetupError> {
        check_deck(deck)?;
        Game::new_unchecked(config, dealer, deck)
    }

    /// [`Game::new`] for a deck known to be two standard decks (a shuffle
    /// of [`Card::double_deck`]): no deck check.
    fn new_unchecked(config: Config, dealer: Seat, deck: &[Card]) -> Result<Game, SetupError> {
        let players = config.players();
        if dealer.0 >= players {
            return Err(SetupError::Dealer(dealer.0));
        }
        let rules = RuleTables::shared(config);
        let mut draw = [Card::JS; DECK_SIZE];
        for (i, c) in deck.iter().rev().enumerate() {
            draw[i] = *c;
        }
        let first = dealer.next(players, sequence_common::Direction::Clockwise);
        let mut g = Game {
            chips: [Bitboard::EMPTY; 3],
            lines: [LINE_CORNERS; 3],
            occupied: Bitboard::EMPTY,
            locked: Bitboard::EMPTY,
            free: [NON_JACKS; 2],
            seqs: [Window {
                start: first_space(),
                dir: crate::sequences::Dir::East,
            }; MAX_SEQUENCES],
            seq_team: [0; MAX_SEQUENCES],
            nseq: 0,
            seq_count: [0; 3],
            hands: [Hand::default(); MAX_PLAYERS],
            draw,
            draw_len: DECK_SIZE as u8,
            discards: [Card::JS; DECK_SIZE],
            discard_seat: [0; DECK_SIZE],
            ndiscard: 0,
            discarded: [0; 2],
            dealer,
            turn: first,
            dead_done: false,
            stuck_run: 0,
            status: Status::Playing,
            ply: 0,
            last: None,
            rules,
        };
        g.deal_hands();
        Ok(g)
    }

    /// A new game of the same table (same rules, shared without copying)
    /// dealt from `deck` by `dealer`, as [`Game::new`] does.
    ///
    /// # Errors
    /// As [`Game::new`].
    pub fn redeal(&self, dealer: Seat, deck: &[Card]) -> Result<Game, SetupError> {
        check_deck(deck)?;
        if dealer.0 >= self.rules.players {
            return Err(SetupError::Dealer(dealer.0));
        }
        let mut g = self.clone();
        for (i, c) in deck.iter().rev().enumerate() {
            g.draw[i] = *c;
        }
        g.start(dealer);
        Ok(g)
    }

    /// A random game of the same table for playouts and research
    /// ([`sequence_common::Rules::fresh_deal`]): a uniformly random dealer
    /// and deck order from `rng` by the fast shuffle
    /// ([`sequence_common::rng::shuffle_batched`], four indices per 64-bit
    /// draw; not the documented shuffle of [`Game::deal`] that records rely
    /// on). The deck is built here, so it is not checked.
    pub fn fresh_deal<R: Rng + ?Sized>(&self, rng: &mut R) -> Game {
        let mut g = self.clone();
        g.draw = Card::double_deck();
        sequence_common::rng::shuffle_batched(&mut g.draw, rng);
        let players = self.rules.players as u64;
        let dealer = ((rng.next_u32() as u64 * players) >> 32) as u8;
        g.start(Seat(dealer));
        g
    }

    /// Resets everything but the rules and the draw pile (already the whole
    /// deck, top last) and deals from it by `dealer` (C5).
    fn start(&mut self, dealer: Seat) {
        self.chips = [Bitboard::EMPTY; 3];
        self.lines = [LINE_CORNERS; 3];
        self.occupied = Bitboard::EMPTY;
        self.locked = Bitboard::EMPTY;
        self.free = [NON_JACKS; 2];
        self.nseq = 0;
        self.seq_count = [0; 3];
        for h in &mut self.hands[..self.rules.players as usize] {
            *h = Hand::default();
        }
        self.draw_len = DECK_SIZE as u8;
        self.ndiscard = 0;
        self.discarded = [0; 2];
        self.dealer = dealer;
        self.turn = dealer.next(self.rules.players, sequence_common::Direction::Clockwise);
        self.dead_done = false;
        self.stuck_run = 0;
        self.status = Status::Playing;
        self.ply = 0;
        self.last = None;
        self.deal_hands();
    }

    fn deal_hands(&mut self) {
        let players = self.rules.players;
        let mut s = self.turn;
        for _ in 0..(self.rules.hand_size as usize * players as usize) {
            self.draw_len -= 1;
            let c = self.draw[self.draw_len as usize];
            self.hands[s.index()].push(c, self.rules.card_mask[c.index() & 63]);
            s = s.next(players, sequence_common::Direction::Clockwise);
        }
    }

    /// A new game with the cut (C5) and the shuffle drawn from `rng`.
    /// Returns the game and its deck (top first) for the record.
    pub fn deal<R: Rng + ?Sized>(config: Config, rng: &mut R) -> (Game, Vec<Card>) {
        let dealer = cut_for_dealer(config.players(), rng);
        let mut deck = Card::double_deck();
        sequence_common::rng::shuffle(&mut deck, rng);
        match Game::new_unchecked(config, dealer, &deck) {
            Ok(g) => (g, deck.to_vec()),
            Err(e) => unreachable!("a shuffled double deck is valid: {e}"),
        }
    }

    // ----- accessors -------------------------------------------------------

    /// The table's configuration.
    pub fn config(&self) -> &Config {
        &self.rules.config
    }

    /// The board layout.
    pub fn layout(&self) -> &Layout {
        &self.rules.layout
    }

    /// Players at the table.
    #[inline]
    pub fn players(&self) -> u8 {
        self.rules.players
    }

    /// Teams at the table.
    #[inline]
    pub fn teams(&self) -> u8 {
        self.rules.teams
    }

    /// The team of `seat` (`seat % teams`, C3).
    #[inline]
    pub fn team_of(&self, seat: Seat) -> Team {
        Team(self.rules.seat_team[seat.0 as usize])
    }

    /// Spaces in a sequence (5, or 4 with the house rule).
    pub fn sequence_length(&self) -> u8 {
        self.rules.len
    }

    /// Sequences a team needs to win (C9).
    pub fn win_sequences(&self) -> u8 {
        self.rules.win
    }

    /// The dealer (C5).
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The seat whose turn it is.
    #[inline]
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// Where the game stands.
    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the game has ended.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.status != Status::Playing
    }

    /// Moves made so far (every record entry counts one).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The last move and its seat.
    pub fn last_move(&self) -> Option<(Seat, Move)> {
        self.last
    }

    /// Whether the seat to move already exchanged a dead card this turn.
    pub fn dead_exchanged(&self) -> bool {
        self.dead_done
    }

    /// Consecutive turns with no legal play and no dead-card exchange (C6a).
    pub fn stuck_turns(&self) -> u8 {
        self.stuck_run
    }

    /// A seat's hand. Only the engine's owner (a server, a local game) may
    /// read other seats' hands; players get a [`crate::view::SeatView`].
    #[inline]
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands[seat.index()].cards()
    }

    /// Number of cards in `seat`'s hand (public: every seat sees how many
    /// cards the others hold).
    #[inline]
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.hands[seat.index()].len as usize
    }

    /// Copies of each card in `seat`'s hand as two bitsets (bit = card
    /// index, as [`Card::index`]): the cards held at least once and the
    /// cards held twice (C1: two of each). Hidden information, as
    /// [`Game::hand`]. Kept as cards come and go, so reading it costs
    /// nothing.
    #[inline]
    pub fn hand_copies(&self, seat: Seat) -> [u64; 2] {
        let h = &self.hands[seat.index()];
        [h.kinds, h.twice]
    }

    /// The cards `seat` holds, one bit per card index (two copies of a
    /// card give one bit). Hidden information, as [`Game::hand`].
    #[inline]
    pub fn hand_kinds(&self, seat: Seat) -> u64 {
        self.hands[seat.index()].kinds()
    }

    /// The empty spaces that the non-jack cards of `seat`'s hand show: the
    /// placements its natural cards have (C6).
    #[inline]
    pub fn natural_targets(&self, seat: Seat) -> Bitboard {
        Bitboard(self.hands[seat.index()].spaces & !self.occupied.0)
    }

    /// Cards left in the draw pile.
    pub fn draw_pile_len(&self) -> usize {
        self.draw_len as usize
    }

    /// The draw pile, top first (hidden information).
    pub fn draw_pile(&self) -> impl Iterator<Item = Card> + '_ {
        self.draw[..self.draw_len as usize].iter().rev().copied()
    }

    /// The discard pile of `seat`, oldest first (public, C6).
    pub fn discard_pile(&self, seat: Seat) -> impl Iterator<Item = Card> + '_ {
        (0..self.ndiscard as usize)
            .filter(move |&i| self.discard_seat[i] == seat.0)
            .map(move |i| self.discards[i])
    }

    /// Every discarded card since the last reshuffle with its seat, oldest
    /// first.
    pub fn discards(&self) -> impl Iterator<Item = (Seat, Card)> + '_ {
        (0..self.ndiscard as usize).map(move |i| (Seat(self.discard_seat[i]), self.discards[i]))
    }

    /// Copies of each card in the discard piles since the last reshuffle
    /// (C7) as two bitsets (bit = card index, as [`Card::index`]): the
    /// cards there at least once, and the cards there twice (C1: two of
    /// each). Kept as cards are discarded, so reading it costs nothing.
    #[inline]
    pub fn discard_copies(&self) -> [u64; 2] {
        self.discarded
    }

    /// Puts `card` on the discard pile of `seat` (C6).
    #[inline(always)]
    pub(crate) fn push_discard(&mut self, seat: Seat, card: Card) {
        let n = self.ndiscard as usize;
        self.discards[n] = card;
        self.discard_seat[n] = seat.0;
        self.ndiscard += 1;
        let bit = 1u64 << (card.index() & 63);
        self.discarded[1] |= self.discarded[0] & bit;
        self.discarded[0] |= bit;
    }

    /// The chips of `team`.
    #[inline]
    pub fn chips(&self, team: Team) -> Bitboard {
        self.chips[team.index()]
    }

    /// Every space holding a chip (corners excluded).
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Chips that belong to a completed sequence (C8).
    #[inline]
    pub fn locked(&self) -> Bitboard {
        self.locked
    }

    /// The team whose chip is on `sq`, if any.
    pub fn chip_at(&self, sq: Space) -> Option<Team> {
        (0..self.rules.teams)
            .map(Team)
            .find(|t| self.chips[t.index()].contains(sq))
    }

    /// Completed sequences of `team`.
    pub fn sequence_count(&self, team: Team) -> u8 {
        self.seq_count[team.index()]
    }

    /// Every completed sequence with its team.
    pub fn sequences(&self) -> impl Iterator<Item = (Team, Window)> + '_ {
        (0..self.nseq as usize).map(move |i| (Team(self.seq_team[i]), self.seqs[i]))
    }

    /// The board as 10 strings of 10 characters, row 1 first: `B G R` chips,
    /// `b g r` locked chips, `.` empty, `*` corner (RECORD.md).
    pub fn board_rows(&self) -> Vec<String> {
        (0..10u8)
            .map(|r| {
                (0..10u8)
                    .filter_map(|c| Space::new(r, c))
                    .map(|sq| {
                        if sq.is_corner() {
                            '*'
                        } else {
                            match self.chip_at(sq) {
                                None => '.',
                                Some(t) if self.locked.contains(sq) => {
                                    t.letter().to_ascii_lowercase()
                                }
                                Some(t) => t.letter(),
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Whether `card` is dead: a non-jack whose two spaces are covered (C6).
    /// Jacks are never dead.
    #[inline]
    pub fn is_dead(&self, card: Card) -> bool {
        self.dead_cards() >> card.index() & 1 != 0
    }

    /// The dead cards (C6), one bit per card index: non-jacks with no empty
    /// space.
    #[inline]
    pub fn dead_cards(&self) -> u64 {
        NON_JACKS & !(self.free[0] | self.free[1])
    }

    /// The spaces `card` may take or clear now for the seat to move: empty
    /// spaces of a non-jack (C6), empty non-corner spaces for a two-eyed
    /// jack, removable opponent chips for a one-eyed jack.
    #[inline]
    pub fn targets(&self, card: Card) -> Bitboard {
        self.targets_for(card, self.team_of(self.turn))
    }

    #[inline]
    pub(crate) fn targets_for(&self, card: Card, team: Team) -> Bitboard {
        if card.is_jack() {
            if card.is_two_eyed_jack() {
                Bitboard(BOARD.0 & !self.occupied.0 & !CORNERS.0)
            } else {
                self.removable(team)
            }
        } else {
            let m = self.rules.layout.spaces_of(card);
            Bitboard(m.0 & !self.occupied.0)
        }
    }

    /// Whether the seat to move has a card it can play (C6 step 2).
    pub fn has_play(&self) -> bool {
        self.play_count() != 0
    }

    /// The number of plays (C6 step 2) of the seat to move: placements of
    /// its distinct non-jack cards on their empty spaces, of each two-eyed
    /// jack on every empty space, and removals by each one-eyed jack. A few
    /// popcounts.
    #[inline]
    pub(crate) fn play_count(&self) -> u32 {
        let kinds = self.hands[self.turn.index()].kinds();
        let mut n = (kinds & self.free[0]).count_ones() + (kinds & self.free[1]).count_ones();
        if kinds & (TWO_EYED | ONE_EYED) != 0 {
            n += (kinds & TWO_EYED).count_ones() * self.empty_count();
            n += (kinds & ONE_EYED).count_ones() * self.removable(self.team_of(self.turn)).count();
        }
        n
    }

    /// Empty spaces a two-eyed jack may take (every space but the corners
    /// and the chips, C6).
    #[inline]
    pub(crate) fn empty_count(&self) -> u32 {
        96 - self.occupied.count()
    }

    /// The chips a one-eyed jack of `team` may remove (C6, C8, C11).
    #[inline]
    pub(crate) fn removable(&self, team: Team) -> Bitboard {
        let opp = self.occupied.0 & !self.chips[team.index() % 3].0;
        if self.rules.removable {
            Bitboard(opp)
        } else {
            Bitboard(opp & !self.locked.0)
        }
    }

    /// Puts a chip of `team` on `at` (every board but the sequences).
    #[inline]
    pub(crate) fn add_chip(&mut self, team: Team, at: Space) {
        let t = team.index() % 3;
        add_to_lines(&mut self.lines[t], at, self.rules.len);
        self.chips[t] = self.chips[t].with(at);
        self.occupied = self.occupied.with(at);
        self.cover(at);
    }

    /// Takes the chip off `at` (every board but the sequences).
    #[inline]
    pub(crate) fn remove_chip(&mut self, at: Space) {
        for t in 0..3 {
            self.chips[t] = self.chips[t].without(at);
            remove_from_lines(&mut self.lines[t], at);
        }
        self.occupied = self.occupied.without(at);
        self.uncover(at);
    }

    /// Covers `at` with a chip: the card it shows has one empty space fewer.
    #[inline]
    pub(crate) fn cover(&mut self, at: Space) {
        let i = at.bit() as usize & 127;
        let side = &mut self.free[self.rules.space_side[i] as usize & 1];
        *side &= !self.rules.space_card_bit[i];
    }

    /// Clears `at`: the card it shows has one empty space more.
    #[inline]
    pub(crate) fn uncover(&mut self, at: Space) {
        let i = at.bit() as usize & 127;
        let side = &mut self.free[self.rules.space_side[i] as usize & 1];
        *side |= self.rules.space_card_bit[i];
    }

    /// Whether a window of mask `m` shares at most one space with each
    /// sequence of `team` (C8).
    #[inline]
    pub(crate) fn may_count(&self, team: Team, m: u128) -> bool {
        let len = self.rules.len;
        (0..self.nseq as usize).all(|i| {
            self.seq_team[i] != team.0 || (self.seqs[i].mask_on_board(len).0 & m).count_ones() <= 1
        })
    }

    // ----- used by views and determinization ------------------------------------

    pub(crate) fn set_hidden(&mut self, hands: &[(Seat, Vec<Card>)], draw_top_first: &[Card]) {
        for (s, cards) in hands {
            self.set_hand(*s, cards);
        }
        self.set_draw(draw_top_first);
    }

    /// Replaces the hand of `seat` (for determinizations).
    pub(crate) fn set_hand(&mut self, seat: Seat, cards: &[Card]) {
        let h = &mut self.hands[seat.index()];
        *h = Hand::default();
        for &c in cards {
            h.push(c, self.rules.card_mask[c.index() & 63]);
        }
    }

    /// Replaces the draw pile, `draw_top_first[0]` on top (for
    /// determinizations).
    pub(crate) fn set_draw(&mut self, draw_top_first: &[Card]) {
        self.draw_len = draw_top_first.len() as u8;
        for (i, c) in draw_top_first.iter().rev().enumerate() {
            self.draw[i] = *c;
        }
    }
}

const fn first_space() -> Space {
    match Space::new(0, 0) {
        Some(s) => s,
        None => unreachable!(),
    }
}

#[cfg(test)]
mod shared_rules_tests {
    use super::*;
    use crate::options::Options;

    /// Games of one configuration share one copy of the rule tables
    /// (memory per table on a server); another configuration has its own.
    #[test]
    fn games_of_one_configuration_share_their_rule_tables() {
        let deck = Card::double_deck();
        let config = Config::new(2, None, Options::default()).expect("config");
        let a = Game::new(config.clone(), Seat(0), &deck).expect("game");
        let b = Game::new(config, Seat(1), &deck).expect("game");
        assert!(Arc::ptr_eq(&a.rules, &b.rules));
        let four = Options {
            sequence_length: Some(4),
            ..Options::default()
        };
        let other = Config::new(2, None, four).expect("config");
        let c = Game::new(other, Seat(0), &deck).expect("game");
        assert!(!Arc::ptr_eq(&a.rules, &c.rules));
        assert_eq!(c.rules.len, 4);
        assert_eq!(a.rules.len, 5);
    }
}
