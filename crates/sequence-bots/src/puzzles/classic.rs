//! Classic Sequence puzzles (issue 25): positions of two-player games
//! where one move is clearly best, judged by a short worst-case search
//! over the engine ([`solve`]).
//!
//! The puzzle's player is seat 0, team blue; what it knows is the board,
//! the sequences, its hand and the discard piles. Every card it cannot see
//! (the `unseen` ones: C1's two decks less its hand and the discards) may
//! be in the opponent's hand. A move's value, best first:
//!
//! 4. **wins now** (C9: the move completes the sequences needed);
//! 3. **keeps a win**: the opponent cannot win next turn, and whatever
//!    single move it makes (any unseen card: a chip on any space a card
//!    could reach, a one-eyed jack's removal), a card still in the hand
//!    wins the turn after (a double threat);
//! 2. **threatens**: the opponent cannot win next turn, and a card still
//!    in the hand wins the turn after unless the opponent stops it;
//! 1. **safe**: the opponent cannot win next turn;
//! 0. **loses**: some unseen card would let the opponent win next turn.
//!
//! A position is a puzzle when exactly one move (a dead-card exchange is
//! not counted, C6) has the best value and that value is at least "safe"
//! ("threatens" counted as "safe": a block is the only move that stops the
//! opponent), or — the dead-card puzzle — when every play loses and
//! exchanging the dead card is the only chance (some unseen card would
//! then save it). The window puzzles (C8, C8a) name a placement that
//! makes a line longer than five and ask for the five spaces to declare:
//! * "threatens" counts on its own: the placement is one of the best moves
//!   (at least "threatens"), and exactly one choice of the five keeps that
//!   value (a second sequence may share only one space with the first, C8,
//!   so the wrong five leave no win next turn; or a declared chip is locked
//!   against a one-eyed jack); grade 3;
//! * the long line: where no position is a puzzle otherwise, the placement
//!   is a best move (no better than "safe") and exactly one choice of the
//!   five leaves the team's next sequence nearest (fewest empty spaces of
//!   a line of five with no opponent's chip that shares at most one space
//!   with each of the team's sequences, C8), at most [`NEAR`] chips away,
//!   the other choices further; grade 2.
//!
//! The search depth (three plies, no draws counted) is the budget: the
//! solution is the only move that keeps the best outcome within it.

use rand::SeedableRng;
use sequence_classic::notation::move_to_json;
use sequence_classic::{
    Bitboard, Card, Completions, Config, Declaration, Dir, Game, Move, MoveList, Options, Position,
    Space, Status, Team, Window, CORNERS,
};
use sequence_common::{NoReshuffler, Seat};
use serde_json::{json, Value};

const ME: Seat = Seat(0);
const OPP: Seat = Seat(1);
const BLUE: Team = Team(0);
const GREEN: Team = Team(1);

/// A move's value (module docs), best last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value3 {
    /// The opponent can win next turn.
    Loses,
    /// The opponent cannot win next turn.
    Safe,
    /// Safe, and a card of the hand wins the turn after unless the
    /// opponent stops it.
    Threatens,
    /// Wins the turn after, whatever the opponent does.
    KeepsWin,
    /// Wins now.
    Wins,
}

/// What the puzzle's player knows: the position of a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Known {
    /// Chips on the board (blue is the player's team).
    pub chips: Vec<(Team, Space)>,
    /// Completed sequences.
    pub sequences: Vec<(Team, Window)>,
    /// The player's hand.
    pub hand: Vec<Card>,
    /// Every discarded card (both discard piles).
    pub discards: Vec<Card>,
}

/// A solved classic position ([`Solved`](super::Solved)): `kind` is
/// `win`, `jack` (a win that needs a two-eyed jack), `block`, `fork` (the
/// only move that keeps a win), `window` (a placement that makes a line
/// longer than five: the only declaration, C8a, that keeps the best value)
/// or `dead` (the dead-card exchange, C6); `grade` 1 (easy: a win or a
/// block with the card of the space), 2 (a jack is needed, the dead-card
/// exchange, a fork made with the card of the space, the window of the
/// long line) or 3 (hard: a fork that needs a jack, a window that keeps a
/// win next turn, one move against several threats).
pub type Solved = super::Solved<Move, Why>;

