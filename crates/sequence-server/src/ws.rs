//! The table WebSocket (`GET /api/tables/{id}/ws`, docs/api.md): the first
//! message says who is there (`hello` with a seat token, or none for a
//! spectator); the server then pushes every new view and carries chat and
//! moves. Frames are capped at 16 KiB; each connection is rate limited.

use crate::api::{play_move, seat_of_token, ApiError, App, TableRef};
use crate::input::{self, ApiPath, Hints};
use crate::limits::{self, Bucket};
use crate::tables::{now_ms, Sub};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

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
/// Queued outgoing frames before a slow connection is dropped.
const QUEUE: usize = 64;

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
}

const MSG_HINTS: Hints = &[
    ("type", "one of \"hello\", \"move\", \"chat\", \"ping\""),
    ("token", "a seat token (32 hex characters) or null"),
    ("move_number", "a whole number ≥ 0 (the view's move_number)"),
    ("move", "a move object"),
    ("text", "a string"),
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
        "ping" => &[],
        other => {
            return Err(format!(
                "bad message: unknown type \"{}\" (hello, move, chat or ping)",
                limits::echo(other)
            ))
        }
    };
    let present = [
        ("token", m.token.is_some()),
        ("move_number", m.move_number.is_some()),
        ("move", m.mv.is_some()),
        ("text", m.text.is_some()),
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
        .max_frame_size(limits::MAX_BODY)
        .max_message_size(limits::MAX_BODY)
        .on_upgrade(move |socket| async move { run(app, tref, socket).await }))
}

fn err_msg(status: StatusCode, msg: &str) -> String {
    let msg = limits::escape_controls(msg);
    json!({"type": "error", "status": status.as_u16(), "error": msg}).to_string()
}

async fn close_with(socket: &mut WebSocket, status: StatusCode, msg: &str) {
    let _ = socket
        .send(Message::Text(err_msg(status, msg).into()))
        .await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: 1008,
            reason: Utf8Bytes::from(msg.chars().take(100).collect::<String>()),
        })))
        .await;
}

