//! Every route of the server, each module exposing its own `router()`.

mod client_address;
mod error;
mod health;
pub mod host;
mod origin;
pub mod pages;
mod records;
mod rooms;
mod rules;
mod websocket;
mod ws;

use axum::http::{HeaderName, HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::AppState;

/// The page's Content Security Policy: everything from the server itself and nothing else.
/// Scripts are the page's own modules, and may compile WebAssembly (the engine) but never
/// evaluate strings; styles come from `app.css` only (scripts set `element.style`, which a policy
/// does not restrict; no `<style>` element or `style` attribute is used); images are the icon
/// and `data:` addresses; fetches and WebSockets go to the server itself (`'self'` covers `ws:`
/// and `wss:` of the same host in every browser that knows `'wasm-unsafe-eval'`); no other site
/// may frame the page, no `<base>` may move its addresses, forms submit to the server only, and
/// no plug-ins run.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; \
    script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; \
    base-uri 'none'; form-action 'self'; object-src 'none'";

/// The headers every answer carries: no guessing of content types, and no `Referer` sent
/// anywhere (an invitation's address holds its room code, which is enough to join).
pub const SECURITY_HEADERS: [(HeaderName, &str); 2] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
];

/// The page's scripts that run as workers (the service worker, the CPU's worker): a worker is
/// governed by the policy its own script's answer carries, so these carry it.
pub const WORKER_SCRIPTS: [&str; 2] = ["/sw.js", "/engine/cpu-worker.js"];

/// Whether an answer of this content type is one of the page's subresources that a browser never
/// runs as a document nor a worker — a module script, a style sheet, the engine's WebAssembly — to
/// which a Content Security Policy means nothing: every other answer (the page, the API's JSON,
/// errors, worker scripts, which carry it themselves) carries the policy. Leaving it off the
/// thirty-odd modules of a first load saves about 8 KiB of headers.
fn policy_means_nothing(content_type: Option<&HeaderValue>) -> bool {
    let Some(content_type) = content_type.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    ["text/javascript", "text/css", "application/wasm"]
        .iter()
        .any(|kind| content_type.starts_with(kind))
}

/// All routes together.
pub fn router(state: AppState) -> axum::Router {
    axum::Router::new()
        .merge(pages::router())
        .merge(health::router())
        .merge(rules::router())
        .merge(rooms::router())
        .merge(records::router())
        .merge(ws::router())
        .with_state(state)
}

/// `router` with [`SECURITY_HEADERS`] on every answer, and [`CONTENT_SECURITY_POLICY`] on every
/// answer it can mean something to (see `policy_means_nothing`): applied outermost, so that
/// answers made by the layers inside it (a request that timed out, say) carry them too.
pub fn with_security_headers(mut router: axum::Router) -> axum::Router {
    for (name, value) in SECURITY_HEADERS {
        router = router.layer(SetResponseHeaderLayer::overriding(
            name,
            HeaderValue::from_static(value),
        ));
    }
    router.layer(SetResponseHeaderLayer::if_not_present(
        header::CONTENT_SECURITY_POLICY,
        |response: &axum::response::Response| {
            (!policy_means_nothing(response.headers().get(header::CONTENT_TYPE)))
                .then(|| HeaderValue::from_static(CONTENT_SECURITY_POLICY))
        },
    ))
}
