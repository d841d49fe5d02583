//! Bots: legal moves only, tactics (winning, blocking), reproducible
//! search, arena results and JSON, the bot protocol's failure handling, and
//! `sequence hint`.

use proptest::prelude::*;
use sequence_bots::arena::{self, ArenaConfig, GameKind};
use sequence_bots::{bot, Bot, Budget, SearchConfig};
use sequence_classic::record::Match;
use sequence_classic::{Config, Game, Move, Options, RngReshuffler, Seat, Space, Team};

fn classic_bot(spec: &str, seed: u64) -> Box<dyn Bot<Game>> {
    bot::<Game>(spec, seed).expect("bot")
}

fn stacks_bot(spec: &str, seed: u64) -> Box<dyn Bot<sequence_stacks::Game>> {
    bot::<sequence_stacks::Game>(spec, seed).expect("bot")
}
use sequence_common::rng::game_rng;
use std::time::Duration;

fn classic_after(seed: u64, plies: u32, players: u8) -> Game {
    let config = Config::new(players, None, Options::default()).expect("table");
    let mut rng = game_rng(seed);
    let (mut g, _) = Game::deal(config, &mut rng);
    for _ in 0..plies {
        if g.is_over() {
            break;
        }
        let mv = g.random_move(&mut rng).expect("the game goes on");
        g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng))
            .expect("legal");
    }
    g
}

