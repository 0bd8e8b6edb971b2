//! Which host names the server answers to: a defence against DNS rebinding.
//!
//! A page of `http://evil.example:8080` whose name the attacker points at this server's address
//! is, to the browser, of the same origin as the `Host` it sends (`evil.example:8080`), so the
//! WebSocket's origin check alone (see [`super::origin`]) would let it open sockets and create
//! rooms from its visitors' browsers. A request naming a host the server does not answer to is
//! refused with 421 Misdirected Request, before any route.
//!
//! The names come from `--host` (`LUDO_HOSTS`). Without it, a server listening on a loopback
//! address answers to the loopback names only (`localhost`, `127.0.0.1`, `[::1]`), the case
//! rebinding attacks aim at; one listening on another address answers to any name, as it must
//! when nobody told it its own (set `--host` on a public server). A request without `Host` (an
//! HTTP/1.0 health check) is not a browser's and passes.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::HttpError;

/// The host names answered to, lower case, without ports; `None` for any.
#[derive(Clone, Debug)]
pub struct Hosts(Option<Arc<[String]>>);

impl Hosts {
    /// The names given (any port), or, if none, those a server listening on `listening` answers
    /// to by default.
    pub fn new(given: &[String], listening: std::net::IpAddr) -> Hosts {
        let given: Vec<String> = given
            .iter()
            .map(|name| name_only(name.trim()).to_ascii_lowercase())
            .filter(|name| !name.is_empty())
            .collect();
        if !given.is_empty() {
            return Hosts(Some(given.into()));
        }
        if listening.is_loopback() {
            let loopback = ["localhost", "127.0.0.1", "[::1]"].map(str::to_owned);
            return Hosts(Some(loopback.to_vec().into()));
        }
        Hosts(None)
    }

    /// Whether a request naming `host` (a `Host` header's value) is answered.
    pub fn answers(&self, host: &str) -> bool {
        let Some(names) = &self.0 else {
            return true;
        };
        let name = name_only(host.trim());
        names.iter().any(|known| known.eq_ignore_ascii_case(name))
    }
}

/// A host without its port: `localhost:8080` → `localhost`, `[::1]:8080` → `[::1]`.
fn name_only(host: &str) -> &str {
    match host.rfind(':') {
        Some(colon) if !host[colon..].contains(']') => &host[..colon],
        _ => host,
    }
}

/// Refuses, with 421, a request whose `Host` names a host the server does not answer to.
pub async fn only_known_hosts(
    State(hosts): State<Hosts>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|value| value.to_str().unwrap_or(""));
    match host {
        Some(host) if !hosts.answers(host) => HttpError::Plain(
            StatusCode::MISDIRECTED_REQUEST,
            "this server does not answer to that host name",
        )
        .into_response(),
        _ => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loopback_server_answers_to_loopback_names_only_unless_told_its_names() {
        let loopback = Hosts::new(&[], [127, 0, 0, 1].into());
        for host in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "LOCALHOST",
            "localhost",
        ] {
            assert!(loopback.answers(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.2:8080",
            "localhost.evil:80",
        ] {
            assert!(!loopback.answers(host), "{host}");
        }
        let named = Hosts::new(&["Ludo.Example".to_owned()], [127, 0, 0, 1].into());
        assert!(named.answers("ludo.example:443"));
        assert!(!named.answers("localhost:8080"));
        let public = Hosts::new(&[], [0, 0, 0, 0].into());
        assert!(public.answers("anything.example"));
    }
}
