//! What the server needs to know of each game beyond the game interface
//! ([`ServerGame`]): what a move did in public terms for the move log
//! (sequences made, chips removed, piles completed, chips taken, Blocks),
//! the decision windows a seat is asked out of turn (the Stacks Block
//! window) and how one closes by default, what a table's view adds (the
//! classic board layout), the lobby's description of the game
//! (`GET /api/games`: player and team counts, rule options with their
//! defaults), and house-rule shorthands of the lobby (`"board": "random"`).
//!
//! Everything here reads the engine: what a move did comes from the
//! engine's typed effects ([`Rules::Effects`]), turned into the log's
//! fields; nothing repeats the rules. What the log says of a move is
//! public, naming only what every seat saw (a chip, a pile, a card played
//! or taken from a discard pile), never a card drawn.

use sequence_bots::BotGame;
use sequence_common::{Outcome, Rules, Seat, TableConfig};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

/// What a move did, for the log: fields of its own entry, and fields to
/// merge into the previous entry of the log (a Stacks completion learns
/// whether it gave a chip or was blocked only when its Block window
/// closes).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LogEffects {
    /// Fields of the move's own entry.
    pub own: Map<String, Value>,
    /// Fields for the previous entry of the log.
    pub previous: Map<String, Value>,
}

/// The server's game-specific knowledge of a game `G`, on top of the
/// game interface and the bots. Implemented for both games.
pub trait ServerGame: BotGame<Options: DeserializeOwned> {
    /// The move log's fields of what a move did, from the engine's
    /// effects of the move at the table `config` (public facts only: a
    /// card drawn is never named).
    fn log_effects(config: &Self::Config, fx: &Self::Effects) -> LogEffects;

    /// Whether a seat is asked out of turn now (the Stacks Block window,
    /// S5b): the server gives it a short deadline of its own.
    fn in_window(_game: &Self) -> bool {
        false
    }

    /// The move that closes an open window for `seat` when its time runs
    /// out (a declined Block), as the API takes it.
    fn window_default(_seat: Seat) -> Option<Value> {
        None
    }

    /// Fields a view of the game adds (the classic board layout, C2).
    fn view_extras(_game: &Self, _out: &mut Map<String, Value>) {}

    /// The rule options the lobby offers: `[{"name", "rule", "values",
    /// "default"}]`, `values` the choices in order (`null` where the
    /// default depends on the table).
    fn option_choices() -> Value;

    /// Replaces the lobby's shorthands in a table's options before the
    /// engine checks them (classic `"board": "random"`: a random layout,
    /// C11).
    fn prepare_options(options: &mut Value) {
        let _ = options;
    }

    /// Public facts of the end of a game per side, for the end screen
    /// (classic: sequences per team).
    fn final_sides(game: &Self) -> Value;

    /// The card a bot (or the clock) discards for `seat` under the
    /// table-talk penalty (C10); `None` in a game without it.
    fn penalty_choice(_game: &Self, _seat: Seat, _seed: u64) -> Option<Self::Card> {
        None
    }
}

/// The teams (C3) of the table `G` could seat `players` in, by the engine:
/// `None` when the count is not allowed.
fn team_choices<G: Rules>(players: u8) -> Option<Vec<u8>>
where
    G::Options: Default,
{
    let def = G::table(players, None, G::Options::default()).ok()?;
    let Some(default_teams) = def.team_count() else {
        return Some(vec![]);
    };
    let mut out = vec![default_teams];
    for t in 2..=players.min(4) {
        if t != default_teams
            && G::table(players, Some(t), G::Options::default())
                .is_ok_and(|c| c.team_count() == Some(t))
        {
            out.push(t);
        }
    }
    out.sort_unstable();
    Some(out)
}

/// The description of game `G` for `GET /api/games`: its name and title,
/// the player counts the engine allows, the team counts per player count
/// (the default first), and the rule options.
pub fn describe<G: ServerGame>() -> Value {
    let mut players = vec![];
    let mut teams = Map::new();
    let mut default_teams = Map::new();
    for p in 2..=12u8 {
        if let Some(t) = team_choices::<G>(p) {
            players.push(p);
            if let Ok(c) = G::table(p, None, G::Options::default()) {
                if let Some(d) = c.team_count() {
                    default_teams.insert(p.to_string(), json!(d));
                    teams.insert(p.to_string(), json!(t));
                }
            }
        }
    }
    json!({
        "name": G::KIND.name(),
        "title": G::KIND.title(),
        "record_format": G::KIND.record_format(),
        "players": players,
        "teams": if G::TEAMS { Value::Object(teams) } else { Value::Null },
        "default_teams": if G::TEAMS { Value::Object(default_teams) } else { Value::Null },
        "options": G::option_choices(),
        "penalty": G::TEAMS,
    })
}

