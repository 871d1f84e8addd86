//! Which `Host` the service answers for. Share URLs are built from the
//! configured public URL or, without one, from the request's `Host`; so
//! that a forged `Host` can never be copied into a URL (and from there into
//! a cached, immutable answer), a request naming a host the service was
//! not told about is refused with `421 unknown-host` before it is routed.
//! `/healthz` answers whatever the `Host` (load balancers probe by address).

use actix_web::dev::ServiceRequest;
use actix_web::http::header;
use actix_web::HttpResponse;

use crate::problem::{Problem, ProblemKind};

/// The hosts requests may name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostPolicy {
    /// A public URL is configured: every URL is built from it, so any
    /// `Host` is harmless.
    Fixed,
    /// Any host (`--allowed-hosts '*'`).
    Any,
    /// Only these host names (lower case, without port).
    Only(Vec<String>),
}

impl HostPolicy {
    /// The policy for a public URL (if set) and an allow-list.
    pub fn new(public_url: Option<&str>, allowed: &[String]) -> HostPolicy {
        if public_url.is_some() {
            return HostPolicy::Fixed;
        }
        if allowed.iter().any(|h| h.trim() == "*") {
            return HostPolicy::Any;
        }
        HostPolicy::Only(
            allowed
                .iter()
                .map(|h| String::from_utf8_lossy(normalise(h.trim().as_bytes())).into_owned())
                .filter(|h| !h.is_empty())
                .collect(),
        )
    }

    /// Whether a request naming `host` (a `Host` header's value) is
    /// answered. A request without one (HTTP/1.0) is: its URLs are built
    /// from the service's own address.
    pub fn allows(&self, host: Option<&str>) -> bool {
        self.allows_bytes(host.map(str::as_bytes))
    }

    /// [`HostPolicy::allows`] for a header's bytes, whatever they are.
    pub fn allows_bytes(&self, host: Option<&[u8]>) -> bool {
        match (self, host) {
            (HostPolicy::Fixed | HostPolicy::Any, _) | (HostPolicy::Only(_), None) => true,
            (HostPolicy::Only(names), Some(host)) => {
                let name = normalise(host);
                names
                    .iter()
                    .any(|n| n.as_bytes().eq_ignore_ascii_case(name))
            }
        }
    }
}

/// The host name of a `Host` value: without its port, without a final dot
/// (read as bytes: a name that is not ASCII matches no allowed name).
fn normalise(host: &[u8]) -> &[u8] {
    let name = if host.first() == Some(&b'[') {
        // An IPv6 literal: `[::1]:8080`.
        host.iter()
            .position(|&b| b == b']')
            .map_or(host, |end| &host[..=end])
    } else {
        match host.iter().rposition(|&b| b == b':') {
            Some(colon) if host[colon + 1..].iter().all(u8::is_ascii_digit) => &host[..colon],
            _ => host,
        }
    };
    name.strip_suffix(b".").unwrap_or(name)
}

/// The answer to a request naming a host the policy does not allow;
/// `None` for every other request.
pub fn refusal(policy: &HostPolicy, req: &ServiceRequest) -> Option<HttpResponse> {
    if matches!(policy, HostPolicy::Fixed | HostPolicy::Any) || req.path() == "/healthz" {
        return None;
    }
    let host = req.headers().get(header::HOST);
    let allowed = policy.allows_bytes(host.map(|v| v.as_bytes()));
    if allowed {
        return None;
    }
    let names = match policy {
        HostPolicy::Only(names) => names.join(", "),
        _ => String::new(),
    };
    let host = host.map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let problem = Problem::new(
        ProblemKind::UnknownHost,
        format!(
            "Host {:?} is not one this service answers for; it answers for: {names}. \
             Its operator sets --public-url, or lists the host in --allowed-hosts",
            host.unwrap_or_default()
        ),
    );
    Some(problem.response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(names: &[&str]) -> HostPolicy {
        let names: Vec<String> = names.iter().map(|s| (*s).to_owned()).collect();
        HostPolicy::new(None, &names)
    }

    #[test]
    fn ports_case_and_final_dots_do_not_matter() {
        let p = only(&["localhost", "127.0.0.1", "[::1]", "Qipan.Example"]);
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST:1",
            "127.0.0.1:9",
            "[::1]:8080",
            "[::1]",
            "qipan.example.",
            "qipan.example:443",
        ] {
            assert!(p.allows(Some(host)), "{host}");
        }
        for host in [
            "evil.example",
            "localhost.evil",
            "127.0.0.2",
            "[::2]:1",
            "",
            ":8080",
        ] {
            assert!(!p.allows(Some(host)), "{host}");
        }
        assert!(p.allows(None), "HTTP/1.0 without Host");
    }

    #[test]
    fn a_public_url_or_a_star_allows_every_host() {
        assert_eq!(
            HostPolicy::new(Some("https://q.example"), &["localhost".to_owned()]),
            HostPolicy::Fixed
        );
        assert_eq!(only(&["a", "*"]), HostPolicy::Any);
        assert!(only(&["*"]).allows(Some("anything:1")));
    }
}
