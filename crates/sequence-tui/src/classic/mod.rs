//! Classic Sequence on the screen shell ([`GameScreen`]): what is
//! particular to it — seats named by colour, sequences in the log, the
//! selected card and the cursor on the board, the C8a choice — as its
//! [`TuiGame`] implementation. The keys of a turn (C6: choose a card,
//! choose a space, confirm; exchange a dead card; C8a: choose which spaces
//! form a sequence) are in `keys`, the board, table and hand in `draw`.

mod draw;
mod keys;

use crate::game::{Areas, Key, TuiGame};
use crate::shell::GameScreen;
use crate::ui::Seen;
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::Frame;
use sequence_classic::{Card, Effects, Game, Move, Seat, Space, Status, Team, Window};

pub use draw::team_color;

/// The classic game screen.
pub type ClassicScreen = GameScreen<Game>;

/// Where the cursor starts: e5, near the middle of the board.
const START: Space = match Space::new(4, 4) {
    Some(s) => s,
    None => panic!("e5 is a space"),
};

/// A C8a choice in progress: the placement and the window sets to choose
/// from.
#[derive(Clone, Debug)]
struct DeclareChoice {
    card: Card,
    at: Space,
    choices: Vec<Vec<Window>>,
    index: usize,
}

/// The classic screen's own state: the selected card, the cursor, a space
/// being typed, an open C8a choice, and where the board and the hand were
/// drawn (for clicks).
#[derive(Clone, Debug)]
pub struct ClassicUi {
    /// Index into the viewer's hand.
    selected: usize,
    cursor: Space,
    /// A space being typed: its column, and a first row digit `1` that may
    /// become `10`.
    typing: Option<(u8, Option<u8>)>,
    /// A space being typed that cannot exist (its column is past `j`), as
    /// typed so far, e.g. `k1`: its digits are taken as part of it.
    bad_space: Option<String>,
    declare: Option<DeclareChoice>,
    board_inner: Rect,
    hand_area: Rect,
}

