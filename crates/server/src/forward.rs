//! A connection for a game another process holds: piped, frame by frame, to the live stream of
//! the process that holds it (several processes on one PostgreSQL serve the same games, each
//! game by one of them). When that process goes, the connection closes as a restarting service
//! does (1012), and the client reconnects: the game is then held by a live process, which may
//! be this one.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio_tungstenite::tungstenite;
use tungstenite::client::IntoClientRequest;

/// The largest message a process takes from another that holds a game (a Great War view).
pub const MAX_SENT: usize = 64 * 1024 * 1024;
/// The close code of a connection whose game has moved to another process (the client
/// reconnects: "service restart").
pub const CLOSE_MOVED: u16 = 1012;

/// The header of a connection piped from another process.
pub const FORWARDED: &str = "x-kriegsspiel-forwarded";

/// How long reaching the process that holds a game may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(3);

type Upstream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the game's live stream on the process at `addr`.
pub async fn connect(addr: &str, game: &str) -> Option<Upstream> {
    // A game ID is hex; anything else is never put into a URL.
    if !crate::seats::is_game_id(game) {
        return None;
    }
    let config = tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_SENT))
        .max_frame_size(Some(MAX_SENT));
    let mut request = format!("ws://{addr}/api/games/{game}/live").into_client_request().ok()?;
    // The holder serves it or refuses it, and never sends it on again (no loop between two
    // processes that each take the other for the holder).
    request.headers_mut().insert(FORWARDED, tungstenite::http::HeaderValue::from_static("1"));
    let connect = tokio_tungstenite::connect_async_with_config(request, Some(config), true);
    match tokio::time::timeout(CONNECT_WITHIN, connect).await {
        Ok(Ok((ws, _))) => Some(ws),
        _ => None,
    }
}

/// Pipes the client's connection to the owner's until either ends.
pub async fn pipe(mut client: WebSocket, mut upstream: Upstream) {
    loop {
        tokio::select! {
            from_client = client.recv() => {
                let frame = match from_client {
                    Some(Ok(Message::Text(t))) => tungstenite::Message::Text(t.as_str().into()),
                    Some(Ok(Message::Binary(b))) => tungstenite::Message::Binary(b),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => {
                        let _ = upstream.close(None).await;
                        return;
                    }
                };
                if upstream.send(frame).await.is_err() {
                    break;
                }
            }
            from_owner = upstream.next() => {
                let frame = match from_owner {
                    Some(Ok(tungstenite::Message::Text(t))) => Message::Text(t.as_str().into()),
                    Some(Ok(tungstenite::Message::Binary(b))) => Message::Binary(b),
                    Some(Ok(tungstenite::Message::Close(Some(c)))) => {
                        // The owner's own refusal (a bad token, a flood) is passed on as it is.
                        let reason = c.reason.as_str().to_string();
                        let _ = client.send(Message::Close(Some(CloseFrame { code: c.code.into(), reason: reason.into() }))).await;
                        return;
                    }
                    Some(Ok(tungstenite::Message::Close(None)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                if client.send(frame).await.is_err() {
                    let _ = upstream.close(None).await;
                    return;
                }
            }
        }
    }
    // The owner is gone (or stopped serving the game): the client reconnects.
    let close = CloseFrame { code: CLOSE_MOVED, reason: "moved".into() };
    let _ = client.send(Message::Close(Some(close))).await;
}
