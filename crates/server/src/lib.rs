//! Kriegsspiel's umpire as a server: the engine, headless, gives every seat (a side, a Great War
//! leader or general, the moderator, an observer) only what it may know, takes its orders
//! through the engine's one door, and keeps a store of record that loses nothing.
//!
//! The lobby is HTTP + JSON ([`lobby`]); a game's live stream is a WebSocket per seat
//! ([`live`], messages in [`protocol`]); [`client`] is a headless client the tests drive.

pub mod catalog;
pub mod client;
pub mod clock;
pub mod config;
pub mod forward;
pub mod hub;
pub mod live;
pub mod lobby;
pub mod protocol;
pub mod room;
pub mod seats;
pub mod sight;
pub mod store;
pub mod table;
pub mod timing;
pub mod tls;
pub mod web;
pub mod webhook;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// Why the server stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    #[error("the store of record: {0}")]
    Store(#[from] store::StoreError),
    #[error("restoring the games: {0}")]
    Restore(#[from] hub::LobbyError),
    #[error("the scenarios folder {0}: {1}")]
    Scenarios(PathBuf, std::io::Error),
    #[error("listening on {0}: {1}")]
    Listen(SocketAddr, std::io::Error),
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
}

/// How a server runs beyond its store, scenarios and address.
pub struct Options {
    /// Where it reads the time (the system's; tests give a [`clock::ManualClock`]).
    pub clock: Arc<dyn clock::Clock>,
    /// A certificate chain and its key (PEM files): the server speaks TLS.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// How long a game's lease lasts unless renewed: how soon another process takes over the
    /// games of one that hangs (one that dies is seen at once on PostgreSQL).
    pub lease: std::time::Duration,
    /// Where the other processes reach this one; omitted: the address it listens on (loopback
    /// where it listens on every address).
    pub advertise: Option<SocketAddr>,
    /// Seeds given instead of drawn: the n-th game this process makes (from 0) gets this plus
    /// n, so that a bench can play a mirror of each game beside it (its guess is checked
    /// against the game's seed commitment). Never offered on the command line or the lobby.
    pub seeds: Option<u64>,
    /// The browser build served at `/` beside the API (`web/build.sh`'s `web/dist`); none: the
    /// API alone.
    pub web: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            clock: Arc::new(clock::SystemClock),
            tls: None,
            lease: hub::DEFAULT_LEASE,
            advertise: None,
            seeds: None,
            web: None,
        }
    }
}

/// A server started: where it listens, and its games.
pub struct Server {
    pub addr: SocketAddr,
    pub hub: Arc<hub::Hub>,
    pub restored: usize,
    task: tokio::task::JoinHandle<()>,
    keeper: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Opens the store, restores its games and listens on `bind` (port 0: any free port), on
    /// the system's clock.
    pub async fn start(db: &str, scenarios: &std::path::Path, bind: SocketAddr) -> Result<Server, ServeError> {
        Server::start_with(db, scenarios, bind, Options::default()).await
    }

    /// [`Server::start`] with options.
    pub async fn start_with(
        db: &str,
        scenarios: &std::path::Path,
        bind: SocketAddr,
        options: Options,
    ) -> Result<Server, ServeError> {
        // The certificate chain, read once: served, and the one its peers must show (its first).
        let chain = options.tls.as_ref().map(|(cert, key)| tls::certs(cert).map(|c| (c, key))).transpose()?;
        let own = chain.as_ref().and_then(|(c, _)| c.first().cloned());
        let acceptor = chain.map(|(certs, key)| tls::acceptor(certs, key)).transpose()?;
        let peers = forward::Peers::pinned(own).map_err(|e| tls::TlsError::Config(e.to_string()))?;
        let store = store::open(db).await?;
        let catalog =
            catalog::Catalog::scan(scenarios).map_err(|e| ServeError::Scenarios(scenarios.to_path_buf(), e))?;
        let mut hub = hub::Hub::new(store, catalog, options.clock);
        hub.lease = options.lease.max(std::time::Duration::from_millis(300));
        hub.seeds = options.seeds;
        hub.peers = peers;
        let hub = Arc::new(hub);
        let listener = tokio::net::TcpListener::bind(bind).await.map_err(|e| ServeError::Listen(bind, e))?;
        let addr = listener.local_addr().map_err(|e| ServeError::Listen(bind, e))?;
        let advertised = options.advertise.unwrap_or_else(|| {
            if addr.ip().is_unspecified() { SocketAddr::from(([127, 0, 0, 1], addr.port())) } else { addr }
        });
        // The others reach a process that serves TLS over TLS (`forward::Peers`).
        let scheme = if acceptor.is_some() { forward::TLS_SCHEME } else { "" };
        hub.set_addr(format!("{scheme}{advertised}"));
        let restored = hub.restore().await?;
        let keeper = tokio::spawn(hub::keeper(hub.clone()));
        let web = options.web.as_deref().map(web::WebRoot::new);
        if let (Some(w), Some(dir)) = (&web, &options.web)
            && !w.is_there()
        {
            eprintln!(
                "kriegsspiel-server: no browser build at {} (web/build.sh makes it): serving the API alone",
                dir.display()
            );
        }
        let app = lobby::router(hub.clone(), web);
        let task = match acceptor {
            Some(acceptor) => {
                let listener = tls::TlsListener::new(listener, acceptor).map_err(|e| ServeError::Listen(bind, e))?;
                tokio::spawn(async move {
                    let _ = axum::serve(listener, app).await;
                })
            }
            None => tokio::spawn(async move {
                let _ = axum::serve(listener, app).await;
            }),
        };
        Ok(Server { addr, hub, restored, task, keeper })
    }

    /// Stops listening and ends the games' tasks (their connections end with the runtime); the
    /// leases are left to run out, as when a process dies.
    pub async fn stop(self) {
        self.task.abort();
        self.keeper.abort();
        self.hub.shutdown();
        let _ = self.hub.store.retire().await;
    }

    /// Stops on purpose: listens no more and lets every game's lease go, telling the other
    /// processes, which take the games over at once.
    pub async fn stop_gracefully(self) -> Result<(), store::StoreError> {
        self.task.abort();
        self.keeper.abort();
        let released = self.hub.release_all().await;
        let retired = self.hub.store.retire().await;
        released.and(retired)
    }

    /// Waits until the server stops.
    pub async fn wait(self) {
        let _ = self.task.await;
    }
}
