//! Sequence Stacks on the screen shell ([`GameScreen`]): what is particular
//! to it — the pick (a hand card or the top of the own discard pile, S4)
//! and the action chosen for it, action cards (S5) and the Block window
//! (S5b) as a prompt, chips in the log — as its [`TuiGame`]
//! implementation. The piles, the players and the hand are drawn in
//! `draw`.

mod draw;

use crate::game::{Areas, Key, TuiGame};
use crate::shell::GameScreen;
use crate::ui::Seen;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::Frame;
use sequence_common::Seat;
use sequence_stacks::{Card, Decision, Effects, Game, Source, Status};

pub use draw::card_style;

/// The Stacks game screen.
pub type StacksScreen = GameScreen<Game>;

/// What the player picks a decision for: a hand card or the top of the own
/// discard pile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The `i`-th card of the hand (kind order).
    Hand(usize),
    /// The top of the own discard pile.
    DiscardTop,
}

/// The Stacks screen's own state: the pick, the action chosen for it, and
/// where the hand was drawn (for clicks).
#[derive(Clone, Debug)]
pub struct StacksUi {
    pick: Pick,
    option: usize,
    hand_area: Rect,
}

impl Default for StacksUi {
    fn default() -> StacksUi {
        StacksUi {
            pick: Pick::Hand(0),
            option: 0,
            hand_area: Rect::default(),
        }
    }
}

/// Where a decision's card comes from (`None` for Block, Pass and End).
fn source(d: &Decision) -> Option<Source> {
    match *d {
        Decision::Pile { from, .. }
        | Decision::Skip { from }
        | Decision::Reverse { from }
        | Decision::StealCard { from, .. }
        | Decision::StealChip { from, .. } => Some(from),
        Decision::Discard { .. } => Some(Source::Hand),
        _ => None,
    }
}

/// The seat after the one to play, in the direction of play (who a Skip
/// hits).
fn next_seat(g: &Game) -> Seat {
    g.turn().next(g.players(), g.direction())
}

/// The top of `target`'s discard pile, as a Steal-a-Card takes it.
fn top_of(g: &Game, target: Seat) -> String {
    g.discard_top(target)
        .map(|c| c.to_string())
        .unwrap_or_default()
}

/// `d` by `seat` in words, e.g. "P2 plays B3 on blue-a", in the game `g`
/// before the decision.
fn describe(g: &Game, seat: Seat, d: &Decision) -> String {
    let who = g.seat_name(seat);
    let from = |s: Source| {
        if s == Source::Discard {
            " from the discard pile"
        } else {
            ""
        }
    };
    match *d {
        Decision::Pile {
            card,
            from: f,
            place,
        } => format!("{who} plays {card}{} on {place}", from(f)),
        Decision::Skip { from: f } => format!(
            "{who} plays SKIP{}: {} loses a turn",
            from(f),
            g.seat_name(next_seat(g))
        ),
        Decision::Reverse { from: f } => {
            format!("{who} plays REVERSE{}: play changes direction", from(f))
        }
        Decision::StealCard { from: f, target } => format!(
            "{who} plays STEAL-CARD{}: takes {} from {}'s discard pile",
            from(f),
            top_of(g, target),
            g.seat_name(target)
        ),
        Decision::StealChip {
            from: f,
            target,
            colour,
        } => format!(
            "{who} plays STEAL-CHIP{}: takes a {colour} chip from {}",
            from(f),
            g.seat_name(target)
        ),
        Decision::Block => format!("{who} plays BLOCK: the pile is set aside, no chip (S5)"),
        Decision::Pass => format!("{who} does not block"),
        Decision::Discard { card } => format!("{who} discards {card} and ends the turn"),
        Decision::End => format!("{who} ends the turn with an empty hand"),
    }
}

impl StacksScreen {
    /// The cards of the hand on screen, kind order.
    pub fn hand(&self) -> Vec<Card> {
        self.viewer()
            .map(|v| self.game().hand(v))
            .unwrap_or_default()
    }

