//! Sequence Stacks puzzles (issue 25), judged from the seat's view alone.
//!
//! * **block**: an opponent has just completed a pile that would give it
//!   the win (S7); the player, offered the Block window (S5b) with a Block
//!   in hand, must Block — letting it stand loses at once. The view alone
//!   does not say which pile it was (its place is free again, S3, and both
//!   places of the colour may be): self-play writes it into the puzzle
//!   ([`Completion`], the file's `completed`), as the table's log does.
//! * **block2** (harder): the chip of the pile just completed does not
//!   win by itself, but if it stands the completer wins this very turn
//!   with cards everyone sees — the top of its own discard pile (S4), the
//!   cards it is known to hold (taken with Steal-a-Card), a discard top it
//!   steals — while after the Block no such line wins. The player holds
//!   exactly one Block (with two it could still block the later
//!   completion). Graded by the completer's line after the stand: 2 for
//!   one play, 3 for more; the file's `threat` holds it.
//! * **win**: the player can win this turn (S3, S7) with the cards it sees
//!   (its hand and the top of its own discard pile, Steal-a-Card's take of
//!   an opponent's discard top, S5), and of its two or more plays now
//!   exactly one keeps that win (the others spend a card the win needs). The search plays the turn's decisions depth first, with
//!   every opponent declining the Block windows (the puzzle's text says
//!   "unless someone blocks"), and stops a line at any draw (the cards
//!   drawn are unknown, S4 step 3) and at the end of the turn. Its budget:
//!   [`MAX_DEPTH`] decisions per line and [`MAX_NODES`] positions per first
//!   decision; a position the budget cannot settle is no puzzle.
//! * **win2** (deeper: two of the player's turns): no play wins this turn,
//!   but the player's Skips (S5) make every opponent lose their turn, so
//!   its next turn follows at once, and that turn wins with cards it
//!   already knows — what it keeps in hand, its own discard pile, a
//!   discard top it steals — whatever it draws at the start of it (S4a;
//!   the drawn cards are never played in the search). Exactly one
//!   decision now (a play, or the discard that ends the turn) keeps that
//!   win. The same search, over both turns: [`MAX_DEPTH2`] decisions and
//!   [`MAX_NODES2`] positions per first decision.
//!
//! The search runs on a game made from the view with the unseen cards dealt
//! at random ([`sequence_stacks::SeatView::determinize`], ChaCha8 from a
//! fixed seed); it never looks at them: every line that would reveal one
//! is cut.

use rand::SeedableRng;
use sequence_common::{NoReshuffler, Rules, Seat};
use sequence_stacks::card::KINDS;
use sequence_stacks::{Card, Config, Decision, Game, Options, Place, SeatView, Status};
use serde_json::{json, Value};

/// Decisions in one line of the search.
pub const MAX_DEPTH: usize = 6;
/// Positions searched per first decision.
pub const MAX_NODES: usize = 3_000;
/// Decisions in one line of the two-turn search (`win2`).
pub const MAX_DEPTH2: usize = 10;
/// Positions searched per first decision by the two-turn search.
pub const MAX_NODES2: usize = 20_000;

/// A solved Stacks position ([`Solved`](super::Solved)): `kind` is
/// `block`, `block2` (the Block against a win the completer's next plays
/// would make), `win` or `win2` (a win on the player's next turn, its
/// opponents skipped); `grade` 1 (easy), 2 or 3 (hard).
pub type Solved = super::Solved<Decision, Why>;

/// What explains a Stacks puzzle's solution.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Why {
    /// For `win` and `win2`: the shortest winning line, the solution first
    /// (for `win2` it holds the discard that ends the first turn).
    pub line: Vec<Decision>,
    /// For `block2`: the completer's shortest winning line with the cards
    /// everyone sees, had the completion stood (else empty).
    pub threat: Vec<Decision>,
    /// For `block`: the pile just completed, known from the game's history
    /// (the view does not hold it); [`solve`] leaves it `None`, self-play
    /// fills it in, [`completion_from_json`] reads it back.
    pub completed: Option<Completion>,
}

