//! Classic Sequence commands: `replay`, `selfplay`, `bench`.

use crate::{BenchArgs, SelfplayArgs};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sequence_classic::record::{replay_value, Match};
use sequence_classic::{Card, Config, Game, Move, MoveList, Options, Seat, Space, Status, Team};
use sequence_common::record::{detect_kind, RecordKind};
use std::io::Write;
use std::time::Instant;

/// `sequence replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The record file (`-` for standard input).
    pub file: std::path::PathBuf,
    /// No colours (chips still read as letters).
    #[arg(long)]
    pub no_color: bool,
    /// Show only the final board.
    #[arg(long)]
    pub last: bool,
}

/// The move in words, e.g. "green plays 7H on d6".
pub fn describe(game: &Game, seat: Seat, m: &Move) -> String {
    let team = game.team_of(seat);
    let who = if game.players() == game.teams() {
        team.colour().to_string()
    } else {
        format!("{} (seat {})", team.colour(), seat.0)
    };
    match m {
        Move::Place { card, at, .. } if card.is_jack() => {
            format!("{who} plays {card} (two-eyed jack) on {at}")
        }
        Move::Place { card, at, .. } => format!("{who} plays {card} on {at}"),
        Move::Remove { card, at } => {
            format!("{who} plays {card} (one-eyed jack) and removes the chip on {at}")
        }
        Move::Dead { card } => format!("{who} exchanges the dead card {card}"),
        Move::Pass => format!("{who} has no legal play and passes"),
        Move::Discard { card } => format!("{who} has no legal play and discards {card}"),
    }
}

