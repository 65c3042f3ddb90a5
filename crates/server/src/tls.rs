//! TLS (rustls on ring) when the server is given a certificate and its key (PEM files): every
//! connection, the lobby's and the live streams', is served after its handshake. Handshakes run
//! side by side, at most [`MAX_HANDSHAKES`] at once and each within [`HANDSHAKE_WITHIN`], so a
//! slow or silent client holds up only itself.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// How long a client has for its handshake.
pub const HANDSHAKE_WITHIN: Duration = Duration::from_secs(10);
/// Most handshakes under way at once.
pub const MAX_HANDSHAKES: usize = 256;

/// Why TLS could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("the certificate {0}: {1}")]
    Cert(PathBuf, String),
    #[error("the key {0}: {1}")]
    Key(PathBuf, String),
    #[error("TLS: {0}")]
    Config(String),
}

/// A certificate chain, in PEM, its own certificate first.
pub fn certs(cert: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let bad_cert = |e: String| TlsError::Cert(cert.to_path_buf(), e);
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .map_err(|e| bad_cert(e.to_string()))?
        .collect::<Result<_, _>>()
        .map_err(|e| bad_cert(e.to_string()))?;
    if certs.is_empty() {
        return Err(bad_cert("no certificate in the file".to_string()));
    }
    Ok(certs)
}

/// The acceptor for a certificate chain (read by [`certs`]) and its key, in PEM.
pub fn acceptor(certs: Vec<CertificateDer<'static>>, key: &Path) -> Result<TlsAcceptor, TlsError> {
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| TlsError::Key(key.to_path_buf(), e.to_string()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| TlsError::Config(e.to_string()))?;
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// A listener that hands axum its connections once their handshake is done.
pub struct TlsListener {
    ready: mpsc::Receiver<(tokio_rustls::server::TlsStream<TcpStream>, SocketAddr)>,
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl TlsListener {
    pub fn new(tcp: TcpListener, acceptor: TlsAcceptor) -> std::io::Result<TlsListener> {
        let addr = tcp.local_addr()?;
        let (tx, ready) = mpsc::channel(64);
        let slots = Arc::new(Semaphore::new(MAX_HANDSHAKES));
        let task = tokio::spawn(async move {
            loop {
                let Ok(slot) = slots.clone().acquire_owned().await else { return };
                let Ok((stream, peer)) = tcp.accept().await else {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                };
                let (acceptor, tx) = (acceptor.clone(), tx.clone());
                tokio::spawn(async move {
                    if let Ok(Ok(tls)) = tokio::time::timeout(HANDSHAKE_WITHIN, acceptor.accept(stream)).await {
                        drop(slot);
                        let _ = tx.send((tls, peer)).await;
                    }
                });
            }
        });
        Ok(TlsListener { ready, addr, task })
    }
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = tokio_rustls::server::TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(conn) => conn,
            // The accepting task is gone: no connection comes any more.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.addr)
    }
}