impl Default for ClassicUi {
    fn default() -> ClassicUi {
        ClassicUi {
            selected: 0,
            cursor: START,
            typing: None,
            bad_space: None,
            declare: None,
            board_inner: Rect::default(),
            hand_area: Rect::default(),
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// `mv` by `seat` in words, e.g. "green plays 7♥ on d6", in the game `g`
/// before the move.
fn describe(g: &Game, seat: Seat, mv: &Move) -> String {
    let who = g.seat_name(seat);
    match *mv {
        Move::Place { card, at, .. } if card.is_two_eyed_jack() => {
            format!("{who} plays {} (two-eyed jack) on {at}", card.pretty())
        }
        Move::Place { card, at, .. } => format!("{who} plays {} on {at}", card.pretty()),
        Move::Remove { card, at } => {
            let whose = g.chip_at(at).map(|t| t.colour()).unwrap_or("a");
            format!(
                "{who} plays {} and removes {whose} chip from {at}",
                card.pretty()
            )
        }
        Move::Dead { card } => format!("{who} exchanges dead card {}", card.pretty()),
        Move::Pass => format!("{who} cannot play and passes"),
        Move::Discard { card } => format!("{who} cannot play and discards {}", card.pretty()),
    }
}

impl ClassicScreen {
    /// The cursor's space.
    pub fn cursor(&self) -> Space {
        self.ui.cursor
    }

    /// The selected card of the hand on screen.
    pub fn selected_card(&self) -> Option<Card> {
        let v = self.seating.viewer?;
        self.game().hand(v).get(self.ui.selected).copied()
    }

    /// The advice for the selected card.
    fn instruction(&self) -> String {
        let legal = self.legal();
        if legal == [Move::Pass] {
            return "No card can be played: press Enter to pass (C6a).".into();
        }
        if legal.iter().all(|m| matches!(m, Move::Discard { .. })) {
            return "No card can be played: choose a card and press Enter to discard it (C6a)."
                .into();
        }
        let g = self.game();
        match self.selected_card() {
            Some(c) if g.is_dead(c) && !g.dead_exchanged() => {
                format!(
                    "{} is dead (both spaces covered): press x to exchange it (C6).",
                    c.pretty()
                )
            }
            Some(c) if g.is_dead(c) => {
                format!("{} is dead; one exchange per turn (C6).", c.pretty())
            }
            Some(c) if c.is_one_eyed_jack() => {
                format!(
                    "{}: one-eyed jack, choose an opponent's chip (x) to remove, Enter.",
                    c.pretty()
                )
            }
            Some(c) if c.is_two_eyed_jack() => format!(
                "{}: two-eyed jack, choose any empty space, Enter.",
                c.pretty()
            ),
            Some(c) if g.targets(c).count() == 0 => {
                format!("{} has no free space now.", c.pretty())
            }
            Some(c) => format!("{}: choose a space marked + and press Enter.", c.pretty()),
            None => String::new(),
        }
    }

    /// Moves the cursor to the next playable space of the selected card (the
    /// first after the cursor in reading order); with `force` false, only
    /// when the cursor is not on one already.
    fn jump_to_target(&mut self, force: bool) {
        let Some(c) = self.selected_card() else {
            return;
        };
        let t = self.game().targets(c);
        if t.count() == 0 || (!force && t.contains(self.ui.cursor)) {
            return;
        }
        let here = self.ui.cursor.reading_index();
        let mut all: Vec<Space> = t.iter().collect();
        all.sort_by_key(|s| s.reading_index());
        let next = all
            .iter()
            .find(|s| s.reading_index() > here)
            .or(all.first());
        if let Some(s) = next {
            self.ui.cursor = *s;
        }
    }

    /// Selects the `i`-th card of the hand on screen.
    fn select(&mut self, i: usize) {
        if let Some(v) = self.seating.viewer {
            if i < self.game().hand(v).len() {
                self.ui.selected = i;
                self.ui.declare = None;
                // Only the person to move gets advice for the card: while a
                // bot thinks or after the end, the legal moves are not theirs
                // (the end screen said "No card can be played …").
                if matches!(self.seen(), Seen::Human(_)) {
                    self.jump_to_target(false);
                    self.message = self.instruction();
                }
            }
        }
    }
}

impl TuiGame for Game {
    type Ui = ClassicUi;

    const BANNER: &'static str = " SEQUENCE ";
    const MENU_NAME: &'static str = "Sequence (classic)";
    const HELP: &'static [&'static str] = HELP;
    const MOVE_WORD: &'static str = "move";

    /// The colour alone when everyone plays alone ("green"), else seat
    /// number and colour ("P3 green").
    fn seat_name(&self, seat: Seat) -> String {
        let colour = self.team_of(seat).colour();
        if self.teams() == self.players() {
            colour.to_string()
        } else {
            format!("P{} {colour}", seat.0 + 1)
        }
    }

    /// The team's colour.
    fn side_name(&self, side: u8) -> String {
        Team(side).colour().to_string()
    }

    fn result_text(&self) -> Option<String> {
        match self.status() {
            Status::Playing => None,
            Status::Won(t) => {
                let n = self.sequence_count(t);
                Some(format!(
                    "{} wins with {n} sequence{}!",
                    capitalised(t.colour()),
                    if n == 1 { "" } else { "s" }
                ))
            }
            Status::Draw => Some("Draw: a full round went by with no legal play (C6a).".into()),
        }
    }

    /// One line: the move, the sequences it made (C8) and a new draw pile
    /// (C7), as the engine's effects say.
    fn log_lines(
        before: &Game,
        after: &Game,
        seat: Seat,
        mv: &Move,
        effects: &Effects,
    ) -> Vec<String> {
        let mut line = describe(before, seat, mv);
        let made = effects.new_sequences;
        if made > 0 {
            line += &format!(
                " — sequence{}! ({} of {})",
                if made == 1 { "" } else { "s" },
                after.sequence_count(after.team_of(seat)),
                after.win_sequences()
            );
        }
        if effects.reshuffled {
            line += " (new draw pile, C7)";
        }
        vec![line]
    }

    fn ends_turn(mv: &Move) -> bool {
        mv.ends_turn()
    }

    /// The move being played; at the end, the moves played.
    fn title_note(&self) -> String {
        let n = if self.is_over() {
            self.ply()
        } else {
            self.ply() + 1
        };
        format!("move {n} · ")
    }

    fn pass_device_lines(&self, seat: Seat, who: &str) -> [String; 2] {
        [
            format!("Pass the device to {} ({who}).", self.seat_name(seat)),
            String::new(),
        ]
    }

    fn reset(ui: &mut ClassicUi) {
        ui.selected = 0;
    }

    fn refresh(s: &mut ClassicScreen) {
        s.ui.typing = None;
        s.ui.declare = None;
        if let Some(v) = s.seating.viewer {
            if s.ui.selected >= s.game().hand(v).len() {
                s.ui.selected = 0;
            }
        }
        if let Seen::Human(_) = s.seen() {
            s.jump_to_target(false);
            s.message = s.instruction();
        }
    }

    fn key(s: &mut ClassicScreen, seat: Seat, key: KeyEvent) -> Key<Move> {
        keys::key(s, seat, key)
    }

    /// A card key shows that card of the hand on screen (no advice: the
    /// moves are not the viewer's).
    fn idle_key(s: &mut ClassicScreen, key: KeyEvent) -> bool {
        keys::idle_key(s, key)
    }

    fn click(s: &mut ClassicScreen, seat: Seat, column: u16, row: u16) -> Key<Move> {
        keys::click(s, seat, column, row)
    }

    fn draw_table(s: &mut ClassicScreen, f: &mut Frame, body: Rect) -> Areas {
        draw::table(s, f, body)
    }

    fn prompt_line(s: &ClassicScreen) -> String {
        draw::prompt_line(s)
    }

    fn human_keys(_: &ClassicScreen) -> &'static str {
        "1-7 card  arrows/e5 space  n next  Enter play  x dead  s save  q quit  ? rules"
    }
}

/// The rules summary shown by `?` (RULES.md Part 1).
pub const HELP: &[&str] = &[
    "Sequence — rules summary (RULES.md Part 1)",
    "",
    "C6  On your turn play one card and put a chip on one of the two spaces",
    "    showing it. Two-eyed jacks (J♦ J♣) go on any empty space; one-eyed",
    "    jacks (J♠ J♥) remove an opponent's chip that is not in a sequence.",
    "    Then a card is drawn for you.",
    "C6  A dead card (both its spaces covered) may be exchanged once per",
    "    turn before playing: select it and press x.",
    "C6a No legal play: you pass; a full round of passes is a draw.",
    "C7  An empty draw pile is rebuilt from the discard piles.",
    "C8  A sequence is 5 chips in a row, column or diagonal; the corners",
    "    (**) count for everyone. A second sequence may share one space.",
    "C8a If a line is longer than 5 you choose which 5 count.",
    "C9  Two players or teams need 2 sequences; three need 1.",
    "",
    "Board: 7♥+ playable  7♥xB removable chip  7♥#B chip in a sequence",
    "       7♥>B last move   B/G/R = blue/green/red chip",
    "Keys: 1-7 or Tab choose a card; arrows or a space like e5 move the",
    "      cursor; n jumps to the next playable space; Enter plays;",
    "      x exchanges a dead card; s saves; q quits (saving); u tells why there is no undo.",
    "Mouse: click a card, click a space; click it again to play.",
];

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use sequence_common::record::Match;
    use sequence_common::Rules;

