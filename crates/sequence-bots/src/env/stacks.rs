//! Sequence Stacks as an environment (docs/python.md "Stacks").
//!
//! Actions (252): the engine's dense move keys, with the seat a steal
//! targets counted clockwise from the seat that acts (1 = the next seat),
//! so that one policy serves every seat.
//!
//! | actions | decision |
//! |---|---|
//! | `0 … 191` | `card × 16 + source × 8 + place`: a number or wild card (`card` 0–11: `B1`…`B5`, `BW`, `R1`…`R5`, `RW`) from the hand (source 0) or the top of the own discard pile (1) onto a place (0–3 `blue-a`…`blue-d`, 4–7 `red-a`…`red-d`; S3, S4) |
//! | `192, 193` | Skip from the hand / the discard pile (S5) |
//! | `194, 195` | Reverse from the hand / the discard pile (S5) |
//! | `196 … 207` | Steal-a-Card: `196 + source × 6 + target` (S5) |
//! | `208 … 231` | Steal-a-Chip: `208 + source × 12 + target × 2 + colour` (0 blue, 1 red; S5, S5a) |
//! | `232` | Block the completion just made (S5b) |
//! | `233` | let it stand (decline to Block, S5b) |
//! | `234 … 250` | discard card kind `i − 234` from the hand, ending the turn (S4) |
//! | `251` | end the turn with an empty hand (S4) |

use super::{layout, status_text, EnvGame, MoveFields, ObsPart};
use sequence_common::{Direction, Rules, Seat};
use sequence_stacks::card::{KINDS, MAX_PLACES_PER_COLOUR};
use sequence_stacks::{Card, Colour, Decision, Game, Place, Source};

/// Number of Stacks actions.
pub const ACTIONS: usize = 252;
/// Most seats (S1).
const SEATS: usize = 6;
/// Place slots (both colours).
const PLACES: usize = 2 * MAX_PLACES_PER_COLOUR;

const SOURCES: [Source; 2] = [Source::Hand, Source::Discard];

/// `target` counted clockwise from `me`.
#[inline]
fn relative(me: Seat, target: Seat, players: u8) -> Seat {
    Seat(((target.0 as usize + players as usize - me.index()) % players as usize) as u8)
}

/// The seat `offset` places clockwise from `me`.
#[inline]
fn absolute(me: Seat, offset: usize, players: u8) -> Seat {
    Seat(((me.index() + offset) % players as usize) as u8)
}

fn source_name(s: usize) -> &'static str {
    if s == 0 {
        "from the hand"
    } else {
        "from the discard pile"
    }
}

