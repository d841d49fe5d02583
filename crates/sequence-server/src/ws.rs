//! The table WebSocket (`GET /api/tables/{id}/ws`, docs/api.md): the first
//! message says who is there (`hello` with a seat token, or none for a
//! spectator); the server then pushes every new view and carries chat and
//! moves. Frames are capped at 16 KiB; each connection is rate limited.

use crate::app::{self, play_move, App, MoveRequest, TableRef};
use crate::auth::SeatToken;
use crate::error::ApiError;
use crate::input::{self, ApiPath, Hints};
use crate::limits::{self, Bucket};
use crate::tables::{Frame, Sub, Table};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;

/// Messages a connection may send per second, and the burst.
const WS_RATE: f64 = 10.0;
const WS_BURST: f64 = 20.0;
/// Refusals after which a flooding connection is closed. A pause of
/// [`WS_PAUSE`] after a refusal forgives the earlier ones: a client that
/// backs off after a 429 is never closed, however long it stays connected.
const WS_MAX_REFUSED: u32 = 20;
/// Silence after a refusal that resets the refusal count.
const WS_PAUSE: Duration = Duration::from_millis(200);
/// How long a connection closed for flooding or size waits for the
/// client's close frame.
const CLOSE_WAIT: Duration = Duration::from_secs(2);
/// Bytes of frames read (and dropped) after the server's close frame while
/// waiting for the client's (each frame counts its payload and
/// [`DRAIN_FRAME_COST`]): enough for the hundreds of small frames a flooder
/// has in flight, so the client still reads its close code.
const DRAIN_MAX: usize = 1024 * 1024;
/// What each drained frame counts over its payload, in bytes.
const DRAIN_FRAME_COST: usize = 64;
/// Queued outgoing frames before a slow connection is dropped.
const QUEUE: usize = 64;
/// The read buffer of a connection (it grows for a larger frame, up to
/// the 16 KiB cap): a client's messages are a few hundred bytes, and the
/// buffer is held for the socket's life (issue 26: memory per socket).
const READ_BUFFER: usize = 1024;
/// The largest frame read from the wire; messages over
/// [`limits::MAX_BODY`] are refused (1009) once read.
const WIRE_MAX: usize = 128 * 1024;
/// Bytes of outgoing frames a connection may hold before it is closed
/// (the kernel's socket buffer comes first).
const MAX_WRITE_BUFFER: usize = 256 * 1024;

/// A message from a client.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Who is there: a seat token or none (spectator).
    Hello {
        /// The seat token.
        #[serde(default)]
        token: Option<String>,
    },
    /// A move, as `POST …/moves`.
    Move {
        /// Must equal the game's move count.
        move_number: u32,
        /// Record-format move.
        #[serde(rename = "move")]
        mv: Value,
    },
    /// A chat line.
    Chat {
        /// The text (capped and escaped by the server).
        text: String,
    },
    /// A quick reaction, one of [`REACTIONS`].
    Reaction {
        /// Its name.
        reaction: String,
    },
    /// Keep-alive.
    Ping,
}

/// Every field a client message may have, read flat so that an error can
/// name the field (serde loses the field of an internally tagged enum).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMsg {
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    move_number: Option<u32>,
    #[serde(default, rename = "move")]
    mv: Option<Value>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    reaction: Option<String>,
}

/// The quick reactions a seat may send to its table (docs/api.md): the
/// page draws each as a pictogram.
pub const REACTIONS: [&str; 6] = ["smile", "frown", "star", "wow", "think", "gg"];

const MSG_HINTS: Hints = &[
    (
        "type",
        "one of \"hello\", \"move\", \"chat\", \"reaction\", \"ping\"",
    ),
    ("token", "a seat token (32 hex characters) or null"),
    (
        "move_number",
        "a whole number from 0 to 4294967295 (the view's move_number)",
    ),
    ("move", "a move object"),
    ("text", "a string"),
    ("reaction", "a string: smile, frown, star, wow, think or gg"),
];

