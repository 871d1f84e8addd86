//! Reads of codes answered as soon as actix-http has read their head,
//! before actix-web makes a request of it.
//!
//! A plain read — `GET /v1/{game}/{code}` from a program (not a browser
//! asking for HTML), answered with a full `200` in no coding, nearly every
//! read — needs nothing of actix-web: not its request (taken from a pool,
//! filled and given back), not the middleware, not the router.
//! [`Early`] wraps the application and answers such a read itself, with
//! the answer [`super::front`] would give it: the same view, fields and
//! CORS header ([`Reads::plain`]), the request id, the same span, log line
//! and count. Every other request goes to the application as before — and
//! so does a read while anything there would change its answer or its
//! connection: a connection over its client's cap, a `Host` the service
//! does not answer for, shutdown under way.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use actix_http::{Request, Response};
use actix_service::{Service, ServiceFactory};
use actix_web::body::BoxBody;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::HttpMessage;

use super::front::{log_answer, request_span};
use super::{connections, drain, host, reads};
use crate::metrics::metrics;
use crate::telemetry::{client_id, fresh_id, REQUEST_ID};

/// The application, with plain reads answered ahead of it as
/// [`Answering`] says.
#[derive(Clone)]
pub struct Early<F> {
    /// The application, which answers everything else.
    pub app: F,
    /// What the early answers need.
    pub answering: Answering,
}

impl<F> ServiceFactory<Request> for Early<F>
where
    F: ServiceFactory<Request, Config = ()>,
    F::Service: 'static,
    F::Future: 'static,
    F::Response: Into<Response<BoxBody>>,
{
    type Response = Response<BoxBody>;
    type Error = F::Error;
    type Config = ();
    type Service = EarlyService<F::Service>;
    type InitError = F::InitError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Service, F::InitError>>>>;

    fn new_service(&self, config: ()) -> Self::Future {
        let app = self.app.new_service(config);
        let early = Rc::new(self.answering.clone());
        Box::pin(async move {
            Ok(EarlyService {
                app: app.await?,
                early,
            })
        })
    }
}

/// What the early answers need: [`super::front::Front`]'s settings, and
/// what actix-web's configuration says of the server.
#[derive(Clone)]
pub struct Answering {
    /// Whether requests are counted for `/metrics`.
    pub counting: bool,
    /// What reads are answered from.
    pub reads: reads::Reads,
    /// The hosts requests may name.
    pub hosts: Arc<host::HostPolicy>,
    /// Set when shutdown begins.
    pub draining: drain::Draining,
    /// Whether the server is reached over TLS.
    pub secure: bool,
    /// The host a request without `Host` names.
    pub own_host: Arc<str>,
}

impl Answering {
    /// The answer to `req` when it is a plain read answered here.
    fn answer(&self, req: &Request) -> Option<Response<BoxBody>> {
        // Writes and the like go on at once, at the cost of one comparison.
        if req.method() != Method::GET {
            return None;
        }
        let started = Instant::now();
        if self.draining.is_on() || connections::is_over_cap(req) {
            return None;
        }
        let named = req.headers().get(header::HOST).map(HeaderValue::as_bytes);
        if !self.hosts.allows_bytes(named) {
            return None;
        }
        let (mut response, route) = self.reads.plain(req, self.secure, &self.own_host)?;
        let id = client_id(req).unwrap_or_else(fresh_id);
        let span = request_span(&id, req.method(), req.path());
        let _entered = span.as_ref().map(tracing::Span::enter);
        if self.counting {
            metrics().request(
                route,
                crate::metrics::method_label(&Method::GET),
                StatusCode::OK,
                started.elapsed(),
            );
        }
        log_answer(StatusCode::OK, started);
        response.headers_mut().insert(REQUEST_ID, id);
        Some(response.into())
    }
}

/// The service [`Early`] makes in each worker.
pub struct EarlyService<S> {
    app: S,
    early: Rc<Answering>,
}

impl<S> Service<Request> for EarlyService<S>
where
    S: Service<Request>,
    S::Response: Into<Response<BoxBody>>,
{
    type Response = Response<BoxBody>;
    type Error = S::Error;
    type Future = EarlyAnswer<S::Future>;

    actix_service::forward_ready!(app);

    fn call(&self, req: Request) -> Self::Future {
        match self.early.answer(&req) {
            Some(answer) => EarlyAnswer {
                step: Step::Answered {
                    answer: Some(answer),
                },
            },
            None => EarlyAnswer {
                step: Step::Routed {
                    inner: self.app.call(req),
                },
            },
        }
    }
}

pin_project_lite::pin_project! {
    /// Where an answer is: given here, or the application's.
    #[project = StepProj]
    enum Step<F> {
        Answered { answer: Option<Response<BoxBody>> },
        Routed { #[pin] inner: F },
    }
}

pin_project_lite::pin_project! {
    /// An answer given here, or the application's.
    pub struct EarlyAnswer<F> {
        #[pin]
        step: Step<F>,
    }
}

impl<F, R, E> Future for EarlyAnswer<F>
where
    F: Future<Output = Result<R, E>>,
    R: Into<Response<BoxBody>>,
{
    type Output = Result<Response<BoxBody>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project().step.project() {
            // Taken once: a finished answer is not polled again.
            StepProj::Answered { answer } => match answer.take() {
                Some(answer) => Poll::Ready(Ok(answer)),
                None => Poll::Pending,
            },
            StepProj::Routed { inner } => inner.poll(cx).map(|res| res.map(Into::into)),
        }
    }
}