impl EnvGame for Game {
    const ACTIONS: usize = ACTIONS;
    const OBS_LEN: usize = 419;
    const SETUP_CODES: [&'static str; 3] = ["S1.players", "S1.teams", "S3a.option"];
    const VIEW_READS_BACK: bool = true;

    fn move_fields(d: &Decision, _config: &sequence_stacks::Config) -> MoveFields {
        use Decision as D;
        let (kind, from, target) = match *d {
            D::Pile { from, .. } => ("pile", Some(from), None),
            D::Skip { from } => ("skip", Some(from), None),
            D::Reverse { from } => ("reverse", Some(from), None),
            D::StealCard { from, target } => ("steal_card", Some(from), Some(target)),
            D::StealChip { from, target, .. } => ("steal_chip", Some(from), Some(target)),
            D::Block => ("block", None, None),
            D::Pass => ("pass", None, None),
            D::Discard { .. } => ("discard", None, None),
            D::End => ("end", None, None),
        };
        MoveFields {
            kind,
            card: d.card().map(|c| c.code().to_string()),
            place: match *d {
                D::Pile { place, .. } => Some(place.name()),
                _ => None,
            },
            source: from.map(|s| match s {
                Source::Hand => "hand",
                Source::Discard => "discard",
            }),
            target: target.map(|t| t.0),
            colour: match *d {
                D::StealChip { colour, .. } => Some(colour.name()),
                _ => None,
            },
            ..MoveFields::default()
        }
    }

    fn table_written_with(_context: u8) -> Result<sequence_stacks::Config, String> {
        Game::table(2, None, sequence_stacks::Options::default()).map_err(|e| e.to_string())
    }

    fn view_from_json(
        v: &serde_json::Value,
    ) -> Result<(sequence_stacks::view::SeatView, sequence_stacks::Config), String> {
        super::view_json::stacks_view(v)
    }

    fn obs_layout(_config: &sequence_stacks::Config) -> Vec<ObsPart> {
        layout(&[
            ("hand", &[KINDS], 10, "the observer's hand: cards of each kind (B1-B5, BW, R1-R5, RW, SKIP, REVERSE, STEAL-CARD, STEAL-CHIP, BLOCK)"),
            ("known_in_hands", &[SEATS, KINDS], 10, "cards each seat is publicly known to hold (taken with Steal-a-Card, S5), the observer first, then clockwise"),
            ("discard_tops", &[SEATS, KINDS], 1, "the top card of each seat's discard pile, one-hot, the observer first"),
            ("discard_piles", &[SEATS, KINDS], 120, "cards of each kind in each seat's discard pile, the observer first"),
            ("piles", &[PLACES, 6], 1, "per place (blue-a … blue-d, red-a … red-d): one-hot of the number its top stands for, 0 = free; all 0 for a place the table does not have (S3, S3a)"),
            ("completed", &[12], 20, "cards of each number/wild kind in the completed piles set aside (S3)"),
            ("action_discards", &[5], 4, "action cards of each kind in the action-card discard pile (S5)"),
            ("chips", &[SEATS, 2], 40, "blue and red chips held by each seat, the observer first (S7)"),
            ("supply", &[2], 20, "blue and red chips left in the supply"),
            ("hand_sizes", &[SEATS], 120, "cards in each hand, the observer first; 0 past the table"),
            ("draw_pile", &[1], 120, "cards in the draw pile"),
            ("turn", &[1], 6, "whose turn it is, counted clockwise from the observer (0: the observer)"),
            ("to_act", &[1], 6, "the seat that must decide now (the seat offered a Block during a window), counted clockwise from the observer; the player count once the game is over"),
            ("direction", &[1], 1, "0 clockwise, 1 counterclockwise (S5 Reverse)"),
            ("pending_skips", &[1], 12, "Skips played this turn (S5)"),
            ("block_window", &[4], 6, "an open Block window (S5b): 1 when open; the completer counted clockwise from the observer; the pile's colour (0 blue, 1 red); 1 when the completing card came from the hand"),
            ("reshuffles", &[1], 255, "reshuffles so far, at most 255 (S6)"),
            ("players", &[1], 6, "seats at the table"),
        ])
    }

    #[inline]
    fn action_of(&self, seat: Seat, mv: &Decision) -> usize {
        let players = self.players();
        let rel = match *mv {
            Decision::StealCard { from, target } => Decision::StealCard {
                from,
                target: relative(seat, target, players),
            },
            Decision::StealChip {
                from,
                target,
                colour,
            } => Decision::StealChip {
                from,
                target: relative(seat, target, players),
                colour,
            },
            d => d,
        };
        Game::move_key(&rel)
    }

    #[inline]
    fn move_of(&self, seat: Seat, action: usize) -> Option<Decision> {
        let players = self.players();
        Some(match action {
            a if a < 192 => {
                let card = a / 16;
                if card >= 12 {
                    return None;
                }
                let place = a % 8;
                Decision::Pile {
                    card: Card::from_index(card),
                    from: SOURCES[(a % 16) / 8],
                    place: Place::new(
                        Colour::ALL[place / MAX_PLACES_PER_COLOUR],
                        (place % MAX_PLACES_PER_COLOUR) as u8,
                    ),
                }
            }
            192 | 193 => Decision::Skip {
                from: SOURCES[action - 192],
            },
            194 | 195 => Decision::Reverse {
                from: SOURCES[action - 194],
            },
            a if a < 208 => {
                let off = (a - 196) % 6;
                if off >= players as usize {
                    return None;
                }
                Decision::StealCard {
                    from: SOURCES[(a - 196) / 6],
                    target: absolute(seat, off, players),
                }
            }
            a if a < 232 => {
                let r = (a - 208) % 12;
                if r / 2 >= players as usize {
                    return None;
                }
                Decision::StealChip {
                    from: SOURCES[(a - 208) / 12],
                    target: absolute(seat, r / 2, players),
                    colour: Colour::ALL[r % 2],
                }
            }
            232 => Decision::Block,
            233 => Decision::Pass,
            a if a < 251 => Decision::Discard {
                card: Card::from_index(a - 234),
            },
            251 => Decision::End,
            _ => return None,
        })
    }

    fn render(&self) -> String {
        let mut s = String::new();
        for p in self.places() {
            let cards: Vec<&str> = self.pile(p).iter().map(|c| c.code()).collect();
            s += &format!("{:<7} {}\n", p.name(), cards.join(" "));
        }
        for seat in 0..self.players() {
            let st = Seat(seat);
            let [b, r] = self.chips(st);
            let top = self
                .discard_top(st)
                .map_or("-".to_string(), |c| c.code().to_string());
            s += &format!(
                "seat {seat}: {} cards, chips blue {b} red {r}, discard top {top}\n",
                self.hand_len(st)
            );
        }
        let [b, r] = self.supply();
        s += &format!(
            "supply blue {b} red {r}; draw pile {}; move {}; {}",
            self.draw_pile_len(),
            Rules::ply(self),
            status_text(self)
        );
        s
    }

    fn action_text(action: usize) -> String {
        match action {
            a if a < 192 => {
                let card = a / 16;
                let place = a % 8;
                let name = if card < 12 {
                    Card::from_index(card).code().to_string()
                } else {
                    format!("card kind {card}")
                };
                format!(
                    "{name} {} to {}",
                    source_name((a % 16) / 8),
                    Place::new(
                        Colour::ALL[place / MAX_PLACES_PER_COLOUR],
                        (place % MAX_PLACES_PER_COLOUR) as u8
                    )
                )
            }
            192 | 193 => format!("SKIP {}", source_name(action - 192)),
            194 | 195 => format!("REVERSE {}", source_name(action - 194)),
            a if a < 208 => format!(
                "STEAL-CARD {} from the seat {} places clockwise",
                source_name((a - 196) / 6),
                (a - 196) % 6
            ),
            a if a < 232 => {
                let r = (a - 208) % 12;
                format!(
                    "STEAL-CHIP {} taking a {} chip from the seat {} places clockwise",
                    source_name((a - 208) / 12),
                    Colour::ALL[r % 2],
                    r / 2
                )
            }
            232 => "BLOCK".into(),
            233 => "let the completion stand (no Block)".into(),
            a if a < 251 => format!("discard {}", Card::from_index(a - 234)),
            251 => "end the turn with an empty hand".into(),
            a => format!("action {a}"),
        }
    }

    #[inline]
    fn observe(&self, seat: Seat, out: &mut [u8]) {
        out.fill(0);
        let players = self.players() as usize;
        let rel = |k: usize| Seat(((seat.index() + k) % players) as u8);
        let offset = |s: Seat| ((s.index() + players - seat.index()) % players) as u8;
        let (hand, rest) = out.split_at_mut(KINDS);
        hand.copy_from_slice(&self.hand_counts(seat));
        let (known, rest) = rest.split_at_mut(SEATS * KINDS);
        let (tops, rest) = rest.split_at_mut(SEATS * KINDS);
        let (piles, rest) = rest.split_at_mut(SEATS * KINDS);
        for k in 0..players {
            let s = rel(k);
            known[k * KINDS..(k + 1) * KINDS].copy_from_slice(&self.known_in_hand(s));
            if let Some(top) = self.discard_top(s) {
                tops[k * KINDS + top.index()] = 1;
            }
            for c in self.discard_pile(s) {
                let e = &mut piles[k * KINDS + c.index()];
                *e = e.saturating_add(1);
            }
        }
        let (places, rest) = rest.split_at_mut(PLACES * 6);
        for p in self.places() {
            let top = self.pile_top(p).unwrap_or(0) as usize;
            places[p.index() * 6 + top.min(5)] = 1;
        }
        let (completed, rest) = rest.split_at_mut(12);
        completed.copy_from_slice(&self.completed_counts());
        let (actions, rest) = rest.split_at_mut(5);
        actions.copy_from_slice(&self.action_discard_counts());
        let (chips, rest) = rest.split_at_mut(SEATS * 2);
        for k in 0..players {
            let c = self.chips(rel(k));
            chips[2 * k] = c[0];
            chips[2 * k + 1] = c[1];
        }
        let (supply, rest) = rest.split_at_mut(2);
        supply.copy_from_slice(&self.supply());
        let (sizes, rest) = rest.split_at_mut(SEATS);
        for (k, n) in sizes.iter_mut().enumerate().take(players) {
            *n = self.hand_len(rel(k));
        }
        rest[0] = self.draw_pile_len();
        rest[1] = offset(self.turn());
        rest[2] = Rules::to_act(self).map_or(players as u8, offset);
        rest[3] = (self.direction() == Direction::Counterclockwise) as u8;
        rest[4] = self.pending_skips();
        if let Some(w) = self.block_offer() {
            rest[5] = 1;
            rest[6] = offset(w.completer);
            rest[7] = w.colour.index() as u8;
            rest[8] = w.from_hand as u8;
        }
        rest[9] = self.reshuffle_count().min(255) as u8;
        rest[10] = players as u8;
    }
}