/// Parses one client text frame.
///
/// # Errors
/// A message naming what is wrong (not JSON, unknown `type`, missing or
/// unknown field, a field of the wrong kind).
pub fn parse_client(text: &str) -> Result<ClientMsg, String> {
    let m: RawMsg = input::object(text.as_bytes(), "a message", MSG_HINTS)
        .map_err(|e| format!("bad message: {e}"))?;
    let allowed: &[&str] = match m.ty.as_str() {
        "hello" => &["token"],
        "move" => &["move_number", "move"],
        "chat" => &["text"],
        "reaction" => &["reaction"],
        "ping" => &[],
        other => {
            return Err(format!(
                "bad message: unknown type \"{}\" (hello, move, chat, reaction or ping)",
                limits::echo(other)
            ))
        }
    };
    let present = [
        ("token", m.token.is_some()),
        ("move_number", m.move_number.is_some()),
        ("move", m.mv.is_some()),
        ("text", m.text.is_some()),
        ("reaction", m.reaction.is_some()),
    ];
    if let Some((f, _)) = present
        .iter()
        .find(|(f, there)| *there && !allowed.contains(f))
    {
        return Err(format!(
            "bad message: a {} message has no field `{f}`",
            m.ty
        ));
    }
    let missing = |f: &str| {
        format!(
            "bad message: field `{f}` is missing from a {} message",
            m.ty
        )
    };
    Ok(match m.ty.as_str() {
        "hello" => ClientMsg::Hello { token: m.token },
        "move" => ClientMsg::Move {
            move_number: m.move_number.ok_or_else(|| missing("move_number"))?,
            mv: m.mv.ok_or_else(|| missing("move"))?,
        },
        "chat" => ClientMsg::Chat {
            text: m.text.ok_or_else(|| missing("text"))?,
        },
        "reaction" => ClientMsg::Reaction {
            reaction: m.reaction.ok_or_else(|| missing("reaction"))?,
        },
        _ => ClientMsg::Ping,
    })
}

/// `GET /api/tables/{id}/ws`.
pub async fn handler(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|r| {
        ApiError::new(
            r.status(),
            "this path takes a WebSocket connection (GET with Upgrade: websocket)",
        )
    })?;
    let tref = app.table(&id).await?;
    Ok(ws
        // frames up to WIRE_MAX are read whole, so that one over the
        // 16 KiB cap is closed with 1009 after the client's frame was read
        // (a socket closed under unread bytes is reset and the client never
        // sees the code); the cap itself is checked on each message
        .max_frame_size(WIRE_MAX)
        .max_message_size(WIRE_MAX)
        // tungstenite's defaults are 128 KiB buffers a connection; a
        // client sends small frames and a view is a few KiB
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        // the connection's log lines keep the request's span (request id,
        // table id)
        .on_upgrade(move |socket| run(app, tref, socket).instrument(tracing::Span::current())))
}

/// How the server ends a connection: the close frame it sends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Closing {
    /// The client closed, or its seat was given away: a plain close.
    Plain,
    /// The connection kept flooding past the rate limit: 1008.
    Flooding,
    /// A frame over the size cap: 1009.
    TooBig,
}

impl Closing {
    /// The close frame, `None` for a plain close.
    fn frame(self) -> Option<CloseFrame> {
        let (code, reason) = match self {
            Closing::Plain => return None,
            Closing::Flooding => (1008, "rate limit: too many messages"),
            Closing::TooBig => (1009, "frame over 16 KiB"),
        };
        Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        })
    }

    /// How to close after a read error: 1009 for a frame or message over
    /// the cap (tungstenite's typed capacity error), else a plain close.
    fn after(e: &axum::Error) -> Closing {
        let too_big = std::error::Error::source(e)
            .and_then(|s| s.downcast_ref::<tungstenite::Error>())
            .is_some_and(|t| {
                matches!(
                    t,
                    tungstenite::Error::Capacity(
                        tungstenite::error::CapacityError::MessageTooLong { .. }
                    )
                )
            });
        if too_big {
            Closing::TooBig
        } else {
            Closing::Plain
        }
    }
}

