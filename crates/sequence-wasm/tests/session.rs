//! The browser engine's core, natively: games of both kinds played to
//! their end through the JSON API, refusals with their rule codes, saved
//! games taken up again, records verified as `sequence verify` does (the
//! shared examples), the bots and the hint.

use sequence_wasm::session::{self, Session, LEVELS};
use serde_json::{json, Value};
use std::path::PathBuf;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/examples")
}

/// Plays `game` to its end choosing the `k`-th legal move by a simple
/// counter, checking on the way that the mover's legal moves are the
/// view's and that no view shows another seat's hand; the move log as
/// the server's table keeps it (entries with their effects, `previous`
/// merged into the entry before).
fn play_out(game: &mut Session) -> Vec<Value> {
    let mut n = 0;
    let mut log: Vec<Value> = vec![];
    while let Some(seat) = game.to_act() {
        let legal = game.legal_moves(seat);
        assert!(!legal.is_empty(), "the seat to act has a move");
        let view = game.view(Some(seat));
        assert_eq!(
            view["legal_moves"],
            json!(legal),
            "the view lists the same moves"
        );
        for other in 0..game.players() {
            if other != seat {
                assert!(game.legal_moves(other).is_empty() || game.kind().name() == "stacks");
            }
        }
        assert!(
            game.view(None).get("hand").is_none(),
            "spectators see no hand"
        );
        let mv = legal[(n * 7 + 3) % legal.len()].clone();
        let logged = game.play(&mv).expect("a legal move plays");
        if let (Some(last), Some(previous)) = (log.last_mut(), logged["previous"].as_object()) {
            last.as_object_mut().unwrap().extend(previous.clone());
        }
        if !logged["entry"].is_null() {
            assert_eq!(logged["entry"]["seat"], json!(seat));
            log.push(logged["entry"].clone());
        }
        n += 1;
        assert!(n < 5000, "the game ends");
    }
    log
}

fn summary_side(sides: &Value, i: usize) -> Value {
    sides[i]["side"].clone()
}

#[test]
fn both_games_play_to_their_end_and_their_records_verify() {
    for (game, players, teams, options) in [
        ("classic", 2, 0, Value::Null),
        ("classic", 4, 2, json!({"sequence_length": 4})),
        ("classic", 6, 3, Value::Null),
        ("stacks", 2, 0, Value::Null),
        ("stacks", 4, 0, json!({"piles_per_colour": 2})),
    ] {
        let teams = (teams > 0).then_some(teams);
        let mut g = session::new_game(game, players, teams, &options, 11).expect("a table");
        let log = play_out(&mut g);
        let moves = log.len();
        let outcome = g.outcome();
        assert_ne!(
            outcome["status"], "playing",
            "{game}: over after {moves} moves"
        );
        let record = g.record().to_string();
        let summary = session::verify(&record).expect("its record verifies");
        assert_eq!(summary["winner"], outcome["winner"], "{game} {players}");
        // the move log: the record's moves, with what they did
        let rec: Value = serde_json::from_str(&record).unwrap();
        let written: Vec<Value> = log.iter().map(|e| e["move"].clone()).collect();
        assert_eq!(
            json!(written),
            rec["moves"],
            "{game}: the log's moves are the record's"
        );
        if game == "classic" {
            assert!(
                log.iter().any(|e| e.get("sequences").is_some()),
                "C8: the sequences made are in the log"
            );
            if !outcome["winner"].is_null() {
                assert_eq!(log[moves - 1]["won"], outcome["winner"], "C9");
            }
        } else {
            assert!(
                log.iter().any(|e| e.get("completed").is_some()),
                "S5: the piles completed are in the log"
            );
        }
        // the end screen's facts: one entry per side, the winner's among them
        let sides = g.final_sides();
        let seat_teams = g.seat_teams();
        assert_eq!(seat_teams.len(), usize::from(players));
        if game == "classic" {
            let n = seat_teams
                .iter()
                .map(Value::to_string)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            assert_eq!(sides.as_array().map(Vec::len), Some(n), "{sides}");
            assert_eq!(
                seat_teams[0],
                summary_side(&sides, 0),
                "C3: seat 0 plays for the first team"
            );
        } else {
            assert!(seat_teams.iter().all(Value::is_null), "S1: no teams");
            assert_eq!(sides.as_array().map(Vec::len), Some(usize::from(players)));
        }
        // the same table and seed deal the same game
        let again = session::new_game(game, players, teams, &options, 11).expect("a table");
        assert_eq!(
            again.view(Some(0))["hand"],
            session::new_game(game, players, teams, &options, 11)
                .unwrap()
                .view(Some(0))["hand"]
        );
    }
}