async fn run(app: Arc<App>, tref: TableRef, mut socket: WebSocket) {
    // 1. hello
    let first = tokio::time::timeout(Duration::from_secs(10), socket.recv()).await;
    let text = match first {
        Ok(Some(Ok(Message::Text(t)))) => t,
        Ok(Some(Ok(_))) => {
            return close_with(
                &mut socket,
                StatusCode::BAD_REQUEST,
                "the first message must be hello",
            )
            .await
        }
        _ => return,
    };
    let token = match parse_client(&text) {
        Ok(ClientMsg::Hello { token }) => token,
        Ok(_) => {
            return close_with(
                &mut socket,
                StatusCode::BAD_REQUEST,
                "the first message must be hello",
            )
            .await
        }
        Err(e) => return close_with(&mut socket, StatusCode::BAD_REQUEST, &e).await,
    };
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(QUEUE);
    let conn = app.conn_id();
    let seat = {
        let mut t = tref.lock().await;
        let seat = match token.as_deref() {
            None => None,
            Some(tok) => match seat_of_token(tok, &t.core) {
                Ok(s) => Some(s),
                Err(e) => {
                    drop(t);
                    return close_with(&mut socket, e.status, &e.message).await;
                }
            },
        };
        let _ = tx.try_send(json!({"type": "welcome", "seat": seat}).to_string().into());
        for c in t.chat.iter() {
            let _ = tx.try_send(c.to_string().into());
        }
        if let Some(s) = seat {
            t.connected[s as usize] += 1;
        }
        t.subs.push(Sub {
            id: conn,
            seat,
            tx: tx.clone(),
        });
        // everyone sees the connected flag change; this connection gets its view
        t.broadcast_views();
        seat
    };
    drop(tx);
    let (mut sink, mut stream) = socket.split();
    // The close code the reader decided on (0: a plain close): 1008 for a
    // flooding connection, 1009 for a frame over the size cap.
    let close_code = std::sync::Arc::new(std::sync::atomic::AtomicU16::new(0));
    let writer_code = close_code.clone();
    let writer = tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink
                .send(Message::Text(Utf8Bytes::from(&*text)))
                .await
                .is_err()
            {
                break;
            }
        }
        let code = writer_code.load(std::sync::atomic::Ordering::SeqCst);
        if code != 0 {
            let reason = if code == 1009 {
                "frame over 16 KiB"
            } else {
                "rate limit: too many messages"
            };
            let _ = sink
                .send(Message::Close(Some(CloseFrame {
                    code,
                    reason: Utf8Bytes::from_static(reason),
                })))
                .await;
        } else {
            let _ = sink.close().await;
        }
    });
    let mut bucket = Bucket::new(WS_BURST);
    let mut refused = 0u32;
    let mut last_refusal = None;
    while let Some(item) = stream.next().await {
        let msg = match item {
            Ok(m) => m,
            Err(e) => {
                let why = e.to_string().to_ascii_lowercase();
                tracing::debug!(conn, "websocket read error: {why}");
                if ["size", "too long", "too big", "limit", "capacity"]
                    .iter()
                    .any(|w| why.contains(w))
                {
                    close_code.store(1009, std::sync::atomic::Ordering::SeqCst);
                }
                break;
            }
        };
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Binary(_) => {
                reply(
                    &tref,
                    conn,
                    err_msg(StatusCode::BAD_REQUEST, "binary frames are not accepted"),
                )
                .await;
                continue;
            }
            _ => continue,
        };
        if last_refusal.is_some_and(|t: std::time::Instant| t.elapsed() >= WS_PAUSE) {
            refused = 0;
        }
        if !bucket.take(WS_RATE, WS_BURST) {
            last_refusal = Some(std::time::Instant::now());
            refused += 1;
            if refused > WS_MAX_REFUSED {
                close_code.store(1008, std::sync::atomic::Ordering::SeqCst);
                break;
            }
            reply(
                &tref,
                conn,
                err_msg(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate limit: too many messages",
                ),
            )
            .await;
            continue;
        }
        match parse_client(&text) {
            Err(e) => reply(&tref, conn, err_msg(StatusCode::BAD_REQUEST, &e)).await,
            Ok(ClientMsg::Hello { .. }) => {
                reply(
                    &tref,
                    conn,
                    err_msg(StatusCode::BAD_REQUEST, "already said hello"),
                )
                .await
            }
            Ok(ClientMsg::Ping) => reply(&tref, conn, json!({"type": "pong"}).to_string()).await,
            Ok(ClientMsg::Chat { text }) => {
                let Some(s) = seat else {
                    reply(
                        &tref,
                        conn,
                        err_msg(StatusCode::FORBIDDEN, "spectators cannot chat"),
                    )
                    .await;
                    continue;
                };
                let clean = limits::clean_text(&text, limits::MAX_CHAT);
                if clean.is_empty() {
                    continue;
                }
                let mut t = tref.lock().await;
                let name = t.core.seats[s as usize].name.clone();
                let line =
                    json!({"type": "chat", "seat": s, "name": name, "text": clean, "at": now_ms()});
                t.chat.push_back(line.clone());
                while t.chat.len() > 50 {
                    t.chat.pop_front();
                }
                t.broadcast(&line);
            }
            Ok(ClientMsg::Move { move_number, mv }) => {
                let Some(s) = seat else {
                    reply(
                        &tref,
                        conn,
                        err_msg(StatusCode::UNAUTHORIZED, "spectators cannot move"),
                    )
                    .await;
                    continue;
                };
                let mut t = tref.lock().await;
                if !t.subs.iter().any(|x| x.id == conn) {
                    break; // the seat was given away or left
                }
                if let Err(e) = play_move(&app, &tref, &mut t, s, move_number, mv).await {
                    let m = err_msg(e.status, &e.message);
                    drop(t);
                    reply(&tref, conn, m).await;
                }
            }
        }
    }
    {
        let mut t = tref.lock().await;
        t.drop_subs(&[conn]);
        t.broadcast_views();
    }
    let _ = writer.await;
    if close_code.load(std::sync::atomic::Ordering::SeqCst) != 0 {
        // Closing handshake: read (and drop) what the client still sends
        // until its close frame, so the socket is not reset under frames it
        // already sent and the client reads our close code (1008/1009).
        let _ = tokio::time::timeout(CLOSE_WAIT, async {
            while let Some(Ok(m)) = stream.next().await {
                if matches!(m, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}

async fn reply(tref: &TableRef, conn: u64, text: String) {
    let t = tref.lock().await;
    if let Some(s) = t.subs.iter().find(|s| s.id == conn) {
        let _ = s.tx.try_send(text.into());
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

    /// Fresh-tester report: serde's Rust words ("expected u32") reached
    /// clients; the field is named in words instead.
    #[test]
    fn bad_fields_are_named_in_words() {
        let e = parse_client(r#"{"type":"move","move_number":-1,"move":{}}"#).unwrap_err();
        assert!(e.contains("move_number must be a whole number ≥ 0"), "{e}");
        assert!(!e.contains("u32"), "{e}");
        let e = parse_client("[]").unwrap_err();
        assert!(e.contains("must be a JSON object"), "{e}");
        let e = parse_client(r#"{"type":"chat","text":5}"#).unwrap_err();
        assert!(e.contains("text must be a string"), "{e}");
    }
}