    /// The log reads sequences made and a new draw pile (C8, C7) from the
    /// engine's effects; they agree with comparing the game before and
    /// after the move.
    #[test]
    fn log_lines_from_effects_say_what_the_states_showed() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut made, mut piles) = (0, 0);
        for (players, game) in [2u8, 3, 4, 6].into_iter().cycle().zip(0..24u64) {
            let config = Game::table(players, None, Default::default()).expect("C3");
            let mut m = Match::<Game>::new(config, game);
            while let Some(seat) = m.to_act() {
                let Some(mv) = m.game().random_move(&mut rng) else {
                    break;
                };
                let before = m.game().clone();
                let reshuffles = m.reshuffles();
                let fx = m.play(seat, mv).expect("a legal move");
                let line = Game::log_lines(&before, m.game(), seat, &mv, &fx).join("\n");
                let team = m.game().team_of(seat);
                let more = m.game().sequence_count(team) > before.sequence_count(team);
                assert_eq!(line.contains(" — sequence"), more, "{line}");
                let new_pile = m.reshuffles() > reshuffles;
                assert_eq!(line.ends_with("(new draw pile, C7)"), new_pile, "{line}");
                made += usize::from(more);
                piles += usize::from(new_pile);
            }
        }
        assert!(
            made > 10 && piles > 0,
            "{made} sequences, {piles} new draw piles"
        );
    }
}
