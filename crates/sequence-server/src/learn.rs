//! Learning progress kept in an account (issue "learn to play",
//! docs/web.md "Learning"): the puzzles solved per game and how far each
//! tutorial went. What a browser kept before signing in is merged in,
//! never lost: solved puzzles are a union, a tutorial's step the furthest
//! reached and "finished" stays once set (storage:
//! `db/learn.rs`; HTTP: `routes/learn.rs`).
//!
//! The puzzles and tutorials that exist are those of the embedded web UI
//! (`web/puzzles/<game>.json`, `web/tutorial/<game>.json`): an id of no
//! shipped puzzle is not stored (it is reported back as ignored), so an
//! account's progress is bounded by what the server offers.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// Most puzzle ids of one game in one request.
pub const MAX_IDS: usize = 1000;

/// The puzzles and tutorials the web UI ships.
#[derive(Debug, Default)]
pub struct Catalogue {
    /// Puzzle ids by game (`classic`, `stacks`).
    pub puzzles: BTreeMap<String, BTreeSet<String>>,
    /// Steps of each tutorial by game.
    pub tutorial_steps: BTreeMap<String, i64>,
}

/// Reads the catalogue from the embedded files: `puzzles/<game>.json`
/// (`{"puzzles": [{"id", …}, …]}`) and `tutorial/<game>.json`
/// (`{"steps": […]}`). A file that does not parse is left out (and the
/// asset tests fail on it).
fn read_catalogue() -> Catalogue {
    let mut c = Catalogue::default();
    for (path, bytes) in crate::assets::files() {
        let Some((dir, file)) = path.split_once('/') else {
            continue;
        };
        let Some(game) = file.strip_suffix(".json") else {
            continue;
        };
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(bytes) else {
            continue;
        };
        match dir {
            "puzzles" => {
                let ids = v["puzzles"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| p["id"].as_str().map(str::to_string))
                    .collect();
                c.puzzles.insert(game.to_string(), ids);
            }
            "tutorial" => {
                let steps = v["steps"].as_array().map_or(0, Vec::len);
                c.tutorial_steps.insert(game.to_string(), steps as i64);
            }
            _ => {}
        }
    }
    c
}

/// The catalogue of the embedded web UI (read once).
pub fn catalogue() -> &'static Catalogue {
    static C: OnceLock<Catalogue> = OnceLock::new();
    C.get_or_init(read_catalogue)
}

/// A browser's progress to merge into an account (`POST
/// /api/account/progress`): solved puzzle ids by game, tutorial steps by
/// game. Both parts may be left out.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressIn {
    /// Solved puzzle ids by game.
    #[serde(default)]
    pub puzzles: BTreeMap<String, Vec<String>>,
    /// How far each tutorial went, by game.
    #[serde(default)]
    pub tutorials: BTreeMap<String, TutorialIn>,
}

/// How far a browser went in one tutorial.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TutorialIn {
    /// The furthest step reached (1 for the first, 0: not begun).
    #[serde(default)]
    pub step: i64,
    /// Whether it was finished.
    #[serde(default)]
    pub done: bool,
}

/// What to store of a [`ProgressIn`]: known puzzle ids by game (each
/// once), tutorial steps, and the ids no shipped puzzle has.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Known ids to add, by game.
    pub puzzles: BTreeMap<String, Vec<String>>,
    /// `(game, step, done)` to record.
    pub tutorials: Vec<(String, i64, bool)>,
    /// Ids of no shipped puzzle (left out).
    pub ignored: Vec<String>,
}

/// Checks a browser's progress against `cat`.
///
/// # Errors
/// The message naming the field: a game without puzzles or without a
/// tutorial, more than [`MAX_IDS`] ids for a game, a step outside
/// `0..=steps`.
pub fn check(req: ProgressIn, cat: &Catalogue) -> Result<Checked, String> {
    let mut out = Checked::default();
    for (game, ids) in req.puzzles {
        let Some(known) = cat.puzzles.get(&game) else {
            return Err(format!(
                "field `puzzles`: no game `{}` has puzzles (games: {})",
                crate::limits::echo(&game),
                cat.puzzles.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        };
        if ids.len() > MAX_IDS {
            return Err(format!(
                "field `puzzles.{game}`: at most {MAX_IDS} ids at once, not {}",
                ids.len()
            ));
        }
        let mut keep = BTreeSet::new();
        for id in ids {
            if known.contains(&id) {
                keep.insert(id);
            } else {
                out.ignored.push(id);
            }
        }
        out.puzzles.insert(game, keep.into_iter().collect());
    }
    for (game, t) in req.tutorials {
        let Some(&steps) = cat.tutorial_steps.get(&game) else {
            return Err(format!(
                "field `tutorials`: no game `{}` has a tutorial (games: {})",
                crate::limits::echo(&game),
                cat.tutorial_steps
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        if !(0..=steps).contains(&t.step) {
            return Err(format!(
                "field `tutorials.{game}.step`: {} is not a step of the tutorial (0 to {steps})",
                t.step
            ));
        }
        out.tutorials.push((game, t.step, t.done));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cat() -> Catalogue {
        let mut c = Catalogue::default();
        c.puzzles.insert(
            "classic".into(),
            ["classic-001", "classic-002"].map(String::from).into(),
        );
        c.tutorial_steps.insert("classic".into(), 10);
        c
    }

    #[test]
    fn the_shipped_puzzles_and_tutorials_are_read() {
        let c = catalogue();
        for game in ["classic", "stacks"] {
            assert!(c.puzzles[game].len() >= 200, "{game}");
            // ids name where each puzzle was found: GAME-SEED-MOVE-KIND
            for id in &c.puzzles[game] {
                let parts: Vec<&str> = id.split('-').collect();
                assert_eq!(parts.len(), 4, "{id}");
                assert_eq!(parts[0], game, "{id}");
                assert!(
                    parts[1].parse::<u64>().is_ok() && parts[2].parse::<u64>().is_ok(),
                    "{id}"
                );
            }
            assert!(c.tutorial_steps[game] >= 5, "{game}");
        }
    }

    #[test]
    fn unknown_ids_are_left_out_and_bad_fields_refused() {
        let req = ProgressIn {
            puzzles: [(
                "classic".to_string(),
                vec!["classic-002".into(), "x".into(), "classic-002".into()],
            )]
            .into(),
            tutorials: [(
                "classic".to_string(),
                TutorialIn {
                    step: 4,
                    done: false,
                },
            )]
            .into(),
        };
        let c = check(req, &cat()).expect("checked");
        assert_eq!(c.puzzles["classic"], vec!["classic-002".to_string()]);
        assert_eq!(c.ignored, vec!["x".to_string()]);
        assert_eq!(c.tutorials, vec![("classic".to_string(), 4, false)]);
        let bad = ProgressIn {
            tutorials: [(
                "classic".to_string(),
                TutorialIn {
                    step: 11,
                    done: true,
                },
            )]
            .into(),
            ..Default::default()
        };
        let e = check(bad, &cat()).expect_err("step 11 of 10");
        assert!(
            e.contains("tutorials.classic.step") && e.contains("0 to 10"),
            "{e}"
        );
        let bad = ProgressIn {
            puzzles: [("chess".to_string(), vec![])].into(),
            ..Default::default()
        };
        let e = check(bad, &cat()).expect_err("no chess");
        assert!(e.contains("`chess`") && e.contains("classic"), "{e}");
    }
}
