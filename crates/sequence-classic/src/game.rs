//! The game state of classic Sequence and its rules of play: setup and the
//! deal (C3–C5), turns (C6, C6a), the reshuffle (C7), sequences (C8, C8a)
//! and the end (C9, C6a).
//!
//! [`Game`] is a plain value: no I/O, no clock, no global state. Cloning it
//! copies about 1 KiB and bumps one reference count; the hot path
//! ([`Game::legal_moves`], [`Game::random_move`], [`Game::play`]) allocates
//! nothing.

use crate::bitboard::{Bitboard, Space, BOARD, CORNERS};
use crate::card::Card;
use crate::layout::Layout;
use crate::moves::{Declaration, IllegalMove, Move, MoveSink};
use crate::options::{Config, NoPlay};
use crate::sequences::{Completions, Sequence, Window};
use rand::Rng;
use sequence_common::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Most seats at a table (C3).
pub const MAX_PLAYERS: usize = 12;
/// Cards in the two decks (C1).
pub const DECK_SIZE: usize = 104;
/// Capacity of a hand (the largest hand is 7, C4).
pub const MAX_HAND: usize = 8;
/// Empty spaces per card at the start: 2 for every non-jack (C1).
const FREE_START: [u8; 64] = {
    let mut f = [0u8; 64];
    let mut i = 0;
    while i < 52 {
        f[i] = 2;
        i += 1;
    }
    let mut s = 0;
    while s < 4 {
        f[s * 13 + 10] = 0;
        s += 1;
    }
    f
};

/// Most sequences kept on the board at once.
pub const MAX_SEQUENCES: usize = 24;

/// A team, by number: team 0 plays blue, 1 green, 2 red (RECORD.md).
/// Seat `s` is in team `s % teams` (C3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Team(pub u8);

impl Team {
    /// The chip colour's name: `blue`, `green`, `red`.
    pub fn colour(self) -> &'static str {
        ["blue", "green", "red"][self.0 as usize % 3]
    }

    /// The team of a colour name (any case).
    pub fn from_colour(name: &str) -> Option<Team> {
        match name.to_ascii_lowercase().as_str() {
            "blue" => Some(Team(0)),
            "green" => Some(Team(1)),
            "red" => Some(Team(2)),
            _ => None,
        }
    }

    /// One-letter chip code: `B`, `G`, `R` (lower case when locked).
    pub fn letter(self) -> char {
        ['B', 'G', 'R'][self.0 as usize % 3]
    }

    /// Index `0 … 2`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.colour())
    }
}

impl Serialize for Team {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.colour())
    }
}

impl<'de> Deserialize<'de> for Team {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Team, D::Error> {
        let s = String::deserialize(d)?;
        Team::from_colour(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("{s:?} is not blue, green or red")))
    }
}

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

/// A hand of at most [`MAX_HAND`] cards. A played card's slot is taken by
/// the hand's last card, and a drawn card goes last.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
}

impl Default for Hand {
    fn default() -> Self {
        Hand {
            cards: [Card::JS; MAX_HAND],
            len: 0,
        }
    }
}

impl Hand {
    /// The cards.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the hand holds `c`.
    #[inline]
    pub fn contains(&self, c: Card) -> bool {
        self.cards().contains(&c)
    }

    #[inline]
    fn push(&mut self, c: Card) {
        if (self.len as usize) < MAX_HAND {
            self.cards[self.len as usize] = c;
            self.len += 1;
        }
    }

    #[inline]
    fn remove(&mut self, c: Card) -> bool {
        let n = self.len as usize;
        match self.cards[..n].iter().position(|&x| x == c) {
            Some(i) => {
                // The others keep their order (a person's hand on screen
                // does not shuffle; the drawn card goes last).
                self.cards.copy_within(i + 1..n, i);
                self.len -= 1;
                true
            }
            None => false,
        }
    }
}

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

/// Orders the cards of a reshuffle (C7) into a new draw pile.
pub trait Reshuffler {
    /// `cards` holds every card of the discard piles (oldest first, the card
    /// just played last). Put them in the order of the new draw pile, top
    /// first.
    ///
    /// # Errors
    /// A message when no order can be given (e.g. a record's list does not
    /// match these cards).
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), String>;
}

