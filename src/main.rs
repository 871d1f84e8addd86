//! The `qipan` binary: serves the API, or answers `qipan perft` from the shell.

use clap::{Parser, Subcommand};
use qipan::cli::PerftArgs;
use qipan::configuration::Settings;
use qipan::startup::Application;

/// Every request allocates a dozen small strings and one view-sized buffer
/// and frees them all when it is answered: mimalloc's per-thread pages serve
/// that pattern with fewer instructions than the system allocator, whose
/// large frees consolidate its bins on every request.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "qipan",
    version,
    about = "Game-state service: exact rules, every position a URL"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    settings: Settings,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the HTTP API (the default).
    Serve,
    /// Count the leaf nodes of the move tree of a position.
    Perft(PerftArgs),
    /// Exit 0 when the service at --addr answers /healthz with 200 (for a
    /// container HEALTHCHECK).
    Healthcheck,
}

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => qipan::cli::perft(&args, &mut std::io::stdout()),
        Some(Command::Healthcheck) => {
            qipan::cli::healthcheck(cli.settings.addr, std::time::Duration::from_secs(3))
        }
        None | Some(Command::Serve) => {
            qipan::telemetry::init();
            let app = Application::build(cli.settings).await?;
            let addr = app.addr();
            let running = app.run_until_signalled()?;
            tracing::info!(%addr, "qipan listening");
            running.await?;
            Ok(())
        }
    }
}