/// The pile whose completion opened the Block window (S5b): its place
/// (free again, S3) and the card that completed it (a 5 or a wild).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// Where the pile stood.
    pub place: Place,
    /// The card that completed it.
    pub card: Card,
}

impl Completion {
    /// The completion made by decision `d` in `g` (before it is played),
    /// if `d` completes a pile (its top is a 4, S3).
    pub fn of(g: &Game, d: Decision) -> Option<Completion> {
        match d {
            Decision::Pile { card, place, .. } if g.pile_top(place) == Some(4) => {
                Some(Completion { place, card })
            }
            _ => None,
        }
    }
}

enum Outcome {
    Win(Vec<Decision>),
    No,
    Budget,
}

/// The shortest winning line among a position's decisions, and whether
/// any decision ran out of budget (both searches below).
#[derive(Default)]
struct Shortest {
    best: Option<Vec<Decision>>,
    budget: bool,
}

impl Shortest {
    /// What the search after decision `d` found.
    fn add(&mut self, d: Decision, found: Outcome) {
        match found {
            Outcome::Win(mut line) => {
                if self.best.as_ref().is_none_or(|b| line.len() + 1 < b.len()) {
                    line.insert(0, d);
                    self.best = Some(line);
                }
            }
            Outcome::Budget => self.budget = true,
            Outcome::No => {}
        }
    }

    /// The line, else `Budget` when a branch was cut, else `No`.
    fn outcome(self) -> Outcome {
        match (self.best, self.budget) {
            (Some(l), _) => Outcome::Win(l),
            (None, true) => Outcome::Budget,
            (None, false) => Outcome::No,
        }
    }
}

fn decisions(g: &Game) -> Vec<Decision> {
    let mut d = Vec::new();
    g.legal_moves(&mut d);
    d
}

/// Declines every open Block window of the others (S5b).
fn decline(g: &mut Game, me: Seat) -> bool {
    while let (Some(w), Some(s)) = (g.block_offer(), g.to_act()) {
        if s == me || w.offered == me {
            return true;
        }
        if g.play(s, Decision::Pass, &mut NoReshuffler).is_err() {
            return false;
        }
    }
    true
}

/// The shortest winning line of this turn from `g` (the player to act).
fn search(g: &Game, me: Seat, depth: usize, nodes: &mut usize) -> Outcome {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return Outcome::Budget;
    }
    if depth == 0 || g.to_act() != Some(me) || g.block_offer().is_some() {
        return Outcome::No;
    }
    let mut shortest = Shortest::default();
    for d in decisions(g) {
        if matches!(d, Decision::Discard { .. } | Decision::End | Decision::Pass) {
            continue;
        }
        let mut next = g.clone();
        let draw = next.draw_pile_len();
        if next.play(me, d, &mut NoReshuffler).is_err() || !decline(&mut next, me) {
            continue;
        }
        if next.status() == Status::Won(me) {
            return Outcome::Win(vec![d]);
        }
        if next.draw_pile_len() != draw || next.is_over() {
            continue;
        }
        shortest.add(d, search(&next, me, depth - 1, nodes));
    }
    shortest.outcome()
}

/// Where the two-turn search stands: the first turn (every card in hand
/// is known), or the second, with the counts of the cards in hand the
/// player knows (kept from the first turn or stolen); the rest were drawn
/// and are never played.
#[derive(Clone, Copy)]
enum Turn {
    First,
    Second([u8; KINDS]),
}

/// The shortest two-turn winning line from `g` (module docs, `win2`).
fn search2(g: &Game, me: Seat, turn: Turn, depth: usize, nodes: &mut usize) -> Outcome {
    *nodes += 1;
    if *nodes > MAX_NODES2 {
        return Outcome::Budget;
    }
    if depth == 0 || g.to_act() != Some(me) || g.block_offer().is_some() {
        return Outcome::No;
    }
    let mut shortest = Shortest::default();
    for d in decisions(g) {
        let Some((next, after)) = step2(g, me, turn, d) else {
            continue;
        };
        if next.status() == Status::Won(me) {
            return Outcome::Win(vec![d]);
        }
        shortest.add(d, search2(&next, me, after, depth - 1, nodes));
    }
    shortest.outcome()
}