/// Reshuffles with a random generator (Fisher–Yates,
/// [`sequence_common::rng::shuffle`]).
pub struct RngReshuffler<'a, R: Rng + ?Sized>(pub &'a mut R);

impl<R: Rng + ?Sized> Reshuffler for RngReshuffler<'_, R> {
    #[inline]
    fn reshuffle(&mut self, cards: &mut [Card]) -> Result<(), String> {
        sequence_common::rng::shuffle(cards, self.0);
        Ok(())
    }
}

/// Refuses any reshuffle: for tests and positions that cannot need one.
pub struct NoReshuffler;

impl Reshuffler for NoReshuffler {
    fn reshuffle(&mut self, _: &mut [Card]) -> Result<(), String> {
        Err("no reshuffle order was given".into())
    }
}

/// What a move did, besides the state change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Played {
    /// Sequences the move completed (C8).
    pub new_sequences: u8,
    /// Whether the draw pile was rebuilt from the discard piles (C7).
    pub reshuffled: bool,
    /// Whether the game ended with this move.
    pub ended: bool,
}

/// A setup that breaks C1 or the record's deck rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The deck is not two standard decks.
    #[error("deck: {0}")]
    Deck(String),
    /// The dealer is not a seat.
    #[error("dealer: seat {0} does not exist")]
    Dealer(u8),
}

#[derive(Debug)]
struct Rules {
    config: Config,
    layout: Layout,
    players: u8,
    teams: u8,
    /// `seat % teams` per seat (a table lookup beats a division).
    seat_team: [u8; MAX_PLAYERS],
    hand_size: u8,
    /// Per bit index: the spaces within `len - 1` steps along the lines.
    star: [[u128; 4]; 110],
    /// Per card index: its two spaces' bit indices, lower first (jacks: 0).
    card_spaces: [[u8; 2]; 52],
    win: u8,
    len: u8,
    reshuffle: bool,
    removable: bool,
    no_play: NoPlay,
    last_window: bool,
}