/// What explains a classic puzzle's solution.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Why {
    /// The spaces where the opponent would win next turn if nothing is done.
    pub threats: Vec<Space>,
    /// For `fork`/`window`: the spaces where the player wins next turn.
    pub wins: Vec<Space>,
    /// For a `window` of the long line: the empty spaces of the nearest
    /// line of five the player's next sequence may take (C8).
    pub need: Vec<Space>,
    /// For `dead`: how many of the unseen cards would save the game, of how
    /// many.
    pub chance: Option<(u32, u32)>,
}

fn config() -> Config {
    Config::new(2, None, Options::default()).expect("two players are a table (C3)")
}

/// Two copies of each card (C1), less the hand and the discards.
fn unseen(k: &Known) -> [u8; 52] {
    let mut n = [2u8; 52];
    for c in k.hand.iter().chain(&k.discards) {
        n[c.index()] = n[c.index()].saturating_sub(1);
    }
    n
}

/// The game of a known position with `turn` to move; the opponent's hand
/// is filled with unseen cards the search never looks at.
///
/// # Errors
/// When the position is not one of the engine's (cards, chips, sequences).
pub fn game_of(k: &Known, turn: Seat) -> Result<Game, String> {
    let mut rest: Vec<Card> = Vec::new();
    let n = unseen(k);
    for c in Card::all() {
        for _ in 0..n[c.index()] {
            rest.push(c);
        }
    }
    let hand_size = 7usize.min(rest.len());
    let opp: Vec<Card> = rest[..hand_size].to_vec();
    let pos = Position {
        chips: k.chips.clone(),
        sequences: k.sequences.clone(),
        hands: vec![k.hand.clone(), opp],
        discards: k
            .discards
            .iter()
            .enumerate()
            .map(|(i, c)| (Seat((i % 2) as u8), *c))
            .collect(),
        draw_pile: None,
        turn,
    };
    Game::from_position(config(), &pos).map_err(|e| e.to_string())
}

/// The known position of `g` after a move (its chips and sequences), with
/// the player's hand `hand`.
fn known_after(g: &Game, hand: Vec<Card>, discards: Vec<Card>) -> Known {
    let mut chips = vec![];
    for t in [BLUE, GREEN] {
        chips.extend(g.chips(t).iter().map(|s| (t, s)));
    }
    Known {
        chips,
        sequences: g.sequences().collect(),
        hand,
        discards,
    }
}

fn wins_at(g: &Game, team: Team, s: Space) -> bool {
    g.completions_at(s)
        .is_some_and(|c| g.sequence_count(team) + c.most() >= g.win_sequences())
}

fn reachable(g: &Game, s: Space, unseen: &[u8; 52]) -> bool {
    let two_eyed = unseen[Card::JD.index()] + unseen[Card::JC.index()] > 0;
    two_eyed || g.layout().card_at(s).is_some_and(|c| unseen[c.index()] > 0)
}

/// Where the opponent (to move in `g`) could win with an unseen card.
fn threats(g: &Game, unseen: &[u8; 52]) -> Vec<Space> {
    Space::all()
        .filter(|&s| wins_at(g, GREEN, s) && reachable(g, s, unseen))
        .collect()
}

/// Where the player (to move in `g`) wins with a card of `hand`.
fn win_spaces(g: &Game, hand: &[Card]) -> Vec<Space> {
    let jack = hand.iter().any(|c| c.is_two_eyed_jack());
    Space::all()
        .filter(|&s| {
            (jack || g.layout().card_at(s).is_some_and(|c| hand.contains(&c)))
                && wins_at(g, BLUE, s)
        })
        .collect()
}

/// The placements of `mv` with each declaration the player may choose
/// (C8a), or `mv` alone.
fn with_declarations(g: &Game, mv: Move) -> Vec<Move> {
    if let Move::Place { card, at, .. } = mv {
        let choices = g.completions_at(at).map(|c: Completions| c.all_choices());
        if let Some(ch) = choices.filter(|c| c.len() > 1) {
            return ch
                .iter()
                .map(|ws| Move::Place {
                    card,
                    at,
                    declare: Some(Declaration::new(ws)),
                })
                .collect();
        }
    }
    vec![mv]
}

/// The player's moves to weigh (every play; no dead-card exchange).
pub fn candidates(g: &Game) -> Vec<Move> {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    list.iter()
        .filter(|m| matches!(m, Move::Place { .. } | Move::Remove { .. }))
        .flat_map(|m| with_declarations(g, *m))
        .collect()
}

