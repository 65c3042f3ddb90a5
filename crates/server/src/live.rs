//! A seat's live stream: one WebSocket per connection. The first message is the hello with the
//! seat's token; then the seat's view (or the events it missed), its answers, and every change
//! of the game as that seat may see it, each once and in order.

use crate::forward::CLOSE_MOVED;
use crate::hub::{Hub, Place, Room};
use crate::protocol::{ClientMsg, Lang, SeatInfo, ServerMsg, Status};
use crate::room::Bucket;
use crate::seats;
use crate::table::{PreviewJob, Refusal};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use rules::texts::Msg;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// The largest message a client may send (and frame), in bytes.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// How long a connection may take to say hello.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// How long a refused connection is given to answer the close.
const CLOSE_WITHIN: Duration = Duration::from_secs(2);
/// A connection's messages: a bucket of this many, refilled at `CONN_RATE` a second.
const CONN_BURST: f64 = 40.0;
const CONN_RATE: f64 = 20.0;
/// Refusals for flooding before the connection is closed (each message taken works one off).
const FLOOD_STRIKES: u32 = 50;

pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Path(game): Path<String>,
    headers: axum::http::HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let forwarded = headers.contains_key(crate::forward::FORWARDED);
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move { serve_or_forward(hub, game, socket, forwarded).await })
}

/// Serves a game this process holds (taking it over if its holder is gone), or pipes the
/// connection to the process that holds it (once: a connection piped here is not piped on).
async fn serve_or_forward(hub: Arc<Hub>, game: String, mut socket: WebSocket, forwarded: bool) {
    let room = match hub.locate(&game).await {
        Ok(Place::Here(room)) => Ok(room),
        Ok(Place::There(_)) if forwarded => Err(Refusal::new("unavailable", "server.err.unavailable")),
        Ok(Place::There(addr)) => match hub.peers.connect(&addr, &game).await {
            Some(upstream) => {
                crate::forward::pipe(socket, upstream).await;
                return;
            }
            // The holder cannot be reached: the game is taken over here once the store says
            // the holder is gone, or its lease runs out.
            None => match hub.adopt_within(&game, hub.lease + Duration::from_secs(1)).await {
                Ok(Some(room)) => Ok(room),
                Ok(None) | Err(_) => Err(Refusal::new("unavailable", "server.err.unavailable")),
            },
        },
        Ok(Place::NoGame) => Err(Refusal::new("no_game", "server.err.no_game")),
        Err(_) => Err(Refusal::new("unavailable", "server.err.unavailable")),
    };
    match room {
        Ok(room) => Session::run(hub, room, game, socket).await,
        Err(r) => refuse_and_close(&hub, &mut socket, Lang::En, r).await,
    }
}

/// One connection of one seat.
struct Session {
    hub: Arc<Hub>,
    room: Arc<Room>,
    socket: WebSocket,
    seat: usize,
    lang: Lang,
    /// The game's order count this connection has been sent up to.
    sent: u64,
    /// The written record's deliveries this connection has been sent up to.
    mail_sent: u64,
    status: Option<Status>,
    /// The seats as this connection was last sent them (a leader's assignment changes them).
    seats: Vec<SeatInfo>,
    /// The client follows views: a fresh one after the events of each change.
    views: bool,
    /// The order count of the last view this connection was sent.
    view_at: Option<u64>,
    revealed: bool,
    bucket: Bucket,
    strikes: u32,
}

fn text_of(hub: &Hub, lang: Lang, msg: &Msg) -> String {
    match lang {
        Lang::En => hub.english.render(msg),
        Lang::Ru => hub.russian.render(msg),
    }
}

async fn send(socket: &mut WebSocket, msg: &ServerMsg) -> bool {
    let Ok(text) = serde_json::to_string(msg) else { return false };
    socket.send(Message::Text(text.into())).await.is_ok()
}

