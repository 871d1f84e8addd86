//! Open connections, capped per client address: a client holding more
//! than `--max-connections-per-client` at once has each connection beyond
//! that answered `503 too-many-connections` the moment it is accepted, and
//! closed — before any of its request is read, so a connection whose head
//! never ends is refused at once rather than held until the head timeout.
//! One address cannot hoard the service's connections (idle ones already
//! close after the keep-alive; slow heads and bodies of the connections
//! within the cap after their timeouts). Trusted proxies, which carry many
//! clients, are exempt.
//! The global cap, `--max-connections`, is actix's own: past it, the
//! service stops accepting until a connection closes.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use actix_web::dev::{Extensions, ServiceRequest};
use actix_web::http::header;
use actix_web::rt::net::TcpStream;
use actix_web::HttpResponse;

use crate::problem::{Problem, ProblemKind};

/// Open connections per client address.
#[derive(Clone)]
pub struct ConnectionCap {
    per_client: u32,
    exempt: Arc<Vec<IpAddr>>,
    open: Arc<Mutex<HashMap<IpAddr, u32>>>,
}

/// A connection's place in the count, given back when the connection
/// closes (actix drops a connection's data with it).
struct Slot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, u32>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A connection opened while its client already held the most allowed.
#[derive(Clone, Copy)]
struct OverCap {
    limit: u32,
}

/// The 503 problem for a connection over its client's cap, as the bytes
/// of a whole HTTP/1.1 answer.
fn refusal_bytes(limit: u32) -> Vec<u8> {
    Problem::new(ProblemKind::TooManyConnections, detail(limit)).raw_answer()
}

fn detail(limit: u32) -> String {
    format!(
        "this address already holds {limit} open connections, the most one client may; \
         reuse them (keep-alive) or close some"
    )
}

impl ConnectionCap {
    /// At most `per_client` connections per address (0: no cap), except
    /// from `exempt` addresses.
    pub fn new(per_client: u32, exempt: Vec<IpAddr>) -> ConnectionCap {
        ConnectionCap {
            per_client,
            exempt: Arc::new(exempt),
            open: Arc::default(),
        }
    }

    /// Counts a new connection (`HttpServer::on_connect`).
    pub fn on_connect(&self, connection: &TcpStream, data: &mut Extensions) {
        if self.per_client == 0 {
            return;
        }
        let Ok(ip) = connection.peer_addr().map(|a| a.ip()) else {
            return;
        };
        if self.exempt.contains(&ip) {
            return;
        }
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.per_client {
            drop(open);
            data.insert(OverCap {
                limit: self.per_client,
            });
            // Answered and closed before a byte is read: the answer fits a
            // fresh socket's send buffer (written straight to the socket:
            // the runtime has not seen it writable yet), and the shut
            // reading half makes the connection end at once.
            let socket = socket2::SockRef::from(connection);
            let _ = socket.send(&refusal_bytes(self.per_client));
            let _ = socket.shutdown(std::net::Shutdown::Both);
            return;
        }
        *n += 1;
        drop(open);
        data.insert(Slot {
            ip,
            open: self.open.clone(),
        });
    }
}

/// Whether `req` came on a connection over its client's cap (a request
/// actix-web has not seen yet, see [`super::early`]).
pub fn is_over_cap(req: &actix_http::Request) -> bool {
    req.conn_data::<OverCap>().is_some()
}

/// The answer to a request on a connection over its client's cap: a 503
/// problem, and the connection closed. `None` for every other request.
pub fn refusal(req: &ServiceRequest) -> Option<HttpResponse> {
    let OverCap { limit } = req.conn_data::<OverCap>().copied()?;
    let mut response = Problem::new(ProblemKind::TooManyConnections, detail(limit)).response();
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    Some(response)
}
