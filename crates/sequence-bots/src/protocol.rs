//! The bot protocol (docs/bot-protocol.md): an outside program plays a seat
//! through line-based JSON on its stdin and stdout, in the manner of UCI or
//! GTP.
//!
//! One JSON object per line each way. The host sends
//! `{"type":"hello","protocol":"sequence-bot/1","game":"classic"|"stacks","seed":N}`
//! and the bot answers `{"type":"hello","name":…,"version":…}`. Then for each
//! decision the host sends `{"type":"move","time_ms":T,"view":{…},"legal_moves":[…]}`
//! (the seat's view JSON and its legal moves in the record move format) and
//! the bot answers `{"type":"move","move":{…}}` with one of them. At the end
//! the host sends `{"type":"game_over","view":{…}}` and `{"type":"quit"}`.
//!
//! A program that exits, closes its output, answers garbage, answers a
//! move not among the legal ones, or takes longer than its time limit
//! fails ([`BotFailure`]): the arena counts that game as lost by it.

use crate::bot::{Bot, BotFailure, BotGame};
use rand::Rng;
use sequence_common::rng::{game_rng, GameRng};
use sequence_common::{Seat, SeatView};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::marker::PhantomData;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Protocol name and version sent in the greeting.
pub const PROTOCOL: &str = "sequence-bot/1";
/// Time a program has to answer the greeting.
pub const HELLO_TIME: Duration = Duration::from_secs(10);
/// Longest line accepted from a program (bytes).
pub const MAX_LINE: usize = 1 << 20;

/// A running bot program.
pub struct ProgramBot {
    command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    move_time: Duration,
    /// Name and version the program gave in its greeting.
    pub hello_name: String,
    /// The first failure; every later request fails the same way.
    failed: Option<BotFailure>,
    rng: GameRng,
}