#[test]
fn classic_views_carry_the_board_layout_as_the_server_adds_it() {
    let g = session::new_game("classic", 2, None, &Value::Null, 1).unwrap();
    let layout = &g.view(Some(0))["layout"];
    assert_eq!(layout.as_array().map(Vec::len), Some(10), "C2: 10 rows");
    assert!(
        layout[0].as_str().is_some_and(|r| r.starts_with("XX ")),
        "C2: a corner: {layout}"
    );
    assert_eq!(g.view(None)["layout"], *layout);
    let s = session::new_game("stacks", 2, None, &Value::Null, 1).unwrap();
    assert!(s.view(Some(0)).get("layout").is_none());
}

#[test]
fn refusals_carry_the_rule_code() {
    let mut g = session::new_game("classic", 2, None, &Value::Null, 5).unwrap();
    let seat = g.to_act().unwrap();
    let other = 1 - seat;
    let legal = g.legal_moves(seat);
    let mut wrong_seat = legal[0].clone();
    wrong_seat["seat"] = json!(other);
    let e = g.play(&wrong_seat).unwrap_err();
    assert!(
        e.code.starts_with("C5") || e.code.starts_with("C6"),
        "{e:?}"
    );
    let e = g.play(&json!({"seat": seat})).unwrap_err();
    assert!(e.code.starts_with("notation."), "{e:?}");
    assert!(e.message.starts_with("malformed move"), "{e:?}");
    // a card the seat does not hold (C6)
    let hand: Vec<String> = serde_json::from_value(g.view(Some(seat))["hand"].clone()).unwrap();
    let missing = ["2S", "3S", "4S", "5S", "6S"]
        .into_iter()
        .find(|c| !hand.iter().any(|h| h == c))
        .unwrap();
    let e = g
        .play(&json!({"seat": seat, "card": missing, "at": "b1"}))
        .unwrap_err();
    assert_eq!(e.code, "C6.not_in_hand", "{e:?}");
    assert!(e.message.contains("(C6)"), "{e:?}");
    // nothing changed: the first legal move still plays
    assert_eq!(g.outcome()["move_number"], 0);
    let entry = g.play(&legal[0]).unwrap()["entry"].clone();
    assert_eq!(entry["seat"], seat);
    assert!(entry["text"].as_str().is_some_and(|t| !t.is_empty()));
    let e = session::new_game("classic", 5, None, &Value::Null, 1)
        .err()
        .unwrap();
    assert!(e.code.starts_with("C3"), "{e:?}");
    let e = session::new_game("chess", 2, None, &Value::Null, 1)
        .err()
        .unwrap();
    assert_eq!(e.code, "setup.game");
    let e = session::new_game("classic", 2, None, &json!({"sequence_length": "x"}), 1)
        .err()
        .unwrap();
    assert_eq!(e.code, "setup.options", "{e:?}");
    let e = session::new_game("classic", 2, None, &json!({"sequence_length": 9}), 1)
        .err()
        .unwrap();
    assert!(e.code.starts_with("C11"), "{e:?}");
    // said from the option list, as the server says it
    assert_eq!(
        e.message, "options.sequence_length must be 5 or 4 (C11), got 9",
        "{e:?}"
    );
    let e = session::new_game("stacks", 2, None, &json!({"piles_per_colour": 9}), 1)
        .err()
        .unwrap();
    assert_eq!(e.code, "S3a.option", "{e:?}");
    assert_eq!(
        e.message, "options.piles_per_colour must be 1, 2, 3 or 4 (S3a), got 9",
        "{e:?}"
    );
    // Sequence Stacks has no teams (S1): the engine refuses a team count
    let e = session::new_game("stacks", 4, Some(2), &Value::Null, 1)
        .err()
        .unwrap();
    assert_eq!(e.code, "S1.teams", "{e:?}");
}

#[test]
fn a_saved_game_is_taken_up_where_it_stood() {
    for game in ["classic", "stacks"] {
        let mut g = session::new_game(game, 3, None, &Value::Null, 9).unwrap();
        for _ in 0..25 {
            let seat = g.to_act().unwrap();
            let mv = g.legal_moves(seat).last().cloned().unwrap();
            g.play(&mv).unwrap();
        }
        let back = session::resume(&g.record().to_string(), 4).expect("resumes");
        assert_eq!(back.to_act(), g.to_act());
        for seat in 0..3 {
            assert_eq!(
                back.view(Some(seat)),
                g.view(Some(seat)),
                "{game} seat {seat}"
            );
        }
        assert_eq!(back.record(), g.record());
    }
    let e = session::resume("{\"format\": 3}", 1).err().unwrap();
    assert_eq!(
        (e.code.as_str(), e.exit_code),
        ("record.malformed", Some(2))
    );
}

