//! The pure Rust core: observations show only what a seat may see, masks
//! and action decoding agree with the engine's legal moves, sessions keep
//! records that verify, and the vectorized stepping is reproducible and
//! refuses bad actions without moving any game.

use sequence_common::record::verify;
use sequence_common::rng::{game_rng, playout_rng};
use sequence_common::{Notation, Rules, Seat, SeatView};
use sequence_py::dynamic::{self, FailureKind};
use sequence_py::env::{action_mask, action_mask_bits, legal_move_of, ActionBits, EnvGame};
use sequence_py::vector::VecCore;
use serde_json::json;

fn table<G: Rules>(players: u8) -> G {
    let c = G::table(players, None, Default::default()).expect("table");
    G::deal(&c, &mut game_rng(players as u64)).0
}

/// Random positions of a game: every state of `games` random games.
fn positions<G: Rules>(players: u8, games: usize) -> Vec<G> {
    let t: G = table(players);
    let mut rng = playout_rng(9);
    let mut out = vec![];
    for _ in 0..games {
        let mut g = t.fresh_deal(&mut rng);
        out.push(g.clone());
        while g.playout(&mut rng, 1) == 1 {
            out.push(g.clone());
        }
    }
    out
}

/// A seat's observation is the same in every game its view allows: it
/// reads no other hand and not the draw pile's order.
fn observation_shows_only_the_view<G: EnvGame>(players: u8) {
    let len = G::obs_len(table::<G>(players).config());
    let parts = G::obs_layout(table::<G>(players).config());
    assert_eq!(parts.iter().map(|p| p.len()).sum::<usize>(), len);
    for w in parts.windows(2) {
        assert_eq!(w[0].offset + w[0].len(), w[1].offset);
    }
    let high = G::obs_high(table::<G>(players).config());
    assert_eq!(high.len(), len);
    let mut rng = playout_rng(3);
    let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
    let ps = positions::<G>(players, 3);
    for (k, g) in ps.iter().enumerate().step_by(3) {
        for s in 0..players {
            let seat = Seat(s);
            g.observe(seat, &mut a);
            for (i, (x, h)) in a.iter().zip(&high).enumerate() {
                assert!(x <= h, "entry {i} = {x} above its high {h} (position {k})");
            }
            for _ in 0..2 {
                let other = g.view(seat).determinize(&mut rng).expect("view adds up");
                other.observe(seat, &mut b);
                assert_eq!(
                    a, b,
                    "seat {s}'s observation changed with hidden cards (position {k})"
                );
            }
        }
    }
}

#[test]
fn observations_show_only_the_view() {
    for players in [2, 3, 4] {
        observation_shows_only_the_view::<sequence_classic::Game>(players);
    }
    for players in [2, 4] {
        observation_shows_only_the_view::<sequence_stacks::Game>(players);
    }
}

/// The classic observation read plainly from the game, one entry at a
/// time, to check the encoder (which writes it from bitsets, 32 bytes at
/// a time where the CPU allows).
fn classic_obs_by_hand(g: &sequence_classic::Game, seat: Seat) -> Vec<u8> {
    use sequence_classic::{Space, Team};
    let (players, teams) = (g.players(), g.teams());
    let me = g.team_of(seat).0;
    let mut v = vec![];
    for k in 0..3u8 {
        for i in 0..100u8 {
            let sp = Space::new(i / 10, i % 10).expect("space");
            v.push((k < teams && g.chips(Team((me + k) % teams)).contains(sp)) as u8);
        }
    }
    for i in 0..100u8 {
        v.push(
            g.locked()
                .contains(Space::new(i / 10, i % 10).expect("space")) as u8,
        );
    }
    let count = |cards: &mut dyn Iterator<Item = sequence_classic::Card>| {
        let mut n = [0u8; 52];
        for c in cards {
            n[c.index()] += 1;
        }
        n
    };
    v.extend(count(&mut g.hand(seat).iter().copied()));
    v.extend(count(&mut g.discards().map(|(_, c)| c)));
    for k in 0..12u8 {
        v.push(if k < players {
            g.hand(Seat((seat.0 + k) % players)).len() as u8
        } else {
            0
        });
    }
    for k in 0..3u8 {
        v.push(if k < teams {
            g.sequence_count(Team((me + k) % teams))
        } else {
            0
        });
    }
    v.push(g.draw_pile_len() as u8);
    v.push(g.dead_exchanged() as u8);
    v.push(g.stuck_turns());
    v.push(g.sequence_length());
    v.push(g.win_sequences());
    v.push(match Rules::to_act(g) {
        Some(s) => (s.0 + players - seat.0) % players,
        None => players,
    });
    v
}

