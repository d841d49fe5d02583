//! What the engines report of a table's game, held to what the server
//! once worked out itself: the lobby's description of each game (`GET
//! /api/games`, [`sequence_common::AnyRules::describe`]: player and team
//! counts, rule options) and what a move did for the move log
//! ([`sequence_common::TableFacts::log_effects`]), which the tests below
//! hold to what diffing the states gave. The server keeps no rules here.

#[cfg(test)]
mod tests {
    use sequence_common::{GameKind, LogEffects, Seat, TableFacts};
    use serde_json::{json, Map, Value};

    fn describe(kind: GameKind) -> Value {
        sequence_bots::rules(kind).describe()
    }

    #[test]
    fn the_engine_says_which_tables_exist() {
        let c = describe(GameKind::Classic);
        assert_eq!(c["players"], json!([2, 3, 4, 6, 8, 9, 10, 12]));
        assert_eq!(c["teams"]["6"], json!([2, 3]));
        assert_eq!(c["teams"]["4"], json!([2]));
        assert_eq!(c["teams"]["3"], json!([3]));
        assert_eq!(c["default_teams"]["12"], json!(2));
        assert_eq!(c["penalty"], json!(true));
        let names: Vec<&str> = c["options"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|o| o["name"].as_str())
            .collect();
        assert!(names.contains(&"removable_sequences") && names.contains(&"board"));
        // the engine's extras: classic's official board (C2), as a view's
        // `layout` (the lobby draws it); Stacks has no board
        assert_eq!(
            c["layout"],
            json!(sequence_classic::Layout::official().to_rows())
        );
        assert_eq!(c["layout"].as_array().map(Vec::len), Some(10));
        let s = describe(GameKind::Stacks);
        assert_eq!(s["players"], json!([2, 3, 4, 5, 6]));
        assert_eq!(s["teams"], Value::Null);
        let ppc = s["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "piles_per_colour")
            .unwrap();
        assert_eq!(ppc["default"], json!(2));
        assert_eq!(s.get("layout"), None);
    }

    /// The log's fields as the server worked them out before the engines
    /// reported effects: by diffing the states before and after a move.
    /// The oracle of [`log_effects_are_what_diffing_the_states_gave`].
    fn diffed_classic(
        before: &sequence_classic::Game,
        after: &sequence_classic::Game,
        mv: &sequence_classic::Move,
    ) -> LogEffects {
        let len = after.sequence_length();
        let mut own = Map::new();
        let key = |t: sequence_classic::Team, w: sequence_classic::Window| {
            json!([t.colour(), w.start.to_string(), w.last(len).to_string()])
        };
        let had: Vec<Value> = before.sequences().map(|(t, w)| key(t, w)).collect();
        let now: Vec<Value> = after.sequences().map(|(t, w)| key(t, w)).collect();
        let made: Vec<Value> = now.iter().filter(|s| !had.contains(s)).cloned().collect();
        let broken: Vec<Value> = had.iter().filter(|s| !now.contains(s)).cloned().collect();
        if !made.is_empty() {
            own.insert("sequences".into(), json!(made));
        }
        if !broken.is_empty() {
            own.insert("broken".into(), json!(broken));
        }
        if let sequence_classic::Move::Remove { at, .. } = *mv {
            if let Some(t) = before.chip_at(at) {
                own.insert("removed".into(), json!(t.colour()));
            }
        }
        if after.draw_pile_len() > before.draw_pile_len() {
            own.insert("reshuffled".into(), json!(true));
        }
        match after.status() {
            sequence_classic::Status::Won(t) => {
                own.insert("won".into(), json!(t.colour()));
            }
            sequence_classic::Status::Draw => {
                own.insert("draw".into(), json!(true));
            }
            sequence_classic::Status::Playing => {}
        }
        LogEffects {
            own,
            previous: Map::new(),
        }
    }

    /// As [`diffed_classic`], for Sequence Stacks.
    fn diffed_stacks(
        before: &sequence_stacks::Game,
        after: &sequence_stacks::Game,
        seat: Seat,
        mv: &sequence_stacks::Decision,
    ) -> LogEffects {
        use sequence_stacks::Decision;
        let mut own = Map::new();
        let mut previous = Map::new();
        let colour_of = |c: [u8; 2], d: [u8; 2]| {
            if d[0] > c[0] {
                Some("blue")
            } else if d[1] > c[1] {
                Some("red")
            } else {
                None
            }
        };
        match *mv {
            Decision::Pile { place, .. } if before.pile(place).len() == 4 => {
                own.insert("completed".into(), json!(place.name()));
                if after.block_offer().is_some() {
                    own.insert("window".into(), json!(true));
                }
            }
            Decision::StealCard { target, .. } => {
                if let Some(c) = before.discard_top(target) {
                    own.insert("took".into(), json!(c.code()));
                }
            }
            Decision::Block => {
                if let Some(w) = before.block_offer() {
                    own.insert(
                        "blocked".into(),
                        json!({"seat": w.completer.0, "colour": w.colour.name()}),
                    );
                    previous.insert("blocked_by".into(), json!(seat.0));
                    previous.insert("window".into(), json!(false));
                }
            }
            Decision::Pass => {
                if let Some(w) = before.block_offer() {
                    if after.block_offer().is_none() {
                        let c = w.completer;
                        previous.insert("window".into(), json!(false));
                        if let Some(col) = colour_of(before.chips(c), after.chips(c)) {
                            previous.insert("chip".into(), json!(col));
                        }
                    }
                }
            }
            _ => {}
        }
        if before.reshuffle_count() != after.reshuffle_count() {
            own.insert("reshuffled".into(), json!(true));
        }
        let target = if previous.is_empty() {
            &mut own
        } else {
            &mut previous
        };
        match after.status() {
            sequence_stacks::Status::Won(s) if before.status() != after.status() => {
                target.insert("won".into(), json!(s.0));
            }
            sequence_stacks::Status::Draw if before.status() != after.status() => {
                target.insert("draw".into(), json!(true));
            }
            _ => {}
        }
        LogEffects { own, previous }
    }

    /// The move log says byte for byte what it said when the server diffed
    /// states (C6–C9, C11; S3–S7), over random games of several tables and
    /// house rules; every field of the log comes up.
    #[test]
    fn log_effects_are_what_diffing_the_states_gave() {
        use sequence_common::{RngReshuffler, Rules};
        let mut rng = sequence_common::rng::game_rng(23);
        let mut keys = std::collections::BTreeSet::new();
        let mut note = |fx: &LogEffects| {
            keys.extend(fx.own.keys().chain(fx.previous.keys()).cloned());
        };
        let classic = [
            json!({}),
            json!({"removable_sequences": true, "win_sequences": 4}),
            json!({"sequence_length": 4, "no_play": "discard", "removable_sequences": true}),
        ];
        for (players, options) in [2, 2, 3].into_iter().zip(classic) {
            let options = serde_json::from_value(options).expect("options");
            let config = sequence_classic::Config::new(players, None, options).expect("table");
            for _ in 0..30 {
                let (mut g, _) = sequence_classic::Game::deal(config.clone(), &mut rng);
                while let (Some(seat), Some(mv)) = (g.to_act(), g.random_move(&mut rng)) {
                    let before = g.clone();
                    let fx = g
                        .play(seat, mv, &mut RngReshuffler(&mut rng))
                        .expect("legal");
                    let got = sequence_classic::Game::log_effects(g.config(), &fx);
                    assert_eq!(got, diffed_classic(&before, &g, &mv), "{mv:?}");
                    note(&got);
                }
            }
        }
        let stacks = [
            json!({}),
            json!({"block_window": "next_player", "refill": "turn_end"}),
            json!({"reshuffle_actions": "always", "piles_per_colour": 1}),
        ];
        for (players, options) in [2, 3, 4].into_iter().zip(stacks) {
            let options = serde_json::from_value(options).expect("options");
            let config = sequence_stacks::Config::new(players, options).expect("table");
            for _ in 0..30 {
                let (mut g, _) = sequence_stacks::Game::deal(config, &mut rng);
                let mut n = 0;
                while let (Some(seat), Some(mv)) = (g.to_act(), g.random_move(&mut rng)) {
                    let before = g.clone();
                    let fx =
                        Rules::play(&mut g, seat, mv, &mut RngReshuffler(&mut rng)).expect("legal");
                    let got = sequence_stacks::Game::log_effects(g.config(), &fx);
                    assert_eq!(got, diffed_stacks(&before, &g, seat, &mv), "{mv:?}");
                    note(&got);
                    n += 1;
                    if n > 3000 {
                        break;
                    }
                }
            }
        }
        for k in [
            "sequences",
            "broken",
            "removed",
            "reshuffled",
            "won",
            "completed",
            "window",
            "took",
            "blocked",
            "blocked_by",
            "chip",
        ] {
            assert!(keys.contains(k), "no move gave `{k}`: {keys:?}");
        }
    }

    #[test]
    fn a_random_board_is_a_layout() {
        let mut o = json!({"board": "random", "sequence_length": 4});
        <sequence_classic::Game as TableFacts>::prepare_options(&mut o, 7);
        let rows = o["board"].as_array().expect("rows");
        assert_eq!(rows.len(), 10);
        assert!(sequence_classic::Layout::from_rows(
            &rows
                .iter()
                .map(|r| r.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        )
        .is_ok());
    }
}
