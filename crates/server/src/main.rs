//! `kriegsspiel-server`: the umpire as a server (see the crate's documentation and the README).

use clap::Parser;
use server::config::{self, Args};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    match run(args).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kriegsspiel-server: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), server::ServeError> {
    let tls = args.tls_cert.clone().zip(args.tls_key.clone());
    config::check_bind(args.bind, args.insecure_public, tls.is_some())?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let data = config::data_dir(args.data_dir)?;
    let db = config::db_url(args.db, &data)?;
    let options = server::Options {
        tls,
        advertise: args.advertise,
        lease: std::time::Duration::from_secs(args.lease_secs),
        web: Some(args.web.clone()),
        ..server::Options::default()
    };
    let server = server::Server::start_with(&db, &args.scenarios, args.bind, options).await?;
    println!("kriegsspiel-server: {} games restored, listening on {scheme}://{}", server.restored, server.addr);
    // Stopped on purpose (Ctrl-C, or SIGTERM from a service manager), the server lets its games
    // go to the other processes at once; killed, it leaves them to be taken over.
    stopped().await;
    server.stop_gracefully().await?;
    println!("kriegsspiel-server: stopped, its games let go");
    Ok(())
}

#[cfg(unix)]
async fn stopped() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

#[cfg(not(unix))]
async fn stopped() {
    let _ = tokio::signal::ctrl_c().await;
}
