//! The network address a request comes from, for the per-address limits: the connection's own
//! address, or, when the connection comes from a trusted proxy (a load balancer in front of the
//! server, `--trusted-proxy`), the address that proxy put last in `X-Forwarded-For`. Nobody
//! else's `X-Forwarded-For` is believed: any client can send one.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::AppState;

/// The address a request comes from (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
        Ok(ClientAddress(address_of(
            peer,
            &parts.headers,
            &state.trusted_proxies,
        )))
    }
}

/// `peer`, or the last address in `X-Forwarded-For` if `peer` is one of `trusted`.
pub fn address_of(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back()
        .and_then(|last| last.trim().parse().ok())
        .unwrap_or(peer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append("x-forwarded-for", v.parse().unwrap());
        }
        headers
    }

    #[test]
    fn a_trusted_proxy_names_the_client_in_the_last_forwarded_address() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let headers = forwarded(&["1.2.3.4, 5.6.7.8", "9.9.9.9"]);
        assert_eq!(
            address_of(proxy, &headers, &[proxy]),
            "9.9.9.9".parse::<IpAddr>().unwrap()
        );
        let headers = forwarded(&["1.2.3.4, 5.6.7.8"]);
        assert_eq!(
            address_of(proxy, &headers, &[proxy]),
            "5.6.7.8".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn anyone_else_is_their_own_address_whatever_they_forward() {
        let client: IpAddr = "1.2.3.4".parse().unwrap();
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let headers = forwarded(&["7.7.7.7"]);
        assert_eq!(address_of(client, &headers, &[proxy]), client);
        // A trusted proxy that forwards nothing readable is taken as the client.
        assert_eq!(
            address_of(proxy, &forwarded(&["nonsense"]), &[proxy]),
            proxy
        );
        assert_eq!(address_of(proxy, &HeaderMap::new(), &[proxy]), proxy);
    }
}