/// Sends an error and closes with 1008 (a refused `hello`).
async fn close_with(socket: &mut WebSocket, e: ApiError) {
    let _ = socket.send(Message::Text(e.ws_message().into())).await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: 1008,
            reason: Utf8Bytes::from(e.message.chars().take(100).collect::<String>()),
        })))
        .await;
}

/// One connection: the hello, then a writer task sending what the table
/// queues and this task reading the client's messages until one side
/// ends; then the closing handshake.
async fn run(app: Arc<App>, tref: TableRef, mut socket: WebSocket) {
    let Some(token) = hello(&mut socket, app.cfg.limits.hello_timeout).await else {
        return;
    };
    let (tx, rx) = mpsc::channel::<Frame>(QUEUE);
    let id = app.conn_id();
    // boxed as `Conn::handle` (catching up with the database)
    let seat = match Box::pin(enter(&app, &tref, id, &token, tx)).await {
        Ok(seat) => seat,
        Err(e) => return close_with(&mut socket, e).await,
    };
    app.cluster
        .sockets
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (sink, mut stream) = socket.split();
    let (close_tx, close_rx) = oneshot::channel();
    let ping_every = app.cfg.limits.idle_timeout / 3;
    let writer = tokio::spawn(write(sink, rx, close_rx, ping_every).in_current_span());
    let mut conn = Conn::new(app, tref, id, seat);
    let closing = conn.read(&mut stream).await;
    let _ = close_tx.send(closing);
    conn.leave().await;
    conn.app
        .cluster
        .sockets
        .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    let _ = writer.await;
    if closing != Closing::Plain {
        drain(&mut stream).await;
    }
}

/// Reads the first message, which must be a `hello` within `wait`: its
/// token, or `None` after refusing it (the connection is then closed).
async fn hello(socket: &mut WebSocket, wait: Duration) -> Option<SeatToken> {
    let first = tokio::time::timeout(wait, socket.recv()).await;
    let not_hello = || ApiError::bad("the first message must be hello");
    let text = match first {
        Ok(Some(Ok(Message::Text(t)))) => t,
        Ok(Some(Ok(_))) => {
            close_with(socket, not_hello()).await;
            return None;
        }
        _ => return None,
    };
    match parse_client(&text) {
        Ok(ClientMsg::Hello { token }) => Some(SeatToken::from_hello(token.as_deref())),
        Ok(_) => {
            close_with(socket, not_hello()).await;
            None
        }
        Err(e) => {
            close_with(socket, ApiError::bad(e)).await;
            None
        }
    }
}

/// Finds the seat of the hello's `token` (none: a spectator; a token this
/// instance does not know yet is looked for again after catching up) and
/// [`subscribe`]s the connection.
///
/// # Errors
/// 401 for a token of no seat of this table.
async fn enter(
    app: &Arc<App>,
    tref: &TableRef,
    id: u64,
    token: &SeatToken,
    tx: mpsc::Sender<Frame>,
) -> Result<Option<u8>, ApiError> {
    let mut t = tref.lock().await;
    let seat = if token.is_missing() {
        None
    } else {
        Some(app::seat_of_token(app, tref, &mut t, token).await?)
    };
    subscribe(app, &mut t, id, seat, tx);
    Ok(seat)
}

/// Registers connection `id` of `seat` (`None`: a spectator) with the
/// table: sends `welcome`, the recent chat and its view; when the seat's
/// connected flag changes, everyone gets a view (and other instances
/// learn of it).
fn subscribe(app: &App, t: &mut Table, id: u64, seat: Option<u8>, tx: mpsc::Sender<Frame>) {
    let _ = tx.try_send(json!({"type": "welcome", "seat": seat}).to_string().into());
    for c in t.chat.iter() {
        let _ = tx.try_send(c.to_string().into());
    }
    let was = seat.map(|s| t.seat_connected(s as usize));
    if let Some(c) = seat.and_then(|s| t.connected.get_mut(s as usize)) {
        *c += 1;
    }
    t.subs.push(Sub { id, seat, tx });
    let flag_changed = seat.is_some_and(|s| was != Some(t.seat_connected(s as usize)));
    if let Some(s) = seat {
        if app.db.shared() {
            app.cluster.presence_changed(&t.core.id, s);
        }
    }
    if flag_changed {
        // everyone sees the connected flag change; this connection gets its view
        t.broadcast_views();
    } else if let Some(sub) = t.subs.last() {
        let _ = sub.tx.try_send(t.view_message(seat).frame().clone());
    }
}

