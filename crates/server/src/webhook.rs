//! Webhooks: a seat may register one `http://` URL; the server POSTs it JSON when the game
//! waits for that seat ("your turn") and when a directive reaches it. One attempt each, with a
//! timeout, and at most one request in flight per seat (a notice while one is in flight is
//! dropped): no retry storm against a slow or dead receiver. Notices carry no game content (a
//! directive's text stays in the seat's stream).

use serde::Serialize;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The longest URL a seat may register.
pub const MAX_URL: usize = 256;
/// How long one notice may take, connection and answer included.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// A registered URL, split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub host: String,
    pub port: u16,
    pub path: String,
}

/// Checks a URL: `http://HOST[:PORT]/PATH`, printable ASCII, at most [`MAX_URL`] bytes.
pub fn parse(url: &str) -> Result<Target, &'static str> {
    if url.len() > MAX_URL || !url.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("bad_url");
    }
    let rest = url.strip_prefix("http://").ok_or("bad_url")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (h, p.parse::<u16>().map_err(|_| "bad_url")?),
        None => (authority, 80),
    };
    let host_ok = !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']' | b':'));
    if !host_ok || port == 0 {
        return Err("bad_url");
    }
    let path = if path.is_empty() { "/".to_string() } else { path.to_string() };
    Ok(Target { host: host.to_string(), port, path })
}

/// What a notice says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    pub game: String,
    pub seat: u32,
    /// `your_turn` or `directive`.
    pub event: &'static str,
    pub turn: u32,
    pub phase: String,
}

/// Sends notices, one in flight per (game, seat).
#[derive(Default)]
pub struct Notifier {
    in_flight: Arc<Mutex<BTreeSet<(String, u32)>>>,
}

impl Notifier {
    /// Sends a notice in the background; false when one to that seat is still in flight.
    pub fn send(&self, url: &str, notice: Notice) -> bool {
        let Ok(target) = parse(url) else { return false };
        let key = (notice.game.clone(), notice.seat);
        let fresh = self.in_flight.lock().is_ok_and(|mut set| set.insert(key.clone()));
        if !fresh {
            return false;
        }
        let in_flight = self.in_flight.clone();
        tokio::spawn(async move {
            let _ = tokio::time::timeout(TIMEOUT, post(&target, &notice)).await;
            if let Ok(mut set) = in_flight.lock() {
                set.remove(&key);
            }
        });
        true
    }
}

async fn post(target: &Target, notice: &Notice) -> std::io::Result<()> {
    let body = serde_json::to_string(notice).map_err(std::io::Error::other)?;
    let mut stream = tokio::net::TcpStream::connect((target.host.trim_matches(['[', ']']), target.port)).await?;
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        target.path,
        target.host,
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    // The answer is read (a little of it) and dropped: the notice is not retried either way.
    let mut answer = [0u8; 512];
    let _ = stream.read(&mut answer).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_urls_of_a_sane_length_are_taken() {
        let t = parse("http://127.0.0.1:9000/hook?x=1").expect("a URL");
        assert_eq!((t.host.as_str(), t.port, t.path.as_str()), ("127.0.0.1", 9000, "/hook?x=1"));
        assert_eq!(parse("http://example.org").expect("a URL").port, 80);
        for bad in ["https://example.org/", "ftp://x/", "http://", "http://a:0/", "http://a:70000/", "http://a b/"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let long = format!("http://a/{}", "x".repeat(MAX_URL - 9));
        assert_eq!(long.len(), MAX_URL);
        assert!(parse(&long).is_ok(), "256 bytes");
        assert!(parse(&format!("{long}x")).is_err(), "257 bytes");
    }
}