/// The board as text: card labels under chips as coloured letters
/// (`B G R`, lower case when locked in a sequence), `*` for corners.
pub fn render_board(game: &Game, color: bool, last: Option<Space>) -> String {
    let mut out = String::from("     a   b   c   d   e   f   g   h   i   j\n");
    for r in 0..10u8 {
        out.push_str(&format!("{:>2} ", r + 1));
        for c in 0..10u8 {
            let Some(sq) = Space::new(r, c) else { continue };
            let cell = if sq.is_corner() {
                " ** ".to_string()
            } else {
                match game.chip_at(sq) {
                    Some(t) => {
                        let locked = game.locked().contains(sq);
                        let l = if locked {
                            t.letter().to_ascii_lowercase()
                        } else {
                            t.letter()
                        };
                        let mark = if Some(sq) == last { '>' } else { ' ' };
                        let text = format!("{mark}[{l}]");
                        if color {
                            let code = match t.0 {
                                0 => "34",
                                1 => "32",
                                _ => "31",
                            };
                            format!("\x1b[1;{code}m{text}\x1b[0m")
                        } else {
                            text
                        }
                    }
                    None => {
                        let card = game
                            .layout()
                            .card_at(sq)
                            .map(|c| c.to_string())
                            .unwrap_or_default();
                        let mark = if Some(sq) == last { '>' } else { ' ' };
                        format!("{mark}{card} ")
                    }
                }
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    let seqs: Vec<String> = (0..game.teams())
        .map(|t| format!("{} {}", Team(t).colour(), game.sequence_count(Team(t))))
        .collect();
    out.push_str(&format!(
        "sequences: {}   draw pile: {}\n",
        seqs.join(", "),
        game.draw_pile_len()
    ));
    out
}

/// Runs `sequence replay` for a record of either game. Exit codes as
/// `sequence verify`: 1 at an illegal move, 2 for a malformed file.
pub fn replay(a: ReplayArgs) -> std::process::ExitCode {
    use std::io::IsTerminal;
    use std::process::ExitCode;
    let text = match crate::verify::read_input(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (kind, value) = match detect_kind(&text) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let color =
        !a.no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    let res = match kind {
        RecordKind::Classic => replay_classic(&value, &a, color, &mut out),
        RecordKind::Stacks => crate::stacks::replay(&value, a.last, &mut out),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("{e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

fn replay_classic(
    value: &serde_json::Value,
    a: &ReplayArgs,
    color: bool,
    out: &mut impl Write,
) -> Result<(), sequence_common::record::ReplayError> {
    let res = replay_value(value, |i, seat, m, g| {
        if a.last {
            return;
        }
        let last = match m {
            Move::Place { at, .. } | Move::Remove { at, .. } => Some(*at),
            _ => None,
        };
        let _ = writeln!(out, "move {i}: {}", describe(g, seat, m));
        let _ = writeln!(out, "{}", render_board(g, color, last));
    });
    let (_, game) = res?;
    if a.last {
        let _ = write!(out, "{}", render_board(&game, color, None));
    }
    let _ = match game.status() {
        Status::Won(t) => writeln!(out, "{t} wins"),
        Status::Draw => writeln!(out, "draw"),
        Status::Playing => writeln!(out, "game unfinished"),
    };
    Ok(())
}

/// Parses the `--options` JSON.
pub fn parse_options(s: Option<&str>) -> anyhow::Result<Options> {
    match s {
        None => Ok(Options::default()),
        Some(s) => {
            let v: serde_json::Value =
                serde_json::from_str(s).with_context(|| format!("--options {s:?}"))?;
            if !v.is_object() {
                anyhow::bail!(
                    "--options {s:?}: expected a JSON object such as {{\"sequence_length\":4}}"
                );
            }
            serde_json::from_value(v).with_context(|| format!("--options {s:?}"))
        }
    }
}

fn progress(n: u64) -> ProgressBar {
    let pb = ProgressBar::new(n);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb
}

/// Runs `sequence selfplay` for the classic game: random legal moves, seeds
/// `seed, seed+1, …` per game.
pub fn selfplay(a: SelfplayArgs) -> anyhow::Result<()> {
    let options = parse_options(a.options.as_deref())?;
    let config = Config::new(a.players, a.teams, options)?;
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut wins = [0u32; 3];
    let mut draws = 0u32;
    let mut total_moves = 0u64;
    let pb = progress(a.games as u64);
    for i in 0..a.games {
        let seed = a.seed.wrapping_add(i as u64);
        let mut m = Match::new(config.clone(), seed);
        let mut rng = sequence_common::rng::playout_rng(seed);
        let mut list = MoveList::new();
        while !m.game().is_over() {
            m.game().legal_moves(&mut list);
            let mv = list.as_slice()[rand::Rng::random_range(&mut rng, 0..list.len())];
            let seat = m.game().turn();
            m.play(seat, mv)
                .map_err(|e| anyhow::anyhow!("engine refused its own move {mv:?}: {e}"))?;
        }
        total_moves += m.game().ply() as u64;
        match m.game().status() {
            Status::Won(t) => wins[t.index()] += 1,
            _ => draws += 1,
        }
        if let Some(dir) = &a.out {
            let path = dir.join(format!("game-{:05}.json", i + 1));
            std::fs::write(&path, m.record().to_json_string())
                .with_context(|| format!("writing {}", path.display()))?;
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    println!("games: {}", a.games);
    for t in 0..config.teams() {
        println!("{:>6} wins: {}", Team(t).colour(), wins[t as usize]);
    }
    println!(" draws: {draws}");
    println!(
        "mean moves: {:.1}",
        total_moves as f64 / a.games.max(1) as f64
    );
    Ok(())
}

/// A midgame position: 2 players, 30 random moves from a fixed seed.
pub fn midgame() -> Game {
    let config = Config::new(2, None, Options::default()).unwrap_or_else(|_| unreachable!());
    let mut rng = sequence_common::rng::game_rng(42);
    let (mut g, _) = Game::deal(config, &mut rng);
    for _ in 0..30 {
        if g.is_over() {
            break;
        }
        let mv = g.random_move(&mut rng);
        let _ = g.apply(mv, &mut sequence_classic::RngReshuffler(&mut rng));
    }
    g
}

/// Runs `sequence bench` for the classic game.
pub fn bench(a: BenchArgs) -> anyhow::Result<()> {
    let players = a.players.unwrap_or(2);
    let config = Config::new(players, None, Options::default())?;
    let mut rng = sequence_common::rng::playout_rng(1);
    // Playouts: fresh deal (shuffle) and a full random game each.
    let mut deck = Card::double_deck();
    let (proto, _) = Game::deal(config.clone(), &mut rng);
    let start = Instant::now();
    let mut games = 0u64;
    let mut moves = 0u64;
    let pb = ProgressBar::new_spinner();
    pb.set_message("random playouts");
    while start.elapsed().as_secs_f64() < a.seconds {
        for _ in 0..1000 {
            sequence_common::rng::shuffle_fast(&mut deck, &mut rng);
            let dealer = Seat(rand::Rng::random_range(&mut rng, 0..players));
            let mut g = match proto.redeal(dealer, &deck) {
                Ok(g) => g,
                Err(_) => proto.clone(),
            };
            moves += g.playout(&mut rng) as u64;
            games += 1;
        }
        pb.tick();
    }
    let secs = start.elapsed().as_secs_f64();
    // Legal move generation on a midgame position.
    pb.set_message("legal moves");
    let pos = midgame();
    let mut list = MoveList::new();
    let median_ns = crate::median_ns_per_call(|| {
        pos.legal_moves(&mut list);
        std::hint::black_box(&list);
    });
    pb.finish_and_clear();
    let out = serde_json::json!({
        "game": "classic",
        "players": players,
        "seconds": secs,
        "games": games,
        "games_per_second": games as f64 / secs,
        "moves_per_second": moves as f64 / secs,
        "mean_moves_per_game": moves as f64 / games.max(1) as f64,
        "legal_moves_median_ns": median_ns,
        "legal_moves_count": list.len(),
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("classic Sequence, {players} players, one core, {secs:.1} s");
        println!("{:<28}{:>14.0}", "games/s", games as f64 / secs);
        println!("{:<28}{:>14.0}", "moves/s", moves as f64 / secs);
        println!(
            "{:<28}{:>14.1}",
            "mean moves/game",
            moves as f64 / games.max(1) as f64
        );
        println!("{:<28}{:>14.0}", "legal moves median (ns)", median_ns);
        println!("{:<28}{:>14}", "legal moves in position", list.len());
    }
    Ok(())
}
