//! Rate limits per client address, with `governor`'s keyed GCRA limiters:
//!
//! - **creates**: new matches, forks, seeks and takes (each makes rows that
//!   stay), `--rate-creates` per minute;
//! - **writes**: every other match write (moves, undo, answers, resign,
//!   joins, invites), `--rate-writes` per second, bursts of twice that;
//! - **actions**: the cost budget of play batches, stateless and match
//!   alike, one unit per action, `--rate-actions` per second, bursts of ten
//!   times that — a 1,000-action batch costs a thousand single moves;
//! - **search**: milliseconds of analysis and computer moves, charged when
//!   a search is asked for at the most it may take, `--rate-search` per
//!   second, bursts of ten times that (ten seconds of search at the
//!   default).
//! - **pictures**: renders of pictures and cards the view cache does not
//!   hold, in units of a 512 × 512 PNG (an SVG is one, a PNG one per
//!   512 × 512 pixels begun), `--rate-pictures` per second, bursts of four
//!   times that: varying a picture's options defeats the cache, and a
//!   large PNG costs tens of milliseconds of CPU.
//!
//! A WebSocket's `auth` counts as a write, as do its other commands: each
//! looks its token up in the database.
//!
//! A refusal is `429 rate-limited` with `Retry-After` and the IETF draft's
//! `RateLimit-Policy` and `RateLimit` headers. The client is the peer
//! address, unless the peer is one of `--trusted-proxies`: then it is the
//! last address of `X-Forwarded-For` that is not a trusted proxy. A
//! forwarding header from anyone else is ignored. `0` turns a limit off.

use std::future::{ready, Ready};
use std::marker::PhantomData;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::problem::{ApiError, Problem, ProblemKind};
use crate::wire::problem::{Members, RateMembers};

type Limiter =
    RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock, StateInformationMiddleware>;

/// One limit: its name in the headers, its limiter, and its window as the
/// headers state it.
struct Bucket {
    name: &'static str,
    /// What one unit is, for a refusal's sentence.
    unit: &'static str,
    limiter: Limiter,
    /// The quota as `RateLimit-Policy` states it: `q` units per `w` seconds.
    quota: u32,
    window: u64,
}

impl Bucket {
    fn new(name: &'static str, unit: &'static str, quota: Quota, per: u32, window: u64) -> Bucket {
        Bucket {
            name,
            unit,
            limiter: RateLimiter::keyed(quota).with_middleware::<StateInformationMiddleware>(),
            quota: per,
            window,
        }
    }
}

/// The service's limits.
pub struct Limits {
    creates: Option<Bucket>,
    writes: Option<Bucket>,
    actions: Option<Bucket>,
    search: Option<Bucket>,
    pictures: Option<Bucket>,
    trusted: Vec<IpAddr>,
}

/// Which limit a request counts against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// New matches, forks, seeks, takes.
    Creates,
    /// Other match writes.
    Writes,
    /// Actions of play batches.
    Actions,
    /// Milliseconds of search.
    Search,
    /// Picture renders, in 512 × 512 PNG units.
    Pictures,
}

impl Limits {
    /// Limits of `creates` per minute, `writes`, `actions`, `search`
    /// milliseconds and `pictures` per second (0: no limit), trusting
    /// `X-Forwarded-For` from `trusted` peers.
    pub fn new(
        creates: u32,
        writes: u32,
        actions: u32,
        search: u32,
        pictures: u32,
        trusted: Vec<IpAddr>,
    ) -> Limits {
        let per_minute = |n: NonZeroU32| Quota::per_minute(n).allow_burst(n);
        let per_second = |n: NonZeroU32, burst: u32| {
            Quota::per_second(n).allow_burst(NonZeroU32::new(burst).unwrap_or(n))
        };
        Limits {
            creates: NonZeroU32::new(creates)
                .map(|n| Bucket::new("creates", "creates", per_minute(n), creates, 60)),
            writes: NonZeroU32::new(writes).map(|n| {
                Bucket::new(
                    "writes",
                    "writes",
                    per_second(n, writes.saturating_mul(2)),
                    writes,
                    1,
                )
            }),
            actions: NonZeroU32::new(actions).map(|n| {
                Bucket::new(
                    "actions",
                    "actions",
                    per_second(n, actions.saturating_mul(10)),
                    actions,
                    1,
                )
            }),
            search: NonZeroU32::new(search).map(|n| {
                Bucket::new(
                    "search",
                    "milliseconds of search",
                    per_second(n, search.saturating_mul(10)),
                    search,
                    1,
                )
            }),
            pictures: NonZeroU32::new(pictures).map(|n| {
                Bucket::new(
                    "pictures",
                    "picture units",
                    per_second(n, pictures.saturating_mul(4)),
                    pictures,
                    1,
                )
            }),
            trusted,
        }
    }

    /// No limits at all.
    pub fn off() -> Limits {
        Limits::new(0, 0, 0, 0, 0, Vec::new())
    }

    fn bucket(&self, class: Class) -> Option<&Bucket> {
        match class {
            Class::Creates => self.creates.as_ref(),
            Class::Writes => self.writes.as_ref(),
            Class::Actions => self.actions.as_ref(),
            Class::Search => self.search.as_ref(),
            Class::Pictures => self.pictures.as_ref(),
        }
    }