/// The writer: sends what the table queues for this connection, and a
/// ping every `ping_every` (a live client answers it, so a client that
/// reads nothing falls silent and the listener's idle timeout closes it),
/// until the queue closes (the connection left the table); then the
/// close frame the reader decided on (a plain close if it has not
/// decided).
async fn write(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Frame>,
    mut closing: oneshot::Receiver<Closing>,
    ping_every: Duration,
) {
    let mut ping = tokio::time::interval(ping_every.max(Duration::from_millis(10)));
    ping.tick().await;
    loop {
        let msg = tokio::select! {
            text = rx.recv() => match text {
                Some(text) => Message::Text(text.text()),
                None => break,
            },
            _ = ping.tick() => Message::Ping(Default::default()),
        };
        if sink.send(msg).await.is_err() {
            break;
        }
    }
    match closing.try_recv().ok().and_then(Closing::frame) {
        Some(frame) => {
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        None => {
            let _ = sink.close().await;
        }
    }
}

/// The closing handshake after the server closed with a code: reads (and
/// drops) what the client still sends until its close frame, so the
/// socket is not reset under frames it already sent and the client reads
/// the close code (1008/1009) — but at most [`DRAIN_MAX`] bytes of frames
/// for at most [`CLOSE_WAIT`]: a flooder that keeps sending is not read for
/// ever.
async fn drain(stream: &mut SplitStream<WebSocket>) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        let mut read = 0;
        while let Some(Ok(m)) = stream.next().await {
            read += DRAIN_FRAME_COST
                + match &m {
                    Message::Close(_) => break,
                    Message::Text(t) => t.len(),
                    Message::Binary(b) | Message::Ping(b) | Message::Pong(b) => b.len(),
                };
            if read >= DRAIN_MAX {
                break;
            }
        }
    })
    .await;
}

/// What to do after a client message.
enum Next {
    /// Read the next one.
    Go,
    /// Stop: the connection no longer belongs to the table.
    Stop,
}

/// The reading side of one connection: its seat, its rate limit.
struct Conn {
    app: Arc<App>,
    tref: TableRef,
    id: u64,
    seat: Option<u8>,
    bucket: Bucket,
    refused: u32,
    last_refusal: Option<Instant>,
}

impl Conn {
    fn new(app: Arc<App>, tref: TableRef, id: u64, seat: Option<u8>) -> Conn {
        Conn {
            app,
            tref,
            id,
            seat,
            bucket: Bucket::new(WS_BURST),
            refused: 0,
            last_refusal: None,
        }
    }

