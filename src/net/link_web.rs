//! A WebSocket to the umpire server, in the browser: the page's own `WebSocket`, its callbacks
//! queueing what came for the app's systems to take. The browser's socket lives on the page's
//! one thread, so the link the app holds is its number in this thread's table. What is sent
//! before the connection is open waits for it.

use super::LinkEvent;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, Event, MessageEvent, WebSocket};

struct Socket {
    /// None when the browser refused to open it (its reason is in the inbox).
    ws: Option<WebSocket>,
    inbox: Rc<RefCell<VecDeque<LinkEvent>>>,
    /// Text to send once open.
    waiting: Rc<RefCell<Vec<String>>>,
    _callbacks: Vec<Closure<dyn FnMut(Event)>>,
}

thread_local! {
    static SOCKETS: RefCell<Vec<Option<Socket>>> = const { RefCell::new(Vec::new()) };
}

/// One connection (a new one after each loss).
pub struct Link {
    id: usize,
}

impl Link {
    /// Connects to `url` (`ws://` or `wss://`).
    pub fn open(url: &str) -> Link {
        let inbox = Rc::new(RefCell::new(VecDeque::new()));
        let waiting: Rc<RefCell<Vec<String>>> = Rc::new(RefCell::new(Vec::new()));
        let socket = match WebSocket::new(url) {
            Ok(ws) => {
                let mut callbacks: Vec<Closure<dyn FnMut(Event)>> = Vec::new();
                let on_open = {
                    let (inbox, waiting, ws) = (inbox.clone(), waiting.clone(), ws.clone());
                    Closure::<dyn FnMut(Event)>::new(move |_: Event| {
                        inbox.borrow_mut().push_back(LinkEvent::Open);
                        for text in waiting.borrow_mut().drain(..) {
                            let _ = ws.send_with_str(&text);
                        }
                    })
                };
                let on_message = {
                    let inbox = inbox.clone();
                    Closure::<dyn FnMut(Event)>::new(move |e: Event| {
                        if let Some(text) = e.dyn_ref::<MessageEvent>().and_then(|m| m.data().as_string()) {
                            inbox.borrow_mut().push_back(LinkEvent::Text(text));
                        }
                    })
                };
                let on_close = {
                    let inbox = inbox.clone();
                    Closure::<dyn FnMut(Event)>::new(move |e: Event| {
                        let why = e.dyn_ref::<CloseEvent>().map(CloseEvent::reason).unwrap_or_default();
                        inbox.borrow_mut().push_back(LinkEvent::Closed(if why.is_empty() {
                            "closed".into()
                        } else {
                            why
                        }));
                    })
                };
                ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
                ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
                callbacks.extend([on_open, on_message, on_close]);
                Socket { ws: Some(ws), inbox, waiting, _callbacks: callbacks }
            }
            Err(e) => {
                let why = e.as_string().unwrap_or_else(|| format!("{url}: the browser refused the address"));
                inbox.borrow_mut().push_back(LinkEvent::Closed(why));
                Socket { ws: None, inbox, waiting, _callbacks: Vec::new() }
            }
        };
        let id = SOCKETS.with_borrow_mut(|s| {
            s.push(Some(socket));
            s.len() - 1
        });
        Link { id }
    }

    fn with<R>(&self, f: impl FnOnce(&Socket) -> R) -> Option<R> {
        SOCKETS.with_borrow(|s| s.get(self.id).and_then(Option::as_ref).map(f))
    }

    pub fn send(&self, text: String) {
        self.with(|s| match &s.ws {
            Some(ws) if ws.ready_state() == WebSocket::OPEN => {
                let _ = ws.send_with_str(&text);
            }
            Some(_) => s.waiting.borrow_mut().push(text),
            None => {}
        });
    }

    /// What came since the last poll, in order.
    pub fn poll(&self) -> Vec<LinkEvent> {
        self.with(|s| s.inbox.borrow_mut().drain(..).collect()).unwrap_or_default()
    }

    /// Closes the connection (the browser cannot fake a network fault).
    pub fn cut(&self) {
        self.with(|s| {
            if let Some(ws) = &s.ws {
                let _ = ws.close();
            }
        });
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        SOCKETS.with_borrow_mut(|s| {
            if let Some(ws) = s.get_mut(self.id).and_then(Option::take).and_then(|socket| socket.ws) {
                ws.set_onclose(None);
                ws.set_onmessage(None);
                let _ = ws.close();
            }
        });
    }
}