/// The value of the player's move `mv` in `k` (module docs), with the
/// opponent's winning spaces after it and the player's winning spaces.
pub fn value(k: &Known, mv: Move) -> Result<(Value3, Vec<Space>, Vec<Space>), String> {
    let mut g = game_of(k, ME)?;
    let hidden = unseen(k);
    g.play(ME, mv, &mut NoReshuffler)
        .map_err(|e| e.to_string())?;
    if g.status() == Status::Won(BLUE) {
        return Ok((Value3::Wins, vec![], vec![]));
    }
    let t = threats(&g, &hidden);
    if !t.is_empty() {
        return Ok((Value3::Loses, t, vec![]));
    }
    let mut hand = k.hand.clone();
    if let Some(i) = mv.card().and_then(|c| hand.iter().position(|h| *h == c)) {
        hand.remove(i);
    }
    let mut discards = k.discards.clone();
    discards.extend(mv.card());
    let after = known_after(&g, hand.clone(), discards);
    let mine = game_of(&after, ME)?;
    let wins = win_spaces(&mine, &hand);
    if wins.is_empty() {
        return Ok((Value3::Safe, vec![], vec![]));
    }
    // every reply that could touch the wins: a chip on one of them, or a
    // one-eyed jack's removal of one of the player's chips
    let mut replies: Vec<Known> = vec![];
    for &s in &wins {
        if reachable(&g, s, &hidden) {
            let mut r = after.clone();
            r.chips.push((GREEN, s));
            replies.push(r);
        }
    }
    if hidden[Card::JS.index()] + hidden[Card::JH.index()] > 0 {
        for s in mine
            .chips(BLUE)
            .iter()
            .filter(|s| !mine.locked().contains(*s))
        {
            let mut r = after.clone();
            r.chips.retain(|c| *c != (BLUE, s));
            replies.push(r);
        }
    }
    for r in &replies {
        if win_spaces(&game_of(r, ME)?, &hand).is_empty() {
            return Ok((Value3::Threatens, vec![], wins));
        }
    }
    Ok((Value3::KeepsWin, vec![], wins))
}

/// The best value the player can reach with `hand` in `k` (the dead-card
/// puzzle: after an exchange).
fn best_with(k: &Known) -> Result<Value3, String> {
    let g = game_of(k, ME)?;
    let mut best = Value3::Loses;
    for mv in candidates(&g) {
        best = best.max(value(k, mv)?.0);
        if best == Value3::Wins {
            break;
        }
    }
    Ok(best)
}

/// Solves a position: `Some` when it is a puzzle (module docs).
///
/// # Errors
/// When the position is not one of the engine's.
pub fn solve(k: &Known) -> Result<Option<Solved>, String> {
    let g = game_of(k, ME)?;
    let moves = candidates(&g);
    if moves.len() < 2 {
        return Ok(None);
    }
    let mut scored = vec![];
    for &mv in &moves {
        scored.push((mv, value(k, mv)?));
    }
    if let Some(w) = window_puzzle(&scored, moves.len()) {
        return Ok(Some(w));
    }
    // apart from the window puzzle a threat is no better than safe: a
    // block must be the only move that stops the opponent
    for s in &mut scored {
        if s.1 .0 == Value3::Threatens {
            s.1 .0 = Value3::Safe;
        }
    }
    if let Some(found) = judge(k, &g, &scored, moves.len())? {
        return Ok(Some(found));
    }
    near_window(k, &scored, moves.len())
}

/// A move and its value ([`value`]).
type Scored = (Move, (Value3, Vec<Space>, Vec<Space>));