    /// The decisions for the current pick.
    pub fn options(&self) -> Vec<Decision> {
        let legal = self.legal();
        if self.game().block_offer().is_some() {
            return legal;
        }
        if legal.contains(&Decision::End) {
            return vec![Decision::End];
        }
        match self.ui.pick {
            Pick::Hand(i) => {
                let Some(card) = self.hand().get(i).copied() else {
                    return vec![];
                };
                legal
                    .into_iter()
                    .filter(|d| d.card() == Some(card) && source(d) != Some(Source::Discard))
                    .collect()
            }
            Pick::DiscardTop => legal
                .into_iter()
                .filter(|d| source(d) == Some(Source::Discard))
                .collect(),
        }
    }

    /// The advice for the seat to act.
    fn instruction(&self) -> String {
        let g = self.game();
        if let Some(w) = g.block_offer() {
            return format!(
                "{} completed a {} pile. Block it (S5)? b = play Block, n or Enter = let it stand.",
                g.seat_name(w.completer),
                w.colour
            );
        }
        if self.legal().contains(&Decision::End) {
            return "Your hand is empty and nothing is left to draw: Enter ends the turn (S4)."
                .into();
        }
        let skips = if g.pending_skips() > 0 {
            format!(" ({} skip(s) pending)", g.pending_skips())
        } else {
            String::new()
        };
        format!("Choose a card (1-9, d = discard top), an action (↑↓), Enter. Discarding ends the turn{skips}.")
    }

    fn set_pick(&mut self, p: Pick) {
        self.ui.pick = p;
        self.ui.option = 0;
        self.message = self.instruction();
        if self.options().is_empty() {
            if let Some(c) = self.picked_card() {
                self.message = format!("{c} cannot be played now; pick it and Discard to end the turn, or pick another.");
            }
        }
    }

    fn picked_card(&self) -> Option<Card> {
        match self.ui.pick {
            Pick::Hand(i) => self.hand().get(i).copied(),
            Pick::DiscardTop => self.viewer().and_then(|v| self.game().discard_top(v)),
        }
    }
}

/// The answer to a Block window (S5b): `b` blocks, `n` or Enter lets the
/// pile stand.
fn block_key(s: &mut StacksScreen, key: KeyEvent) -> Key<Decision> {
    match key.code {
        KeyCode::Char('b') if s.legal().contains(&Decision::Block) => Key::Play(Decision::Block),
        KeyCode::Char('b') => {
            s.message = "You hold no Block card (S5): press n to let it stand.".into();
            Key::Used
        }
        KeyCode::Char('n') | KeyCode::Enter => Key::Play(Decision::Pass),
        _ => Key::Unused,
    }
}

impl TuiGame for Game {
    type Ui = StacksUi;