#[test]
fn the_shared_examples_verify_as_sequence_verify_says() {
    let dir = examples();
    for (sub, name) in [
        ("", "2p-blue-vs-green"),
        ("", "2p-draw"),
        ("", "12p-three-teams"),
        ("stacks", "3p"),
    ] {
        let path = dir.join(sub).join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).expect("example");
        let summary = session::verify(&text).expect("verifies");
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(sub).join(format!("{name}.expected.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(summary["winner"], expected["winner"], "{name}");
        assert_eq!(summary["moves"], expected["moves"], "{name}");
    }
    let illegal: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("illegal/expected.json")).unwrap())
            .unwrap();
    for (file, want) in illegal.as_object().unwrap() {
        let text = std::fs::read_to_string(dir.join("illegal").join(file)).unwrap();
        let e = session::verify(&text).unwrap_err();
        assert_eq!(e.code, "record.illegal_move", "{file}");
        assert_eq!(e.exit_code, Some(1));
        let at = want["first_illegal_move"].as_u64().unwrap();
        assert!(
            e.message.starts_with(&format!("move {at} ")),
            "{file}: {}",
            e.message
        );
        assert!(
            e.message.ends_with(want["why"].as_str().unwrap()),
            "{file}: {}",
            e.message
        );
    }
    let e = session::verify("not json").unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.exit_code),
        ("record.malformed", Some(2))
    );
    // Regression (tester): a move with an unknown key was reported as an
    // illegal move; it is a malformed move, naming the key (exit 1 as
    // RECORD.md says for "the first illegal or malformed entry").
    for (sub, name) in [("", "2p-blue-vs-green"), ("stacks", "3p")] {
        let mut v: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(sub).join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        v["moves"][3]["extra"] = json!(1);
        let e = session::verify(&v.to_string()).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.exit_code),
            ("record.malformed_move", Some(1)),
            "{name}: {}",
            e.message
        );
        assert!(e.message.starts_with("move 3 {"), "{}", e.message);
        assert!(
            e.message.ends_with(": malformed move: unknown key `extra`"),
            "{}",
            e.message
        );
    }
}

#[test]
fn every_bot_level_moves_legally_and_the_hint_ranks_moves() {
    for game in ["classic", "stacks"] {
        let g = session::new_game(game, 2, None, &Value::Null, 3).unwrap();
        let seat = g.to_act().unwrap();
        let legal = g.legal_moves(seat);
        for level in LEVELS.into_iter().filter(|l| *l != "level:5") {
            let mv = g.bot_move(seat, level, 1).expect("a level");
            assert!(legal.contains(&mv), "{game} {level}: {mv}");
        }
        assert_eq!(g.bot_move(1 - seat, "greedy", 1).unwrap(), Value::Null);
        assert_eq!(g.bot_move(seat, "cmd:sh", 1).unwrap_err().code, "bot.level");
        let hint = g.hint(seat, 300, 3, 1);
        let moves = hint["moves"].as_array().expect("moves");
        assert!(!moves.is_empty() && moves.len() <= 3, "{hint}");
        for m in moves {
            assert!(legal.contains(&m["move"]), "{game}: {m}");
            let win = m["win"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&win));
        }
        assert_eq!(g.hint(1 - seat, 300, 3, 1), json!({"moves": []}));
    }
}

#[test]
fn random_games_finish() {
    let (finished, moves) = session::random_games("classic", 2, 20, 1).unwrap();
    assert_eq!(finished, 20);
    assert!(moves > 20 * 20, "{moves}");
    assert!(
        session::random_games("stacks", 7, 1, 1).is_err(),
        "S1: 2–6 seats"
    );
}