#[test]
fn classic_observations_match_the_game_entry_by_entry() {
    for (players, teams) in [(2, None), (3, None), (4, None), (6, Some(3)), (12, None)] {
        let c = sequence_classic::Game::table(players, teams, Default::default()).expect("C3");
        let t = <sequence_classic::Game as Rules>::deal(&c, &mut game_rng(5)).0;
        let mut rng = playout_rng(17);
        let mut obs = vec![0u8; 525];
        let mut checked = 0;
        for _ in 0..4 {
            let mut g = t.fresh_deal(&mut rng);
            loop {
                for s in 0..players {
                    g.observe(Seat(s), &mut obs);
                    assert_eq!(
                        obs,
                        classic_obs_by_hand(&g, Seat(s)),
                        "{players} players, seat {s}, ply {}",
                        Rules::ply(&g)
                    );
                    checked += 1;
                }
                if g.playout(&mut rng, 1) != 1 {
                    break;
                }
            }
        }
        assert!(checked > 100, "{checked} observations");
    }
}

/// The mask is exactly the actions that decode to a legal move; every
/// legal move's action decodes to a legal move with that action.
fn mask_matches_legal_moves<G: EnvGame>(players: u8) {
    let mut mask = vec![0u8; G::ACTIONS];
    let mut checked = 0;
    for g in positions::<G>(players, 2) {
        let n = action_mask(&g, &mut mask);
        let mut bits = ActionBits::default();
        let mut again = vec![0u8; G::ACTIONS];
        assert_eq!(action_mask_bits(&g, &mut again, &mut bits), n);
        assert_eq!(again, mask);
        for (a, &m) in mask.iter().enumerate() {
            assert_eq!(bits.contains(a), m == 1, "bit {a}");
        }
        assert_eq!(bits.count(), n);
        if n > 0 {
            let last = bits.nth(n - 1).expect("n actions");
            assert_eq!(mask[last], 1);
            assert!(bits.nth(n).is_none());
        }
        let Some(seat) = g.to_act() else {
            assert_eq!(n, 0);
            assert!(mask.iter().all(|&m| m == 0));
            continue;
        };
        let mut legal = vec![];
        g.legal_moves(&mut legal);
        let mut distinct: Vec<usize> = legal.iter().map(|m| g.action_of(seat, m)).collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(n, distinct.len());
        for m in &legal {
            let a = g.action_of(seat, m);
            assert!(a < G::ACTIONS);
            assert_eq!(mask[a], 1);
            let (s, back) = legal_move_of(&g, a as i64).expect("a legal move's action is legal");
            assert_eq!(s, seat);
            assert_eq!(g.action_of(seat, &back), a);
        }
        for (a, &m) in mask.iter().enumerate() {
            assert_eq!(
                m == 1,
                legal_move_of(&g, a as i64).is_ok(),
                "action {a} ({}) and the mask disagree",
                G::action_text(a)
            );
        }
        assert!(legal_move_of(&g, -1).is_err());
        assert!(legal_move_of(&g, G::ACTIONS as i64).is_err());
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn masks_match_legal_moves() {
    for players in [2, 3] {
        mask_matches_legal_moves::<sequence_classic::Game>(players);
    }
    for players in [2, 5] {
        mask_matches_legal_moves::<sequence_stacks::Game>(players);
    }
}

#[test]
fn c6_classic_actions_name_card_kind_and_space() {
    use sequence_classic::{Card, Move};
    let g: sequence_classic::Game = table(2);
    let e5: sequence_classic::Space = "e5".parse().expect("space");
    let seat = Seat(0);
    // e5 is row 5, column e: reading index 44.
    let card = g.layout().card_at(e5).expect("not a corner");
    assert_eq!(g.action_of(seat, &Move::place(card, e5)), 44);
    assert_eq!(g.action_of(seat, &Move::place(Card::JD, e5)), 144);
    assert_eq!(g.action_of(seat, &Move::place(Card::JC, e5)), 144);
    assert_eq!(
        g.action_of(
            seat,
            &Move::Remove {
                card: Card::JS,
                at: e5
            }
        ),
        244
    );
    assert_eq!(
        g.action_of(
            seat,
            &Move::Dead {
                card: "AS".parse::<Card>().expect("card")
            }
        ),
        300
    );
    assert_eq!(g.action_of(seat, &Move::Pass), 352);
    assert_eq!(
        sequence_classic::Game::action_text(44),
        "place on e5 with the space's card"
    );
    assert_eq!(
        sequence_classic::Game::action_text(319),
        "exchange the dead card 7H"
    );
}

#[test]
fn sessions_record_games_that_verify_and_replay() {
    for kind in sequence_common::GameKind::ALL {
        let mut g = dynamic::new_game(kind, 3, None, None, 11).expect("table");
        let n = g.playout(10_000);
        assert!(g.outcome().is_over(), "{kind}: {n} moves");
        let rec = g.record().expect("dealt from a seed");
        let summary = dynamic::verify(&rec).expect("own record verifies");
        assert_eq!(summary["moves"], json!(g.history().len()));
        let back = dynamic::game_from_record(&rec, 0).expect("replays");
        assert_eq!(back.render(), g.render());
        let steps = dynamic::replay(&rec).expect("replays");
        assert_eq!(steps.len(), g.history().len());
        // The same seed deals the same game.
        let again = dynamic::new_game(kind, 3, None, None, 11).expect("table");
        assert_eq!(again.record().expect("record")["deck"], rec["deck"]);
    }
}

#[test]
fn same_seed_same_deal_as_match() {
    let c = sequence_classic::Game::table(4, None, Default::default()).expect("C3");
    let m = sequence_common::record::Match::<sequence_classic::Game>::new(c, 42);
    let g = dynamic::new_game(sequence_common::GameKind::Classic, 4, None, None, 42).expect("C3");
    assert_eq!(
        g.record().expect("record")["deck"],
        m.to_json().expect("dealt from a seed")["deck"]
    );
    assert_eq!(g.dealer(), m.game().dealer().0);
}

#[test]
fn refusals_carry_codes_and_change_nothing() {
    let mut g =
        dynamic::new_game(sequence_common::GameKind::Classic, 2, None, None, 5).expect("C3");
    let before = g.render();
    let seat = g.to_act().expect("playing");
    let other = 1 - seat;
    let mv = g.legal_moves()[0].clone();
    let e = g.play(Some(other), &mv).expect_err("not its turn");
    assert_eq!(e.kind, FailureKind::IllegalMove);
    assert_eq!(e.code, "C5.not_your_turn");
    let (_, taken) = g
        .parse_move(&json!({"card": "2S", "at": "b1"}))
        .expect("readable");
    let e = g.play(None, &taken);
    if let Err(e) = e {
        assert!(e.code.starts_with("C6."), "{}", e.code);
    }
    let e = g.parse_move(&json!({"card": "2S"})).expect_err("no kind");
    assert_eq!(e.kind, FailureKind::Notation);
    assert_eq!(e.code, "notation.no_kind");
    let e = g.play_action(9999).expect_err("outside");
    assert_eq!(e.code, "env.out_of_range");
    let e = g.view(Some(7)).err().expect("no such seat");
    assert_eq!(e.code, "seat.no_such_seat");
    let e = dynamic::new_game(sequence_common::GameKind::Classic, 5, None, None, 0)
        .err()
        .expect("C3");
    assert_eq!(
        (e.kind, e.code.as_str()),
        (FailureKind::Setup, "C3.players")
    );
    let e = dynamic::verify(&json!({"format": "sequence-record/1"})).expect_err("malformed");
    assert_eq!(e.record.expect("details").exit_code, 2);
    if g.ply() == 0 {
        assert_eq!(g.render(), before);
    }
}

fn run_vec<G: EnvGame>(v: &mut VecCore<G>, steps: usize) -> (Vec<u8>, u64) {
    let n = v.len();
    let mut bufs = v.buffers();
    let mut a = vec![0i64; n];
    let mut out = bufs.out();
    v.reset(7, &mut out);
    let mut done = 0;
    for _ in 0..steps {
        v.random_actions(&mut a);
        v.step(&a, &mut out).expect("random actions are legal");
        done += out.done.iter().map(|&x| x as u64).sum::<u64>();
        for (i, &x) in out.done.iter().enumerate() {
            let w = v.reward_width();
            let rs = &out.rewards[i * w..(i + 1) * w];
            if x == 0 {
                assert!(rs.iter().all(|&r| r == 0.0));
            }
        }
    }
    (out.obs.to_vec(), done)
}

#[test]
fn vector_steps_are_reproducible_and_finish_games() {
    let t: sequence_classic::Game = table(2);
    let mut a = VecCore::new(t.clone(), 8, 1);
    let mut b = VecCore::new(t, 8, 1);
    let (oa, da) = run_vec(&mut a, 300);
    let (ob, db) = run_vec(&mut b, 300);
    assert_eq!(oa, ob);
    assert_eq!(da, db);
    assert!(da >= 8, "{da} games finished");
    assert_eq!(a.tally().games, da);
    let s: sequence_stacks::Game = table(3);
    let mut c = VecCore::new(s, 4, 2);
    let (_, dc) = run_vec(&mut c, 400);
    assert!(dc >= 2);
}

#[test]
fn vector_threads_do_not_change_results() {
    let t: sequence_classic::Game = table(4);
    let mut one = VecCore::new(t.clone(), 256, 9);
    let mut two = VecCore::new(t, 256, 9);
    two.set_threads(2);
    let (a, da) = run_vec(&mut one, 120);
    let (b, db) = run_vec(&mut two, 120);
    assert_eq!((a, da), (b, db));
    assert_eq!(one.tally(), two.tally());
}

#[test]
fn vector_refuses_an_illegal_action_and_moves_nothing() {
    let t: sequence_classic::Game = table(2);
    let mut v = VecCore::new(t, 3, 4);
    let n = v.len();
    let mut bufs = v.buffers();
    let mut out = bufs.out();
    v.reset(4, &mut out);
    let before: Vec<u32> = v.games().iter().map(|g| g.ply()).collect();
    let mut a = vec![0i64; n];
    v.random_actions(&mut a);
    // Game 1 gets an action outside its mask.
    let bad = (0..405)
        .find(|&x| out.mask[405 + x] == 0)
        .expect("some action is illegal");
    a[1] = bad as i64;
    let e = v.step(&a, &mut out).expect_err("illegal");
    assert_eq!(e.kind, FailureKind::Action);
    assert!(e.message.starts_with("game 1: action"), "{}", e.message);
    let after: Vec<u32> = v.games().iter().map(|g| g.ply()).collect();
    assert_eq!(before, after);
}

#[test]
fn greedy_opponents_beat_a_random_agent_in_the_vector() {
    let t: sequence_classic::Game = table(2);
    let mut v = VecCore::with_opponents(t, 16, 3, 0, "greedy").expect("bots");
    let mut bufs = v.buffers();
    let mut out = bufs.out();
    v.reset(3, &mut out);
    let mut a = vec![0i64; 16];
    let (mut wins, mut losses) = (0, 0);
    for _ in 0..400 {
        assert!(
            out.to_act.iter().all(|&s| s == 0),
            "the caller's seat always acts"
        );
        v.random_actions(&mut a);
        v.step(&a, &mut out).expect("legal");
        for &x in out.rewards.iter() {
            if x > 0.0 {
                wins += 1
            } else if x < 0.0 {
                losses += 1
            }
        }
    }
    assert!(
        losses > 10 * (wins + 1) / 2,
        "random won {wins}, lost {losses} against greedy"
    );
    assert!(
        VecCore::with_opponents(table::<sequence_classic::Game>(2), 1, 0, 5, "greedy").is_err()
    );
    assert!(
        VecCore::with_opponents(table::<sequence_classic::Game>(2), 1, 0, 1, "alphazero").is_err()
    );
}

#[test]
fn verify_matches_the_engine() {
    let c = sequence_stacks::Game::table(2, None, Default::default()).expect("S1");
    let mut m = sequence_common::record::Match::<sequence_stacks::Game>::new(c, 3);
    let mut rng = playout_rng(3);
    while let Some(s) = m.to_act() {
        let mv = m.game().random_move(&mut rng).expect("playing");
        m.play(s, mv).expect("legal");
    }
    let rec = m.to_json().expect("dealt from a seed");
    assert_eq!(
        dynamic::verify(&rec).expect("valid"),
        verify::<sequence_stacks::Game>(&rec).expect("valid")
    );
    let mut bad = rec.clone();
    bad["moves"][3] = json!({"seat": 0, "play": "B9", "to": "blue-a"});
    let e = dynamic::verify(&bad).expect_err("bad card");
    let d = e.record.expect("details");
    assert_eq!((d.exit_code, d.index), (1, Some(3)));
    assert!(e.message.starts_with("move 3 {"), "{}", e.message);
    let _ = <sequence_stacks::Game as Notation>::RESHUFFLE_RULE;
}

/// A move compares as it is written: the same move from tables of other
/// sizes is equal, a placement's `declare` at a table of four-chip
/// sequences (C8a house rule) keeps that length through its pickled state
/// (record entry and [`EnvGame::written_with`]), and a move made at no
/// known table writes no entry.
#[test]
fn moves_compare_as_written_and_their_pickled_state_reads_back() {
    use sequence_common::{AnyMove, GameKind};
    type C = sequence_classic::Game;
    let g2 = dynamic::new_game(GameKind::Classic, 2, None, None, 3).expect("C3");
    let g4 = dynamic::new_game(GameKind::Classic, 4, None, None, 3).expect("C3");
    let pass = |g: &dynamic::Game| {
        g.parse_move(&json!({"seat": 0, "pass": true}))
            .expect("readable")
            .1
    };
    assert_eq!(pass(&g2), pass(&g4));
    let bare = AnyMove::of::<C>(sequence_classic::Move::Pass);
    assert_ne!(bare, pass(&g2));
    assert_eq!(bare.entry(Seat(0)), None);

    let opts = json!({"sequence_length": 4});
    let g = dynamic::new_game(GameKind::Classic, 2, None, Some(&opts), 3).expect("C11");
    for mv in g.legal_moves() {
        let len = dynamic::written_with(&mv);
        assert_eq!(len, 4);
        let entry = mv.entry(Seat(0)).expect("made at a table");
        let back = dynamic::move_from_state(GameKind::Classic, &entry, len).expect("reads back");
        assert_eq!(back, mv);
        assert_eq!(back.entry(Seat(0)), Some(entry));
        assert_eq!(dynamic::move_fields(&back), dynamic::move_fields(&mv));
    }
    let stacks = dynamic::new_game(GameKind::Stacks, 3, None, None, 3).expect("S1");
    for mv in stacks.legal_moves() {
        assert_eq!(dynamic::written_with(&mv), 0);
        let entry = mv.entry(Seat(1)).expect("made at a table");
        let back = dynamic::move_from_state(GameKind::Stacks, &entry, 0).expect("reads back");
        assert_eq!(back, mv);
    }
}
