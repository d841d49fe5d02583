//! Writes the script of a tutorial (issue 25): the learner's moves, one
//! lesson step each, in the game the tutorial's table plays (its fixed
//! deal and seeded bot, `src/tables/tutorial.rs`).
//!
//! ```sh
//! cargo run -p sequence-server --example tutorial_script -- [--game classic|stacks] [--seeds N] [--tries N] > crates/sequence-server/web/tutorial/GAME.json
//! ```
//!
//! Classic (the default): it plays the tutorial's game as the server does — the same start, the
//! same bot with the same seeds — with a scripted learner that takes the
//! lesson's steps in order (C6: place a chip, a two-eyed jack, a one-eyed
//! jack's removal, a dead-card exchange; C8: a sequence, which wins with
//! the tutorial's one-sequence option), placing chips in between where
//! they build its best line. The deals of seeds 0 … `--seeds` (and the
//! tutorial's own) are tried, the learner's choices with `--tries` seeded
//! variations each (ChaCha8 from the try's number); the shortest game that
//! takes every step wins, and its seed is the one to give the tutorial in
//! `src/tables/tutorial.rs`. Reproducible: the same command writes the
//! same file. `tests/tutorial.rs` plays the file against the server.
//!
//! Stacks (`stacks.rs` beside this file): the same search, with a learner
//! that builds piles (S3), plays a wild (S3), completes a pile (S3), plays
//! an action card (Skip or Steal-a-Chip, S5), answers every Block window
//! and Blocks once (S5b) and ends each turn with a discard (S4); the
//! script ends with the discard after the last lesson step (`"ends":
//! "lesson"`: the game goes on, the lesson is over).

use rand::Rng;
use sequence_common::AnyGame;
use sequence_common::{GameKind, Seat};
use sequence_server::tables::spec::Spec;
use sequence_server::tables::tutorial;
use serde_json::{json, Value};

#[path = "tutorial_script/stacks.rs"]
mod stacks;

/// The lesson's steps, in order.
const STEPS: [&str; 5] = ["place", "two_eyed", "one_eyed", "dead", "sequence"];
/// The longest lesson searched for, in learner moves.
const MAX_MOVES: usize = 14;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |flag: &str, default: u64| match args.iter().position(|a| a == flag) {
        None => default,
        Some(i) => args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                eprintln!("{flag} takes a number");
                std::process::exit(2)
            }),
    };
    let (seeds, tries) = (number("--seeds", 0), number("--tries", 50));
    let name = match args.iter().position(|a| a == "--game") {
        None => "classic",
        Some(i) => args.get(i + 1).map_or("", String::as_str),
    };
    let Some(t) = tutorial::find(name) else {
        eprintln!("--game takes classic or stacks");
        std::process::exit(2)
    };
    let mut best: Option<(u64, Vec<Value>)> = None;
    for seed in std::iter::once(t.seed).chain(0..seeds) {
        for k in 0..tries {
            let steps = match t.game {
                GameKind::Classic => lesson(t, seed, k),
                GameKind::Stacks => stacks::lesson(t, seed, k),
            };
            if let Some(steps) = steps {
                if best.as_ref().is_none_or(|b| steps.len() < b.1.len()) {
                    eprintln!("seed {seed}, try {k}: {} learner moves", steps.len());
                    best = Some((seed, steps));
                }
            }
        }
    }
    let Some((seed, steps)) = best else {
        eprintln!("no game takes every step");
        std::process::exit(1)
    };
    if seed != t.seed {
        eprintln!("give the tutorial the seed {seed} (src/tables/tutorial.rs)");
    }
    let mut out = json!({
        "tutorial": t.name,
        "game": t.game.name(),
        "seed": seed,
        "steps": steps,
    });
    if t.game == GameKind::Stacks {
        out["ends"] = json!("lesson");
    }
    println!("{}", serde_json::to_string_pretty(&out).expect("JSON"));
}

fn board_at(view: &Value, r: usize, c: usize) -> char {
    view["board"][r]
        .as_str()
        .and_then(|row| row.chars().nth(c))
        .unwrap_or('.')
}

fn rc(space: &str) -> (usize, usize) {
    let c = (space.as_bytes()[0] - b'a') as usize;
    let r: usize = space[1..].parse().expect("a row");
    (r - 1, c)
}

/// The most chips of `mine` (corners count) in a line of five through
/// `space` that holds none of the others' chips.
fn line_score(view: &Value, space: &str, mine: char) -> i32 {
    let (r0, c0) = rc(space);
    let mut best = 0;
    for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
        for back in 0..5 {
            let mut n = 0;
            let mut ok = true;
            for i in 0..5 {
                let r = r0 as i32 + (i - back) * dr;
                let c = c0 as i32 + (i - back) * dc;
                if !(0..10).contains(&r) || !(0..10).contains(&c) {
                    ok = false;
                    break;
                }
                let ch = board_at(view, r as usize, c as usize).to_ascii_uppercase();
                if ch == '*' || ch == mine {
                    n += 1;
                } else if ch != '.' {
                    ok = false;
                }
            }
            if ok {
                best = best.max(n);
            }
        }
    }
    best
}

