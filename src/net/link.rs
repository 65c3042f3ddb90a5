//! A WebSocket to the umpire server, natively: a thread of its own connects, then reads and
//! writes it; the app's systems hand it text and take what came without ever waiting on the
//! network. What is sent before the connection is open waits for it.

use super::LinkEvent;
use std::io::ErrorKind;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Duration;
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

/// How long connecting (and the WebSocket handshake) may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(8);
/// How long a read waits before the thread looks at what is to be sent.
const TICK: Duration = Duration::from_millis(15);
/// The largest message the server may send (a Great War view is a few megabytes).
pub const MAX_MESSAGE: usize = 64 << 20;

enum Out {
    Text(String),
    /// Drop the connection as a network fault would (a test's lost connection).
    Cut,
}

/// One connection (a new one after each loss).
pub struct Link {
    out: Sender<Out>,
    /// Read by the app's one system that polls it (a lock for the resource's sake only).
    inbox: Mutex<Receiver<LinkEvent>>,
}

impl Link {
    /// Connects to `url` (`ws://HOST:PORT/PATH`) on a thread of its own.
    pub fn open(url: &str) -> Link {
        let (out, outgoing) = channel();
        let (events, inbox) = channel();
        let url = url.to_string();
        let spawned = std::thread::Builder::new().name("kriegsspiel-net".into()).spawn({
            let events = events.clone();
            move || run(&url, &outgoing, &events)
        });
        if let Err(e) = spawned {
            let _ = events.send(LinkEvent::Closed(format!("no thread for the connection: {e}")));
        }
        Link { out, inbox: Mutex::new(inbox) }
    }

    pub fn send(&self, text: String) {
        let _ = self.out.send(Out::Text(text));
    }

    /// What came since the last poll, in order.
    pub fn poll(&self) -> Vec<LinkEvent> {
        let mut got = Vec::new();
        let Ok(inbox) = self.inbox.lock() else {
            return vec![LinkEvent::Closed("the connection's queue broke".into())];
        };
        loop {
            match inbox.try_recv() {
                Ok(e) => got.push(e),
                Err(TryRecvError::Empty) => return got,
                Err(TryRecvError::Disconnected) => {
                    got.push(LinkEvent::Closed("the connection's thread ended".into()));
                    return got;
                }
            }
        }
    }

    /// Breaks the connection without a closing handshake (as a network fault does).
    pub fn cut(&self) {
        let _ = self.out.send(Out::Cut);
    }
}

fn run(url: &str, outgoing: &Receiver<Out>, events: &Sender<LinkEvent>) {
    let mut ws = match connect(url) {
        Ok(ws) => ws,
        Err(e) => {
            let _ = events.send(LinkEvent::Closed(e));
            return;
        }
    };
    let _ = events.send(LinkEvent::Open);
    let why = serve(&mut ws, outgoing, events);
    let _ = events.send(LinkEvent::Closed(why));
}

fn connect(url: &str) -> Result<WebSocket<TcpStream>, String> {
    let rest = url.strip_prefix("ws://").ok_or_else(|| format!("{url}: this build connects to ws:// servers"))?;
    let host = rest.split('/').next().unwrap_or_default();
    let addr = host
        .to_socket_addrs()
        .map_err(|e| format!("{host}: {e}"))?
        .next()
        .ok_or_else(|| format!("{host}: no address"))?;
    let stream = TcpStream::connect_timeout(&addr, CONNECT_WITHIN).map_err(|e| format!("{host}: {e}"))?;
    let _ = stream.set_nodelay(true);
    stream.set_read_timeout(Some(CONNECT_WITHIN)).map_err(|e| e.to_string())?;
    let config = WebSocketConfig::default().max_message_size(Some(MAX_MESSAGE)).max_frame_size(Some(MAX_MESSAGE));
    let (ws, _) =
        tungstenite::client::client_with_config(url, stream, Some(config)).map_err(|e| format!("{host}: {e}"))?;
    ws.get_ref().set_read_timeout(Some(TICK)).map_err(|e| e.to_string())?;
    Ok(ws)
}

/// Reads and writes until the connection ends; why it ended.
fn serve(ws: &mut WebSocket<TcpStream>, outgoing: &Receiver<Out>, events: &Sender<LinkEvent>) -> String {
    loop {
        loop {
            match outgoing.try_recv() {
                Ok(Out::Text(t)) => {
                    if let Err(e) = ws.send(Message::text(t)) {
                        return e.to_string();
                    }
                }
                Ok(Out::Cut) => {
                    let _ = ws.get_ref().shutdown(std::net::Shutdown::Both);
                    return "cut".into();
                }
                Err(TryRecvError::Empty) => break,
                // The app let the link go: the connection closes.
                Err(TryRecvError::Disconnected) => {
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return "closed".into();
                }
            }
        }
        match ws.read() {
            Ok(Message::Text(t)) => {
                if events.send(LinkEvent::Text(t.to_string())).is_err() {
                    return "closed".into();
                }
            }
            Ok(Message::Close(frame)) => return frame.map_or_else(|| "closed".into(), |f| f.reason.to_string()),
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) => return e.to_string(),
        }
    }
}
