//! The table core: the durable state of a table rebuilt from its event
//! log ([`Core`]), the live state around it ([`Table`]: connections, chat,
//! turn timer), and the views sent to seats and spectators. Written once
//! for every game: the game itself is a [`sequence_common::AnyGame`] ([`live`]), dealt
//! by the rules of the table's [`GameKind`] when a game starts. Refusals are
//! [`TableError`]s; this module knows nothing of HTTP.
//!
//! Every change is an [`Event`]. A change is applied to a copy of the
//! core first (the engine checks every move), then appended to the
//! database, and only once that has committed is the copy kept and the
//! change acknowledged. Rebuilding a table = replaying its events.

mod admin;
mod core;
pub mod error;
mod event;
#[cfg(test)]
mod game;
pub mod live;
pub use sequence_bots::replay;
pub mod spec;
mod table;
pub mod tutorial;

pub use core::{Core, LogEntry, SeatCore, SeatKind, Status};
pub use error::TableError;
pub use event::{now_ms, Auto, Event, StoredMove, AWAY_AFTER};
pub use live::{play_logged, Logged};
pub use sequence_common::GameKind;
pub use spec::Spec;
pub use table::{Frame, Sub, Table, ViewMessage};

/// Entries of the move log a view carries (the newest); a page that
/// misses older ones reads them from `GET …/log`.
pub const LOG_TAIL: usize = 16;