    /// Reads and handles the client's messages until it closes, the
    /// connection leaves the table, floods, or sends a frame over the cap.
    async fn read(&mut self, stream: &mut SplitStream<WebSocket>) -> Closing {
        while let Some(item) = stream.next().await {
            let text = match item {
                Ok(Message::Text(t)) if t.len() > limits::MAX_BODY => return Closing::TooBig,
                Ok(Message::Binary(b)) if b.len() > limits::MAX_BODY => return Closing::TooBig,
                Ok(Message::Text(t)) => t,
                Ok(Message::Close(_)) => return Closing::Plain,
                Ok(Message::Binary(_)) => {
                    self.refuse(ApiError::bad("binary frames are not accepted"))
                        .await;
                    continue;
                }
                Ok(_) => continue,
                Err(e) => {
                    tracing::debug!(conn = self.id, "websocket read error: {e}");
                    return Closing::after(&e);
                }
            };
            let done = match self.within_rate() {
                Err(wait) => Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate limit: too many messages",
                )
                .wait_for(wait)),
                // boxed: the handling of a move (its commit) is a large
                // future, held only while a message is handled rather than
                // for the connection's life (issue 26: memory per socket)
                Ok(()) => Box::pin(self.handle(&text)).await,
            };
            match done {
                Ok(Next::Go) => {}
                Ok(Next::Stop) => return Closing::Plain,
                Err(e) => {
                    if e.status == StatusCode::TOO_MANY_REQUESTS && self.count_refusal() {
                        return Closing::Flooding;
                    }
                    self.refuse(e).await;
                }
            }
        }
        Closing::Plain
    }

    /// Takes a token of the connection's bucket.
    ///
    /// # Errors
    /// How long until the connection may send again.
    fn within_rate(&mut self) -> Result<(), Duration> {
        if self.bucket.take(WS_RATE, WS_BURST) {
            Ok(())
        } else {
            Err(self.bucket.wait(WS_RATE))
        }
    }

    /// Counts a rate refusal (of the connection's messages or the seat's
    /// chat) toward closing a flooding connection, a pause of [`WS_PAUSE`]
    /// after the previous one forgiving the earlier ones: whether the
    /// connection is now flooding (more than [`WS_MAX_REFUSED`]).
    fn count_refusal(&mut self) -> bool {
        if self.last_refusal.is_some_and(|t| t.elapsed() >= WS_PAUSE) {
            self.refused = 0;
        }
        self.last_refusal = Some(Instant::now());
        self.refused += 1;
        self.refused > WS_MAX_REFUSED
    }

    /// A quick reaction of our seat: sent to every connection of the
    /// table (not stored), within the seat's allowance (the chat's rate).
    ///
    /// # Errors
    /// 403 for a spectator, 400 for an unknown reaction, 429 over the
    /// allowance.
    async fn react(&mut self, reaction: String) -> Result<Next, ApiError> {
        let seat = self
            .seat
            .ok_or_else(|| ApiError::new(StatusCode::FORBIDDEN, "spectators cannot react"))?;
        if !REACTIONS.contains(&reaction.as_str()) {
            return Err(ApiError::bad(format!(
                "field `reaction`: unknown reaction \"{}\" ({})",
                limits::echo(&reaction),
                REACTIONS.join(", ")
            )));
        }
        let mut t = self.tref.lock().await;
        if let Err(wait) = t.reaction_limit.take(seat) {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "rate limit: too many reactions from seat {seat} (at most {} at once, then {} a second)",
                    limits::CHAT_BURST,
                    limits::CHAT_RATE
                ),
            )
            .wait_for(wait));
        }
        let msg = json!({"type": "reaction", "seat": seat, "reaction": reaction, "at": crate::tables::now_ms()});
        t.broadcast(&msg);
        Ok(Next::Go)
    }

    /// Handles one text message.
    ///
    /// # Errors
    /// The refusal to send back.
    async fn handle(&mut self, text: &str) -> Result<Next, ApiError> {
        match parse_client(text).map_err(ApiError::bad)? {
            ClientMsg::Hello { .. } => Err(ApiError::bad("already said hello")),
            ClientMsg::Ping => {
                self.reply(json!({"type": "pong"}).to_string()).await;
                Ok(Next::Go)
            }
            ClientMsg::Chat { text } => {
                let seat = self.seat.ok_or_else(|| {
                    ApiError::new(StatusCode::FORBIDDEN, "spectators cannot chat")
                })?;
                let clean = limits::clean_text(&text, limits::MAX_CHAT);
                if clean.is_empty() {
                    return Ok(Next::Go);
                }
                match app::post_chat(&self.app, &self.tref, seat, clean).await? {
                    app::Posted::Stored => Ok(Next::Go),
                    app::Posted::TooSoon(wait) => Err(ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        format!(
                            "rate limit: too much chat from seat {seat} (at most {} lines at once, then {} a second)",
                            limits::CHAT_BURST,
                            limits::CHAT_RATE
                        ),
                    )
                    .wait_for(wait)),
                }
            }
            ClientMsg::Reaction { reaction } => self.react(reaction).await,
            ClientMsg::Move { move_number, mv } => {
                let seat = self.seat.ok_or_else(|| {
                    ApiError::new(StatusCode::UNAUTHORIZED, "spectators cannot move")
                })?;
                let mut t = self.tref.lock().await;
                if !t.subs.iter().any(|x| x.id == self.id) {
                    return Ok(Next::Stop); // the seat was given away or left
                }
                let req = MoveRequest { move_number, mv };
                play_move(&self.app, &self.tref, &mut t, false, seat, req).await?;
                Ok(Next::Go)
            }
        }
    }

    /// Sends a refusal to this connection.
    async fn refuse(&self, e: ApiError) {
        self.reply(e.ws_message()).await;
    }

    /// Queues `text` for this connection only.
    async fn reply(&self, text: String) {
        let t = self.tref.lock().await;
        if let Some(s) = t.subs.iter().find(|s| s.id == self.id) {
            let _ = s.tx.try_send(text.into());
        }
    }

    /// Leaves the table: the connection stops getting views, and everyone
    /// sees the seat's connected flag change when it does.
    async fn leave(&self) {
        let mut t = self.tref.lock().await;
        let was = self.seat.map(|s| t.seat_connected(s as usize));
        t.drop_subs(&[self.id]);
        if let Some(s) = self.seat {
            if self.app.db.shared() {
                self.app.cluster.presence_changed(&t.core.id, s);
            }
            if was != Some(t.seat_connected(s as usize)) {
                t.broadcast_views();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse_or_name_the_problem() {
        assert_eq!(parse_client(r#"{"type":"ping"}"#), Ok(ClientMsg::Ping));
        assert_eq!(
            parse_client(r#"{"type":"hello"}"#),
            Ok(ClientMsg::Hello { token: None })
        );
        assert!(parse_client(r#"{"type":"nope"}"#)
            .unwrap_err()
            .contains("nope"));
        assert!(parse_client(r#"{"type":"chat"}"#)
            .unwrap_err()
            .contains("text"));
        assert!(parse_client("\u{0}garbage").is_err());
        assert_eq!(
            parse_client(r#"{"type":"move","move_number":3,"move":{"pass":true}}"#),
            Ok(ClientMsg::Move {
                move_number: 3,
                mv: json!({"pass": true})
            })
        );
        assert!(parse_client(r#"{"type":"ping","text":"x"}"#)
            .unwrap_err()
            .contains("text"));
        assert!(parse_client(r#"{"type":"move","move":{}}"#)
            .unwrap_err()
            .contains("move_number"));
    }

    /// The close code of a read error comes from tungstenite's typed
    /// error, not from its text.
    #[test]
    fn frames_over_the_cap_close_with_1009() {
        use tungstenite::error::{CapacityError, ProtocolError};
        let too_long = axum::Error::new(tungstenite::Error::Capacity(
            CapacityError::MessageTooLong {
                size: 70_000,
                max_size: limits::MAX_BODY,
            },
        ));
        assert_eq!(Closing::after(&too_long), Closing::TooBig);
        let other = axum::Error::new(tungstenite::Error::Protocol(
            ProtocolError::ResetWithoutClosingHandshake,
        ));
        assert_eq!(Closing::after(&other), Closing::Plain);
        let text_only = axum::Error::new(std::io::Error::other("message too long: size limit"));
        assert_eq!(Closing::after(&text_only), Closing::Plain);
        assert_eq!(Closing::TooBig.frame().map(|f| f.code), Some(1009));
        assert_eq!(Closing::Flooding.frame().map(|f| f.code), Some(1008));
        assert!(Closing::Plain.frame().is_none());
    }

    /// Fresh-tester report: serde's Rust words ("expected u32") reached
    /// clients; the field is named in words instead.
    #[test]
    fn bad_fields_are_named_in_words() {
        let e = parse_client(r#"{"type":"move","move_number":-1,"move":{}}"#).unwrap_err();
        assert!(
            e.contains("move_number must be a whole number from 0 to 4294967295"),
            "{e}"
        );
        assert!(!e.contains("u32"), "{e}");
        let e = parse_client("[]").unwrap_err();
        assert!(e.contains("must be a JSON object"), "{e}");
        let e = parse_client(r#"{"type":"chat","text":5}"#).unwrap_err();
        assert!(e.contains("text must be a string"), "{e}");
    }
}
