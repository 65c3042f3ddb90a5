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
    config::check_bind(args.bind, args.insecure_public)?;
    let data = config::data_dir(args.data_dir)?;
    let db = config::db_url(args.db, &data)?;
    let server = server::Server::start(&db, &args.scenarios, args.bind).await?;
    println!("kriegsspiel-server: {} games restored, listening on http://{}", server.restored, server.addr);
    server.wait().await;
    Ok(())
}
