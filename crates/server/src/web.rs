//! The browser build served beside the API from one address (issue 29): `http://HOST:PORT/`
//! opens the game and `/?game=ID&seat=TOKEN` a seat (the query is the page's to read). The
//! files are `web/build.sh`'s `web/dist`, served as they are: the page inflates the gzipped wasm
//! and the Great War's `data/*.gz` itself.
//!
//! Only plain paths of plain names are served (letters, digits, `.`, `_`, `-`; no `..`, no
//! empty or hidden segment), never a file that resolves outside the folder (a link out), never
//! one over [`MAX_FILE`]; everything else is a 404 that says nothing of the folder.

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use std::path::{Path, PathBuf};

/// The largest file served (the wasm is about 20 MB, the largest gzipped map a few).
pub const MAX_FILE: u64 = 64 * 1024 * 1024;
/// The longest path looked at.
pub const MAX_PATH: usize = 256;

/// The folder of the browser build, where there is one.
#[derive(Clone, Debug)]
pub struct WebRoot {
    /// Canonical, so that a file's own canonical path can be checked to lie inside it.
    dir: Option<PathBuf>,
    /// The folder as given, for the page that says the build is missing.
    asked: PathBuf,
}

impl WebRoot {
    pub fn new(dir: &Path) -> WebRoot {
        WebRoot { dir: std::fs::canonicalize(dir).ok().filter(|d| d.is_dir()), asked: dir.to_path_buf() }
    }

    /// Whether the folder is there (the server says so when it starts).
    pub fn is_there(&self) -> bool {
        self.dir.is_some()
    }

    /// The file a request's path names, if it is one this serves (asked off the runtime's
    /// threads: `tokio::fs`).
    async fn file(&self, path: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        if path.len() > MAX_PATH {
            return None;
        }
        let rel = path.strip_prefix('/')?;
        let rel = if rel.is_empty() { "index.html" } else { rel };
        let plain = |seg: &str| {
            !seg.is_empty()
                && !seg.starts_with('.')
                && seg.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        };
        if !rel.split('/').all(plain) {
            return None;
        }
        let found = tokio::fs::canonicalize(dir.join(rel)).await.ok()?;
        let meta = tokio::fs::metadata(&found).await.ok()?;
        (found.starts_with(dir) && meta.is_file() && meta.len() <= MAX_FILE).then_some(found)
    }

    /// Answers a GET (or HEAD) that no API route took.
    pub async fn serve(&self, uri: &Uri) -> Response {
        let path = uri.path();
        if path == "/api" || path.starts_with("/api/") {
            return (StatusCode::NOT_FOUND, axum::Json(serde_json::json!({ "error": "no such API route" })))
                .into_response();
        }
        if self.dir.is_none() && path == "/" {
            let text = format!(
                "Kriegsspiel's server runs, but the browser build is not at {}: build it with web/build.sh, or start the server with --web FOLDER.\n",
                self.asked.display()
            );
            return (StatusCode::NOT_FOUND, text).into_response();
        }
        let Some(file) = self.file(path).await else {
            return (StatusCode::NOT_FOUND, "not found\n").into_response();
        };
        let Ok(body) = tokio::fs::read(&file).await else {
            return (StatusCode::NOT_FOUND, "not found\n").into_response();
        };
        let mut response = body.into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type(&file)));
        headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        // A seat's link holds its token: no page of ours sends it on to anyone.
        headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
        // The page itself is asked again each time (a new build is seen at once); the rest may
        // be kept, checked against the page's own requests.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }
}

/// The type a browser needs to be told (the wasm's above all: `application/wasm`).
fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("css") => "text/css; charset=utf-8",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ico") => "image/x-icon",
        Some("gz") => "application/gzip",
        Some("ron" | "txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