/// The puzzles of one best move (module docs), on the moves' values with
/// "threatens" counted as "safe".
fn judge(k: &Known, g: &Game, scored: &[Scored], moves: usize) -> Result<Option<Solved>, String> {
    let best = scored.iter().map(|s| s.1 .0).max().unwrap_or(Value3::Loses);
    let good: Vec<_> = scored.iter().filter(|s| s.1 .0 == best).collect();
    let threats_now = {
        let opp = game_of(k, OPP)?;
        threats(&opp, &unseen(k))
    };
    let dead: Vec<Card> = k.hand.iter().copied().filter(|c| g.is_dead(*c)).collect();
    if best == Value3::Loses {
        return match dead.first() {
            Some(&d) => dead_puzzle(k, d, threats_now, moves),
            None => Ok(None),
        };
    }
    if good.len() != 1 || !dead.is_empty() {
        return Ok(None);
    }
    let (mv, (_, _, wins)) = good[0].clone();
    // several threats that one move must stop are the hard blocks
    let many = threats_now.len() > 1;
    let (kind, grade) = match (best, mv) {
        (Value3::Wins, Move::Place { card, .. }) if card.is_two_eyed_jack() => ("jack", 2),
        (Value3::Wins, _) => ("win", 1),
        (Value3::KeepsWin, Move::Place { card, .. }) if !card.is_jack() => ("fork", 2),
        (Value3::KeepsWin, _) => ("fork", 3),
        (Value3::Safe, _) if many => ("block", 3),
        (Value3::Safe, Move::Place { card, .. }) if !card.is_jack() => ("block", 1),
        (Value3::Safe, _) => ("block", 2),
        (Value3::Loses | Value3::Threatens, _) => return Ok(None),
    };
    if kind == "block" && threats_now.is_empty() {
        return Ok(None);
    }
    Ok(Some(Solved {
        kind,
        grade,
        solution: mv,
        moves,
        why: Why {
            threats: if best == Value3::Safe {
                threats_now
            } else {
                vec![]
            },
            wins,
            ..Why::default()
        },
    }))
}

/// The window puzzle (module docs): a placement whose line is longer than
/// five (it has several declarations, C8a) is one of the best moves, and of
/// its declarations exactly one keeps that best value, which is at least
/// "threatens". Exactly one such placement in the position.
fn window_puzzle(scored: &[Scored], moves: usize) -> Option<Solved> {
    let best = scored.iter().map(|s| s.1 .0).max()?;
    if best < Value3::Threatens {
        return None;
    }
    let mut found: Option<&Scored> = None;
    for g in placements(scored) {
        let mut top = scored
            .iter()
            .filter(|s| declared(&s.0) == Some(g) && s.1 .0 == best);
        let (Some(one), None) = (top.next(), top.next()) else {
            continue;
        };
        if found.replace(one).is_some() {
            return None;
        }
    }
    let (mv, (_, _, wins)) = found?;
    Some(Solved {
        kind: "window",
        grade: 3,
        solution: *mv,
        moves,
        why: Why {
            wins: wins.clone(),
            ..Why::default()
        },
    })
}

/// The card and space of a placement that declares its sequences (C8a).
fn declared(m: &Move) -> Option<(Card, Space)> {
    match *m {
        Move::Place {
            card,
            at,
            declare: Some(_),
        } => Some((card, at)),
        _ => None,
    }
}

/// The placements among `scored` that declare their sequences, each once.
fn placements(scored: &[Scored]) -> Vec<(Card, Space)> {
    let mut out: Vec<(Card, Space)> = scored.iter().filter_map(|s| declared(&s.0)).collect();
    out.dedup();
    out
}

/// Most chips a window puzzle's second sequence may still need.
const NEAR: usize = 3;

/// The spaces the player's next sequence still needs after `mv`: those of
/// the line of five with the fewest empty spaces that holds no opponent's
/// chip and shares at most one space with each of the team's sequences
/// (C8); the first such line in reading order. `None` when none is left.
///
/// # Errors
/// When the position is not one of the engine's or `mv` is illegal.
pub fn second_need(k: &Known, mv: Move) -> Result<Option<Vec<Space>>, String> {
    let mut g = game_of(k, ME)?;
    g.play(ME, mv, &mut NoReshuffler)
        .map_err(|e| e.to_string())?;
    let own = g.chips(BLUE) | CORNERS;
    let opp = g.chips(GREEN);
    let done: Vec<Bitboard> = g
        .sequences()
        .filter(|(t, _)| *t == BLUE)
        .map(|(_, w)| w.mask(5))
        .collect();
    let mut best: Option<Vec<Space>> = None;
    for s in Space::all() {
        for d in Dir::ALL {
            let Some(w) = Window::new(s, d, 5) else {
                continue;
            };
            let m = w.mask(5);
            if !(m & opp).is_empty() || done.iter().any(|q| (*q & m).count() > 1) {
                continue;
            }
            let need: Vec<Space> = (m & !own).iter().collect();
            if best.as_ref().is_none_or(|b| need.len() < b.len()) {
                best = Some(need);
            }
        }
    }
    Ok(best)
}