fn choice(name: &str, rule: &str, values: Value, default: Value) -> Value {
    json!({"name": name, "rule": rule, "values": values, "default": default})
}

/// The default of option `name` as the engine's `Options::default()`
/// serialises it (`null` when it leaves it out).
fn default_of<O: Default + serde::Serialize>(name: &str) -> Value {
    serde_json::to_value(O::default())
        .ok()
        .and_then(|v| v.get(name).cloned())
        .unwrap_or(Value::Null)
}

// ---------------------------------------------------------------- classic

impl ServerGame for sequence_classic::Game {
    fn log_effects(config: &Self::Config, fx: &Self::Effects) -> LogEffects {
        use sequence_classic::{Chip, Team, Window};
        let len = config.sequence_length();
        let key =
            |t: Team, w: Window| json!([t.colour(), w.start.to_string(), w.last(len).to_string()]);
        let windows = |t: Team, d: &sequence_classic::Declaration| -> Value {
            d.windows().map(|w| key(t, w)).collect()
        };
        let mut own = Map::new();
        match fx.chip {
            Some(Chip::Placed { team, .. }) if !fx.sequences.is_empty() => {
                own.insert("sequences".into(), windows(team, &fx.sequences));
            }
            Some(Chip::Removed { team, .. }) => {
                if !fx.broken.is_empty() {
                    own.insert("broken".into(), windows(team, &fx.broken));
                }
                own.insert("removed".into(), json!(team.colour()));
            }
            _ => {}
        }
        if fx.reshuffled {
            own.insert("reshuffled".into(), json!(true));
        }
        match fx.end {
            Outcome::Won(t) => {
                own.insert("won".into(), json!(Team(t).colour()));
            }
            Outcome::Draw => {
                own.insert("draw".into(), json!(true));
            }
            Outcome::Playing => {}
        }
        LogEffects {
            own,
            previous: Map::new(),
        }
    }

    fn view_extras(game: &Self, out: &mut Map<String, Value>) {
        out.insert("layout".into(), json!(game.layout().to_rows()));
    }

    fn option_choices() -> Value {
        use sequence_classic::options::{DefaultWindow, NoPlay};
        // the effective defaults, from the engine: a two-team table
        let two = sequence_classic::Config::new(2, None, Default::default()).ok();
        let three = sequence_classic::Config::new(3, None, Default::default()).ok();
        let wins = json!({
            "2": two.as_ref().map(|c| c.win_sequences()),
            "3": three.as_ref().map(|c| c.win_sequences()),
        });
        let len = two.as_ref().map_or(5, |c| c.sequence_length());
        let o = sequence_classic::Options::default();
        let mut win = choice(
            "win_sequences",
            "C9",
            json!([null, 1, 2, 3, 4]),
            Value::Null,
        );
        win["by_sides"] = wins;
        json!([
            win,
            choice("sequence_length", "C11", json!([len, 4]), json!(len)),
            choice(
                "removable_sequences",
                "C11",
                json!([false, true]),
                json!(o.removable_sequences)
            ),
            choice(
                "no_reshuffle",
                "C7",
                json!([false, true]),
                json!(o.no_reshuffle)
            ),
            choice("board", "C2", json!([null, "random"]), Value::Null),
            choice(
                "no_play",
                "C6a",
                json!(["pass", "discard"]),
                json!(NoPlay::default())
            ),
            choice(
                "default_window",
                "C8a",
                json!(["first", "last"]),
                json!(DefaultWindow::default())
            ),
        ])
    }

    fn prepare_options(options: &mut Value) {
        if let Some(o) = options.as_object_mut() {
            if o.get("board").and_then(Value::as_str) == Some("random") {
                // ChaCha8 from a fresh seed; the layout itself goes into the
                // table's options and so into every record (C11).
                let mut rng = sequence_common::rng::game_rng(rand::random());
                let layout = sequence_classic::Layout::random(&mut rng);
                o.insert("board".into(), json!(layout.to_rows()));
            }
        }
    }

