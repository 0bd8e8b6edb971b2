//! The web client's files, built into the binary (see `build.rs`): the home page, the same page
//! for an invitation link, the scripts, and the engine in WebAssembly. Sent gzipped to browsers
//! that accept it.

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::AppState;

/// The files built in by `build.rs`.
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// The page routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move { asset("/index.html", &headers) }),
        )
        .route("/r/{code}", get(home_page))
        .route("/ranked", get(home_page))
        .route("/leaderboard", get(home_page))
        .route("/leaderboard/{rules}", get(home_page))
        .route("/players/{id}", get(home_page))
        .route("/games/{id}", get(home_page))
        .route("/replay", get(home_page))
        .fallback(get(|uri: Uri, headers: HeaderMap| async move {
            asset(uri.path(), &headers)
        }))
}

/// The page every client route starts from; the script reads the path.
async fn home_page(headers: HeaderMap) -> Response {
    asset("/index.html", &headers)
}

/// One built-in file, gzipped when the browser accepts it; 404 for anything else.
fn asset(path: &str, headers: &HeaderMap) -> Response {
    let Some(&(_, content_type, raw, gzipped)) =
        generated::ASSETS.iter().find(|(p, ..)| *p == path)
    else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let accepts_gzip = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("gzip"));
    let mut response = if accepts_gzip {
        let mut r = gzipped.into_response();
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        r
    } else {
        raw.into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}