/// The card decision `d` takes from the hand, if any.
fn hand_card(d: Decision) -> Option<Card> {
    use sequence_stacks::Source;
    match d {
        Decision::Pile { card, from, .. } => (from == Source::Hand).then_some(card),
        Decision::Skip { from } => (from == Source::Hand).then_some(Card::Skip),
        Decision::Reverse { from } => (from == Source::Hand).then_some(Card::Reverse),
        Decision::StealCard { from, .. } => (from == Source::Hand).then_some(Card::StealCard),
        Decision::StealChip { from, .. } => (from == Source::Hand).then_some(Card::StealChip),
        Decision::Discard { card } => Some(card),
        Decision::Block | Decision::Pass | Decision::End => None,
    }
}

/// Every seat but `x` declines the open Block windows (S5b).
fn decline_all(g: &mut Game, x: Seat) -> bool {
    while let (Some(_), Some(s)) = (g.block_offer(), g.to_act()) {
        if s == x || g.play(s, Decision::Pass, &mut NoReshuffler).is_err() {
            return false;
        }
    }
    true
}

/// The shortest line that wins the rest of seat `x`'s turn from `g` with
/// cards everyone sees (`block2`): the top of its own discard pile (the
/// piles are public), the cards of its hand it is known to hold (`known`,
/// counts) and discard tops it steals; every Block window declined, a line
/// cut at any draw (unknown cards, S4 step 3, S6).
fn search_seen(g: &Game, x: Seat, known: [u8; KINDS], depth: usize, nodes: &mut usize) -> Outcome {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return Outcome::Budget;
    }
    if depth == 0 || g.to_act() != Some(x) || g.block_offer().is_some() {
        return Outcome::No;
    }
    let mut shortest = Shortest::default();
    for d in decisions(g) {
        if matches!(
            d,
            Decision::Discard { .. } | Decision::End | Decision::Pass | Decision::Block
        ) {
            continue;
        }
        let mut k = known;
        if let Some(c) = hand_card(d) {
            if k[c.index()] == 0 {
                continue;
            }
            k[c.index()] -= 1;
        }
        if let Decision::StealCard { target, .. } = d {
            if let Some(c) = g.discard_top(target) {
                k[c.index()] += 1;
            }
        }
        let mut next = g.clone();
        let (draw, reshuffles) = (next.draw_pile_len(), next.reshuffle_count());
        if next.play(x, d, &mut NoReshuffler).is_err() || !decline_all(&mut next, x) {
            continue;
        }
        if next.status() == Status::Won(x) {
            return Outcome::Win(vec![d]);
        }
        if next.is_over() || next.draw_pile_len() != draw || next.reshuffle_count() != reshuffles {
            continue;
        }
        shortest.add(d, search_seen(&next, x, k, depth - 1, nodes));
    }
    shortest.outcome()
}

/// The `block2` puzzle of `g` (module docs): the player `me`, offered the
/// window of `x`'s completion, holds one Block; `stand` is the game once
/// every seat let the completion stand (the chip taken, no win yet).
fn block2(g: &Game, me: Seat, x: Seat, stand: &Game, moves: usize) -> Option<Solved> {
    if g.hand_counts(me)[Card::Block.index()] != 1 || stand.is_over() {
        return None;
    }
    let seen = |after: &Game| {
        let mut nodes = 0;
        search_seen(after, x, after.known_in_hand(x), MAX_DEPTH, &mut nodes)
    };
    let Outcome::Win(threat) = seen(stand) else {
        return None;
    };
    // the Block saves the game from every such line
    let mut blocked = g.clone();
    if blocked
        .play(me, Decision::Block, &mut NoReshuffler)
        .is_err()
        || !decline_all(&mut blocked, x)
        || !matches!(seen(&blocked), Outcome::No)
    {
        return None;
    }
    Some(Solved {
        kind: "block2",
        grade: if threat.len() == 1 { 2 } else { 3 },
        solution: Decision::Block,
        moves,
        why: Why {
            line: vec![Decision::Block],
            threat,
            completed: None,
        },
    })
}

