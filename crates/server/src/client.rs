//! A headless client of the server, for tests and benches: the lobby over plain HTTP/1.1 and a
//! seat's live stream over a WebSocket. It keeps every message it was sent, as text, so that a
//! test can search them for what the seat must not know.

use crate::forward::Io;
use crate::protocol::{ClientMsg, Lang};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// Why the client failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    #[error("websocket: {0}")]
    Ws(#[from] tokio_tungstenite::tungstenite::Error),
    #[error("not JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("bad HTTP answer: {0}")]
    Http(String),
    #[error("no message within {0:?}")]
    Timeout(Duration),
    #[error("the server closed the connection")]
    Closed,
}

/// How long the client waits for an answer.
pub const WAIT: Duration = Duration::from_secs(20);

/// One HTTP request with a JSON body (or none); the status and the JSON answer.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), ClientError> {
    let body = body.map(serde_json::to_string).transpose()?.unwrap_or_default();
    http_raw(addr, method, path, &body).await
}

/// One HTTP request with a body as given.
pub async fn http_raw(addr: SocketAddr, method: &str, path: &str, body: &str) -> Result<(u16, Value), ClientError> {
    http_with(addr, method, path, body, &[]).await
}

/// One HTTP request with a body and extra header lines (`name: value`) as given.
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> Result<(u16, Value), ClientError> {
    let stream = tokio::net::TcpStream::connect(addr).await?;
    http_on(Box::new(stream), addr, method, path, body, headers).await
}

/// One HTTP request over a connection made already (plain, or TLS the caller set up).
pub async fn http_on(
    mut stream: Box<dyn Io>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> Result<(u16, Value), ClientError> {
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut answer)).await.map_err(|_| ClientError::Timeout(WAIT))??;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n").ok_or_else(|| ClientError::Http(text.to_string()))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::Http(head.to_string()))?;
    let value = if body.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body).unwrap_or(Value::String(body.to_string()))
    };
    Ok((status, value))
}

type Ws = tokio_tungstenite::WebSocketStream<Box<dyn Io>>;

/// A seat's connection.
pub struct Client {
    ws: Ws,
    /// Every text message received, in order.
    pub received: Vec<String>,
    /// Messages received but not yet taken by [`Client::next`] or a wait.
    pending: VecDeque<Value>,
    /// The highest order count seen in events, views and acks.
    pub at: u64,
    next_seq: u64,
}

