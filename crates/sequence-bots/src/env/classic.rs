//! Classic Sequence as an environment (docs/python.md "Classic").
//!
//! Actions (405): *card kind × space* and the moves without a space.
//!
//! | actions | move |
//! |---|---|
//! | `0 … 99` | place a chip on space `i` (reading order: `a1`=0, `b1`=1, … `j10`=99) with the card that space shows (C6) |
//! | `100 … 199` | place a chip on space `i − 100` with a two-eyed jack (J♦ or J♣, whichever the hand holds; C6) |
//! | `200 … 299` | remove the opponent's chip on space `i − 200` with a one-eyed jack (J♠ or J♥; C6) |
//! | `300 … 351` | exchange the dead card of index `i − 300` (C6 step 1) |
//! | `352` | pass: no legal play (C6a) |
//! | `353 … 404` | discard card `i − 353` when stuck, under the `no_play: "discard"` option (C6a) |
//!
//! A card's index is `suit × 13 + rank` with suits `S H D C` and ranks
//! `A 2 … 9 T J Q K` (so `AS` = 0, `7H` = 19). A placement declares the
//! sequences the engine chooses by default (C8a).

use super::spread::{bits_to_bytes, boards_to_bytes, counts_to_bytes};
use super::{layout, status_text, ActionBits, EnvGame, MoveFields, ObsPart};
use sequence_classic::options::NoPlay;
use sequence_classic::{Bitboard, Card, Game, Move, Space, Team};
use sequence_common::{Rules, Seat};

/// First action of each kind.
const PLACE: usize = 0;
const JACK_PLACE: usize = 100;
const JACK_REMOVE: usize = 200;
const DEAD: usize = 300;
const PASS: usize = 352;
const DISCARD: usize = 353;
/// Number of classic actions.
pub const ACTIONS: usize = 405;

/// Most seats a classic observation has room for (C3).
const SEATS: usize = 12;

/// Five board rows of a bitboard word (row `r` at bits `11 r …`, column
/// `a` lowest) as 50 bits in reading order (row `r` at bits `10 r …`):
/// row `r` moves down by `r` bits, in three steps of 1, 2 and 4 (rows 1
/// and 3, then 2 and 3, then 4), each a mask, a shift and an or.
#[inline]
fn squeeze_rows(x: u64) -> u64 {
    const ROW: u64 = 0x3FF;
    const ROWS: u64 = ROW | ROW << 11 | ROW << 22 | ROW << 33 | ROW << 44;
    const STEP1: u64 = ROW << 11 | ROW << 33;
    const STEP2: u64 = ROW << 22 | ROW << 32;
    const STEP4: u64 = ROW << 44;
    let x = x & ROWS;
    let x = (x & !STEP1) | ((x & STEP1) >> 1);
    let x = (x & !STEP2) | ((x & STEP2) >> 2);
    (x & !STEP4) | ((x & STEP4) >> 4)
}

/// A bitboard as two words of 50 bits in reading order: spaces `a1` … `j5`
/// (reading indices 0–49) and `a6` … `j10` (50–99).
#[inline]
fn reading_halves(bb: Bitboard) -> [u64; 2] {
    [squeeze_rows(bb.0 as u64), squeeze_rows((bb.0 >> 55) as u64)]
}

/// Adds the actions `base + i` for each space of `bb` (`i` its reading
/// index).
#[inline]
fn set_spaces(bits: &mut ActionBits, base: usize, bb: Bitboard) {
    let [lo, hi] = reading_halves(bb);
    bits.set_run(base, lo, 50);
    bits.set_run(base + 50, hi, 50);
}

/// The space of a reading-order index.
#[inline]
fn space(i: usize) -> Option<Space> {
    Space::new((i / 10) as u8, (i % 10) as u8)
}

/// The name of a card index, e.g. `7H`.
fn card_name(i: usize) -> String {
    Card::from_index(i as u8).map_or_else(|| format!("card {i}"), |c| c.to_string())
}

