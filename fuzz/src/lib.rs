//! What the fuzz targets share: each target feeds libFuzzer's bytes to one
//! entry point that reads input from outside the process, and checks that
//! it never panics and that what it accepts holds together (a move read
//! back from its own JSON is the same move; a move the checks accept can
//! be played).

use rand::SeedableRng;
use sequence_bots::protocol::{checked_move, move_of, parse_line};
use sequence_bots::BotGame;
use sequence_common::record::verify;
use sequence_common::reshuffle::RngReshuffler;
use sequence_common::{Notation, Rules};

/// Replays `data` as a record of game `G` the ways `sequence verify`, the
/// Python package and the server read records: strict JSON, then
/// [`verify`] and [`sequence_common::record::Record::from_json_str`]. The
/// two agree, and a record that verifies, written again by the engine,
/// verifies to the same summary.
pub fn record<G: Notation>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = sequence_common::record::Record::<G>::from_json_str(text);
    let Ok(value) = sequence_common::json::parse_strict(text) else {
        assert!(parsed.is_err(), "a record that is not JSON replayed");
        return;
    };
    let verified = verify::<G>(&value);
    match (&parsed, &verified) {
        (Ok((record, _)), Ok(summary)) => {
            let again = verify::<G>(&record.to_json());
            assert_eq!(again.as_ref(), Ok(summary), "the record written again verifies the same");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "both readers give the same error"),
        _ => panic!("one reader accepted what the other refused"),
    }
}

/// The tables the notation and bot-line targets read moves for: 2, 3 and 4
/// players (classic 3 plays alone, 4 in two teams), default options.
fn config<G: Rules>(pick: u8) -> Option<G::Config> {
    let players = 2 + pick % 3;
    G::table(players, None, G::Options::default()).ok()
}

/// Reads `data` (after its first byte, which picks the table) as a move
/// in the record and API notation of game `G`; a move it accepts reads
/// back the same from its own JSON. Also reads the text as a card code.
pub fn notation<G: Notation>(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(card) = G::parse_card(text) {
        let code = G::card_code(card);
        assert_eq!(G::parse_card(&code).ok(), Some(card), "card {code} reads back");
    }
    let Some(config) = config::<G>(pick) else {
        return;
    };
    let Ok(value) = sequence_common::json::parse_strict(text) else {
        return;
    };
    if let Ok((seat, mv)) = G::move_from_input(&value, &config) {
        let _ = G::move_text(&mv);
        if G::is_recorded(&mv) {
            let back = G::move_to_json(seat, &mv, &config);
            let again = G::move_from_json(&back, &config);
            assert_eq!(again.ok(), Some((seat, mv)), "{back} reads back as written");
        }
    }
}

/// Games part-way through for the bot-line targets: seed 0–3, after 0–63
/// random moves (both picked from one byte).
fn game_at<G: Rules>(pick: u8, config: &G::Config) -> G {
    let mut rng = rand_chacha_rng(u64::from(pick & 3));
    let (mut game, _) = G::deal(config, &mut rng);
    for _ in 0..(pick >> 2) {
        let Some(seat) = game.to_act() else { break };
        let Some(mv) = game.random_move(&mut rng) else { break };
        let mut reshuffler = RngReshuffler(&mut rng);
        if game.play(seat, mv, &mut reshuffler).is_err() {
            break;
        }
    }
    game
}

fn rand_chacha_rng(seed: u64) -> sequence_common::rng::GameRng {
    sequence_common::rng::GameRng::seed_from_u64(seed)
}

/// Reads `data` (after two bytes picking the table and the position) as
/// a line a bot program wrote in answer to a move request (docs/bot-protocol.md):
/// the host's own steps, [`parse_line`], [`move_of`], [`checked_move`]; a
/// move they accept can be played.
pub fn bot_line<G: BotGame>(data: &[u8]) {
    let [table, at, rest @ ..] = data else {
        return;
    };
    let Ok(line) = std::str::from_utf8(rest) else {
        return;
    };
    let Some(config) = config::<G>(*table) else {
        return;
    };
    let game = game_at::<G>(*at, &config);
    let Some(me) = game.to_act() else {
        return;
    };
    let Ok(answer) = parse_line(line).and_then(|a| move_of(&a)) else {
        return;
    };
    if let Ok(mv) = checked_move(&answer, me, &game) {
        let mut after = game.clone();
        let mut rng = rand_chacha_rng(7);
        let mut reshuffler = RngReshuffler(&mut rng);
        assert!(
            after.play(me, mv, &mut reshuffler).is_ok(),
            "{answer} was accepted but cannot be played"
        );
    }
}