impl ProgramBot {
    /// Starts `command` (split on whitespace, no shell) and greets it for
    /// `game` (`"classic"` or `"stacks"`).
    ///
    /// # Errors
    /// A message when the program cannot start or does not greet back
    /// within [`HELLO_TIME`].
    pub fn start(
        command: &str,
        game: &str,
        move_time: Duration,
        seed: u64,
    ) -> Result<ProgramBot, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("empty command")?;
        let mut cmd = Command::new(program);
        cmd.args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group, so that whatever it starts is stopped
        // with it (see `kill`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {program:?}: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let stderr = child.stderr.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match r.by_ref().take(MAX_LINE as u64).read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        if let Some(err) = stderr {
            let name = command.to_string();
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    tracing::debug!(bot = %name, "stderr: {line}");
                }
            });
        }
        let stdin = child.stdin.take();
        let mut bot = ProgramBot {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            move_time,
            hello_name: String::new(),
            failed: None,
            rng: game_rng(seed),
        };
        bot.send(&json!({"type": "hello", "protocol": PROTOCOL, "game": game, "seed": seed}))
            .map_err(|e| e.to_string())?;
        let answer = bot
            .receive(HELLO_TIME)
            .map_err(|e| format!("greeting: {e}"))?;
        if answer.get("type").and_then(Value::as_str) != Some("hello") {
            bot.kill();
            return Err(format!(
                "greeting: expected {{\"type\":\"hello\",...}}, got {answer}"
            ));
        }
        let name = answer.get("name").and_then(Value::as_str).unwrap_or("?");
        let version = answer.get("version").and_then(Value::as_str).unwrap_or("");
        bot.hello_name = format!("{name} {version}").trim().to_string();
        tracing::info!(command, hello = %bot.hello_name, "bot program started");
        Ok(bot)
    }

    fn send(&mut self, v: &Value) -> Result<(), BotFailure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(BotFailure::Crashed("input closed".into()));
        };
        let mut line = v.to_string();
        line.push('\n');
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|e| {
                BotFailure::Crashed(format!(
                    "cannot write to the program: {e} ({})",
                    self.exit_note()
                ))
            })
    }

    fn exit_note(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(st)) => format!("exited with {st}"),
            _ => "still running".into(),
        }
    }

    fn receive(&mut self, limit: Duration) -> Result<Value, BotFailure> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => parse_line(&line),
            Err(RecvTimeoutError::Timeout) => Err(BotFailure::Timeout(limit.as_millis() as u64)),
            Err(RecvTimeoutError::Disconnected) => {
                // Give the process a moment to be reaped for its status.
                std::thread::sleep(Duration::from_millis(20));
                Err(BotFailure::Crashed(format!(
                    "closed its output ({})",
                    self.exit_note()
                )))
            }
        }
    }

    /// Sends a move request and returns the `move` object of the answer.
    fn ask(&mut self, view: Value, legal: Vec<Value>) -> Result<Value, BotFailure> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        let req = json!({
            "type": "move",
            "time_ms": self.move_time.as_millis() as u64,
            "view": view,
            "legal_moves": legal,
        });
        let res = self
            .send(&req)
            .and_then(|_| self.receive(self.move_time))
            .and_then(|answer| move_of(&answer));
        if let Err(e) = &res {
            self.fail(e.clone());
        }
        res
    }

    fn fail(&mut self, e: BotFailure) {
        tracing::info!(command = %self.command, "bot program failed: {e}");
        self.failed = Some(e);
        self.kill();
    }

    fn notify(&mut self, v: Value) {
        if self.failed.is_none() {
            let _ = self.send(&v);
        }
    }

    /// Stops the program and every process it started (its process
    /// group).
    fn kill(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        if let Ok(pgid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: killpg takes plain integers and touches no memory of
            // ours; the group is the one the program was started in.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// This program as a bot of the game `G` named `name` (it was greeted
    /// for that game).
    pub fn playing<G: BotGame>(self, name: String) -> Program<G> {
        Program {
            name,
            bot: self,
            game: PhantomData,
        }
    }
}

impl Drop for ProgramBot {
    fn drop(&mut self) {
        if self.failed.is_none() {
            let _ = self.send(&json!({"type": "quit"}));
            self.stdin = None;
            for _ in 0..20 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Also stops what the program left running.
        self.kill();
    }
}

/// Reads one line a program wrote: a JSON value of at most [`MAX_LINE`]
/// bytes (surrounding white space ignored).
///
/// # Errors
/// [`BotFailure::Garbled`] for a line too long or not JSON, quoting it.
pub fn parse_line(line: &str) -> Result<Value, BotFailure> {
    if line.len() >= MAX_LINE {
        return Err(BotFailure::Garbled(format!(
            "a line longer than {MAX_LINE} bytes"
        )));
    }
    serde_json::from_str::<Value>(line.trim()).map_err(|e| {
        BotFailure::Garbled(format!("not JSON ({e}): {:?}", truncate(line.trim(), 200)))
    })
}

/// The `move` object of a program's answer to a move request
/// (`{"type":"move","move":{…}}`).
///
/// # Errors
/// [`BotFailure::Garbled`] when the answer has no `move` object.
pub fn move_of(answer: &Value) -> Result<Value, BotFailure> {
    match answer.get("move") {
        Some(m) if m.is_object() => Ok(m.clone()),
        _ => Err(BotFailure::Garbled(format!(
            "expected {{\"type\":\"move\",\"move\":{{...}}}}, got {}",
            truncate(&answer.to_string(), 200)
        ))),
    }
}

/// A program's `move` object read as a move of seat `me` that the rules
/// accept in `game` now (classic: a declaration of sequences is checked
/// too, C8a).
///
/// # Errors
/// [`BotFailure::Illegal`] naming what is wrong: not a move, another
/// seat's move, or a move the rules refuse.
pub fn checked_move<G: BotGame>(answer: &Value, me: Seat, game: &G) -> Result<G::Move, BotFailure> {
    let (seat, mv) = G::move_from_input(answer, game.config())
        .map_err(|e| BotFailure::Illegal(e.to_string()))?;
    if seat != me {
        return Err(BotFailure::Illegal(format!(
            "seat {} moved, but seat {} must decide",
            seat.0, me.0
        )));
    }
    game.check(seat, mv).map_err(|e| {
        BotFailure::Illegal(format!(
            "{} is not among the legal moves: {e}",
            truncate(&answer.to_string(), 200)
        ))
    })?;
    Ok(mv)
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// A bot program playing the game `G`.
pub struct Program<G> {
    name: String,
    bot: ProgramBot,
    game: PhantomData<fn() -> G>,
}

impl<G: BotGame> Bot<G> for Program<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The program's move; on failure a random legal move (the failure is
    /// logged; the arena uses [`Bot::try_choose`] instead).
    fn choose(&mut self, view: &G::View) -> G::Move {
        match self.try_choose(view) {
            Ok(m) => m,
            Err(_) => {
                let moves = view.legal_moves();
                if moves.is_empty() {
                    G::Move::default()
                } else {
                    moves[self.bot.rng.random_range(0..moves.len())]
                }
            }
        }
    }

    /// Sends the view (its JSON, docs/bot-protocol.md) and the legal moves
    /// in the record format; the answer must be a move of this seat that
    /// the rules accept now (classic: a declaration of sequences is checked
    /// too, C8a). The seat's own hand and the public state decide what is
    /// legal, so any determinization of the view checks it.
    fn try_choose(&mut self, view: &G::View) -> Result<G::Move, BotFailure> {
        let Some(me) = view.seat() else {
            return Err(BotFailure::Illegal("a spectator cannot move".into()));
        };
        let legal = view.legal_moves();
        let game = view.determinize(&mut self.bot.rng);
        let config = game.as_ref().map(|g| g.config().clone());
        let legal_json: Vec<serde_json::Value> = match &config {
            Some(c) => legal.iter().map(|m| G::move_to_json(me, m, c)).collect(),
            None => Vec::new(),
        };
        let answer = self.bot.ask(view.to_json(), legal_json)?;
        let checked = match &game {
            Some(game) => checked_move(&answer, me, game),
            None => Err(BotFailure::Illegal("the view does not add up".into())),
        };
        if let Err(e) = &checked {
            self.bot.fail(e.clone());
        }
        checked
    }

    fn game_over(&mut self, view: &G::View) {
        self.bot
            .notify(json!({"type": "game_over", "view": view.to_json()}));
    }
}