impl EnvGame for Game {
    const ACTIONS: usize = ACTIONS;
    const OBS_LEN: usize = 525;
    const SETUP_CODES: [&'static str; 3] = ["C3.players", "C3.teams", "C11.option"];

    fn move_fields(m: &Move, config: &sequence_classic::Config) -> MoveFields {
        let len = config.sequence_length();
        let (kind, at, declare) = match *m {
            Move::Place { at, declare, .. } => ("place", Some(at), declare),
            Move::Remove { at, .. } => ("remove", Some(at), None),
            Move::Dead { .. } => ("dead", None, None),
            Move::Pass => ("pass", None, None),
            Move::Discard { .. } => ("discard", None, None),
        };
        MoveFields {
            kind,
            card: m.card().map(|c| c.to_string()),
            at: at.map(|a| a.to_string()),
            declare: declare.map(|d| {
                d.windows()
                    .map(|w| (w.start.to_string(), w.last(len).to_string()))
                    .collect()
            }),
            ..MoveFields::default()
        }
    }

    fn written_with(config: &sequence_classic::Config) -> u8 {
        config.sequence_length()
    }

    fn table_written_with(len: u8) -> Result<sequence_classic::Config, String> {
        let options = sequence_classic::Options {
            sequence_length: Some(len),
            ..Default::default()
        };
        Game::table(2, None, options).map_err(|e| e.to_string())
    }

    fn view_from_json(
        v: &serde_json::Value,
    ) -> Result<(sequence_classic::view::SeatView, sequence_classic::Config), String> {
        super::view_json::classic_view(v)
    }

    fn obs_layout(_config: &sequence_classic::Config) -> Vec<ObsPart> {
        layout(&[
            ("chips", &[3, 10, 10], 1, "chips by team, the observer's team first, then the teams that follow it clockwise (a third plane only with 3 teams)"),
            ("locked", &[10, 10], 1, "chips that belong to a completed sequence (C8)"),
            ("hand", &[52], 2, "the observer's hand: copies of each card (index suit*13+rank)"),
            ("discards", &[52], 2, "copies of each card in the discard piles since the last reshuffle (C6, C7)"),
            ("hand_sizes", &[SEATS], 8, "cards in each hand, the observer first, then the seats that follow clockwise; 0 past the table"),
            ("sequences", &[3], 24, "completed sequences by team, the observer's team first (C8, C9)"),
            ("draw_pile", &[1], 104, "cards in the draw pile"),
            ("dead_exchanged", &[1], 1, "1 when the seat to act already exchanged a dead card this turn (C6)"),
            ("stuck_turns", &[1], 12, "consecutive turns without a play (a full round of them is a draw, C6a)"),
            ("rules", &[2], 5, "the sequence length (C8) and the sequences needed to win (C9)"),
            ("to_act", &[1], 12, "the seat to act, counted clockwise from the observer (0: the observer); the player count once the game is over"),
        ])
    }

    #[inline]
    fn action_of(&self, _seat: Seat, mv: &Move) -> usize {
        match *mv {
            Move::Place { card, at, .. } => {
                let base = if card.is_jack() { JACK_PLACE } else { PLACE };
                base + at.reading_index()
            }
            Move::Remove { at, .. } => JACK_REMOVE + at.reading_index(),
            Move::Dead { card } => DEAD + card.index(),
            Move::Pass => PASS,
            Move::Discard { card } => DISCARD + card.index(),
        }
    }

    #[inline(always)]
    fn move_of(&self, seat: Seat, action: usize) -> Option<Move> {
        let hand = self.hand(seat);
        let jack = |a: Card, b: Card| {
            if hand.contains(&a) || !hand.contains(&b) {
                a
            } else {
                b
            }
        };
        Some(match action {
            a if a < JACK_PLACE => {
                let at = space(a - PLACE)?;
                Move::place(self.layout().card_at(at)?, at)
            }
            a if a < JACK_REMOVE => Move::place(jack(Card::JD, Card::JC), space(a - JACK_PLACE)?),
            a if a < DEAD => Move::Remove {
                card: jack(Card::JS, Card::JH),
                at: space(a - JACK_REMOVE)?,
            },
            a if a < PASS => Move::Dead {
                card: Card::from_index((a - DEAD) as u8)?,
            },
            PASS => Move::Pass,
            a if a < ACTIONS => Move::Discard {
                card: Card::from_index((a - DISCARD) as u8)?,
            },
            _ => return None,
        })
    }

    fn render(&self) -> String {
        let mut s = String::from("   a b c d e f g h i j\n");
        for (r, row) in self.board_rows().iter().enumerate() {
            let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            s += &format!("{:>2} {}\n", r + 1, cells.join(" "));
        }
        let teams: Vec<String> = (0..self.teams())
            .map(|t| {
                let team = Team(t);
                format!("{} {}", team.colour(), self.sequence_count(team))
            })
            .collect();
        s += &format!(
            "sequences: {}; draw pile {}; move {}; {}",
            teams.join(", "),
            self.draw_pile_len(),
            self.ply(),
            status_text(self)
        );
        s
    }

    fn action_text(action: usize) -> String {
        let sp = |i: usize| space(i).map_or_else(|| format!("space {i}"), |s| s.to_string());
        match action {
            a if a < JACK_PLACE => format!("place on {} with the space's card", sp(a)),
            a if a < JACK_REMOVE => format!("place on {} with a two-eyed jack", sp(a - JACK_PLACE)),
            a if a < DEAD => format!(
                "remove the chip on {} with a one-eyed jack",
                sp(a - JACK_REMOVE)
            ),
            a if a < PASS => format!("exchange the dead card {}", card_name(a - DEAD)),
            PASS => "pass".into(),
            a if a < ACTIONS => format!("discard {}", card_name(a - DISCARD)),
            a => format!("action {a}"),
        }
    }

    /// The mask straight from the bitboards and the hand's bitset (the
    /// same actions as the legal moves, C6, C6a; the crate's tests compare
    /// them), written as bits and then spread into bytes.
    #[inline(always)]
    fn write_mask(&self, seat: Seat, mask: &mut [u8], bits: &mut ActionBits) -> usize {
        *bits = ActionBits::default();
        let kinds = self.hand_kinds(seat);
        if !self.dead_exchanged() {
            bits.set_run(DEAD, kinds & self.dead_cards(), 52);
        }
        let natural = self.natural_targets(seat);
        set_spaces(bits, PLACE, natural);
        let mut plays = !natural.is_empty();
        let bit = |c: Card| 1u64 << (c.index() & 63);
        // J♦ and J♣ fill the same 100 actions, J♠ and J♥ too.
        if kinds & (bit(Card::JD) | bit(Card::JC)) != 0 {
            let t = self.targets(Card::JD);
            plays |= !t.is_empty();
            set_spaces(bits, JACK_PLACE, t);
        }
        if kinds & (bit(Card::JS) | bit(Card::JH)) != 0 {
            let t = self.targets(Card::JS);
            plays |= !t.is_empty();
            set_spaces(bits, JACK_REMOVE, t);
        }
        if !plays {
            if self.config().options().no_play == NoPlay::Discard && kinds != 0 {
                bits.set_run(DISCARD, kinds, 52);
            } else {
                bits.set(PASS);
            }
        }
        bits_to_bytes::<ACTIONS>(&bits.0, mask);
        bits.count()
    }

    #[inline(always)]
    fn observe(&self, seat: Seat, out: &mut [u8]) {
        let players = self.players() as usize;
        let teams = self.teams();
        let me = self.team_of(seat).0;
        // chips [3, 10, 10] (team-relative planes) and locked [10, 10].
        let (planes, rest) = out.split_at_mut(400);
        // The team `k` places clockwise from the observer's (k < teams).
        let other = |k: u8| {
            let t = me + k;
            self.chips(Team(if t >= teams { t - teams } else { t })).0
        };
        if teams == 3 {
            boards_to_bytes(&[other(0), other(1), other(2), self.locked().0], planes);
        } else {
            // Two teams: the third plane stays empty.
            let (two, rest) = planes.split_at_mut(200);
            boards_to_bytes(&[other(0), other(1)], two);
            let (third, locked) = rest.split_at_mut(100);
            third.fill(0);
            boards_to_bytes(&[self.locked().0], locked);
        }
        let (hand, rest) = rest.split_at_mut(52);
        let [once, twice] = self.hand_copies(seat);
        counts_to_bytes::<52>(once, twice, hand);
        let (discards, rest) = rest.split_at_mut(52);
        let [once, twice] = self.discard_copies();
        counts_to_bytes::<52>(once, twice, discards);
        let (sizes, rest) = rest.split_at_mut(SEATS);
        sizes.fill(0);
        let mut s = seat.index();
        for n in sizes.iter_mut().take(players) {
            *n = self.hand_len(Seat(s as u8)) as u8;
            s = if s + 1 == players { 0 } else { s + 1 };
        }
        let (seqs, rest) = rest.split_at_mut(3);
        seqs.fill(0);
        let mut team = me;
        for n in seqs.iter_mut().take(teams as usize) {
            *n = self.sequence_count(Team(team));
            team = if team + 1 == teams { 0 } else { team + 1 };
        }
        rest[0] = self.draw_pile_len() as u8;
        rest[1] = self.dead_exchanged() as u8;
        rest[2] = self.stuck_turns();
        rest[3] = self.sequence_length();
        rest[4] = self.win_sequences();
        rest[5] = match Rules::to_act(self) {
            Some(s) if s.index() >= seat.index() => (s.index() - seat.index()) as u8,
            Some(s) => (s.index() + players - seat.index()) as u8,
            None => players as u8,
        };
    }
}
