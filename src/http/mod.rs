//! The HTTP edge: what every request goes through around its handler.
//! [`front`] admits the connection and the request (per-client connection
//! cap, allowed hosts, the body's deadline), answers reads of codes before
//! routing ([`reads`]; the plainest before actix-web sees them, [`early`]),
//! and on the way out compresses ([`encoding`]), adds the headers against
//! sniffing and framing ([`exposure`]) and marks answers while draining
//! ([`drain`]). Extractors and helpers the handlers share
//! live here too: JSON bodies ([`json`]), conditional requests
//! ([`conditional`]), rate limits ([`limits`]) and the WebSocket frame guard
//! ([`frames`]). Handlers themselves are in [`crate::routes`].

pub mod answer;
pub mod cache;
pub mod conditional;
pub mod connections;
pub mod deadline;
pub mod drain;
pub mod early;
pub mod encoding;
pub mod errors;
pub mod exposure;
pub mod frames;
pub mod front;
pub mod heads;
pub mod host;
pub mod json;
pub mod limits;
pub mod live;
pub mod reads;