/// One decision of the two-turn search: the game after it (the others
/// declining Block windows) and where the search then stands, or `None`
/// when the line stops there (an unknown card, a draw inside a turn, the
/// turn passing to an opponent, the second turn's end).
fn step2(g: &Game, me: Seat, turn: Turn, d: Decision) -> Option<(Game, Turn)> {
    let mut known = match turn {
        Turn::First => None,
        Turn::Second(k) => Some(k),
    };
    // in the second turn only known cards leave the hand
    let from_hand = hand_card(d);
    if let (Some(k), Some(c)) = (known.as_mut(), from_hand) {
        if k[c.index()] == 0 {
            return None;
        }
        k[c.index()] -= 1;
    }
    let stolen = match d {
        Decision::StealCard { target, .. } => g.discard_top(target),
        _ => None,
    };
    if let (Some(k), Some(c)) = (known.as_mut(), stolen) {
        k[c.index()] += 1;
    }
    let mut next = g.clone();
    let (draw, reshuffles) = (next.draw_pile_len(), next.reshuffle_count());
    if next.play(me, d, &mut NoReshuffler).is_err() || !decline(&mut next, me) {
        return None;
    }
    if next.status() == Status::Won(me) {
        return Some((next, turn));
    }
    if next.is_over() || next.reshuffle_count() != reshuffles {
        return None;
    }
    match (turn, d) {
        // the first turn ends; the next is the player's again only when
        // every opponent was skipped (its start draws unknown cards)
        (Turn::First, Decision::Discard { card }) => {
            if next.turn() != me || next.to_act() != Some(me) {
                return None;
            }
            let mut k = g.hand_counts(me);
            k[card.index()] -= 1;
            Some((next, Turn::Second(k)))
        }
        (Turn::First, Decision::End)
        | (Turn::Second(_), Decision::Discard { .. } | Decision::End) => None,
        _ if next.draw_pile_len() != draw => None,
        (Turn::First, _) => Some((next, Turn::First)),
        (Turn::Second(_), _) => Some((next, Turn::Second(known.unwrap_or_default()))),
    }
}

/// The `win2` puzzle of `g` (module docs): no decision of this turn wins,
/// and exactly one decision keeps a win on the player's next turn.
fn win2(g: &Game, me: Seat, moves: &[Decision]) -> Option<Solved> {
    // without Skips enough for every opponent no next turn follows at once
    let skips = g.hand_counts(me)[sequence_stacks::Card::Skip.index()]
        + u8::from(g.discard_top(me) == Some(sequence_stacks::Card::Skip))
        + g.pending_skips();
    if skips + 1 < g.players() || moves.len() < 2 {
        return None;
    }
    let mut wins = vec![];
    for &d in moves {
        let mut nodes = 0;
        let Some((next, after)) = step2(g, me, Turn::First, d) else {
            continue;
        };
        if next.status() == Status::Won(me) {
            return None;
        }
        match search2(&next, me, after, MAX_DEPTH2 - 1, &mut nodes) {
            Outcome::Win(mut line) => {
                line.insert(0, d);
                wins.push(line);
            }
            Outcome::Budget => return None,
            Outcome::No => {}
        }
    }
    if wins.len() != 1 {
        return None;
    }
    let line = wins.remove(0);
    Some(Solved {
        kind: "win2",
        grade: if line.len() <= 4 { 2 } else { 3 },
        solution: line[0],
        moves: moves.len(),
        why: Why {
            line,
            ..Why::default()
        },
    })
}

/// The game of a view, its unseen cards dealt at random (never looked at).
///
/// # Errors
/// When the view does not add up to the deck.
pub fn game_of(view: &SeatView) -> Result<Game, String> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(25);
    view.determinize(&mut rng).map_err(|e| e.to_string())
}