async fn refuse_and_close(hub: &Hub, socket: &mut WebSocket, lang: Lang, r: Refusal) {
    let msg = ServerMsg::Refused { seq: None, code: r.code.to_string(), text: text_of(hub, lang, &r.msg) };
    send(socket, &msg).await;
    let _ = socket.send(Message::Close(Some(CloseFrame { code: 1008, reason: r.code.into() }))).await;
    // The closing handshake: what the client still sends is read and dropped until its close
    // (for a while at most), so that the connection is not reset under the refusal it was sent.
    let _ = tokio::time::timeout(CLOSE_WITHIN, async {
        while let Some(Ok(m)) = socket.recv().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

impl Session {
    async fn run(hub: Arc<Hub>, room: Arc<Room>, game: String, mut socket: WebSocket) {
        let hello = match tokio::time::timeout(HELLO_WITHIN, socket.recv()).await {
            Ok(Some(Ok(Message::Text(t)))) => serde_json::from_str::<ClientMsg>(&t),
            _ => {
                refuse_and_close(&hub, &mut socket, Lang::En, Refusal::new("hello_first", "server.err.hello_first"))
                    .await;
                return;
            }
        };
        let (token, last, lang, mail, views, history) = match hello {
            Ok(ClientMsg::Hello { token, last, lang, mail, views, history }) => {
                (token, last, lang, mail, views, history)
            }
            _ => {
                refuse_and_close(&hub, &mut socket, Lang::En, Refusal::new("hello_first", "server.err.hello_first"))
                    .await;
                return;
            }
        };
        let welcome = {
            let state = room.state.lock().await;
            let hashes: Vec<&str> = state.seats.iter().map(|s| s.rec.token_hash.as_str()).collect();
            match seats::find_seat(&token, &hashes) {
                Some(seat) => {
                    let now = state.order_count();
                    // Resume after `last` when every event since is still kept; else a fresh view.
                    let resume = last.filter(|l| *l <= now && state.events_after(seat, *l).is_some());
                    let at = resume.unwrap_or(now);
                    let view = resume.is_none().then(|| state.view_for(seat));
                    let view_sent = resume.is_none().then_some(at);
                    let history = if history && view.is_some() {
                        state.history(seat, at, wire::MAX_HISTORY_EVENTS)
                    } else {
                        Vec::new()
                    };
                    Some((
                        seat,
                        ServerMsg::Welcome {
                            game: game.clone(),
                            kind: state.rec.kind.clone(),
                            scenario: state.rec.scenario.clone(),
                            last_seq: state.seats[seat].last_seq,
                            seat: state.seats[seat].info(),
                            seats: state.seats_for(seat),
                            seed_commit: state.rec.seed_commit.clone(),
                            at,
                            view,
                            status: state.status(),
                            history,
                        },
                        at,
                        state.status(),
                        view_sent,
                        state.seats_for(seat),
                    ))
                }
                None => None,
            }
        };
        let Some((seat, welcome, at, status, view_sent, seats)) = welcome else {
            refuse_and_close(&hub, &mut socket, lang, Refusal::new("bad_token", "server.err.bad_token")).await;
            return;
        };
        if !send(&mut socket, &welcome).await {
            return;
        }
        let mut session = Session {
            hub,
            room,
            socket,
            seat,
            lang,
            sent: at,
            mail_sent: mail.unwrap_or(0),
            status: Some(status),
            seats,
            views,
            view_at: view_sent,
            revealed: false,
            bucket: Bucket::new(CONN_BURST, CONN_RATE),
            strikes: 0,
        };
        // The seat is connected while this serves it: every seat's status says so.
        session.room.state.lock().await.seats[seat].connections += 1;
        session.room.wake();
        session.serve().await;
        {
            let mut state = session.room.state.lock().await;
            state.seats[seat].connections = state.seats[seat].connections.saturating_sub(1);
        }
        session.room.wake();
    }

    async fn serve(&mut self) {
        let mut changed = self.room.changed.subscribe();
        if !self.flush(None).await {
            return;
        }
        loop {
            tokio::select! {
                msg = self.socket.recv() => {
                    let ok = match msg {
                        Some(Ok(Message::Text(t))) => self.handle(&t).await,
                        Some(Ok(Message::Binary(_))) => self.refuse(None, Refusal::new("binary", "server.err.binary")).await,
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => true,
                        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => false,
                    };
                    if !ok {
                        return;
                    }
                }
                r = changed.changed() => {
                    if self.room.is_gone() {
                        self.moved().await;
                        return;
                    }
                    if r.is_err() || !self.flush(None).await {
                        return;
                    }
                }
            }
        }
    }

    /// The game is held by another process now: the client reconnects (and is served by it).
    async fn moved(&mut self) {
        let close = CloseFrame { code: CLOSE_MOVED, reason: "moved".into() };
        let _ = self.socket.send(Message::Close(Some(close))).await;
    }

    async fn refuse(&mut self, seq: Option<u64>, r: Refusal) -> bool {
        let msg = self.refusal(seq, r);
        send(&mut self.socket, &msg).await
    }

    fn refusal(&self, seq: Option<u64>, r: Refusal) -> ServerMsg {
        ServerMsg::Refused { seq, code: r.code.to_string(), text: text_of(&self.hub, self.lang, &r.msg) }
    }

    /// Sends what this connection has not been sent: the events of orders up to `upto` (all
    /// when `None`), a fresh view when some are no longer kept (and after the events, to a
    /// client that follows views), the status when it changed, and the reveal once the game is
    /// over.
    async fn flush(&mut self, upto: Option<u64>) -> bool {
        let (items, fresh, follow, status, reveal, mail, seats) = {
            let state = self.room.state.lock().await;
            let seats = state.seats_for(self.seat);
            let mail = state.mail_for(self.seat, self.mail_sent);
            let now = state.order_count();
            let (items, fresh) = match state.events_after(self.seat, self.sent) {
                Some(items) => (items, None),
                None => (Vec::new(), Some((now, state.view_for(self.seat)))),
            };
            // Taken with the events under one lock: the view is the state after the last of them.
            let follow = (self.views && upto.is_none() && fresh.is_none() && self.view_at != Some(now))
                .then(|| (now, state.view_for(self.seat)));
            let reveal = if self.revealed { None } else { state.reveal() };
            (items, fresh, follow, state.status(), reveal, mail, seats)
        };
        if let Some((at, view)) = fresh {
            self.sent = at;
            self.view_at = Some(at);
            self.status = Some(status.clone());
            if !send(&mut self.socket, &ServerMsg::View { at, view, status: status.clone() }).await {
                return false;
            }
        }
        for (at, events) in items {
            if upto.is_some_and(|u| at > u) {
                break;
            }
            self.sent = at;
            self.status = Some(status.clone());
            let msg = ServerMsg::Events { at, events: events.as_ref().clone(), status: status.clone() };
            if !send(&mut self.socket, &msg).await {
                return false;
            }
        }
        if let Some((at, view)) = follow {
            self.sent = self.sent.max(at);
            self.view_at = Some(at);
            if !send(&mut self.socket, &ServerMsg::View { at, view, status: status.clone() }).await {
                return false;
            }
        }
        let (letters, mail_due) = mail;
        self.mail_sent = self.mail_sent.max(mail_due);
        for letter in &letters {
            if !send(&mut self.socket, letter).await {
                return false;
            }
        }
        if upto.is_none() && seats != self.seats {
            self.seats = seats.clone();
            if !send(&mut self.socket, &ServerMsg::Seats { seats }).await {
                return false;
            }
        }
        if upto.is_none() && self.status.as_ref().map(Status::settled) != Some(status.settled()) {
            self.status = Some(status.clone());
            if !send(&mut self.socket, &ServerMsg::Status { status }).await {
                return false;
            }
        }
        if let Some(reveal) = reveal.filter(|_| upto.is_none()) {
            self.revealed = true;
            if !send(&mut self.socket, &reveal).await {
                return false;
            }
        }
        true
    }

    /// One message of the client; false when the connection should close.
    async fn handle(&mut self, text: &str) -> bool {
        if self.room.is_gone() {
            self.moved().await;
            return false;
        }
        if !self.bucket.take() {
            self.strikes += 1;
            if self.strikes > FLOOD_STRIKES {
                let hub = self.hub.clone();
                refuse_and_close(&hub, &mut self.socket, self.lang, Refusal::new("flood", "server.err.flood")).await;
                return false;
            }
            // Its sequence number, where it has one, so that the client knows which message to
            // send again.
            let seq = serde_json::from_str::<ClientMsg>(text).ok().and_then(|m| m.seq());
            return self.refuse(seq, Refusal::new("rate_limited", "server.err.rate_limited")).await;
        }
        // A client that keeps to the rate works its strikes off: only a flood adds up to a close.
        self.strikes = self.strikes.saturating_sub(1);
        let msg = match serde_json::from_str::<ClientMsg>(text) {
            Ok(m) => m,
            Err(e) => {
                let r = Refusal::with("bad_message", Msg::new("server.err.bad_message").arg("why", e));
                return self.refuse(None, r).await;
            }
        };
        let Some(seq) = msg.seq() else {
            return self.refuse(None, Refusal::new("hello_twice", "server.err.hello_twice")).await;
        };
        let (reply, applied_at) = {
            let room = self.room.clone();
            let mut state = room.state.lock().await;
            if !state.seats[self.seat].bucket.take() {
                drop(state);
                return self.refuse(Some(seq), Refusal::new("rate_limited", "server.err.rate_limited")).await;
            }
            match state.check_seq(self.seat, seq) {
                Ok(Some(again)) => (again, None),
                Err((seq, r)) => (self.refusal(seq, r), None),
                Ok(None) => {
                    let store = self.hub.store.clone();
                    let outcome = match msg {
                        ClientMsg::Order { order, .. } => state.order(store.as_ref(), self.seat, seq, order).await,
                        ClientMsg::Preview { order, .. } => {
                            // The viewer's copy is taken under the lock, the forecast computed
                            // without it: a preview (the end of a turn run thousands of times)
                            // holds up no game.
                            let viewer = state.viewer_of(self.seat);
                            let job = state.table.preview(viewer.as_deref(), order);
                            drop(state);
                            let preview = match job {
                                Ok(job) => compute(self.hub.clone(), job).await,
                                Err(r) => Err(r),
                            };
                            let reply = preview
                                .map(|preview| ServerMsg::Preview { seq, preview })
                                .unwrap_or_else(|r| self.refusal(Some(seq), r));
                            room.state.lock().await.keep_reply(self.seat, seq, &reply);
                            return self.answer(reply, None).await;
                        }
                        ClientMsg::Assign { seat, formations, fleets, .. } => state
                            .assign(store.as_ref(), self.seat, seat, formations, fleets)
                            .await
                            .map(|()| ServerMsg::Ack {
                                seq,
                                at: state.order_count(),
                                events: Vec::new(),
                                applied: false,
                                status: state.status(),
                            }),
                        ClientMsg::Moderate { action, .. } => {
                            state.moderate(store.as_ref(), self.seat, action).await.map(|()| ServerMsg::Ack {
                                seq,
                                at: state.order_count(),
                                events: Vec::new(),
                                applied: false,
                                status: state.status(),
                            })
                        }
                        ClientMsg::Directive { to, text, .. } => {
                            state.directive(store.as_ref(), self.seat, seq, to, text).await.map(|()| ServerMsg::Ack {
                                seq,
                                at: state.order_count(),
                                events: Vec::new(),
                                applied: false,
                                status: state.status(),
                            })
                        }
                        ClientMsg::Chat { to, text, .. } => {
                            state.chat(store.as_ref(), self.seat, seq, to, text).await.map(|()| ServerMsg::Ack {
                                seq,
                                at: state.order_count(),
                                events: Vec::new(),
                                applied: false,
                                status: state.status(),
                            })
                        }
                        ClientMsg::Webhook { url, .. } => {
                            state.set_webhook(store.as_ref(), self.seat, url).await.map(|()| ServerMsg::Ack {
                                seq,
                                at: state.order_count(),
                                events: Vec::new(),
                                applied: false,
                                status: state.status(),
                            })
                        }
                        ClientMsg::Hello { .. } => Err(Refusal::new("hello_twice", "server.err.hello_twice")),
                    };
                    let reply = outcome.unwrap_or_else(|r| self.refusal(Some(seq), r));
                    state.keep_reply(self.seat, seq, &reply);
                    let applied_at = match &reply {
                        ServerMsg::Ack { at, applied: true, .. } => Some(*at),
                        _ => None,
                    };
                    (reply, applied_at)
                }
            }
        };
        self.answer(reply, applied_at).await
    }

    /// Sends the answer to a message; the events before this seat's order go first, then its
    /// answer with its own.
    async fn answer(&mut self, reply: ServerMsg, applied_at: Option<u64>) -> bool {
        if let Some(at) = applied_at {
            if !self.flush(Some(at.saturating_sub(1))).await {
                return false;
            }
            self.sent = self.sent.max(at);
        } else if let ServerMsg::Ack { at, .. } = &reply
            && !self.flush(Some(*at)).await
        {
            return false;
        }
        let mut ok = send(&mut self.socket, &reply).await;
        // A client that follows views is sent the state after its order (and whatever came
        // after it) at once.
        if ok && self.views && applied_at.is_some() {
            ok = self.flush(None).await;
        }
        self.room.wake();
        ok
    }
}

/// A preview's forecast on a blocking thread, as many at once as the server has cores.
async fn compute(hub: Arc<Hub>, job: PreviewJob) -> Result<Value, Refusal> {
    let failed = || Refusal::new("preview_failed", "server.err.preview_failed");
    let _turn = hub.previews.acquire().await.map_err(|_| failed())?;
    tokio::task::spawn_blocking(job).await.map_err(|_| failed())?
}
