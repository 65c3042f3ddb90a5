//! A connection for a game another process holds: piped, frame by frame, to the live stream of
//! the process that holds it (several processes on one PostgreSQL serve the same games, each
//! game by one of them). When that process goes, the connection closes as a restarting service
//! does (1012), and the client reconnects: the game is then held by a live process, which may
//! be this one.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_tungstenite::tungstenite;
use tungstenite::client::IntoClientRequest;

/// The largest message a process takes from another that holds a game (a Great War view).
pub const MAX_SENT: usize = 64 * 1024 * 1024;
/// The close code of a connection whose game has moved to another process (the client
/// reconnects: "service restart").
pub const CLOSE_MOVED: u16 = 1012;

/// The header of a connection piped from another process.
pub const FORWARDED: &str = "x-kriegsspiel-forwarded";

/// How long reaching the process that holds a game may take, its handshakes included.
const CONNECT_WITHIN: Duration = Duration::from_secs(3);

/// The scheme a process that serves TLS puts before the address it gives the store.
pub const TLS_SCHEME: &str = "wss://";

/// A connection to another process, plain or TLS.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

type Upstream = tokio_tungstenite::WebSocketStream<Box<dyn Io>>;

/// How this process reaches the others of its deployment: plain, or over TLS to a process
/// that serves it. The processes of one deployment that serve TLS share one certificate, and a
/// process is trusted as a peer when it shows exactly that certificate and proves it holds its
/// key (the handshake's signature): pinned, no name or authority asked.
#[derive(Clone, Default)]
pub struct Peers {
    tls: Option<tokio_rustls::TlsConnector>,
}

impl Peers {
    /// Peers trusted by the certificate this process serves (`None`: it serves none and
    /// reaches only plain processes).
    pub fn pinned(own: Option<CertificateDer<'static>>) -> Result<Peers, rustls::Error> {
        let Some(cert) = own else { return Ok(Peers::default()) };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier = Arc::new(Pinned { cert, provider: provider.clone() });
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(Peers { tls: Some(tokio_rustls::TlsConnector::from(Arc::new(config))) })
    }

    /// Opens the game's live stream on the process at `addr` (`host:port`, or [`TLS_SCHEME`]
    /// before it for a process serving TLS).
    pub async fn connect(&self, addr: &str, game: &str) -> Option<Upstream> {
        // A game ID is hex; anything else is never put into a URL.
        if !crate::seats::is_game_id(game) {
            return None;
        }
        tokio::time::timeout(CONNECT_WITHIN, self.open(addr, game)).await.ok().flatten()
    }

    async fn open(&self, addr: &str, game: &str) -> Option<Upstream> {
        let (tls, host) = match addr.strip_prefix(TLS_SCHEME) {
            Some(host) => (true, host),
            None => (false, addr),
        };
        let config = tungstenite::protocol::WebSocketConfig::default()
            .max_message_size(Some(MAX_SENT))
            .max_frame_size(Some(MAX_SENT));
        let mut request = format!("ws://{host}/api/games/{game}/live").into_client_request().ok()?;
        // The holder serves it or refuses it, and never sends it on again (no loop between two
        // processes that each take the other for the holder).
        request.headers_mut().insert(FORWARDED, tungstenite::http::HeaderValue::from_static("1"));
        let tcp = tokio::net::TcpStream::connect(host).await.ok()?;
        let _ = tcp.set_nodelay(true);
        let stream: Box<dyn Io> = if tls {
            // A process serving TLS is reached only by one that holds the deployment's
            // certificate.
            let connector = self.tls.as_ref()?;
            let ip = host.parse::<std::net::SocketAddr>().ok()?.ip();
            Box::new(connector.connect(ServerName::IpAddress(ip.into()), tcp).await.ok()?)
        } else {
            Box::new(tcp)
        };
        let (ws, _) = tokio_tungstenite::client_async_with_config(request, stream, Some(config)).await.ok()?;
        Some(ws)
    }
}

/// Trusts exactly the certificate given (see [`Peers`]).
#[derive(Debug)]
struct Pinned {
    cert: CertificateDer<'static>,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl rustls::client::danger::ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        if self.cert.as_ref() == end_entity.as_ref() {
            Ok(rustls::client::danger::ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

/// Pipes the client's connection to the owner's until either ends.
pub async fn pipe(mut client: WebSocket, mut upstream: Upstream) {
    loop {
        tokio::select! {
            from_client = client.recv() => {
                let frame = match from_client {
                    Some(Ok(Message::Text(t))) => tungstenite::Message::Text(t.as_str().into()),
                    Some(Ok(Message::Binary(b))) => tungstenite::Message::Binary(b),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => {
                        let _ = upstream.close(None).await;
                        return;
                    }
                };
                if upstream.send(frame).await.is_err() {
                    break;
                }
            }
            from_owner = upstream.next() => {
                let frame = match from_owner {
                    Some(Ok(tungstenite::Message::Text(t))) => Message::Text(t.as_str().into()),
                    Some(Ok(tungstenite::Message::Binary(b))) => Message::Binary(b),
                    Some(Ok(tungstenite::Message::Close(Some(c)))) => {
                        // The owner's own refusal (a bad token, a flood) is passed on as it is.
                        let reason = c.reason.as_str().to_string();
                        let _ = client.send(Message::Close(Some(CloseFrame { code: c.code.into(), reason: reason.into() }))).await;
                        return;
                    }
                    Some(Ok(tungstenite::Message::Close(None)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                if client.send(frame).await.is_err() {
                    let _ = upstream.close(None).await;
                    return;
                }
            }
        }
    }
    // The owner is gone (or stopped serving the game): the client reconnects.
    let close = CloseFrame { code: CLOSE_MOVED, reason: "moved".into() };
    let _ = client.send(Message::Close(Some(close))).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::client::danger::ServerCertVerifier;

    #[test]
    fn a_peer_is_trusted_by_the_deployments_own_certificate_and_no_other() {
        let own = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).expect("a certificate");
        let other = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).expect("a certificate");
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let pinned = Pinned { cert: own.cert.der().clone(), provider };
        let name = ServerName::try_from("localhost").expect("a name");
        let now = rustls::pki_types::UnixTime::now();
        assert!(pinned.verify_server_cert(own.cert.der(), &[], &name, &[], now).is_ok());
        assert!(pinned.verify_server_cert(other.cert.der(), &[], &name, &[], now).is_err());
        assert!(!pinned.supported_verify_schemes().is_empty());
        assert!(Peers::pinned(None).is_ok_and(|p| p.tls.is_none()), "a plain process reaches only plain ones");
    }
}