/// Solves the position of `view` (its seat to decide): `Some` when it is a
/// puzzle (module docs).
///
/// # Errors
/// When the view is not a position of the engine.
pub fn solve(view: &SeatView) -> Result<Option<Solved>, String> {
    let me = view.seat.ok_or("a spectator's view")?;
    let g = game_of(view)?;
    if g.to_act() != Some(me) || g.is_over() {
        return Ok(None);
    }
    let moves = decisions(&g);
    if let Some(w) = g.block_offer() {
        if w.offered != me || !moves.contains(&Decision::Block) {
            return Ok(None);
        }
        let mut stand = g.clone();
        stand
            .play(me, Decision::Pass, &mut NoReshuffler)
            .map_err(|e| e.to_string())?;
        // the others after the player decline too: the completion stands
        let completer = w.completer;
        while let (Some(_), Some(s)) = (stand.block_offer(), stand.to_act()) {
            stand
                .play(s, Decision::Pass, &mut NoReshuffler)
                .map_err(|e| e.to_string())?;
        }
        if stand.status() != Status::Won(completer) {
            return Ok(block2(&g, me, completer, &stand, moves.len()));
        }
        return Ok(Some(Solved {
            kind: "block",
            grade: 1,
            solution: Decision::Block,
            moves: moves.len(),
            why: Why {
                line: vec![Decision::Block],
                ..Why::default()
            },
        }));
    }
    let mut wins = vec![];
    for &d in &moves {
        let mut nodes = 0;
        let mut next = g.clone();
        let draw = next.draw_pile_len();
        if matches!(d, Decision::Discard { .. } | Decision::End)
            || next.play(me, d, &mut NoReshuffler).is_err()
            || !decline(&mut next, me)
        {
            continue;
        }
        if next.status() == Status::Won(me) {
            wins.push(vec![d]);
            continue;
        }
        if next.draw_pile_len() != draw || next.is_over() {
            continue;
        }
        match search(&next, me, MAX_DEPTH - 1, &mut nodes) {
            Outcome::Win(mut line) => {
                line.insert(0, d);
                wins.push(line);
            }
            Outcome::Budget => return Ok(None),
            Outcome::No => {}
        }
    }
    let plays = moves
        .iter()
        .filter(|d| !matches!(d, Decision::Discard { .. } | Decision::End))
        .count();
    if wins.is_empty() {
        return Ok(win2(&g, me, &moves));
    }
    if wins.len() != 1 || plays < 2 {
        return Ok(None);
    }
    let line = wins.remove(0);
    let grade = match line.len() {
        1 => 1,
        2 | 3 => 2,
        _ => 3,
    };
    Ok(Some(Solved {
        kind: "win",
        grade,
        solution: line[0],
        moves: moves.len(),
        why: Why {
            line,
            ..Why::default()
        },
    }))
}

/// A puzzle as the data file holds it (`web/puzzles/stacks.json`): the
/// seat's `view` (its JSON as the server sends it), the `solution` and the
/// winning `line` in record notation (RECORD-STACKS.md), and where it came
/// from (`from`: the self-play game's seed and decision number); a
/// `block` puzzle names the pile just completed (`completed`: `{"place",
/// "card"}`, the place and card of the table log's completing entry); a
/// `block2` puzzle the completer's winning line had it stood (`threat`).
pub fn to_json(id: &str, view: &SeatView, s: &Solved, seed: u64, at: u32) -> Value {
    let me = view.seat.unwrap_or(Seat(0));
    let entry = |d: &Decision| sequence_stacks::notation::decision_json(me, d);
    // the position alone: what led to it is not part of the puzzle (but
    // the pile a Block window is about is, below)
    let mut shown = view.clone();
    shown.last_move = None;
    let mut v = s.head(id, seed, at);
    v["view"] = shown.to_json();
    v["solution"] = entry(&s.solution);
    v["line"] = s.why.line.iter().map(entry).collect();
    if let Some(c) = s.why.completed {
        v["completed"] = json!({"place": c.place.name(), "card": c.card.code()});
    }
    if let (false, Some(w)) = (s.why.threat.is_empty(), view.block_window) {
        let theirs = |d: &Decision| sequence_stacks::notation::decision_json(w.completer, d);
        v["threat"] = s.why.threat.iter().map(theirs).collect();
    }
    v
}

