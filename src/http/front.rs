//! What every request goes through before its route and after its answer,
//! in one middleware (a plain `Transform`: no boxed future per step, no
//! allocation beyond the request id):
//!
//! 1. its id and span ([`crate::telemetry`]);
//! 2. refusals that need no route: a connection over its client's cap
//!    ([`super::connections`]), a `Host` the service does not answer for
//!    ([`super::host`]); then reads of codes, answered without the
//!    router ([`super::reads`]);
//! 3. the body's deadline ([`super::deadline`]), for a request with a body;
//!
//! then, on the answer: compression ([`super::encoding`]) of a routed
//! answer, `408` if the body missed its deadline,
//! `Connection: close` while shutting down ([`super::drain`]), the request
//! counted and timed by route for `/metrics` ([`crate::routes::observe`]), the id
//! sent back and the service's own failures logged with it, the headers
//! against sniffing and framing ([`super::exposure`]), and no body for a
//! HEAD request.
//!
//! HEAD answers never carry a body here, whatever the handler wrote:
//! actix-http decides whether to write a body from the method of the
//! request it read last; with pipelining, a slow HEAD (one that waits on
//! the database) is answered after the next request has been read, and
//! its body would go out, the connection then out of step.

use std::future::{ready, Future, Ready};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header::{HeaderValue, CONNECTION};
use actix_web::http::{Method, StatusCode};
use tracing::Level;

use super::deadline::Armed;
use super::{connections, deadline, drain, encoding, exposure, host, reads};
use crate::metrics::metrics;
use crate::problem::ApiError;
use crate::telemetry::{client_id, fresh_id, REQUEST_ID};

/// The middleware; `counting` is `--metrics`.
#[derive(Clone)]
pub struct Front {
    /// Whether requests are counted for `/metrics`.
    pub counting: bool,
    /// What reads are answered from.
    pub reads: reads::Reads,
    /// The hosts requests may name.
    pub hosts: std::sync::Arc<host::HostPolicy>,
    /// Set when shutdown begins.
    pub draining: drain::Draining,
}

impl<S, B> Transform<S, ServiceRequest> for Front
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Transform = FrontService<S>;
    type InitError = ();
    type Future = Ready<Result<FrontService<S>, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(FrontService {
            service,
            counting: self.counting,
            reads: self.reads.clone(),
            hosts: self.hosts.clone(),
            draining: self.draining.clone(),
        }))
    }
}

/// The service [`Front`] wraps around the app.
pub struct FrontService<S> {
    service: S,
    counting: bool,
    reads: reads::Reads,
    hosts: std::sync::Arc<host::HostPolicy>,
    draining: drain::Draining,
}

impl<S, B> Service<ServiceRequest> for FrontService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = Answer<S::Future>;

    actix_web::dev::forward_ready!(service);

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        let started = Instant::now();
        let id = client_id(&req).unwrap_or_else(fresh_id);
        let span = request_span(&id, req.method(), req.path());
        let head = req.method() == Method::HEAD;
        let method = self.counting.then(|| req.method().clone());
        let draining = self.draining.is_on();
        let refusal = connections::refusal(&req).or_else(|| host::refusal(&self.hosts, &req));
        let (answer, route, hardened) = match refusal {
            Some(answer) => (Some(answer), None, false),
            None => match self.reads.answer(&req) {
                Some(read) => (Some(read.response), Some(read.route), read.hardened),
                None => (None, None, false),
            },
        };
        let (state, deadline) = match answer {
            Some(answer) => (
                State::Answered {
                    answer: Some(req.into_response(answer)),
                },
                None,
            ),
            None => {
                let deadline = deadline::arm(&mut req);
                let inner = match &span {
                    Some(span) => span.in_scope(|| self.service.call(req)),
                    None => self.service.call(req),
                };
                (State::Routed { inner }, deadline)
            }
        };
        Answer {
            state,
            span,
            ends: Ends {
                id: Some(id),
                started,
                head,
                method,
                route,
                hardened,
                draining,
                deadline,
            },
        }
    }
}

