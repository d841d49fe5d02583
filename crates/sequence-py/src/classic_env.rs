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

use crate::env::{layout, ActionBits, EnvGame, ObsPart};
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

/// The ten columns of a board row's bits as bytes 0/1, for every row
/// value: a row of a bitboard becomes ten bytes in one copy.
static ROW_BYTES: [[u8; 10]; 1024] = {
    let mut t = [[0u8; 10]; 1024];
    let mut v = 0;
    while v < 1024 {
        let mut c = 0;
        while c < 10 {
            t[v][c] = ((v >> c) & 1) as u8;
            c += 1;
        }
        v += 1;
    }
    t
};

/// Row `r` (0-based) of a bitboard as ten bits, column `a` lowest.
#[inline]
fn row_bits(bb: Bitboard, r: usize) -> usize {
    ((bb.0 >> (r * 11)) & 0x3FF) as usize
}

/// A bitboard as 100 bytes 0/1 in reading order.
#[inline]
fn plane(bb: Bitboard, out: &mut [u8]) {
    for (r, row) in out.chunks_exact_mut(10).take(10).enumerate() {
        row.copy_from_slice(&ROW_BYTES[row_bits(bb, r)]);
    }
}

/// The space of a reading-order index.
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

    /// The mask straight from the bitboards (the same actions as the
    /// legal moves, C6, C6a; the crate's tests compare them).
    fn write_mask(&self, seat: Seat, mask: &mut [u8], bits: &mut ActionBits) -> usize {
        mask.fill(0);
        *bits = ActionBits::default();
        fn set(mask: &mut [u8], bits: &mut ActionBits, a: usize) {
            if let Some(x) = mask.get_mut(a) {
                *x = 1;
            }
            bits.set(a);
        }
        let hand = self.hand(seat);
        if !self.dead_exchanged() {
            for &c in hand {
                if self.is_dead(c) {
                    set(mask, bits, DEAD + c.index());
                }
            }
        }
        let mut seen = 0u64;
        let mut plays = 0;
        for &c in hand {
            if seen >> c.index() & 1 != 0 {
                continue;
            }
            seen |= 1 << c.index();
            let t = self.targets(c);
            plays += t.count();
            if c.is_jack() {
                // A jack's targets fill its own 100 actions (J♦ and J♣
                // alike, J♠ and J♥ alike): a row at a time.
                let base = if c.is_one_eyed_jack() {
                    JACK_REMOVE
                } else {
                    JACK_PLACE
                };
                plane(t, &mut mask[base..base + 100]);
                for r in 0..10 {
                    bits.set_run(base + r * 10, row_bits(t, r) as u64, 10);
                }
            } else {
                for at in t {
                    set(mask, bits, PLACE + at.reading_index());
                }
            }
        }
        if plays == 0 {
            if self.config().options().no_play == NoPlay::Discard && !hand.is_empty() {
                for &c in hand {
                    set(mask, bits, DISCARD + c.index());
                }
            } else {
                set(mask, bits, PASS);
            }
        }
        bits.count()
    }

    fn observe(&self, seat: Seat, out: &mut [u8]) {
        out.fill(0);
        let players = self.players() as usize;
        let teams = self.teams();
        let me = self.team_of(seat).0;
        // chips [3, 10, 10]: team-relative planes.
        for k in 0..teams.min(3) {
            let team = Team((me + k) % teams);
            plane(
                self.chips(team),
                &mut out[k as usize * 100..(k as usize + 1) * 100],
            );
        }
        let (locked, rest) = out[300..].split_at_mut(100);
        plane(self.locked(), locked);
        let (hand, rest) = rest.split_at_mut(52);
        for c in self.hand(seat) {
            hand[c.index()] += 1;
        }
        let (discards, rest) = rest.split_at_mut(52);
        for (_, c) in self.discards() {
            discards[c.index()] = discards[c.index()].saturating_add(1);
        }
        let (sizes, rest) = rest.split_at_mut(SEATS);
        for (k, n) in sizes.iter_mut().enumerate().take(players) {
            *n = self.hand(Seat(((seat.index() + k) % players) as u8)).len() as u8;
        }
        let (seqs, rest) = rest.split_at_mut(3);
        for (k, n) in seqs.iter_mut().enumerate().take(teams as usize) {
            *n = self.sequence_count(Team((me + k as u8) % teams));
        }
        rest[0] = self.draw_pile_len() as u8;
        rest[1] = self.dead_exchanged() as u8;
        rest[2] = self.stuck_turns();
        rest[3] = self.sequence_length();
        rest[4] = self.win_sequences();
        rest[5] = match Rules::to_act(self) {
            Some(s) => ((s.index() + players - seat.index()) % players) as u8,
            None => players as u8,
        };
    }
}