fn stacks_after(seed: u64, decisions: u32, players: u8) -> sequence_stacks::Game {
    let mut rng = game_rng(seed);
    let config =
        sequence_stacks::Config::new(players, sequence_stacks::Options::default()).expect("table");
    let (mut g, _) = sequence_stacks::Game::deal(config, &mut rng);
    g.playout(&mut rng, decisions);
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every classic bot answers one of the legal moves (declarations
    /// checked by the engine), from random positions of 2, 3 and 4 players.
    #[test]
    fn classic_bots_move_legally(seed in 0u64..1_000_000, plies in 0u32..120, p in 0usize..3) {
        let players = [2u8, 3, 4][p];
        let g = classic_after(seed, plies, players);
        prop_assume!(!g.is_over());
        let view = g.view(g.turn());
        for spec in ["random", "greedy", "level:1", "ismcts:120it:2t"] {
            let mut bot = classic_bot(spec, seed);
            let mv = bot.choose(&view);
            prop_assert!(g.check(g.turn(), mv).is_ok(), "{spec} chose {mv:?}: {:?}", g.check(g.turn(), mv));
        }
    }

    /// Every Stacks bot answers one of the legal decisions.
    #[test]
    fn stacks_bots_move_legally(seed in 0u64..1_000_000, decisions in 0u32..150, players in 2u8..=5) {
        let g = stacks_after(seed, decisions, players);
        let Some(seat) = g.to_act() else { return Ok(()) };
        let view = g.view(seat);
        for spec in ["random", "greedy", "level:1", "ismcts:80it:2t"] {
            let mut bot = stacks_bot(spec, seed);
            let d = bot.choose(&view);
            prop_assert!(view.legal.contains(&d), "{spec} chose {d}");
            let mut g2 = g.clone();
            prop_assert!(g2.play(seat, d, &mut RngReshuffler(&mut game_rng(1))).is_ok());
        }
    }
}

/// Finds positions (random games, seeded) where `pred` holds.
fn find_positions(pred: impl Fn(&Game) -> bool, want: usize) -> Vec<Game> {
    let mut out = vec![];
    for seed in 0..4000u64 {
        let config = Config::new(2, None, Options::default()).expect("table");
        let mut rng = game_rng(seed);
        let (mut g, _) = Game::deal(config, &mut rng);
        while !g.is_over() {
            if pred(&g) {
                out.push(g.clone());
                break;
            }
            let mv = g.random_move(&mut rng).expect("the game goes on");
            g.apply(g.turn(), mv, &mut RngReshuffler(&mut rng))
                .expect("legal");
        }
        if out.len() >= want {
            break;
        }
    }
    out
}

fn legal(g: &Game) -> Vec<Move> {
    g.view(g.turn()).legal_moves()
}

fn completing_moves(g: &Game) -> Vec<Move> {
    legal(g)
        .into_iter()
        .filter(|m| matches!(*m, Move::Place { at, .. } if g.completions_at(at).is_some_and(|c| c.any())))
        .collect()
}

fn winning_moves(g: &Game) -> Vec<Move> {
    let team = g.team_of(g.turn());
    legal(g)
        .into_iter()
        .filter(|m| match *m {
            Move::Place { at, .. } => g
                .completions_at(at)
                .is_some_and(|c| c.any() && g.sequence_count(team) + c.most() >= g.win_sequences()),
            _ => false,
        })
        .collect()
}

#[test]
fn ismcts_and_greedy_take_a_winning_placement() {
    let positions = find_positions(|g| !winning_moves(g).is_empty() && legal(g).len() > 3, 5);
    assert!(positions.len() >= 3, "found {} positions", positions.len());
    for g in positions {
        let view = g.view(g.turn());
        // The search as `hint` runs it ranks the win first. (Raw visit
        // counts cannot tell a win now from a free dead-card exchange
        // followed by the win — both score 1 — and used to pick by move
        // order; `analyse` puts the immediate win first.)
        let report = sequence_bots::classic::analyse(
            &view,
            Budget::Iterations(3000),
            Some(1),
            7,
            &SearchConfig::default(),
        );
        let best = report.best().expect("a move");
        assert!(
            winning_moves(&g).contains(&best),
            "search preferred {best:?} to {:?}",
            winning_moves(&g)
        );
        for spec in ["ismcts:200it:1t", "greedy"] {
            let mut bot = classic_bot(spec, 3);
            let mv = bot.choose(&view);
            let mut after = g.clone();
            after
                .play(g.turn(), mv, &mut RngReshuffler(&mut game_rng(0)))
                .expect("legal");
            assert_eq!(
                after.status(),
                sequence_classic::Status::Won(g.team_of(g.turn())),
                "{spec} played {mv:?} instead of one of {:?}",
                winning_moves(&g)
            );
        }
    }
}

/// Spaces where the opponent's chips (with corners) fill all but one
/// space of a live window: playing there blocks a four.
fn open_four_spaces(g: &Game, me: Team) -> Vec<Space> {
    let opp = Team(1 - me.0);
    let lines = sequence_bots::classic::lines(g.sequence_length());
    let theirs = g.chips(opp).0 | sequence_classic::CORNERS.0;
    let ours = g.chips(me).0;
    let mut out = vec![];
    for &w in &lines.windows {
        if w & ours != 0 || (w & g.locked().0).count_ones() > 1 {
            continue;
        }
        let missing = w & !theirs;
        if missing.count_ones() == 1 {
            let s = Space::all()
                .find(|s| missing >> s.bit() & 1 != 0)
                .expect("space");
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

#[test]
fn greedy_blocks_an_open_four() {
    // One threat, a non-jack card in hand for it, and no win of our own.
    let positions = find_positions(
        |g| {
            let t = open_four_spaces(g, g.team_of(g.turn()));
            t.len() == 1
                && completing_moves(g).is_empty()
                && legal(g).iter().any(
                    |m| matches!(*m, Move::Place { card, at, .. } if at == t[0] && !card.is_jack()),
                )
                && !legal(g).iter().any(|m| matches!(m, Move::Dead { .. }))
        },
        5,
    );
    assert!(positions.len() >= 3, "found {} positions", positions.len());
    for g in positions {
        let me = g.team_of(g.turn());
        let threat = open_four_spaces(&g, me)[0];
        let mut bot = classic_bot("greedy", 5);
        let mv = bot.choose(&g.view(g.turn()));
        let mut after = g.clone();
        after
            .play(g.turn(), mv, &mut RngReshuffler(&mut game_rng(0)))
            .expect("legal");
        assert!(
            matches!(mv, Move::Place { .. } | Move::Remove { .. })
                && !open_four_spaces(&after, me).contains(&threat),
            "greedy played {mv:?} and left the four at {threat} open"
        );
    }
}

#[test]
fn ismcts_with_an_iteration_budget_is_reproducible() {
    let g = classic_after(11, 24, 2);
    let view = g.view(g.turn());
    let config = SearchConfig::default();
    let search =
        || sequence_bots::classic::analyse(&view, Budget::Iterations(600), Some(3), 42, &config);
    let (a, b) = (search(), search());
    assert_eq!(a.iterations, b.iterations);
    assert_eq!(a.iterations, 600);
    let ma: Vec<_> = a.moves.iter().map(|m| (m.0, m.1)).collect();
    let mb: Vec<_> = b.moves.iter().map(|m| (m.0, m.1)).collect();
    assert_eq!(ma, mb);
    assert!(a.moves.iter().all(|m| (0.0..=1.0).contains(&m.2)));
    let visits: u32 = a.moves.iter().map(|m| m.1).sum();
    assert_eq!(
        visits as u64, a.iterations,
        "every iteration visits one root move"
    );
}

fn arena_cfg(game: GameKind, bots: &[&str], games: u32, players: u8) -> ArenaConfig {
    ArenaConfig {
        game,
        bots: bots.iter().map(|s| s.to_string()).collect(),
        games,
        seed: 9,
        players,
        teams: None,
        move_time: Duration::from_secs(10),
        jobs: 2,
        duplicate: false,
    }
}

/// Duplicate games (`--duplicate`): each deal is played once per seating
/// with the sides rotated; the games of a deal share its cards (the same
/// first moves when the same bots sit there), and the report's intervals
/// are over deals.
#[test]
fn duplicate_arena_plays_each_deal_with_the_seats_swapped() {
    let mut cfg = arena_cfg(GameKind::Classic, &["greedy", "random"], 19, 2);
    cfg.duplicate = true;
    let r = arena::run(&cfg).expect("arena");
    assert_eq!(r.games.len(), 20, "19 games round up to 10 deals of 2");
    for pair in r.games.chunks(2) {
        assert_eq!(pair[0].deal, pair[1].deal);
        assert_eq!(pair[0].sides, vec![pair[1].sides[1], pair[1].sides[0]]);
    }
    let (seatings, stats) = r.duplicate.as_ref().expect("duplicate statistics");
    assert_eq!(*seatings, 2);
    assert_eq!(stats[0].deals, 10);
    assert!(stats[0].score > 0.5 && stats[0].ci.0 <= stats[0].score);
    assert!((stats[0].score + stats[1].score - 1.0).abs() < 1e-9);
    assert!(r.table().contains("duplicate: 10 deals × 2 seatings"));
    assert!(r.to_json()["duplicate"]["bots"][0]["narrowing"].is_number());
    // Three sides: three seatings per deal, each bot at every side.
    let mut cfg = arena_cfg(GameKind::Classic, &["greedy", "random"], 6, 3);
    cfg.duplicate = true;
    let r = arena::run(&cfg).expect("arena");
    assert_eq!(r.games.len(), 6);
    assert_eq!(r.duplicate.as_ref().map(|d| d.0), Some(3));
}

#[test]
fn arena_greedy_beats_random_and_reports_json() {
    let report =
        arena::run(&arena_cfg(GameKind::Classic, &["random", "greedy"], 12, 2)).expect("arena");
    assert_eq!(report.games.len(), 12);
    // Seats alternate.
    for r in &report.games {
        assert_eq!(
            r.sides,
            if r.index % 2 == 0 {
                vec![0, 1]
            } else {
                vec![1, 0]
            }
        );
    }
    let j = report.to_json();
    assert_eq!(j["games"], 12);
    let bots = j["bots"].as_array().expect("bots");
    assert_eq!(bots.len(), 2);
    for b in bots {
        let keys: Vec<&String> = b.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["name", "games", "wins", "draws", "losses", "elo"]);
        let total = b["wins"].as_u64().unwrap()
            + b["draws"].as_u64().unwrap()
            + b["losses"].as_u64().unwrap();
        assert_eq!(total, 12);
    }
    assert_eq!(bots[1]["name"], "greedy");
    assert!(
        bots[1]["wins"].as_u64().unwrap() >= 10,
        "greedy won only {}",
        bots[1]["wins"]
    );
    assert!(bots[1]["elo"].as_f64().unwrap() > bots[0]["elo"].as_f64().unwrap());
    assert_eq!(bots[0]["wins"], bots[1]["losses"]);
    // Same seed, same games.
    let again =
        arena::run(&arena_cfg(GameKind::Classic, &["random", "greedy"], 12, 2)).expect("arena");
    assert_eq!(again.games, report.games);
    // The files `sequence arena` writes: crates/sequence-cli/src/arena.rs.
}

#[test]
fn arena_three_players_and_stacks_four_players() {
    let r = arena::run(&arena_cfg(
        GameKind::Classic,
        &["random", "greedy", "level:1"],
        3,
        3,
    ))
    .expect("arena");
    assert_eq!(r.games.len(), 3);
    assert!(r
        .bots
        .iter()
        .all(|b| b.games == 3 && b.wins + b.draws + b.losses == 3));
    let s = arena::run(&arena_cfg(GameKind::Stacks, &["random", "greedy"], 4, 4)).expect("arena");
    assert_eq!(s.games.len(), 4);
    for g in &s.games {
        assert_eq!(g.sides.len(), 4);
        assert!(g.failure.is_none());
    }
    assert!(
        arena::run(&arena_cfg(GameKind::Classic, &["random"], 1, 5)).is_err(),
        "5 players breaks C3"
    );
    assert!(arena::run(&arena_cfg(GameKind::Classic, &["nobot"], 1, 2)).is_err());
}

fn python_bot(env: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bot.py");
    if env.is_empty() {
        format!("cmd:python3 {script}")
    } else {
        format!("cmd:env {env} python3 {script}")
    }
}

#[test]
fn protocol_bot_plays_whole_games() {
    let bot = python_bot("");
    let r = arena::run(&arena_cfg(GameKind::Classic, &[&bot, "random"], 2, 2)).expect("arena");
    assert!(r.games.iter().all(|g| g.failure.is_none()), "{:?}", r.games);
    assert!(r.games.iter().all(|g| g.moves > 10));
    let s = arena::run(&arena_cfg(GameKind::Stacks, &[&bot, "random"], 2, 2)).expect("arena");
    assert!(s.games.iter().all(|g| g.failure.is_none()), "{:?}", s.games);
}

#[test]
fn protocol_bot_failures_lose_the_game_and_the_arena_goes_on() {
    for (env, want) in [
        ("BOT_CRASH=2", "crashed"),
        ("BOT_ILLEGAL=1", "illegal move"),
        ("BOT_HANG=1", "no answer within 400 ms"),
    ] {
        let bot = python_bot(env);
        let mut cfg = arena_cfg(GameKind::Classic, &[&bot, "random"], 2, 2);
        cfg.move_time = Duration::from_millis(400);
        let r = arena::run(&cfg).expect("arena");
        assert_eq!(r.games.len(), 2, "{env}: the arena plays every game");
        for g in &r.games {
            let (side, why) = g
                .failure
                .clone()
                .unwrap_or_else(|| panic!("{env}: no failure in {g:?}"));
            assert!(why.contains(want), "{env}: reason {why:?}");
            assert_eq!(g.sides[side], 0, "the program's side failed");
            assert_eq!(g.winner, Some(1 - side), "the other side wins");
        }
        assert_eq!(r.bots[0].losses, 2);
        assert_eq!(r.bots[0].failures, 2);
        assert_eq!(r.bots[1].wins, 2);
    }
    // A program that does not exist is reported before the run.
    let err = arena::run(&arena_cfg(
        GameKind::Classic,
        &["cmd:/nonexistent/bot", "random"],
        1,
        2,
    ))
    .unwrap_err();
    assert!(err.to_string().contains("cannot start"), "{err}");
}

#[test]
fn hint_ranks_legal_moves_of_an_unfinished_record() {
    let config = Config::new(2, None, Options::default()).unwrap();
    let mut m = Match::new(config, 77);
    let mut rng = game_rng(3);
    for _ in 0..20 {
        let mv = m.game().random_move(&mut rng).unwrap();
        let seat = m.game().turn();
        m.play(seat, mv).unwrap();
    }
    let mut rec = m.record().expect("dealt from a seed").to_json();
    rec.as_object_mut().unwrap().remove("result");
    let text = rec.to_string();
    let seat = m.game().turn().0;
    let h = sequence_bots::hint::hint(&text, seat, Budget::Iterations(400), 3, 1).expect("hint");
    assert_eq!(h["game"], "classic");
    assert_eq!(h["iterations"], 400);
    let moves = h["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    let legal: Vec<serde_json::Value> = m
        .game()
        .view(Seat(seat))
        .legal_moves()
        .iter()
        .map(|mv| sequence_classic::record::move_to_json(Seat(seat), mv, 5))
        .collect();
    let mut last = u64::MAX;
    for mv in moves {
        assert!(legal.contains(&mv["move"]), "{} is not legal", mv["move"]);
        let w = mv["win"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
        let v = mv["visits"].as_u64().unwrap();
        assert!(v <= last, "sorted by visits");
        last = v;
    }
    let table = sequence_bots::hint::hint_table(&h);
    assert!(
        table.contains("win %") && table.lines().count() == 5,
        "{table}"
    );
    // The other seat is not to move; garbage is a clear error.
    let err = sequence_bots::hint::hint(&text, 1 - seat, Budget::Iterations(10), 3, 1).unwrap_err();
    assert!(err.to_string().contains("turn"), "{err}");
    assert!(sequence_bots::hint::hint("{not json", 0, Budget::Iterations(10), 3, 1).is_err());
}

#[test]
fn hint_for_a_stacks_record() {
    let config = sequence_stacks::Config::new(2, sequence_stacks::Options::default()).unwrap();
    let mut m = sequence_stacks::Match::new(config, 5);
    let mut rng = game_rng(8);
    for _ in 0..15 {
        let Some(seat) = m.game().to_act() else { break };
        let d = m.game().random_move(&mut rng).unwrap();
        m.play(seat, d).unwrap();
    }
    let Some(seat) = m.game().to_act() else {
        return;
    };
    let mut rec = m.record().expect("dealt from a seed").to_json();
    rec.as_object_mut().unwrap().remove("result");
    let h = sequence_bots::hint::hint(&rec.to_string(), seat.0, Budget::Iterations(200), 2, 1)
        .expect("hint");
    assert_eq!(h["game"], "stacks");
    assert!(!h["moves"].as_array().unwrap().is_empty());
}

/// With more bots than sides every ordered pair meets equally often (it
/// used to seat only neighbours of the list: bots 0 and 2 never met).
#[test]
fn arena_seats_every_pair_when_bots_outnumber_sides() {
    let mut met = std::collections::HashMap::new();
    for g in 0..24 {
        let s = arena::seating(4, 2, g);
        assert_ne!(s[0], s[1], "game {g}: {s:?}");
        *met.entry((s[0], s[1])).or_insert(0) += 1;
    }
    assert_eq!(met.len(), 12, "{met:?}");
    assert!(met.values().all(|&n| n == 2), "{met:?}");
    // Three sides of five bots: every game three different bots.
    for g in 0..60 {
        let s = arena::seating(5, 3, g);
        assert!(s[0] != s[1] && s[1] != s[2] && s[0] != s[2], "{s:?}");
    }
    // No more bots than sides: every bot plays, rotated.
    assert_eq!(arena::seating(2, 2, 1), vec![1, 0]);
    assert_eq!(arena::seating(2, 3, 0), vec![0, 1, 0]);
}

/// With 3 sides a failing bot leaves no winner: it counts as a loss in the
/// table and must rate below the others (it used to count as draws for
/// Elo, rating the failing bot like everyone else).
#[test]
fn a_failing_bot_rates_below_the_others_with_three_sides() {
    let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let games: Vec<arena::GameResult> = (0..6)
        .map(|g| arena::GameResult {
            index: g,
            deal: g,
            sides: vec![0, 1, 2],
            winner: None,
            moves: 3,
            failure: Some((0, "crashed".into())),
        })
        .collect();
    let stats = arena::tally(&names, &games);
    assert_eq!((stats[0].losses, stats[0].failures), (6, 6));
    assert_eq!((stats[1].draws, stats[2].draws), (6, 6));
    assert!(
        stats[0].elo < stats[1].elo - 100.0 && (stats[1].elo - stats[2].elo).abs() < 1e-6,
        "{:?}",
        stats.iter().map(|s| s.elo).collect::<Vec<_>>()
    );
}

/// An iteration budget is run exactly, however many trees share it (5
/// iterations over 4 trees ran 8).
#[test]
fn an_iteration_budget_is_run_exactly() {
    let view = sequence_bots::bench::classic_midgame(3);
    for (n, trees) in [(5u64, 4usize), (1, 4), (7, 3), (2000, 4)] {
        let r = sequence_bots::classic::analyse(
            &view,
            Budget::Iterations(n),
            Some(trees),
            1,
            &SearchConfig::default(),
        );
        assert_eq!(r.iterations, n, "{n} iterations over {trees} trees");
    }
}