fn is_jack(mv: &Value, two_eyed: bool) -> bool {
    let card = mv["card"].as_str().unwrap_or("");
    if two_eyed {
        card == "JD" || card == "JC"
    } else {
        card == "JS" || card == "JH"
    }
}

fn after(live: &dyn AnyGame, mv: &Value) -> Box<dyn AnyGame> {
    let mut next = live.clone_box();
    next.play_json(mv).expect("a legal move");
    next
}

/// The game of the tutorial `t` (of the game `kind`) dealt from `seed`,
/// started as the server starts it.
fn start(kind: GameKind, t: &tutorial::Tutorial, seed: u64) -> Option<Box<dyn AnyGame>> {
    let spec = Spec {
        options: t.options(),
        tutorial: Some(t.name.into()),
        ..Spec::plain(kind, 2, "tutorial")
    };
    spec.deal(seed).ok()
}

/// Plays the tutorial's bot (seat 1, seeded as the server seeds it; its
/// moves counted in `moves`) until the learner is to act, `Some(seat)`, or
/// the game is over, `Some(None)`; `None` when no seat acts or a bot's
/// move fails.
fn bot_turns(
    live: &mut Box<dyn AnyGame>,
    t: &tutorial::Tutorial,
    seed: u64,
    moves: &mut u32,
) -> Option<Option<Seat>> {
    while !live.outcome().is_over() {
        let seat = live.to_act()?;
        if seat != Seat(1) {
            return Some(Some(seat));
        }
        let view = live.view(Some(seat));
        let entry = sequence_server::bots::choose(
            t.level,
            view.as_ref(),
            tutorial::bot_seed(seed, *moves),
        )?;
        live.play_entry(&entry).ok()?;
        *moves += 1;
    }
    Some(None)
}

/// One try (number `k`) at the deal of `seed`: the learner's steps, or
/// `None` when it does not take every step within [`MAX_MOVES`].
fn lesson(t: &tutorial::Tutorial, seed: u64, k: u64) -> Option<Vec<Value>> {
    let mut live = start(GameKind::Classic, t, seed)?;
    let mut rng = sequence_common::rng::game_rng(k);
    let mut moves = 0u32;
    let mut stage = 0usize;
    let mut steps = vec![];
    while let Some(seat) = bot_turns(&mut live, t, seed, &mut moves)? {
        if steps.len() >= MAX_MOVES {
            return None;
        }
        let view = live.view_json(Some(seat));
        let mine = view["team"].as_str()?.chars().next()?.to_ascii_uppercase();
        let legal = view["legal_moves"].as_array()?.clone();
        let wins = |mv: &Value| after(live.as_ref(), mv).outcome().is_over();
        let placing = |mv: &&Value| mv.get("at").is_some() && !is_jack(mv, true);
        let noise = |rng: &mut sequence_common::rng::GameRng| rng.random_range(0..3);
        let mut pick: Option<(&str, Value)> = None;
        match STEPS[stage] {
            "dead" => {
                if let Some(mv) = legal.iter().find(|m| m.get("dead").is_some()) {
                    pick = Some(("dead", mv.clone()));
                }
            }
            "sequence" => {
                if let Some(mv) = legal.iter().find(|m| m.get("at").is_some() && wins(m)) {
                    pick = Some(("sequence", mv.clone()));
                }
            }
            "two_eyed" => {
                pick = legal
                    .iter()
                    .filter(|m| is_jack(m, true) && !wins(m))
                    .max_by_key(|m| {
                        line_score(&view, m["at"].as_str().unwrap_or("a1"), mine) * 4
                            + noise(&mut rng)
                    })
                    .map(|m| ("two_eyed", m.clone()));
            }
            "one_eyed" => {
                pick = legal
                    .iter()
                    .find(|m| is_jack(m, false) && m.get("remove").is_some())
                    .map(|m| ("one_eyed", m.clone()));
            }
            _ => {}
        }
        let pick = match pick {
            Some((kind, mv)) => {
                stage += 1;
                (kind, mv)
            }
            None => {
                // a chip that builds the best line (the first step, and the
                // moves between steps); before the dead-card step, rather
                // one that leaves a card of the hand dead
                let want_dead = STEPS[stage] == "dead";
                let mv = legal
                    .iter()
                    .filter(placing)
                    .filter(|m| !wins(m))
                    .max_by_key(|m| {
                        let dead = want_dead
                            && after(live.as_ref(), m).view_json(Some(seat))["dead"]
                                .as_array()
                                .is_some_and(|d| !d.is_empty());
                        i32::from(dead) * 100
                            + line_score(&view, m["at"].as_str().unwrap_or("a1"), mine) * 4
                            + noise(&mut rng)
                    })?
                    .clone();
                if stage == 0 {
                    stage = 1;
                    ("place", mv)
                } else {
                    ("chip", mv)
                }
            }
        };
        live.play_json(&pick.1).ok()?;
        steps.push(json!({"at": moves, "kind": pick.0, "move": pick.1}));
        moves += 1;
    }
    (stage == STEPS.len()).then_some(steps)
}