/// The pile just completed of a puzzle written by [`to_json`]: `None`
/// when its view has no Block window open; an error when the window's
/// pile is not named, or the named one cannot be it: its place must be of
/// the window's colour and free again (S3), its card a 5 or a wild of that
/// colour among the cards set aside (S5b).
///
/// # Errors
/// As above, or a malformed `completed`.
pub fn completion_from_json(p: &Value, view: &SeatView) -> Result<Option<Completion>, String> {
    let Some(w) = view.block_window else {
        return match p.get("completed") {
            None => Ok(None),
            Some(_) => Err("completed: no Block window is open".into()),
        };
    };
    let c = p
        .get("completed")
        .ok_or("completed: a Block window's pile is not named (S5b)")?;
    let place = c["place"]
        .as_str()
        .and_then(Place::from_name)
        .ok_or(format!("completed.place: {} is not a place", c["place"]))?;
    let card: Card = c["card"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or(format!("completed.card: {} is not a card", c["card"]))?;
    if place.colour() != w.colour {
        return Err(format!("completed: {place} is not {}", w.colour.name()));
    }
    if view
        .piles
        .iter()
        .any(|p| p.place == place && !p.cards.is_empty())
    {
        return Err(format!("completed: the pile at {place} is still there"));
    }
    if card.colour() != Some(w.colour) || !(card.is_wild() || card.number() == Some(5)) {
        return Err(format!(
            "completed: {} cannot complete a pile of {place}",
            card.code()
        ));
    }
    if !view.completed.contains(&card) {
        return Err(format!("completed: no {} is set aside", card.code()));
    }
    Ok(Some(Completion { place, card }))
}

/// Reads the view of a puzzle written by [`to_json`] (its legal decisions
/// listed again by the engine).
///
/// # Errors
/// When the view is malformed.
pub fn view_from_json(v: &Value) -> Result<SeatView, String> {
    let mut view = v["view"].clone();
    let o = view.as_object_mut().ok_or("view: not an object")?;
    for k in ["game", "legal_moves", "winner", "last_move"] {
        o.remove(k);
    }
    o.insert("legal".into(), json!([]));
    let mut view: SeatView = serde_json::from_value(view).map_err(|e| format!("view: {e}"))?;
    if view.to_act.is_some() && view.to_act == view.seat {
        view.legal = decisions(&game_of(&view)?);
    }
    Ok(view)
}

/// Self-play (greedy bots, a share of their moves random; two players for
/// even seeds, three for odd ones; ChaCha8 from the seed) from `first_seed`
/// on; calls `found` with every puzzle until it returns false.
pub fn self_play(first_seed: u64, mut found: impl FnMut(&SeatView, &Solved, u64, u32) -> bool) {
    use crate::Bot;
    let mut seed = first_seed;
    loop {
        let players = 2 + (seed % 2) as u8;
        let config = Config::new(players, Options::default()).expect("a table (S1)");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut g, _) = Game::deal(config, &mut rng);
        let mut bots: Vec<Box<dyn Bot<Game>>> = (0..players)
            .map(|i| crate::bot::<Game>("greedy:25%", seed * 8 + u64::from(i)).expect("a bot"))
            .collect();
        let mut taken: Vec<&str> = vec![];
        // the latest completion: while a Block window is open, its pile
        let mut completed = None;
        while let Some(seat) = g.to_act() {
            if g.ply() > 3000 {
                break;
            }
            let window = g.block_offer().is_some();
            if window || g.to_act() == Some(g.turn()) {
                let view = g.view(seat);
                if let Ok(Some(mut s)) =
                    solve(&view).map(|s| s.filter(|s| !taken.contains(&s.kind)))
                {
                    taken.push(s.kind);
                    if window {
                        s.why.completed = completed;
                    }
                    if !found(&view, &s, seed, g.ply()) {
                        return;
                    }
                }
            }
            let d = bots[seat.index()].choose(&g.view(seat));
            if let Some(c) = Completion::of(&g, d) {
                completed = Some(c);
            }
            let mut r = sequence_common::RngReshuffler(&mut rng);
            if g.play(seat, d, &mut r).is_err() {
                break;
            }
        }
        seed += 1;
    }
}