/// The window puzzle of the long line (module docs): a placement that
/// makes a line longer than five is a best move, no better than safe, and
/// exactly one of its choices of the five leaves the next sequence
/// nearest — at most [`NEAR`] chips away, the others further (a second
/// sequence may share only one space with the first, C8).
fn near_window(k: &Known, scored: &[Scored], moves: usize) -> Result<Option<Solved>, String> {
    let best = scored.iter().map(|s| s.1 .0).max().unwrap_or(Value3::Loses);
    if best != Value3::Safe {
        return Ok(None);
    }
    let mut found: Option<(Move, Vec<Space>)> = None;
    for g in placements(scored) {
        let mut ranked = vec![];
        for s in scored
            .iter()
            .filter(|s| declared(&s.0) == Some(g) && s.1 .0 == best)
        {
            let need = second_need(k, s.0)?.map_or(usize::MAX, |n| n.len());
            ranked.push((need, s.0));
        }
        ranked.sort_by_key(|r| r.0);
        let [(n, mv), (next, _), ..] = ranked[..] else {
            continue;
        };
        if n > NEAR || next == n {
            continue;
        }
        if found.is_some() {
            return Ok(None);
        }
        found = Some((mv, second_need(k, mv)?.unwrap_or_default()));
    }
    Ok(found.map(|(mv, need)| Solved {
        kind: "window",
        grade: 2,
        solution: mv,
        moves,
        why: Why {
            need,
            ..Why::default()
        },
    }))
}

/// Every play loses: exchanging the dead card `d` is the only chance when
/// some unseen card, drawn in its place, would give a play that is safe.
fn dead_puzzle(
    k: &Known,
    d: Card,
    threats_now: Vec<Space>,
    moves: usize,
) -> Result<Option<Solved>, String> {
    let hidden = unseen(k);
    let (mut saving, mut total) = (0u32, 0u32);
    for c in Card::all() {
        let n = u32::from(hidden[c.index()]);
        if n == 0 {
            continue;
        }
        total += n;
        let mut next = k.clone();
        if let Some(i) = next.hand.iter().position(|h| *h == d) {
            next.hand[i] = c;
        }
        next.discards.push(d);
        if best_with(&next)? >= Value3::Safe {
            saving += n;
        }
    }
    if saving == 0 || threats_now.is_empty() {
        return Ok(None);
    }
    Ok(Some(Solved {
        kind: "dead",
        grade: if threats_now.len() > 1 { 3 } else { 2 },
        solution: Move::Dead { card: d },
        moves,
        why: Why {
            threats: threats_now,
            chance: Some((saving, total)),
            ..Why::default()
        },
    }))
}

/// What seat `me` of `g` knows, its team as blue.
pub fn known_of(g: &Game, me: Seat) -> Known {
    let mine = g.team_of(me);
    let swap = |t: Team| if t == mine { BLUE } else { GREEN };
    let mut chips = vec![];
    for t in [BLUE, GREEN] {
        chips.extend(g.chips(t).iter().map(|s| (swap(t), s)));
    }
    Known {
        chips,
        sequences: g.sequences().map(|(t, w)| (swap(t), w)).collect(),
        hand: g.hand(me).to_vec(),
        discards: g.discards().map(|(_, c)| c).collect(),
    }
}