/// A finished game's record replays position by position and is analysed
/// in the page as the server does it (`sequence_bots::replay`).
#[test]
fn a_finished_game_replays_and_is_analysed() {
    for game in ["classic", "stacks"] {
        let mut g = session::new_game(game, 2, None, &Value::Null, 3).unwrap();
        play_out(&mut g);
        let record = g.record();
        let n = record["moves"].as_array().unwrap().len();
        let text = record.to_string();
        let p = session::positions(&text).expect("replays");
        let positions = p["positions"].as_array().unwrap();
        assert_eq!(
            positions.len(),
            n + 1,
            "{game}: one position per move and one more"
        );
        assert_eq!(
            positions[n]["to_act"],
            Value::Null,
            "{game}: over at the end"
        );
        assert_eq!(positions[0]["hands"].as_array().map(Vec::len), Some(2));
        assert_eq!(p["extras"].get("layout").is_some(), game == "classic");
        let mut a = session::analysis(&text, 20, 1).expect("replays");
        assert_eq!(a.total(), n + 1);
        let mut steps = 0;
        while !a.step() {
            steps += 1;
            assert_eq!(a.done(), steps);
        }
        let r = a.result();
        let points = r["points"].as_array().unwrap();
        assert_eq!(points.len(), n + 1);
        assert_eq!(points[n]["final"], true);
        assert!(points[0]["win"].as_f64().is_some(), "{}", points[0]);
        assert_eq!(r["iterations"], 20);
    }
    let e = session::positions("not json").unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.exit_code),
        ("record.malformed", Some(2))
    );
}

/// The lobby's random board (C11) in a game in the page: the layout is
/// drawn from the game's seed (the same seed, the same board), differs
/// from the printed board, and goes into the record's options, so the
/// record replays and verifies.
#[test]
fn a_random_board_is_drawn_from_the_seed() {
    let random = json!({"board": "random"});
    let printed = session::new_game("classic", 2, None, &Value::Null, 5).unwrap();
    let mut g = session::new_game("classic", 2, None, &random, 5).unwrap();
    let layout = g.view(Some(0))["layout"].clone();
    assert!(layout.is_array(), "C2: the layout is in the view");
    assert_ne!(
        layout,
        printed.view(Some(0))["layout"],
        "C11: not the printed board"
    );
    let again = session::new_game("classic", 2, None, &random, 5).unwrap();
    assert_eq!(
        again.view(Some(0))["layout"],
        layout,
        "the same seed, the same board"
    );
    let other = session::new_game("classic", 2, None, &random, 6).unwrap();
    assert_ne!(
        other.view(Some(0))["layout"],
        layout,
        "another seed, another board"
    );
    assert_eq!(
        g.record()["options"]["board"],
        layout,
        "the record keeps the layout"
    );
    play_out(&mut g);
    let summary = session::verify(&g.record().to_string()).expect("verifies");
    assert_eq!(summary["winner"], g.outcome()["winner"]);
}

/// Regression (fresh tester, defect 1): a Stacks game taken up from its
/// record inside an open Block window (S5b) keeps the window: the seat
/// offered it is to act, the bot answers it (it answered `null`, the
/// window closed by the loading) and the hint lists its answers. The
/// tester's case: 2 players, `legal_moves(to_act)[0]` nine times.
#[test]
fn a_stacks_game_taken_up_in_an_open_block_window_keeps_it() {
    let mut g = session::new_game("stacks", 2, None, &Value::Null, 1).expect("a table");
    let mut window = Value::Null;
    for _ in 0..200 {
        let seat = g.to_act().expect("playing");
        let v = g.view(Some(seat));
        if !v["block_window"].is_null() {
            window = v["block_window"].clone();
            break;
        }
        let mv = g.legal_moves(seat)[0].clone();
        g.play(&mv).expect("a legal move plays");
    }
    assert!(!window.is_null(), "a Block window opened");
    let offered = u8::try_from(window["offered"].as_u64().expect("a seat")).expect("a seat");
    assert_eq!(g.to_act(), Some(offered));
    let back = session::resume(&g.record().to_string(), 5).expect("resumes");
    assert_eq!(back.to_act(), Some(offered));
    assert_eq!(back.view(Some(offered))["block_window"], window);
    assert_eq!(back.legal_moves(offered), g.legal_moves(offered));
    assert!(back
        .legal_moves(offered)
        .contains(&json!({"seat": offered, "pass": true})));
    for level in LEVELS {
        let mv = back.bot_move(offered, level, 3).expect("a level");
        assert_eq!(
            mv,
            g.bot_move(offered, level, 3).expect("a level"),
            "{level}"
        );
        assert!(
            mv == json!({"seat": offered, "pass": true}) || mv["play"] == "BLOCK",
            "{level}: {mv}"
        );
    }
    let hint = back.hint(offered, 200, 5, 1);
    assert!(
        !hint["moves"].as_array().expect("moves").is_empty(),
        "{hint}"
    );
}