    const BANNER: &'static str = " SEQUENCE STACKS ";
    const MENU_NAME: &'static str = "Sequence Stacks";
    const HELP: &'static [&'static str] = HELP;
    const MOVE_WORD: &'static str = "decision";

    /// `P1`, `P2`, …
    fn seat_name(&self, seat: Seat) -> String {
        format!("P{}", seat.0 + 1)
    }

    fn side_name(&self, side: u8) -> String {
        self.seat_name(Seat(side))
    }

    fn result_text(&self) -> Option<String> {
        match self.status() {
            Status::Playing => None,
            Status::Won(s) => {
                let c = self.chips(s);
                Some(format!(
                    "{} wins with {} blue and {} red chips (S7)!",
                    self.seat_name(s),
                    c[0],
                    c[1]
                ))
            }
            Status::Draw => {
                Some("Draw: nothing left to draw and a round without a pile play (S6a).".into())
            }
        }
    }

    /// The decision (a declined Block is not logged), a Block window it
    /// opened (S5b), and a chip the completer took (S3), as the engine's
    /// effects say.
    fn log_lines(
        before: &Game,
        after: &Game,
        seat: Seat,
        d: &Decision,
        effects: &Effects,
    ) -> Vec<String> {
        let mut lines = vec![];
        if *d != Decision::Pass {
            let mut line = describe(before, seat, d);
            if let Some(w) = effects.opened {
                line += &format!(" — completes a {} pile (Block window, S5b)", w.colour);
            }
            lines.push(line);
        }
        let took = effects
            .closed
            .and_then(|w| w.chip.map(|c| (w.completer, c)));
        if let Some((completer, c)) = took {
            let now = after.chips(completer);
            lines.push(format!(
                "{} takes a {c} chip (now {} blue, {} red)",
                after.seat_name(completer),
                now[0],
                now[1]
            ));
        }
        lines
    }

    fn ends_turn(d: &Decision) -> bool {
        matches!(
            d,
            Decision::Discard { .. } | Decision::End | Decision::Pass | Decision::Block
        )
    }

    fn to_play(&self) -> &'static str {
        match self.block_offer() {
            Some(_) => "may Block",
            None => "to play",
        }
    }

    fn pass_device_lines(&self, seat: Seat, _who: &str) -> [String; 2] {
        let why = match self.block_offer() {
            Some(w) => format!(
                "{} may block {}'s completed pile (S5b).",
                self.seat_name(seat),
                self.seat_name(w.completer)
            ),
            None => format!("It is {}'s turn.", self.seat_name(seat)),
        };
        [format!("Pass the device to {}.", self.seat_name(seat)), why]
    }

    fn reset(ui: &mut StacksUi) {
        ui.pick = Pick::Hand(0);
        ui.option = 0;
    }

    fn refresh(s: &mut StacksScreen) {
        let n = s.hand().len();
        if let Pick::Hand(i) = s.ui.pick {
            if i >= n {
                s.ui.pick = Pick::Hand(0);
            }
        }
        if s.ui.pick == Pick::DiscardTop && s.options().is_empty() {
            s.ui.pick = Pick::Hand(0);
        }
        if s.ui.option >= s.options().len() {
            s.ui.option = 0;
        }
        if let Seen::Human(_) = s.seen() {
            s.message = s.instruction();
        }
    }

    fn key(s: &mut StacksScreen, seat: Seat, key: KeyEvent) -> Key<Decision> {
        if s.game().block_offer().is_some() {
            return block_key(s, key);
        }
        let n = s.hand().len();
        // The hand card before (or, from the discard top, the last).
        let at = match s.ui.pick {
            Pick::Hand(i) => i,
            Pick::DiscardTop => n,
        };
        match key.code {
            KeyCode::Char(ch @ '1'..='9') => {
                let i = ch as usize - '1' as usize;
                if i < n {
                    s.set_pick(Pick::Hand(i));
                }
            }
            KeyCode::Char('d') | KeyCode::Char('0') => {
                if s.game().discard_top(seat).is_some() {
                    s.set_pick(Pick::DiscardTop);
                } else {
                    s.message = "Your discard pile is empty.".into();
                }
            }
            KeyCode::Left | KeyCode::BackTab => {
                s.set_pick(Pick::Hand((at + n.max(1) - 1) % n.max(1)));
            }
            KeyCode::Right | KeyCode::Tab => s.set_pick(Pick::Hand((at + 1) % n.max(1))),
            KeyCode::Up => {
                let k = s.options().len().max(1);
                s.ui.option = (s.ui.option + k - 1) % k;
            }
            KeyCode::Down => {
                let k = s.options().len().max(1);
                s.ui.option = (s.ui.option + 1) % k;
            }
            KeyCode::Char('e') if s.legal().contains(&Decision::End) => {
                return Key::Play(Decision::End);
            }
            KeyCode::Char('e') => {
                s.message = "The turn ends with a discard while you hold cards (S4).".into();
            }
            KeyCode::Enter | KeyCode::Char(' ') => match s.options().get(s.ui.option) {
                Some(d) => return Key::Play(*d),
                None => s.message = "Nothing to do with that card now: pick another.".into(),
            },
            _ => return Key::Unused,
        }
        Key::Used
    }

    /// A click on a hand card picks it.
    fn click(s: &mut StacksScreen, _seat: Seat, column: u16, row: u16) -> Key<Decision> {
        let h = s.ui.hand_area;
        if column >= h.x && column < h.x + h.width && row > h.y && row < h.y + h.height {
            let i = (row - h.y - 1) as usize;
            if i < s.hand().len() {
                s.set_pick(Pick::Hand(i));
                return Key::Used;
            }
        }
        Key::Unused
    }

    fn draw_table(s: &mut StacksScreen, f: &mut Frame, body: Rect) -> Areas {
        draw::table(s, f, body)
    }

    fn human_keys(s: &StacksScreen) -> &'static str {
        if s.game().block_offer().is_some() {
            "b block  n let it stand   s save  q quit  ? rules"
        } else {
            "1-9/d card  ↑↓ action  Enter play  e end  s save  q quit  ? rules  u (why no undo)"
        }
    }
}

