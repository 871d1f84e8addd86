//! HEAD answers never carry a body. actix-http decides whether to write a
//! body from the method of the request it read last; with pipelining, a
//! slow HEAD (one that waits on the database) is answered after the next
//! request has been read, and its body went out — the connection then out
//! of step. Every HEAD answer leaves here without one.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;

/// Drops the body of every answer to a HEAD request.
///
/// # Errors
///
/// What the inner service fails with.
pub async fn bodiless_head(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let head = req.method() == Method::HEAD;
    let res = next.call(req).await?;
    Ok(if head {
        res.map_body(|_, _| BoxBody::new(actix_web::body::None::new()))
    } else {
        res.map_into_boxed_body()
    })
}
