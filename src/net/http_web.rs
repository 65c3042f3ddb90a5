//! One request to the server's lobby, in the browser: the page's `fetch`, its answer kept for
//! the app to take when it has come. The browser's promises live on the page's one thread, so
//! the request the app holds is its number in this thread's table.

use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::JsValue;
use web_sys::{Request, RequestInit, Response};

type Answer = Rc<RefCell<Option<Result<(u16, String), String>>>>;
type Callback = Rc<Closure<dyn FnMut(JsValue)>>;
/// A request's answer to come, and the callbacks the browser calls with it.
type Pending = (Answer, Vec<Callback>);

thread_local! {
    static CALLS: RefCell<Vec<Option<Pending>>> = const { RefCell::new(Vec::new()) };
}

/// A request on its way.
pub struct Call {
    id: usize,
}

fn why(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::JSON::stringify(e).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| "the request failed".into())
}

impl Call {
    /// `method` `path` on `server`, with a JSON body (or none).
    pub fn new(server: &str, method: &'static str, path: &str, body: Option<String>) -> Call {
        let answer: Answer = Rc::new(RefCell::new(None));
        let mut closures = Vec::new();
        let started = (|| -> Result<(), JsValue> {
            let init = RequestInit::new();
            init.set_method(method);
            if let Some(body) = &body {
                init.set_body(&JsValue::from_str(body));
            }
            let request = Request::new_with_str_and_init(&format!("{server}{path}"), &init)?;
            request.headers().set("Content-Type", "application/json")?;
            let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
            let status = Rc::new(RefCell::new(0u16));
            let on_text: Callback = {
                let (answer, status) = (answer.clone(), status.clone());
                Rc::new(Closure::<dyn FnMut(JsValue)>::new(move |text: JsValue| {
                    *answer.borrow_mut() = Some(Ok((*status.borrow(), text.as_string().unwrap_or_default())));
                }))
            };
            let on_fail: Callback = {
                let answer = answer.clone();
                Rc::new(Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| *answer.borrow_mut() = Some(Err(why(&e)))))
            };
            let on_response: Callback = {
                let (answer, status) = (answer.clone(), status.clone());
                let (on_text, on_fail) = (on_text.clone(), on_fail.clone());
                Rc::new(Closure::<dyn FnMut(JsValue)>::new(move |r: JsValue| {
                    let Ok(response) = r.dyn_into::<Response>() else {
                        *answer.borrow_mut() = Some(Err("not an answer".into()));
                        return;
                    };
                    *status.borrow_mut() = response.status();
                    match response.text() {
                        Ok(p) => {
                            let _ = p.then2(&on_text, &on_fail);
                        }
                        Err(e) => *answer.borrow_mut() = Some(Err(why(&e))),
                    }
                }))
            };
            let _ = window.fetch_with_request(&request).then2(&on_response, &on_fail);
            closures.extend([on_text, on_fail, on_response]);
            Ok(())
        })();
        if let Err(e) = started {
            *answer.borrow_mut() = Some(Err(why(&e)));
        }
        let id = CALLS.with_borrow_mut(|c| {
            c.push(Some((answer, closures)));
            c.len() - 1
        });
        Call { id }
    }

    /// The answer, once it has come (and once).
    pub fn poll(&self) -> Option<Result<(u16, String), String>> {
        CALLS.with_borrow_mut(|c| {
            let slot = c.get_mut(self.id)?;
            let got = slot.as_ref()?.0.borrow_mut().take()?;
            *slot = None;
            Some(got)
        })
    }
}
