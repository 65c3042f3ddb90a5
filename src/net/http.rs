//! One request to the server's lobby (HTTP/1.1 + JSON), natively: made on a thread of its own,
//! its answer taken when it has come; the app never waits on the network.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

/// How long a request may take, connecting included.
const WITHIN: Duration = Duration::from_secs(15);
/// The largest answer read (a lobby's answers are small).
const MAX_ANSWER: u64 = 4 << 20;

/// A request on its way: the status and body of its answer, or why there is none.
pub struct Call {
    answer: Mutex<Receiver<Result<(u16, String), String>>>,
}

impl Call {
    /// `method` `path` on `server` (`http://HOST:PORT`), with a JSON body (or none).
    pub fn new(server: &str, method: &'static str, path: &str, body: Option<String>) -> Call {
        let (tx, answer) = channel();
        let (server, path) = (server.to_string(), path.to_string());
        let spawned = std::thread::Builder::new().name("kriegsspiel-lobby".into()).spawn({
            let tx = tx.clone();
            move || {
                let _ = tx.send(request(&server, method, &path, body.as_deref()));
            }
        });
        if let Err(e) = spawned {
            let _ = tx.send(Err(format!("no thread for the request: {e}")));
        }
        Call { answer: Mutex::new(answer) }
    }

    /// The answer, once it has come (and once).
    pub fn poll(&self) -> Option<Result<(u16, String), String>> {
        let answer = self.answer.lock().ok()?;
        match answer.try_recv() {
            Ok(a) => Some(a),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the request's thread ended".into())),
        }
    }
}

fn request(server: &str, method: &str, path: &str, body: Option<&str>) -> Result<(u16, String), String> {
    let host = server.strip_prefix("http://").ok_or_else(|| format!("{server}: this build reaches http:// servers"))?;
    let addr = host
        .to_socket_addrs()
        .map_err(|e| format!("{host}: {e}"))?
        .next()
        .ok_or_else(|| format!("{host}: no address"))?;
    let mut stream = TcpStream::connect_timeout(&addr, WITHIN).map_err(|e| format!("{host}: {e}"))?;
    stream.set_read_timeout(Some(WITHIN)).map_err(|e| e.to_string())?;
    stream.set_write_timeout(Some(WITHIN)).map_err(|e| e.to_string())?;
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.as_bytes())).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    stream.take(MAX_ANSWER).read_to_end(&mut raw).map_err(|e| format!("{host}: {e}"))?;
    parse(&raw)
}

/// An HTTP/1.1 answer: its status and its body (whole, or in chunks).
fn parse(raw: &[u8]) -> Result<(u16, String), String> {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("the server's answer has no end to its head")?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP answer: {head:.80}"))?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    Ok((status, if chunked { unchunk(body)? } else { body.to_string() }))
}

fn unchunk(mut body: &str) -> Result<String, String> {
    let mut out = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n").ok_or("a chunk without its size")?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| format!("a chunk's size `{size:.16}`"))?;
        if size == 0 {
            return Ok(out);
        }
        let chunk = rest.get(..size).ok_or("a chunk shorter than its size")?;
        out.push_str(chunk);
        body = rest.get(size..).and_then(|r| r.strip_prefix("\r\n")).ok_or("a chunk without its end")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_whole_or_in_chunks_and_junk_is_refused() {
        let plain = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(parse(plain), Ok((200, "{}".to_string())));
        let chunked = b"HTTP/1.1 422 Unprocessable\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n3\r\n\":1\r\n1\r\n}\r\n0\r\n\r\n";
        assert_eq!(parse(chunked), Ok((422, "{\"a\":1}".to_string())));
        assert!(parse(b"HTTP/1.1 200 OK\r\n").is_err(), "no end to the head");
        assert!(parse(b"garbage\r\n\r\n").is_err());
        assert!(parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").is_err());
        assert!(parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nabc").is_err(), "short chunk");
    }
}