/// The rules summary shown by `?` (RULES.md Part 2).
pub const HELP: &[&str] = &[
    "Sequence Stacks — rules summary (RULES.md Part 2)",
    "",
    "S3  Piles are shared: blue-a, blue-b, red-a, red-b. A pile starts with",
    "    a 1 or a wild (BW/RW) of its colour and goes up by one; the 5",
    "    completes it and you take a chip of that colour.",
    "S4  Your turn: draw up to 5, play as many cards as you like from your",
    "    hand or the top of your own discard pile, then discard one card to",
    "    end the turn. An emptied hand draws 5 more.",
    "S5  SKIP: the next player loses a turn. REVERSE: direction changes.",
    "    STEAL-CARD: take the top of an opponent's discard pile.",
    "    STEAL-CHIP: take a chip from an opponent (never to win, S5a).",
    "    BLOCK: right after an opponent completes a pile, cancel it (S5b);",
    "    every opponent is asked in turn, holding a Block or not.",
    "S6  An empty draw pile is rebuilt from the completed piles.",
    "S7  Win with 5 chips, at least 2 blue and 2 red.",
    "",
    "Keys: 1-9 pick a hand card, d the top of your discard pile; ↑↓ choose",
    "      what to do with it; Enter plays. b/n answer a Block window.",
    "      s saves; q quits (saving); u explains why there is no undo.",
];

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use sequence_common::record::Match;
    use sequence_common::Rules;

    /// What the log said before it read the engine's effects: the Block
    /// window and the chip worked out by comparing the game before and
    /// after the decision. The effects must say the same (S3, S5b).
    fn diffed(before: &Game, after: &Game, seat: Seat, d: &Decision) -> Vec<String> {
        let mut lines = vec![];
        if *d != Decision::Pass {
            let mut line = describe(before, seat, d);
            if before.block_offer().is_none() {
                if let Some(w) = after.block_offer() {
                    line += &format!(" — completes a {} pile (Block window, S5b)", w.colour);
                }
            }
            lines.push(line);
        }
        let turn = before.turn();
        let (was, now) = (before.chips(turn), after.chips(turn));
        if now != was && !matches!(d, Decision::StealChip { .. }) && after.turn() == turn {
            if let Some(c) = sequence_stacks::Colour::ALL
                .iter()
                .find(|c| now[c.index()] > was[c.index()])
            {
                lines.push(format!(
                    "{} takes a {c} chip (now {} blue, {} red)",
                    before.seat_name(turn),
                    now[0],
                    now[1]
                ));
            }
        }
        lines
    }

    #[test]
    fn log_lines_from_effects_say_what_the_states_showed() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut windows, mut chips) = (0, 0);
        for (players, game) in [2u8, 3, 4, 5, 6].into_iter().cycle().zip(0..40u64) {
            let config = Game::table(players, None, Default::default()).expect("S1");
            let mut m = Match::<Game>::new(config, game);
            while let Some(seat) = m.to_act() {
                let Some(d) = m.game().random_move(&mut rng) else {
                    break;
                };
                let before = m.game().clone();
                let fx = m.play(seat, d).expect("a legal decision");
                let lines = Game::log_lines(&before, m.game(), seat, &d, &fx);
                assert_eq!(lines, diffed(&before, m.game(), seat, &d), "{d:?}");
                windows += usize::from(fx.opened.is_some());
                chips += usize::from(lines.iter().any(|l| l.contains(" chip (now ")));
            }
        }
        assert!(
            windows > 20 && chips > 20,
            "{windows} windows, {chips} chips"
        );
    }
}