/// Seconds a seat asked out of turn (the Stacks Block window, S5b) has to
/// answer before the server answers for it (no Block).
pub const WINDOW_SECONDS: u32 = 15;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn core(game: GameKind, players: u8) -> Core {
        Core::new("00000000000000ab".into(), Spec::plain(game, players, "t"))
    }

    fn names(c: &Core) -> Vec<Option<&str>> {
        c.seats.iter().map(|s| s.name.as_deref()).collect()
    }

    fn bot(seat: u8, level: &str) -> Event {
        Event::Bot {
            seat,
            level: level.into(),
        }
    }

    /// Regression: two bots of one level at a table were both "Bot 2".
    #[test]
    fn bots_of_one_level_get_distinct_names() {
        let mut c = core(GameKind::Classic, 4);
        for (seat, level) in [(1, "level:2"), (2, "level:2"), (3, "level:2")] {
            c.apply(&bot(seat, level)).expect("a bot sits");
        }
        assert_eq!(
            names(&c),
            [None, Some("Bot 2"), Some("Bot 2 (b)"), Some("Bot 2 (c)")]
        );
        // a seat given to a bot again keeps a name no other seat has
        c.apply(&bot(2, "level:2")).expect("a bot again");
        assert_eq!(c.seats[2].name.as_deref(), Some("Bot 2 (b)"));
        c.apply(&bot(1, "level:3")).expect("another level");
        c.apply(&bot(3, "level:2")).expect("a bot again");
        assert_eq!(
            names(&c),
            [None, Some("Bot 3"), Some("Bot 2 (b)"), Some("Bot 2")]
        );
        // a person named like a bot is told apart too
        let mut c = core(GameKind::Stacks, 3);
        c.apply(&Event::Seat {
            seat: 0,
            name: "Bot random".into(),
            token: "00".repeat(32),
            account: None,
        })
        .expect("a person sits");
        c.apply(&bot(1, "random")).expect("a bot sits");
        assert_eq!(c.seats[1].name.as_deref(), Some("Bot random (b)"));
    }

    #[test]
    fn a_table_starts_its_kind_of_game_and_refuses_moves_cleanly() {
        for kind in GameKind::ALL {
            let mut c = core(kind, 2);
            c.apply(&bot(0, "random")).expect("a bot sits");
            c.apply(&bot(1, "random")).expect("a bot sits");
            c.apply(&Event::Start { seed: 9 }).expect("starts");
            let live = c.live.as_ref().expect("a game");
            assert_eq!(live.kind(), kind);
            let seat = c.to_act().expect("someone acts").0;
            let e = c
                .apply(&Event::Move {
                    mv: json!({"seat": seat, "pass": true, "nonsense": 1}).into(),
                })
                .unwrap_err();
            assert_eq!(e.code(), Some("notation.unknown_key"), "{e}");
            let e = c
                .apply(&Event::Move {
                    mv: json!({"seat": 1 - seat, "pass": true}).into(),
                })
                .unwrap_err();
            assert!(matches!(e, TableError::Stale { move_number: 0, .. }), "{e}");
            assert_eq!(c.moves, 0);
            let view = Table::new(c.clone()).view(None);
            assert_eq!(view["seat"], Value::Null);
            assert!(view.get("hand").is_none(), "{view}");
            assert_eq!(view["legal_moves"], json!([]));
            assert_eq!(view["table"]["game"], json!(kind.name()));
        }
    }

    /// The text pushed to a seat is its view's JSON text, byte for byte:
    /// the move log, kept as each entry's text (issue 26: a few hundred
    /// bytes an entry rather than kilobytes), is written into the view as
    /// the entries' values would be, through whole games of both kinds
    /// (Stacks: a closing Block window adds fields to the last entry).
    #[test]
    fn a_pushed_view_is_the_views_json_through_whole_games() {
        let mut merged = 0;
        for (kind, players) in [(GameKind::Classic, 2), (GameKind::Stacks, 3)] {
            for seed in 0..4u64 {
                let mut c = core(kind, players);
                for seat in 0..players {
                    c.apply(&bot(seat, "random")).expect("a bot sits");
                }
                c.apply(&Event::Start { seed }).expect("starts");
                c.live_clock = true; // entries carry `at`
                let mut pick = seed as usize;
                for _ in 0..600 {
                    let t = Table::new(c.clone());
                    let info = t.info().to_string();
                    for seat in (0..players).map(Some).chain([None]) {
                        let mut view = t.view(seat);
                        // the same table info (its `now_ms` moves on)
                        view["table"] = serde_json::from_str(&info).expect("info");
                        assert_eq!(t.view_text(seat, &info), view.to_string());
                        let log = view["log"].as_array().expect("a log");
                        let from = c.log.len().saturating_sub(LOG_TAIL);
                        assert_eq!(log, &super::core::log_values(&c.log[from..]));
                    }
                    let Some(seat) = c.to_act() else { break };
                    let view = t.view(Some(seat.0));
                    let moves = view["legal_moves"].as_array().expect("moves");
                    if moves.is_empty() {
                        break;
                    }
                    pick = pick.wrapping_mul(31).wrapping_add(7);
                    let mv = moves[pick % moves.len()].clone();
                    let before: Vec<_> = c.log.iter().map(|e| e.text().to_string()).collect();
                    c.apply(&Event::Move { mv: mv.into() })
                        .expect("a legal move");
                    // an entry changed in place (fields merged into it)
                    merged += before
                        .iter()
                        .zip(&c.log)
                        .filter(|(b, e)| b.as_str() != e.text())
                        .count();
                }
            }
        }
        assert!(merged > 0, "no Block window closed in these games");
    }

    /// A closed table (`sequence admin close`) offers its seats no move.
    #[test]
    fn a_closed_table_lists_no_legal_moves() {
        for kind in GameKind::ALL {
            let mut c = core(kind, 2);
            c.apply(&bot(0, "random")).expect("a bot sits");
            c.apply(&bot(1, "random")).expect("a bot sits");
            c.apply(&Event::Start { seed: 9 }).expect("starts");
            let seat = c.to_act().expect("someone acts").0;
            let open = Table::new(c.clone()).view(Some(seat));
            assert!(
                open["legal_moves"]
                    .as_array()
                    .is_some_and(|m| !m.is_empty()),
                "{open}"
            );
            c.apply(&Event::Close {
                reason: "test".into(),
            })
            .expect("closes");
            let view = Table::new(c).view(Some(seat));
            assert_eq!(view["legal_moves"], json!([]), "{view}");
            assert_eq!(view["table"]["closed"], "test");
        }
    }
}