    fn penalty_choice(game: &Self, seat: Seat, seed: u64) -> Option<Self::Card> {
        // a dead card costs nothing; else any card but a jack, at random
        let hand = game.hand(seat);
        if let Some(&c) = hand.iter().find(|c| game.is_dead(**c)) {
            return Some(c);
        }
        let plain: Vec<_> = hand.iter().copied().filter(|c| !c.is_jack()).collect();
        let pool = if plain.is_empty() {
            hand.to_vec()
        } else {
            plain
        };
        let mut rng = sequence_common::rng::game_rng(seed);
        rand::seq::IndexedRandom::choose(pool.as_slice(), &mut rng).copied()
    }

    fn final_sides(game: &Self) -> Value {
        let teams: Vec<Value> = (0..game.teams())
            .map(|t| {
                let team = sequence_classic::Team(t);
                json!({"side": team.colour(), "sequences": game.sequence_count(team)})
            })
            .collect();
        json!(teams)
    }
}

// ----------------------------------------------------------------- stacks

impl ServerGame for sequence_stacks::Game {
    fn log_effects(_config: &Self::Config, fx: &Self::Effects) -> LogEffects {
        let mut own = Map::new();
        let mut previous = Map::new();
        if let Some(place) = fx.completed {
            own.insert("completed".into(), json!(place.name()));
            if fx.opened.is_some() {
                own.insert("window".into(), json!(true));
            }
        }
        if let Some((_, card)) = fx.took {
            own.insert("took".into(), json!(card.code()));
        }
        if let Some(w) = fx.closed {
            match w.blocked_by {
                Some(by) => {
                    own.insert(
                        "blocked".into(),
                        json!({"seat": w.completer.0, "colour": w.colour.name()}),
                    );
                    previous.insert("blocked_by".into(), json!(by.0));
                    previous.insert("window".into(), json!(false));
                }
                None => {
                    // nobody blocked: the completer took its chip (if the
                    // supply had one)
                    previous.insert("window".into(), json!(false));
                    if let Some(colour) = w.chip {
                        previous.insert("chip".into(), json!(colour.name()));
                    }
                }
            }
        }
        if fx.reshuffles > 0 {
            own.insert("reshuffled".into(), json!(true));
        }
        // a window's close belongs to the completion's entry, and so does
        // the end it brings
        let target = if previous.is_empty() {
            &mut own
        } else {
            &mut previous
        };
        match fx.end {
            Outcome::Won(s) => {
                target.insert("won".into(), json!(s));
            }
            Outcome::Draw => {
                target.insert("draw".into(), json!(true));
            }
            Outcome::Playing => {}
        }
        LogEffects { own, previous }
    }

    fn in_window(game: &Self) -> bool {
        game.block_offer().is_some()
    }

    fn window_default(seat: Seat) -> Option<Value> {
        Some(json!({"seat": seat.0, "pass": true}))
    }

    fn option_choices() -> Value {
        // (option, rule, values offered); the defaults are the engine's
        let options = [
            ("piles_per_colour", "S3a", json!([1, 2, 3, 4])),
            ("refill", "S4a", json!(["turn_start", "turn_end"])),
            ("steal_chip_can_win", "S5a", json!([false, true])),
            (
                "block_window",
                "S5b",
                json!(["all_opponents", "next_player"]),
            ),
            (
                "reshuffle_actions",
                "S6a",
                json!(["when_no_completed", "always", "never"]),
            ),
            ("dead_game_draw", "S7", json!([true, false])),
        ];
        options
            .into_iter()
            .map(|(name, rule, values)| {
                choice(
                    name,
                    rule,
                    values,
                    default_of::<sequence_stacks::Options>(name),
                )
            })
            .collect()
    }

    fn final_sides(game: &Self) -> Value {
        let seats: Vec<Value> = (0..game.players())
            .map(|s| {
                let c = game.chips(Seat(s));
                json!({"side": s, "chips": {"blue": c[0], "red": c[1]}})
            })
            .collect();
        json!(seats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_says_which_tables_exist() {
        let c = describe::<sequence_classic::Game>();
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
        let s = describe::<sequence_stacks::Game>();
        assert_eq!(s["players"], json!([2, 3, 4, 5, 6]));
        assert_eq!(s["teams"], Value::Null);
        let ppc = s["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "piles_per_colour")
            .unwrap();
        assert_eq!(ppc["default"], json!(2));
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
        <sequence_classic::Game as ServerGame>::prepare_options(&mut o);
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