/// A game of classic Sequence in progress or ended.
#[derive(Clone)]
pub struct Game {
    rules: Arc<Rules>,
    chips: [Bitboard; 3],
    occupied: Bitboard,
    locked: Bitboard,
    /// Per card index: how many of its spaces are empty (jacks: 0).
    free: [u8; 64],
    seqs: [Sequence; MAX_SEQUENCES],
    seq_team: [u8; MAX_SEQUENCES],
    nseq: u8,
    seq_count: [u8; 3],
    hands: [Hand; MAX_PLAYERS],
    /// Draw pile, top at `draw[draw_len - 1]`.
    draw: [Card; DECK_SIZE],
    draw_len: u8,
    /// Every discard pile, oldest first, with the discarding seat.
    discards: [Card; DECK_SIZE],
    discard_seat: [u8; DECK_SIZE],
    ndiscard: u8,
    dealer: Seat,
    turn: Seat,
    dead_done: bool,
    stuck_run: u8,
    status: Status,
    ply: u32,
    last: Option<(Seat, Move)>,
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

/// Checks that `deck` is exactly two standard decks (C1, RECORD.md).
///
/// # Errors
/// Names the count or the card that is wrong.
pub fn check_deck(deck: &[Card]) -> Result<(), SetupError> {
    if deck.len() != DECK_SIZE {
        return Err(SetupError::Deck(format!(
            "has {} cards, expected 104 (two standard decks)",
            deck.len()
        )));
    }
    let mut counts = [0u8; 52];
    for c in deck {
        counts[c.index()] += 1;
    }
    for c in Card::all() {
        let n = counts[c.index()];
        if n != 2 {
            return Err(SetupError::Deck(format!(
                "{c} appears {n} times, expected 2 (two standard decks)"
            )));
        }
    }
    Ok(())
}

/// The cut for the dealer (C5): every seat cuts a card of a freshly
/// shuffled double deck; the lowest card deals, aces high; seats tied for
/// lowest cut again.
pub fn cut_for_dealer<R: Rng + ?Sized>(players: u8, rng: &mut R) -> Seat {
    let mut tied: Vec<u8> = (0..players).collect();
    loop {
        let mut deck = Card::double_deck();
        sequence_common::rng::shuffle(&mut deck, rng);
        let values: Vec<u8> = tied
            .iter()
            .enumerate()
            .map(|(i, _)| deck[i].rank().cut_value())
            .collect();
        let low = values.iter().copied().min().unwrap_or(0);
        let next: Vec<u8> = tied
            .iter()
            .zip(&values)
            .filter(|(_, &v)| v == low)
            .map(|(&s, _)| s)
            .collect();
        if next.len() == 1 {
            return Seat(next[0]);
        }
        tied = next;
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
        let players = config.players();
        if dealer.0 >= players {
            return Err(SetupError::Dealer(dealer.0));
        }
        let layout = config.layout();
        let rules = Rules {
            players,
            teams: config.teams(),
            seat_team: std::array::from_fn(|s| s as u8 % config.teams()),
            hand_size: config.hand_size() as u8,
            win: config.win_sequences(),
            star: star_masks(config.sequence_length()),
            card_spaces: std::array::from_fn(|i| {
                let m = Card::from_index(i as u8).map_or(Bitboard::EMPTY, |c| layout.spaces_of(c));
                let mut it = m.iter();
                match (it.next(), it.next()) {
                    (Some(a), Some(b)) => [a.bit(), b.bit()],
                    _ => [0, 0],
                }
            }),
            len: config.sequence_length(),
            reshuffle: !config.options().no_reshuffle,
            removable: config.options().removable_sequences,
            no_play: config.options().no_play,
            last_window: config.options().default_window == crate::options::DefaultWindow::Last,
            layout,
            config,
        };
        let mut draw = [Card::JS; DECK_SIZE];
        for (i, c) in deck.iter().rev().enumerate() {
            draw[i] = *c;
        }
        let first = dealer.next(players, sequence_common::Direction::Clockwise);
        let mut g = Game {
            chips: [Bitboard::EMPTY; 3],
            occupied: Bitboard::EMPTY,
            locked: Bitboard::EMPTY,
            free: FREE_START,
            seqs: [Sequence {
                window: Window {
                    start: first_space(),
                    dir: crate::sequences::Dir::East,
                },
                mask: Bitboard::EMPTY,
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
            dealer,
            turn: first,
            dead_done: false,
            stuck_run: 0,
            status: Status::Playing,
            ply: 0,
            last: None,
            rules: Arc::new(rules),
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
        g.chips = [Bitboard::EMPTY; 3];
        g.occupied = Bitboard::EMPTY;
        g.locked = Bitboard::EMPTY;
        g.free = FREE_START;
        g.nseq = 0;
        g.seq_count = [0; 3];
        g.hands = [Hand::default(); MAX_PLAYERS];
        for (i, c) in deck.iter().rev().enumerate() {
            g.draw[i] = *c;
        }
        g.draw_len = DECK_SIZE as u8;
        g.ndiscard = 0;
        g.dealer = dealer;
        g.turn = dealer.next(self.rules.players, sequence_common::Direction::Clockwise);
        g.dead_done = false;
        g.stuck_run = 0;
        g.status = Status::Playing;
        g.ply = 0;
        g.last = None;
        g.deal_hands();
        Ok(g)
    }

    fn deal_hands(&mut self) {
        let players = self.rules.players;
        let mut s = self.turn;
        for _ in 0..(self.rules.hand_size as usize * players as usize) {
            self.draw_len -= 1;
            let c = self.draw[self.draw_len as usize];
            self.hands[s.index()].push(c);
            s = s.next(players, sequence_common::Direction::Clockwise);
        }
    }

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
            for &c in h {
                g.hands[s].push(c);
            }
        }
        g.set_hidden(&[], &draw);
        g.ndiscard = 0;
        for &(seat, c) in &pos.discards {
            if seat.0 >= players {
                return Err(SetupError::Dealer(seat.0));
            }
            g.discards[g.ndiscard as usize] = c;
            g.discard_seat[g.ndiscard as usize] = seat.0;
            g.ndiscard += 1;
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
            g.chips[team.index()] = g.chips[team.index()].with(sq);
            g.occupied = g.occupied.with(sq);
            if let Some(c) = g.rules.layout.card_at(sq) {
                g.free[c.index()] -= 1;
            }
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
            g.seqs[n] = Sequence { window: w, mask };
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

    /// A new game with the cut (C5) and the shuffle drawn from `rng`.
    /// Returns the game and its deck (top first) for the record.
    pub fn deal<R: Rng + ?Sized>(config: Config, rng: &mut R) -> (Game, Vec<Card>) {
        let dealer = cut_for_dealer(config.players(), rng);
        let mut deck = Card::double_deck();
        sequence_common::rng::shuffle(&mut deck, rng);
        match Game::new(config, dealer, &deck) {
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
        Team(self.rules.seat_team[seat.index() % MAX_PLAYERS])
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
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands[seat.index()].cards()
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
        (0..self.nseq as usize).map(move |i| (Team(self.seq_team[i]), self.seqs[i].window))
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
        !card.is_jack() && self.free[card.index()] == 0
    }

    /// The spaces `card` may take or clear now for the seat to move: empty
    /// spaces of a non-jack (C6), empty non-corner spaces for a two-eyed
    /// jack, removable opponent chips for a one-eyed jack.
    #[inline]
    pub fn targets(&self, card: Card) -> Bitboard {
        self.targets_for(card, self.team_of(self.turn))
    }

    #[inline]
    fn targets_for(&self, card: Card, team: Team) -> Bitboard {
        if card.is_jack() {
            if card.is_two_eyed_jack() {
                Bitboard(BOARD.0 & !self.occupied.0 & !CORNERS.0)
            } else {
                let opp = Bitboard(self.occupied.0 & !self.chips[team.index()].0);
                if self.rules.removable {
                    opp
                } else {
                    Bitboard(opp.0 & !self.locked.0)
                }
            }
        } else {
            let m = self.rules.layout.spaces_of(card);
            Bitboard(m.0 & !self.occupied.0)
        }
    }

    /// Whether the seat to move has a card it can play (C6 step 2).
    pub fn has_play(&self) -> bool {
        let team = self.team_of(self.turn);
        self.hands[self.turn.index()]
            .cards()
            .iter()
            .any(|&c| !self.targets_for(c, team).is_empty())
    }

    // ----- move generation ---------------------------------------------------

    /// Fills `out` with every legal move of the seat to move: dead-card
    /// exchanges first (when allowed), then plays in hand order; a pass (or
    /// stuck discards) only when no play exists (C6, C6a). Distinct cards
    /// only: two copies of a card give one set of moves. Placements carry no
    /// declaration (the engine's default choice, C8a). Empty when the game
    /// is over.
    pub fn legal_moves<S: MoveSink + ?Sized>(&self, out: &mut S) {
        out.clear();
        if self.is_over() {
            return;
        }
        let team = self.team_of(self.turn);
        let hand = &self.hands[self.turn.index()];
        let mut seen = 0u64;
        let mut plays = 0u32;
        if !self.dead_done {
            for &c in hand.cards() {
                if !c.is_jack() && seen >> c.index() & 1 == 0 && self.is_dead(c) {
                    seen |= 1 << c.index();
                    out.push(Move::Dead { card: c });
                }
            }
        }
        seen = 0;
        for &c in hand.cards() {
            if seen >> c.index() & 1 != 0 {
                continue;
            }
            seen |= 1 << c.index();
            let t = self.targets_for(c, team);
            plays += t.count();
            if c.is_one_eyed_jack() {
                for at in t {
                    out.push(Move::Remove { card: c, at });
                }
            } else {
                for at in t {
                    out.push(Move::place(c, at));
                }
            }
        }
        if plays == 0 {
            self.push_stuck_moves(out);
        }
    }

    fn push_stuck_moves<S: MoveSink + ?Sized>(&self, out: &mut S) {
        let hand = &self.hands[self.turn.index()];
        if self.rules.no_play == NoPlay::Discard && !hand.is_empty() {
            let mut seen = 0u64;
            for &c in hand.cards() {
                if seen >> c.index() & 1 == 0 {
                    seen |= 1 << c.index();
                    out.push(Move::Discard { card: c });
                }
            }
        } else {
            out.push(Move::Pass);
        }
    }

    /// A uniformly random legal move, chosen without building a list: the
    /// moves are counted by popcounts and the n-th is found directly. The
    /// distribution is the same as picking from [`Game::legal_moves`].
    /// Returns [`Move::Pass`] when the game is over.
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move {
        if self.is_over() {
            return Move::Pass;
        }
        let team = self.team_of(self.turn);
        let hand = &self.hands[self.turn.index()];
        let cards = hand.cards();
        // Per distinct card, the number of its moves: a non-jack's two
        // spaces are tested bit by bit; jacks (rare) count whole masks.
        let occ = self.occupied.0;
        let mut counts = [0u32; MAX_HAND];
        let mut dead = [false; MAX_HAND];
        let mut total = 0u32;
        let mut seen = 0u64;
        let mut jack_two = u32::MAX;
        let mut jack_one = u32::MAX;
        for (i, &c) in cards.iter().enumerate() {
            let ci = c.index();
            let fresh = (seen >> ci & 1) ^ 1;
            seen |= 1 << ci;
            let n = if c.is_jack() {
                if c.is_two_eyed_jack() {
                    if jack_two == u32::MAX {
                        jack_two = self.targets_for(c, team).count();
                    }
                    jack_two
                } else {
                    if jack_one == u32::MAX {
                        jack_one = self.targets_for(c, team).count();
                    }
                    jack_one
                }
            } else {
                let n = self.free[ci & 63] as u32;
                let d = n == 0 && fresh == 1 && !self.dead_done;
                dead[i] = d;
                total += d as u32;
                n
            } * fresh as u32;
            counts[i] = n;
            total += n;
        }
        if total == 0 {
            return match self.rules.no_play {
                NoPlay::Discard if !cards.is_empty() => {
                    // Uniform over distinct cards.
                    let mut distinct = [Card::JS; MAX_HAND];
                    let mut k = 0;
                    let mut seen = 0u64;
                    for &c in cards {
                        if seen >> c.index() & 1 == 0 {
                            seen |= 1 << c.index();
                            distinct[k] = c;
                            k += 1;
                        }
                    }
                    Move::Discard {
                        card: distinct[rng.random_range(0..k)],
                    }
                }
                _ => Move::Pass,
            };
        }
        // Multiply-shift range reduction (Lemire); its bias is below 2^-24.
        let mut n = ((rng.next_u32() as u64 * total as u64) >> 32) as u32;
        for (i, &c) in cards.iter().enumerate() {
            if dead[i] {
                if n == 0 {
                    return Move::Dead { card: c };
                }
                n -= 1;
                continue;
            }
            if n < counts[i] {
                if c.is_jack() {
                    let Some(at) = self.targets_for(c, team).nth(n) else {
                        break;
                    };
                    return if c.is_one_eyed_jack() {
                        Move::Remove { card: c, at }
                    } else {
                        Move::place(c, at)
                    };
                }
                let [a, b] = self.rules.card_spaces[c.index()];
                // The n-th empty one of the two spaces, in reading order.
                let a_empty = (occ >> a) & 1 == 0;
                let bit = if n == 0 && a_empty { a } else { b };
                match Space::from_bit(bit) {
                    Some(at) => return Move::place(c, at),
                    None => break,
                }
            }
            n -= counts[i];
        }
        Move::Pass
    }

    /// The completions a placement on `at` by the seat to move would make
    /// (C8), for choosing a declaration (C8a). `None` when `at` is taken.
    pub fn completions_at(&self, at: Space) -> Option<Completions> {
        if self.occupied.contains(at) || at.is_corner() {
            return None;
        }
        let team = self.team_of(self.turn);
        let own = self.chips[team.index()].with(at) | CORNERS;
        let (seqs, n) = self.team_sequences(team);
        Some(Completions::find(own, at, self.rules.len, &seqs[..n]))
    }

    fn team_sequences(&self, team: Team) -> ([Sequence; MAX_SEQUENCES], usize) {
        let mut out = self.seqs;
        let mut n = 0;
        for i in 0..self.nseq as usize {
            if self.seq_team[i] == team.0 {
                out[n] = self.seqs[i];
                n += 1;
            }
        }
        (out, n)
    }

    // ----- playing -------------------------------------------------------------

    /// Checks `mv` as made by `seat` (the record's seat) and plays it.
    ///
    /// # Errors
    /// [`IllegalMove::WrongSeat`] when it is not `seat`'s turn; otherwise as
    /// [`Game::play`].
    pub fn play_as<S: Reshuffler + ?Sized>(
        &mut self,
        seat: Seat,
        mv: Move,
        r: &mut S,
    ) -> Result<Played, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if seat != self.turn {
            return Err(IllegalMove::WrongSeat(seat));
        }
        self.play(mv, r)
    }

    /// Checks `mv` for the seat to move and plays it: the card goes to the
    /// seat's discard pile, the chip is placed or removed, sequences are
    /// counted, a card is drawn (reshuffling when needed, C7), and the turn
    /// passes on. On error nothing changes.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the rule the move breaks, or
    /// [`IllegalMove::Declaration`] when a reshuffle order is refused.
    pub fn play<S: Reshuffler + ?Sized>(
        &mut self,
        mv: Move,
        r: &mut S,
    ) -> Result<Played, IllegalMove> {
        self.check(mv)?;
        self.apply(mv, r)
    }

    /// Checks a move for the seat to move without playing it.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the rule the move breaks.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let team = self.team_of(self.turn);
        let hand = &self.hands[self.turn.index()];
        match mv {
            Move::Place { card, at, declare } => {
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if card.is_one_eyed_jack() {
                    return Err(IllegalMove::WrongUse(card));
                }
                if at.is_corner() {
                    return Err(IllegalMove::Corner);
                }
                if self.occupied.contains(at) {
                    return Err(IllegalMove::SpaceTaken(at));
                }
                if !card.is_jack() && !self.rules.layout.spaces_of(card).contains(at) {
                    return Err(IllegalMove::WrongSpace { card, at });
                }
                if let Some(d) = declare {
                    let own = self.chips[team.index()].with(at) | CORNERS;
                    let (seqs, n) = self.team_sequences(team);
                    let comp = Completions::find(own, at, self.rules.len, &seqs[..n]);
                    let ws: Vec<Window> = d.windows().collect();
                    comp.check_declared(&ws, self.rules.len)
                        .map_err(IllegalMove::Declaration)?;
                }
                Ok(())
            }
            Move::Remove { card, at } => {
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if !card.is_one_eyed_jack() {
                    return Err(IllegalMove::WrongUse(card));
                }
                if at.is_corner() {
                    return Err(IllegalMove::Corner);
                }
                if !self.occupied.contains(at) {
                    return Err(IllegalMove::NoChip(at));
                }
                if self.chips[team.index()].contains(at) {
                    return Err(IllegalMove::OwnChip);
                }
                if self.locked.contains(at) && !self.rules.removable {
                    return Err(IllegalMove::Locked);
                }
                Ok(())
            }
            Move::Dead { card } => {
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if self.dead_done {
                    return Err(IllegalMove::SecondDead);
                }
                if !self.is_dead(card) {
                    return Err(IllegalMove::NotDead(card));
                }
                Ok(())
            }
            Move::Pass => {
                if self.has_play() {
                    return Err(IllegalMove::NotStuck);
                }
                if self.rules.no_play == NoPlay::Discard && !hand.is_empty() {
                    return Err(IllegalMove::NoPlayRule(
                        "with the no_play \"discard\" option a stuck seat discards a card",
                    ));
                }
                Ok(())
            }
            Move::Discard { card } => {
                if self.rules.no_play != NoPlay::Discard {
                    return Err(IllegalMove::NoPlayRule(
                        "a stuck seat passes; discarding needs the no_play \"discard\" option",
                    ));
                }
                if !hand.contains(card) {
                    return Err(IllegalMove::NotInHand(card));
                }
                if self.has_play() {
                    return Err(IllegalMove::NotStuck);
                }
                Ok(())
            }
        }
    }

    /// Plays a move already known to be legal (from [`Game::legal_moves`] or
    /// [`Game::random_move`]). Playing an unchecked illegal move leaves the
    /// game in an unspecified (but memory-safe) state.
    ///
    /// # Errors
    /// Only when the reshuffler refuses (the state is then unchanged).
    #[inline]
    pub fn apply<S: Reshuffler + ?Sized>(
        &mut self,
        mv: Move,
        r: &mut S,
    ) -> Result<Played, IllegalMove> {
        let seat = self.turn;
        let team = self.team_of(seat);
        let mut played = Played::default();
        let card = mv.card();
        let needs_draw = card.is_some();
        // A draw follows every move but a pass and a winning placement, and
        // only a draw can need a reshuffle (C7). Whether the move wins is
        // known only after it is made, so on the rare move that finds the
        // draw pile empty the state is kept to restore if the reshuffler
        // refuses: a refusal then changes nothing.
        let before = (needs_draw && self.draw_len == 0 && self.rules.reshuffle).then(|| self.clone());
        if let Some(c) = card {
            self.hands[seat.index()].remove(c);
            let n = self.ndiscard as usize;
            self.discards[n] = c;
            self.discard_seat[n] = seat.0;
            self.ndiscard += 1;
        }
        let mut ends_game = false;
        match mv {
            Move::Place { at, declare, .. } => {
                self.chips[team.index()] = self.chips[team.index()].with(at);
                self.occupied = self.occupied.with(at);
                if let Some(c) = self.rules.layout.card_at(at) {
                    self.free[c.index()] -= 1;
                }
                self.stuck_run = 0;
                let own = self.chips[team.index()] | CORNERS;
                if is_sequence_possible(
                    own,
                    at,
                    self.rules.len,
                    &self.rules.star[at.bit() as usize],
                ) {
                    played.new_sequences = self.count_sequences(team, at, declare);
                    if self.seq_count[team.index()] >= self.rules.win {
                        self.status = Status::Won(team);
                        ends_game = true;
                    }
                }
            }
            Move::Remove { at, .. } => {
                for t in 0..3 {
                    self.chips[t] = self.chips[t].without(at);
                }
                self.occupied = self.occupied.without(at);
                if let Some(c) = self.rules.layout.card_at(at) {
                    self.free[c.index()] += 1;
                }
                self.stuck_run = 0;
                if self.locked.contains(at) {
                    self.break_sequences(at);
                }
            }
            Move::Dead { .. } => {
                self.dead_done = true;
                self.stuck_run = 0;
            }
            Move::Pass | Move::Discard { .. } => {
                if self.dead_done {
                    self.stuck_run = 0;
                } else {
                    self.stuck_run += 1;
                }
                if self.stuck_run >= self.rules.players {
                    self.status = Status::Draw;
                    ends_game = true;
                }
            }
        }
        if needs_draw && !ends_game {
            if let Some(before) = before {
                // The discard piles, the card just played included, become
                // the new draw pile (C7).
                let n = self.ndiscard as usize;
                let mut pile = self.discards;
                if let Err(e) = r.reshuffle(&mut pile[..n]) {
                    *self = before;
                    return Err(IllegalMove::Reshuffle(e));
                }
                for (i, c) in pile[..n].iter().rev().enumerate() {
                    self.draw[i] = *c;
                }
                self.draw_len = n as u8;
                self.ndiscard = 0;
                played.reshuffled = true;
            }
            if self.draw_len > 0 {
                self.draw_len -= 1;
                let c = self.draw[self.draw_len as usize];
                self.hands[seat.index()].push(c);
            }
        }
        self.ply += 1;
        self.last = Some((seat, mv));
        played.ended = ends_game;
        if !ends_game && mv.ends_turn() {
            self.turn = seat.next(self.rules.players, sequence_common::Direction::Clockwise);
            self.dead_done = false;
        }
        Ok(played)
    }

    #[cold]
    fn count_sequences(&mut self, team: Team, at: Space, declare: Option<Declaration>) -> u8 {
        let own = self.chips[team.index()] | CORNERS;
        let (seqs, n) = self.team_sequences(team);
        let comp = Completions::find(own, at, self.rules.len, &seqs[..n]);
        let mut added = 0u8;
        let mut add = |g: &mut Game, w: Window| {
            if (g.nseq as usize) < MAX_SEQUENCES {
                let mask = w.mask(g.rules.len);
                g.seqs[g.nseq as usize] = Sequence { window: w, mask };
                g.seq_team[g.nseq as usize] = team.0;
                g.nseq += 1;
                g.seq_count[team.index()] += 1;
                g.locked |= Bitboard(mask.0 & !CORNERS.0);
                added += 1;
            }
        };
        match declare {
            Some(d) => d.windows().for_each(|w| add(self, w)),
            None => {
                let ws: Vec<Window> = comp.default_choice(self.rules.last_window).collect();
                ws.into_iter().for_each(|w| add(self, w));
            }
        }
        added
    }

    #[cold]
    fn break_sequences(&mut self, at: Space) {
        let mut k = 0;
        for i in 0..self.nseq as usize {
            if self.seqs[i].mask.contains(at) {
                self.seq_count[self.seq_team[i] as usize] -= 1;
            } else {
                self.seqs[k] = self.seqs[i];
                self.seq_team[k] = self.seq_team[i];
                k += 1;
            }
        }
        self.nseq = k as u8;
        self.locked = (0..k).fold(Bitboard::EMPTY, |b, i| b | self.seqs[i].mask) & !CORNERS;
    }

    /// Plays uniformly random legal moves until the game ends; returns the
    /// number of moves played. Reshuffles draw from `rng`.
    pub fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let start = self.ply;
        while !self.is_over() {
            let mv = self.random_move(rng);
            if self.apply(mv, &mut RngReshuffler(rng)).is_err() {
                break;
            }
        }
        self.ply - start
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
            h.push(c);
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

/// Whether a run of `len` chips of `own` (team chips plus corners) passes
/// through `at`, in any direction. `star` holds the spaces within `len-1`
/// steps of `at` along the four lines: with fewer than `len-1` own chips
/// there, no run is possible (the usual case, one popcount). Otherwise
/// branch-free shifts find runs (ENGINE-NOTES.md).
#[inline]
fn is_sequence_possible(own: Bitboard, at: Space, len: u8, star: &[u128; 4]) -> bool {
    let need = len as u32 - 1;
    let x = own.0;
    let bit = 1u128 << at.bit();
    // Constant shifts per direction: 1 (→), 11 (↓), 12 (↘), 10 (↙).
    macro_rules! dir {
        ($k:expr, $s:expr) => {{
            if (x & star[$k]).count_ones() >= need {
                let covered = if len == 5 {
                    runs_cover::<5, $s>(x)
                } else {
                    runs_cover::<4, $s>(x)
                };
                if covered & bit != 0 {
                    return true;
                }
            }
        }};
    }
    dir!(0, 1);
    dir!(1, 11);
    dir!(2, 12);
    dir!(3, 10);
    false
}

/// The spaces covered by runs of `L` set bits of `x` in steps of `S`.
#[inline]
fn runs_cover<const L: u32, const S: u32>(x: u128) -> u128 {
    let mut run = x;
    let mut i = 1;
    while i < L {
        run &= x >> (i * S);
        i += 1;
    }
    let mut cover = run;
    let mut i = 1;
    while i < L {
        cover |= run << (i * S);
        i += 1;
    }
    cover
}

/// Per space and direction, the spaces within `len - 1` steps of it along
/// that line (a run through the space needs `len - 1` own chips there).
fn star_masks(len: u8) -> [[u128; 4]; 110] {
    let mut out = [[0u128; 4]; 110];
    for sq in Space::all() {
        for (k, d) in crate::sequences::Dir::ALL.iter().enumerate() {
            let (dr, dc) = d.delta();
            let mut m = 0u128;
            for step in 1..len as i16 {
                for sign in [-1i16, 1] {
                    let r = sq.row() as i16 + sign * step * dr as i16;
                    let c = sq.col() as i16 + sign * step * dc as i16;
                    if (0..10).contains(&r) && (0..10).contains(&c) {
                        if let Some(t) = Space::new(r as u8, c as u8) {
                            m |= 1u128 << t.bit();
                        }
                    }
                }
            }
            out[sq.bit() as usize][k] = m;
        }
    }
    out
}

const fn first_space() -> Space {
    match Space::new(0, 0) {
        Some(s) => s,
        None => unreachable!(),
    }
}
