//! The browser build served beside the API from one address (issue 29): `/` and a seat's link
//! `/?game=ID&seat=TOKEN` give the page, its files come with the types a browser needs, and no
//! path reaches outside the folder (`..`, encoded dots, hidden files, a link out).

mod support;

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A raw GET: the status, the headers (lower-case names) and the body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String, Vec<u8>) {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.expect("connects");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    tcp.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await.expect("read");
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a head");
    let head = String::from_utf8_lossy(&answer[..split]).to_lowercase();
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status");
    (status, head, answer[split + 4..].to_vec())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_serves_the_browser_build_and_nothing_outside_it() {
    let root = std::env::temp_dir().join(format!("ks-server-web-{}", std::process::id()));
    let dist = root.join("dist");
    std::fs::create_dir_all(dist.join("data/great_war")).expect("folders");
    std::fs::write(dist.join("index.html"), "<html>the game</html>").expect("written");
    std::fs::write(dist.join("kriegsspiel.js"), "export {}").expect("written");
    std::fs::write(dist.join("kriegsspiel_bg.wasm.gz"), [0x1f, 0x8b, 8, 0]).expect("written");
    std::fs::write(dist.join("data/sizes.json"), "{}").expect("written");
    std::fs::write(dist.join("data/great_war/europe.ron.gz"), [0x1f, 0x8b]).expect("written");
    std::fs::write(dist.join(".hidden"), "no").expect("written");
    std::fs::write(root.join("secret.txt"), "the other side's submarines").expect("written");
    #[cfg(unix)]
    {
        let _ = std::fs::remove_file(dist.join("out.txt"));
        std::os::unix::fs::symlink(root.join("secret.txt"), dist.join("out.txt")).expect("a link");
    }

    let db = support::fresh_db("web").await;
    let bind = SocketAddr::from(([127, 0, 0, 1], 0));
    let options = server::Options { web: Some(dist.clone()), ..server::Options::default() };
    let server = server::Server::start_with(&db, &support::scenarios(), bind, options).await.expect("starts");
    let addr = server.addr;

    for path in ["/", "/index.html", "/?game=0123456789abcdef&seat=00ff"] {
        let (status, head, body) = get(addr, path).await;
        assert_eq!(status, 200, "{path}: {head}");
        assert!(head.contains("content-type: text/html; charset=utf-8"), "{path}: {head}");
        assert!(head.contains("referrer-policy: no-referrer"), "a seat's token is sent on nowhere: {head}");
        assert_eq!(body, b"<html>the game</html>");
    }
    for (path, kind) in [
        ("/kriegsspiel.js", "text/javascript"),
        ("/kriegsspiel_bg.wasm.gz", "application/gzip"),
        ("/data/sizes.json", "application/json"),
        ("/data/great_war/europe.ron.gz", "application/gzip"),
    ] {
        let (status, head, _) = get(addr, path).await;
        assert_eq!(status, 200, "{path}: {head}");
        assert!(head.contains(&format!("content-type: {kind}")), "{path}: {head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    }
    // The API is still the API, and an unknown API route is no page.
    let (status, _, body) = get(addr, "/api/scenarios").await;
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("open_field.ron"));
    let (status, _, body) = get(addr, "/api/nothing").await;
    assert_eq!(status, 404);
    assert!(String::from_utf8_lossy(&body).contains("no such API route"));
    // Nothing outside the folder, nor hidden in it.
    for path in [
        "/../secret.txt",
        "/data/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/.hidden",
        "/out.txt",
        "/data",
        "/nothing.js",
        "//etc/passwd",
    ] {
        let (status, _, body) = get(addr, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(!String::from_utf8_lossy(&body).contains("submarines"), "{path}");
    }
    let long = format!("/{}", "a".repeat(5000));
    assert_eq!(get(addr, &long).await.0, 404);
    let (code, _) = server::client::http(addr, "POST", "/index.html", None).await.expect("answers");
    assert_eq!(code, 405, "the build is read, never written");
    server.stop().await;

    // Without the build the server says what is missing at `/`, and serves the API.
    let options = server::Options { web: Some(root.join("none")), ..server::Options::default() };
    let server = server::Server::start_with(&db, &support::scenarios(), bind, options).await.expect("starts");
    let (status, _, body) = get(server.addr, "/").await;
    assert_eq!(status, 404);
    assert!(String::from_utf8_lossy(&body).contains("web/build.sh"), "{}", String::from_utf8_lossy(&body));
    assert_eq!(get(server.addr, "/api/scenarios").await.0, 200);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&root);
}
