//! A minimal WebSocket client for a match's socket: each line typed on
//! standard input is sent as one text message, and each message from the
//! service is printed on its own line — enough to play a live duel from two
//! terminals (see "Live play" in docs/matches.md).
//!
//! ```text
//! cargo run --example ws -- ws://127.0.0.1:8080/v1/matches/<id>/ws
//! {"type": "auth", "token": "<seat token>"}
//! {"type": "play", "actions": ["h2e2"], "version": 2}
//! ```
//!
//! When the service closes the socket, the close code and reason are
//! printed and the client exits.

use anyhow::Context;
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_tungstenite::tungstenite::Message;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let url = std::env::args()
        .nth(1)
        .context("usage: ws <ws://host:port/v1/matches/{id}/ws>")?;
    let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .with_context(|| format!("connecting to {url}"))?;
    let (mut tx, mut rx) = socket.split();
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    loop {
        tokio::select! {
            line = lines.next_line() => match line? {
                Some(line) if line.trim().is_empty() => {}
                Some(line) => tx.send(Message::text(line)).await?,
                None => {
                    tx.send(Message::Close(None)).await?;
                    return Ok(());
                }
            },
            message = rx.next() => match message {
                Some(Ok(Message::Text(text))) => println!("{text}"),
                Some(Ok(Message::Close(frame))) => {
                    match frame {
                        Some(f) => println!("closed: {} {}", u16::from(f.code), f.reason),
                        None => println!("closed"),
                    }
                    return Ok(());
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
                None => return Ok(()),
            },
        }
    }
}