impl Client {
    /// Connects to a game's live stream, unauthenticated (the hello is up to the caller).
    pub async fn open(addr: SocketAddr, game: &str) -> Result<Client, ClientError> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        Client::open_on(Box::new(stream), addr, game).await
    }

    /// [`Client::open`] over a connection made already (plain, or TLS the caller set up).
    pub async fn open_on(stream: Box<dyn Io>, addr: SocketAddr, game: &str) -> Result<Client, ClientError> {
        let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/api/games/{game}/live"), stream).await?;
        Ok(Client { ws, received: Vec::new(), pending: VecDeque::new(), at: 0, next_seq: 1 })
    }

    /// Connects and says hello with a token; returns the client and the welcome.
    pub async fn join(
        addr: SocketAddr,
        game: &str,
        token: &str,
        last: Option<u64>,
    ) -> Result<(Client, Value), ClientError> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        Client::join_on(Box::new(stream), addr, game, token, last).await
    }

    /// [`Client::join`] as a client that follows views (a fresh view after each change's events).
    pub async fn join_following(addr: SocketAddr, game: &str, token: &str) -> Result<(Client, Value), ClientError> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        Client::hello(Box::new(stream), addr, game, token, None, true, false).await
    }

    /// [`Client::join`] as a page opened again: a fresh view, with the history of the orders
    /// before it (`ClientMsg::Hello::history`).
    pub async fn join_with_history(addr: SocketAddr, game: &str, token: &str) -> Result<(Client, Value), ClientError> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        Client::hello(Box::new(stream), addr, game, token, None, true, true).await
    }

    /// [`Client::join`] over a connection made already.
    pub async fn join_on(
        stream: Box<dyn Io>,
        addr: SocketAddr,
        game: &str,
        token: &str,
        last: Option<u64>,
    ) -> Result<(Client, Value), ClientError> {
        Client::hello(stream, addr, game, token, last, false, false).await
    }

    async fn hello(
        stream: Box<dyn Io>,
        addr: SocketAddr,
        game: &str,
        token: &str,
        last: Option<u64>,
        views: bool,
        history: bool,
    ) -> Result<(Client, Value), ClientError> {
        let mut c = Client::open_on(stream, addr, game).await?;
        c.send(&ClientMsg::Hello { token: token.to_string(), last, lang: Lang::En, mail: None, views, history })
            .await?;
        let welcome = c.next().await?;
        if let Some(at) = welcome.get("at").and_then(Value::as_u64) {
            c.at = at;
        }
        Ok((c, welcome))
    }

    /// Starts the sequence numbers after `seq` (a reconnecting client goes on with its own).
    pub fn set_seq(&mut self, seq: u64) {
        self.next_seq = seq;
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        self.send_text(serde_json::to_string(msg)?).await
    }

    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        self.ws.send(Message::Text(text.into())).await?;
        Ok(())
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        self.ws.send(Message::Binary(bytes.into())).await?;
        Ok(())
    }

    /// The next message (waiting up to [`WAIT`]).
    pub async fn next(&mut self) -> Result<Value, ClientError> {
        if let Some(v) = self.pending.pop_front() {
            return Ok(v);
        }
        self.read(WAIT).await
    }

    async fn read(&mut self, wait: Duration) -> Result<Value, ClientError> {
        loop {
            let msg = tokio::time::timeout(wait, self.ws.next()).await.map_err(|_| ClientError::Timeout(wait))?;
            match msg {
                Some(Ok(Message::Text(t))) => {
                    self.received.push(t.to_string());
                    let v: Value = serde_json::from_str(&t)?;
                    if matches!(v.get("type").and_then(Value::as_str), Some("events" | "view" | "ack"))
                        && let Some(at) = v.get("at").and_then(Value::as_u64)
                    {
                        self.at = self.at.max(at);
                    }
                    return Ok(v);
                }
                Some(Ok(Message::Close(_))) | None => return Err(ClientError::Closed),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// Waits for the message `pick` chooses, keeping the others for [`Client::next`].
    pub async fn wait_for(&mut self, pick: impl Fn(&Value) -> bool) -> Result<Value, ClientError> {
        if let Some(i) = self.pending.iter().position(&pick) {
            return self.pending.remove(i).ok_or(ClientError::Closed);
        }
        loop {
            let v = self.read(WAIT).await?;
            if pick(&v) {
                return Ok(v);
            }
            self.pending.push_back(v);
        }
    }

    /// Whether a message of `kind` arrives within `wait` (others are kept).
    pub async fn quiet_for(&mut self, wait: Duration) -> Option<Value> {
        match self.read(wait).await {
            Ok(v) => {
                self.pending.push_back(v.clone());
                Some(v)
            }
            Err(_) => None,
        }
    }

    /// The first message `pick` chooses that arrives within `wait`, if any (every other message
    /// read meanwhile is kept for [`Client::next`]).
    pub async fn arrives_within(&mut self, wait: Duration, pick: impl Fn(&Value) -> bool) -> Option<Value> {
        if let Some(i) = self.pending.iter().position(&pick) {
            return self.pending.remove(i);
        }
        let end = tokio::time::Instant::now() + wait;
        loop {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return None;
            }
            match self.read(left).await {
                Ok(v) if pick(&v) => return Some(v),
                Ok(v) => self.pending.push_back(v),
                Err(_) => return None,
            }
        }
    }

    /// Takes the next sequence number.
    pub fn seq(&mut self) -> u64 {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    /// Sends a message with sequence number `seq` made by `make`, and waits for its answer.
    pub async fn ask(&mut self, msg: ClientMsg) -> Result<Value, ClientError> {
        let seq = msg.seq();
        self.send(&msg).await?;
        self.wait_for(|v| {
            matches!(v.get("type").and_then(Value::as_str), Some("ack" | "refused" | "preview"))
                && v.get("seq").and_then(Value::as_u64) == seq
        })
        .await
    }

    /// Sends an order and waits for its answer.
    pub async fn order(&mut self, order: Value) -> Result<Value, ClientError> {
        let seq = self.seq();
        self.ask(ClientMsg::Order { seq, order }).await
    }

    /// Waits until the game's order count reaches `at` in this seat's stream.
    pub async fn wait_at(&mut self, at: u64) -> Result<(), ClientError> {
        while self.at < at {
            let v = self.read(WAIT).await?;
            self.pending.push_back(v);
        }
        Ok(())
    }

    /// Forgets the messages kept so far (a long-running client, a bench, keeps none).
    pub fn forget(&mut self) {
        self.received.clear();
        self.pending.clear();
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