    /// The client a request comes from (see the module docs).
    pub fn client(&self, req: &HttpRequest) -> Option<IpAddr> {
        let peer = req.peer_addr()?.ip();
        if !self.trusted.contains(&peer) {
            return Some(peer);
        }
        let forwarded: Vec<IpAddr> = req
            .headers()
            .get_all("x-forwarded-for")
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|a| a.trim().parse::<IpAddr>())
            .collect::<Result<_, _>>()
            // A list that does not parse is not trusted in part.
            .unwrap_or_default();
        Some(
            forwarded
                .into_iter()
                .rev()
                .find(|a| !self.trusted.contains(a))
                .unwrap_or(peer),
        )
    }

    /// Counts `cost` units of `class` against the request's client.
    ///
    /// # Errors
    ///
    /// `429 rate-limited` when the client's budget is spent, with the wait
    /// in `Retry-After`.
    pub fn charge(&self, req: &HttpRequest, class: Class, cost: usize) -> Result<(), ApiError> {
        self.charge_client(self.client(req), class, cost)
    }

    /// [`Limits::charge`] for a client read earlier (a WebSocket's, at its
    /// handshake).
    ///
    /// # Errors
    ///
    /// `429 rate-limited`.
    pub fn charge_client(
        &self,
        client: Option<IpAddr>,
        class: Class,
        cost: usize,
    ) -> Result<(), ApiError> {
        let (Some(bucket), Some(client)) = (self.bucket(class), client) else {
            return Ok(());
        };
        let Some(cost) = NonZeroU32::new(u32::try_from(cost).unwrap_or(u32::MAX)) else {
            return Ok(());
        };
        let wait = match bucket.limiter.check_key_n(&client, cost) {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(not_until)) => not_until.wait_time_from(DefaultClock::default().now()),
            // More than the burst: it can never pass at once.
            Err(_) => Duration::from_secs(bucket.window),
        };
        Err(refusal(bucket, cost.get(), wait))
    }

    /// Forgets clients whose budget is whole again (called every minute,
    /// so the tables do not grow with every address ever seen).
    pub fn forget_idle(&self) {
        for bucket in [
            &self.creates,
            &self.writes,
            &self.actions,
            &self.search,
            &self.pictures,
        ]
        .into_iter()
        .flatten()
        {
            bucket.limiter.retain_recent();
        }
    }
}

/// The 429 problem for a spent budget.
fn refusal(bucket: &Bucket, cost: u32, wait: Duration) -> ApiError {
    crate::metrics::metrics().limited(bucket.name);
    let seconds = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
    let what = match (cost, bucket.name) {
        (1, _) => "this request".to_owned(),
        (_, "pictures") => format!("this picture, {cost} units,"),
        _ => format!("these {cost} {}", bucket.unit),
    };
    Problem::with(
        ProblemKind::RateLimited,
        format!(
            "too many {name} from this address: the limit is {q} per {w} s; \
             {what} can be sent in {seconds} s",
            name = bucket.name,
            q = bucket.quota,
            w = bucket.window,
        ),
        Members::Rate(RateMembers {
            budget: bucket.name,
            quota: bucket.quota,
            window: bucket.window,
            retry_after: seconds,
        }),
    )
    .into()
}

/// The limit an extractor charges one unit of.
pub trait Counted {
    /// Which.
    const CLASS: Class;
}

/// Creates count against `creates`.
pub struct Creates;

impl Counted for Creates {
    const CLASS: Class = Class::Creates;
}

/// Writes count against `writes`.
pub struct Writes;

impl Counted for Writes {
    const CLASS: Class = Class::Writes;
}

/// An extractor that admits the request after charging one unit of `C`
/// to its client, or refuses it with `429`.
pub struct Admitted<C>(PhantomData<C>);

impl<C: Counted> FromRequest for Admitted<C> {
    type Error = ApiError;
    type Future = Ready<Result<Admitted<C>, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match req.app_data::<web::Data<Limits>>() {
            Some(limits) => limits
                .charge(req, C::CLASS, 1)
                .map(|()| Admitted(PhantomData)),
            None => Ok(Admitted(PhantomData)),
        })
    }
}

/// Charges a picture render of `cost` units to the request's client.
///
/// # Errors
///
/// `429 rate-limited`.
pub fn charge_picture(req: &HttpRequest, cost: usize) -> Result<(), ApiError> {
    match req.app_data::<web::Data<Limits>>() {
        Some(limits) => limits.charge(req, Class::Pictures, cost),
        None => Ok(()),
    }
}

/// Charges a batch of `cost` actions to the request's client.
///
/// # Errors
///
/// `429 rate-limited`.
pub fn charge_actions(req: &HttpRequest, cost: usize) -> Result<(), ApiError> {
    match req.app_data::<web::Data<Limits>>() {
        Some(limits) => limits.charge(req, Class::Actions, cost),
        None => Ok(()),
    }
}

/// Charges `ms` milliseconds of search to the request's client.
///
/// # Errors
///
/// `429 rate-limited` with the `search` budget.
pub fn charge_search(req: &HttpRequest, ms: u64) -> Result<(), ApiError> {
    match req.app_data::<web::Data<Limits>>() {
        Some(limits) => limits.charge(
            req,
            Class::Search,
            usize::try_from(ms).unwrap_or(usize::MAX),
        ),
        None => Ok(()),
    }
}