pin_project_lite::pin_project! {
    /// Where a request is: answered before its route (refused, or read
    /// from the view cache), or with its route.
    #[project = StateProj]
    enum State<F> {
        Answered { answer: Option<ServiceResponse<BoxBody>> },
        Routed { #[pin] inner: F },
    }
}

/// What the answer needs from the request.
struct Ends {
    id: Option<HeaderValue>,
    started: Instant,
    head: bool,
    method: Option<Method>,
    /// The route pattern of an answer from the view cache (no route
    /// matched it).
    route: Option<&'static str>,
    /// Whether the answer has the headers of [`exposure::harden`] already
    /// (a read's, made once for all).
    hardened: bool,
    draining: bool,
    deadline: Option<Armed>,
}

pin_project_lite::pin_project! {
    /// The answer to a request, finished on its way out.
    pub struct Answer<F> {
        #[pin]
        state: State<F>,
        span: Option<tracing::Span>,
        ends: Ends,
    }
}

impl<F, B> Future for Answer<F>
where
    F: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
    B: MessageBody + 'static,
{
    type Output = Result<ServiceResponse<BoxBody>, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let ends = this.ends;
        let _entered = this.span.as_ref().map(tracing::Span::enter);
        let res = match this.state.project() {
            StateProj::Answered { answer } => answer
                .take()
                .expect("a finished answer is not polled again"),
            StateProj::Routed { inner } => match inner.poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(res) => encoding::compress(res?),
            },
        };
        Poll::Ready(Ok(ends.finish(res)))
    }
}

impl Ends {
    fn finish(&mut self, mut res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
        if let Some(armed) = self.deadline.as_ref().filter(|d| d.expired()) {
            let (req, _) = res.into_parts();
            res = ServiceResponse::new(req, armed.answer().map_into_boxed_body());
        }
        if self.draining {
            res.headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
        }
        if let Some(method) = &self.method {
            let matched = match self.route {
                Some(_) => None,
                None => res.request().match_pattern(),
            };
            metrics().request(
                self.route.or(matched.as_deref()).unwrap_or("unmatched"),
                crate::metrics::method_label(method),
                res.status(),
                self.started.elapsed(),
            );
        }
        let id = self
            .id
            .take()
            .expect("a finished answer is not polled again");
        let text = id
            .to_str()
            .expect("a request id is ASCII: checked, or made of hex digits and a dash");
        // What the service could not do is logged here, with the id,
        // whatever level the span is filtered at.
        if res.status().is_server_error() {
            if let Some(e) = res
                .response()
                .error()
                .and_then(|e| e.as_error::<ApiError>())
            {
                e.log(text);
            }
        }
        log_answer(res.status(), self.started);
        res.headers_mut().insert(REQUEST_ID, id);
        if !self.hardened {
            exposure::harden(&mut res);
        }
        if self.head {
            res = res.map_body(|_, _| BoxBody::new(actix_web::body::None::new()));
        }
        res
    }
}

/// A request's span, when spans are kept: its id, method and path.
pub(crate) fn request_span(id: &HeaderValue, method: &Method, path: &str) -> Option<tracing::Span> {
    tracing::enabled!(Level::INFO).then(|| {
        let text = id
            .to_str()
            .expect("a request id is ASCII: checked, or made of hex digits and a dash");
        tracing::info_span!("request", id = %text, method = %method, path = %path)
    })
}

/// Logs an answer's status and how long it took (`qipan::request`, in the
/// request's span).
pub(crate) fn log_answer(status: StatusCode, started: Instant) {
    if tracing::enabled!(target: "qipan::request", Level::INFO) {
        tracing::info!(
            target: "qipan::request",
            status = status.as_u16(),
            micros = started.elapsed().as_micros() as u64,
        );
    }
}
