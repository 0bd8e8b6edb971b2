//! Which pages may open a WebSocket: those of the server's own origin, and those listed with
//! `--allowed-origin`.
//!
//! A browser always sends `Origin` with a WebSocket upgrade, and a page cannot change it. The
//! device secret lives in the page's local storage, which another site cannot read, but without
//! this check any site could still open sockets from its visitors' browsers: to watch rooms, or
//! to flood the server from many addresses at once. The server's own origin is the `Host` header's, over http or https (the server
//! does not know whether a proxy in front ends TLS). A request without `Origin` does not come
//! from a browser page (the tests' clients, the load generator, scripts): it is let in, since
//! such a client could send any `Origin` it liked anyway.

use axum::http::{HeaderMap, header};

/// Whether a WebSocket upgrade with these headers may go ahead; `allowed` holds the other
/// origins allowed, lower case, without a trailing slash.
pub fn allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let origin = origin.trim().to_ascii_lowercase();
    if allowed.contains(&origin) {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let host = host.trim().to_ascii_lowercase();
    origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .is_some_and(|rest| !host.is_empty() && rest == host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn asking(origin: Option<&str>, host: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        if let Some(host) = host {
            headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        }
        headers
    }

    #[test]
    fn the_servers_own_origin_is_allowed_over_http_or_https() {
        let none: &[String] = &[];
        assert!(allowed(
            &asking(Some("http://localhost:8080"), Some("localhost:8080")),
            none
        ));
        assert!(allowed(
            &asking(Some("https://Ludo.Example"), Some("ludo.example")),
            none
        ));
        assert!(!allowed(
            &asking(Some("http://localhost:8081"), Some("localhost:8080")),
            none
        ));
        assert!(!allowed(
            &asking(Some("ws://localhost:8080"), Some("localhost:8080")),
            none
        ));
        assert!(!allowed(
            &asking(Some("https://evil.example"), Some("ludo.example")),
            none
        ));
        assert!(!allowed(&asking(Some("null"), Some("ludo.example")), none));
        assert!(!allowed(&asking(Some("https://ludo.example"), None), none));
    }

    #[test]
    fn listed_origins_are_allowed_and_requests_without_origin_too() {
        let listed = ["https://ludo.example".to_owned()];
        assert!(allowed(
            &asking(Some("https://ludo.example"), Some("127.0.0.1:8080")),
            &listed
        ));
        assert!(!allowed(
            &asking(Some("http://ludo.example"), Some("127.0.0.1:8080")),
            &listed
        ));
        assert!(allowed(&asking(None, Some("127.0.0.1:8080")), &listed));
        assert!(allowed(&asking(None, None), &[]));
    }
}
