//! TLS: given a certificate and key (a self-signed one made here with rcgen), the server speaks
//! HTTPS and nothing else on its port; the lobby answers over TLS to a client that trusts it.

mod support;

use server::Server;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::ServerName;

async fn get(stream: &mut (impl AsyncReadExt + AsyncWriteExt + Unpin), addr: SocketAddr) -> String {
    let request = format!("GET /api/scenarios HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_certificate_the_server_speaks_tls_and_only_tls() {
    let (der, cert, key, dir) = certificate("tls");

    // A missing key is refused before anything listens.
    let options = server::Options { tls: Some((cert.clone(), dir.join("none.pem"))), ..server::Options::default() };
    let bind = SocketAddr::from(([127, 0, 0, 1], 0));
    let db = support::fresh_db("tls").await;
    assert!(matches!(
        Server::start_with(&db, &support::scenarios(), bind, options).await,
        Err(server::ServeError::Tls(_))
    ));

    let options = server::Options { tls: Some((cert, key)), ..server::Options::default() };
    let server = Server::start_with(&db, &support::scenarios(), bind, options).await.expect("starts");
    let mut tls = tls_to(server.addr, &der).await;
    let answer = get(&mut tls, server.addr).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("open_field.ron"), "the lobby answers over TLS");

    // Plain HTTP on the same port gets no answer of the lobby's.
    let mut plain = tokio::net::TcpStream::connect(server.addr).await.expect("connects");
    let answer = get(&mut plain, server.addr).await;
    assert!(!answer.contains("open_field.ron"), "{answer}");
    server.stop().await;
}

/// A self-signed certificate for `localhost` (its DER) and its PEM files, in a folder of
/// `what`'s own.
fn certificate(what: &str) -> (rustls::pki_types::CertificateDer<'static>, PathBuf, PathBuf, PathBuf) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).expect("a certificate");
    let dir = std::env::temp_dir().join(format!("ks-server-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert, made.cert.pem()).expect("written");
    std::fs::write(&key, made.signing_key.serialize_pem()).expect("written");
    (made.cert.der().clone(), cert, key, dir)
}

/// A TLS connection to `addr` that trusts `cert`.
async fn tls_to(addr: SocketAddr, cert: &rustls::pki_types::CertificateDer<'static>) -> Box<dyn server::forward::Io> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.clone()).expect("the certificate is trusted");
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect(addr).await.expect("connects");
    let name = ServerName::try_from("localhost").expect("a name");
    Box::new(tokio_rustls::TlsConnector::from(Arc::new(config)).connect(name, tcp).await.expect("the handshake"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_serving_tls_pipes_a_seat_to_the_tls_process_that_holds_its_game() {
    let (der, cert, key, _) = certificate("tls-peers");

    // Two processes of one deployment on one store, both TLS only, with its certificate.
    let db = support::sqlite_url("tls-peers");
    let bind = SocketAddr::from(([127, 0, 0, 1], 0));
    let options = || server::Options { tls: Some((cert.clone(), key.clone())), ..server::Options::default() };
    let a = Server::start_with(&db, &support::scenarios(), bind, options()).await.expect("starts");
    let b = Server::start_with(&db, &support::scenarios(), bind, options()).await.expect("starts");
    let body = serde_json::json!({ "scenario": "open_field.ron" }).to_string();
    let (code, created) = server::client::http_on(tls_to(a.addr, &der).await, a.addr, "POST", "/api/games", &body, &[])
        .await
        .expect("answers");
    assert_eq!(code, 200, "{created}");
    let game = support::game(&created);
    assert!(b.hub.room(&game).await.is_none(), "held by the first");

    // Blue joins at the process that does not hold the game: piped to its holder over TLS.
    let (mut red, welcome) =
        server::client::Client::join_on(tls_to(a.addr, &der).await, a.addr, &game, &support::token(&created, 0), None)
            .await
            .expect("joins");
    let (mut blue, bwelcome) =
        server::client::Client::join_on(tls_to(b.addr, &der).await, b.addr, &game, &support::token(&created, 1), None)
            .await
            .expect("joins");
    assert_eq!(support::kind(&bwelcome), "welcome", "a piped seat is welcomed: {bwelcome}");
    assert!(bwelcome["view"].is_object(), "{bwelcome}");
    let active = welcome["status"]["clock"]["active"].as_str().unwrap_or("").to_string();
    let (mover, other) = if active == "blue" { (&mut blue, &mut red) } else { (&mut red, &mut blue) };
    let ack = mover.order(serde_json::json!("EndSetup")).await.expect("an answer");
    assert_eq!(support::kind(&ack), "ack", "{ack}");
    other.wait_at(1).await.expect("the other seat follows, through the pipe or not");
    a.stop().await;
    b.stop().await;
}