fn space_list(s: &[Space]) -> Value {
    json!(s.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

/// A puzzle as the data file holds it (`web/puzzles/classic.json`): the
/// position (`board` rows as `sequence verify` writes them, blue = the
/// player; `sequences` as `[team, first, last]`; `hand`; `discards`), the
/// `solution` in record notation (RECORD.md, seat 0), and what explains
/// it (`threats`, `wins`, `chance`), with where it came from (`from`: the
/// self-play game's seed and move number).
pub fn to_json(id: &str, k: &Known, s: &Solved, seed: u64, at: u32) -> Value {
    let g = game_of(k, ME).expect("a solved position is a game");
    let mut mv = move_to_json(ME, &s.solution, 5);
    if let Some(o) = mv.as_object_mut() {
        o.remove("seat");
    }
    let mut v = s.head(id, seed, at);
    v["board"] = json!(g.board_rows());
    v["sequences"] = g
        .sequences()
        .map(|(t, w)| json!([t.colour(), w.start.to_string(), w.last(5).to_string()]))
        .collect();
    v["hand"] = k.hand.iter().map(|c| c.to_string()).collect();
    v["discards"] = k.discards.iter().map(|c| c.to_string()).collect();
    v["solution"] = mv;
    v["threats"] = space_list(&s.why.threats);
    v["wins"] = space_list(&s.why.wins);
    if !s.why.need.is_empty() {
        v["need"] = space_list(&s.why.need);
    }
    if let Some((a, b)) = s.why.chance {
        v["chance"] = json!([a, b]);
    }
    if let Move::Place {
        card,
        at: space,
        declare: Some(_),
    } = s.solution
    {
        // every declaration the placement may make (C8a), in record
        // notation: the page offers them as the table does
        let placed = Move::Place {
            card,
            at: space,
            declare: None,
        };
        let choices: Vec<Value> = with_declarations(&g, placed)
            .iter()
            .map(|m| move_to_json(ME, m, 5)["declare"].clone())
            .collect();
        v["choices"] = json!(choices);
    }
    v
}

/// Reads the position of a puzzle written by [`to_json`].
///
/// # Errors
/// Names the field that is malformed.
pub fn known_from_json(v: &Value) -> Result<Known, String> {
    let strs = |key: &str| -> Result<Vec<String>, String> {
        v[key]
            .as_array()
            .ok_or(format!("{key}: not a list"))?
            .iter()
            .map(|x| {
                x.as_str()
                    .map(String::from)
                    .ok_or(format!("{key}: not text"))
            })
            .collect()
    };
    let cards = |key: &str| -> Result<Vec<Card>, String> {
        strs(key)?
            .iter()
            .map(|c| c.parse::<Card>().map_err(|e| format!("{key}: {e}")))
            .collect()
    };
    let mut chips = vec![];
    for (r, row) in strs("board")?.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let team = match ch.to_ascii_uppercase() {
                'B' => BLUE,
                'G' => GREEN,
                '.' | '*' => continue,
                other => return Err(format!("board: chip {other}")),
            };
            let s = Space::new(r as u8, c as u8).ok_or("board: off the board")?;
            chips.push((team, s));
        }
    }
    let mut sequences = vec![];
    for s in v["sequences"].as_array().ok_or("sequences: not a list")? {
        let team = match s[0].as_str() {
            Some("blue") => BLUE,
            Some("green") => GREEN,
            _ => return Err(format!("sequences: team of {s}")),
        };
        let end = |i: usize| -> Result<Space, String> {
            s[i].as_str()
                .and_then(|x| x.parse().ok())
                .ok_or(format!("sequences: space of {s}"))
        };
        let w = Window::from_ends(end(1)?, end(2)?, 5).map_err(|e| e.to_string())?;
        sequences.push((team, w));
    }
    Ok(Known {
        chips,
        sequences,
        hand: cards("hand")?,
        discards: cards("discards")?,
    })
}

/// Plays two-player self-play games (greedy bots, a share of their moves
/// random, ChaCha8 from `seed`) and solves the position before every move:
/// calls `found` with each puzzle (the position, its solution, the game's
/// seed and the move number) until it returns false.
pub fn self_play(first_seed: u64, mut found: impl FnMut(&Known, &Solved, u64, u32) -> bool) {
    use crate::Bot;
    let mut seed = first_seed;
    loop {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut g, _) = <Game as sequence_common::Rules>::deal(&config(), &mut rng);
        let mut bots: Vec<Box<dyn Bot<Game>>> = (0..2)
            .map(|i| crate::bot::<Game>("greedy:25%", seed * 2 + i).expect("a bot"))
            .collect();
        // at most one puzzle of each kind from a game
        let mut taken: Vec<&str> = vec![];
        while !g.is_over() && g.ply() < 300 {
            let seat = g.turn();
            if !g.dead_exchanged() {
                let k = known_of(&g, seat);
                if let Ok(Some(s)) = solve(&k).map(|s| s.filter(|s| !taken.contains(&s.kind))) {
                    taken.push(s.kind);
                    if !found(&k, &s, seed, g.ply()) {
                        return;
                    }
                }
            }
            let mv = bots[seat.index()].choose(&g.view(seat));
            let mut r = sequence_common::RngReshuffler(&mut rng);
            if g.play(seat, mv, &mut r).is_err() {
                break;
            }
        }
        seed += 1;
    }
}
