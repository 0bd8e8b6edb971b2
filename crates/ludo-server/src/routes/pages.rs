//! The web client's files, built into the binary (see `build.rs`): the home page, the same page
//! for an invitation link, the scripts, and the engine in WebAssembly. Sent compressed with
//! Brotli to browsers that accept it, else gzipped, else as they are.
//!
//! Every file carries an `ETag` (a hash of its bytes, and the compression it is sent with) and
//! `Cache-Control: no-cache`: a browser asks each time, and a copy that is still current costs a
//! `304 Not Modified` without a body.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::error::HttpError;
use crate::AppState;
use crate::content_type::content_type;

/// The files built in by `build.rs`.
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// The `Link` headers that preload what a page draws with, worked out by `build.rs` from the
/// scripts (see `preloads.rs`).
mod links {
    include!(concat!(env!("OUT_DIR"), "/links.rs"));
}

/// The page routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home_page))
        .route("/r/{code}", get(room_page))
        .route("/ranked", get(drawn_with_the_engine))
        .route("/leaderboard", get(drawn_with_the_engine))
        .route("/leaderboard/{rules}", get(drawn_with_the_engine))
        .route("/players/{id}", get(drawn_with_the_engine))
        .route("/games/{id}", get(drawn_with_the_engine))
        .route("/replay", get(drawn_with_the_engine))
        .route("/rules/{preset}", get(rules_page))
        .fallback(get(
            |State(state): State<AppState>, uri: Uri, headers: HeaderMap| async move {
                file(&state, uri.path(), &headers)
            },
        ))
}

/// The page every client route starts from; the script reads the path. The home screen is shown
/// before the engine is loaded, which the page asks for once it has been drawn.
async fn home_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    file(&state, "/index.html", &headers)
}

/// The page, for an address it draws with the engine (a room, the records): told to load the
/// engine at once, beside its scripts.
async fn drawn_with_the_engine(State(state): State<AppState>, headers: HeaderMap) -> Response {
    with_link(
        file(&state, "/index.html", &headers),
        links::DRAWN_WITH_THE_ENGINE,
    )
}

/// A room's page, told to load the modules that draw a room at once. The engine is asked for by
/// the page once the lobby is drawn, or at once when the room shows a game.
async fn room_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    with_link(file(&state, "/index.html", &headers), links::ROOM_PAGE)
}

/// `response` with a `Link` header of preloads.
fn with_link(mut response: Response, link: &'static str) -> Response {
    response
        .headers_mut()
        .insert(header::LINK, HeaderValue::from_static(link));
    response
}

/// A preset's rules page: the home page, which draws it, told to load the modules that draw a
/// rules page at once (the engine is asked for once the page is shown); 404 for a preset that
/// does not exist.
async fn rules_page(
    State(state): State<AppState>,
    Path(preset): Path<String>,
    headers: HeaderMap,
) -> Response {
    if preset.parse::<ludo_rules::Preset>().is_err() {
        return HttpError::Plain(StatusCode::NOT_FOUND, "no such rules").into_response();
    }
    with_link(file(&state, "/index.html", &headers), links::RULES_PAGE)
}

/// The file at `path`: from the directory given with `--static-dir` when it holds one by that
/// name, else the built-in copy.
fn file(state: &AppState, path: &str, headers: &HeaderMap) -> Response {
    let mut response = match &state.static_dir {
        Some(dir) => from_disk(dir, path, headers).unwrap_or_else(|| asset(path, headers)),
        None => asset(path, headers),
    };
    // A worker runs under the policy of its own script's answer.
    if super::WORKER_SCRIPTS.contains(&path) {
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(super::CONTENT_SECURITY_POLICY),
        );
    }
    response
}

/// A file read from `dir` as it is now, uncompressed.
fn from_disk(dir: &std::path::Path, path: &str, asked: &HeaderMap) -> Option<Response> {
    let name = path.trim_start_matches('/');
    // A file of the directory or of one of its folders (`game/table.js`), never outside it.
    let plain =
        |part: &str| !part.is_empty() && part != "." && part != ".." && !part.contains('\\');
    if !name.split('/').all(plain) {
        return None;
    }
    let body = std::fs::read(dir.join(name)).ok()?;
    let etag = etag(&hash(&body), None);
    if not_modified(asked, &etag) {
        return Some(unchanged(etag, false));
    }
    let content_type = content_type(name);
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::ETAG, etag);
    Some(response)
}

/// The first 128 bits of the SHA-256 of `bytes`, in hexadecimal.
fn hash(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The hashes of the built-in files, in the order of [`generated::ASSETS`], computed at the
/// first request for one.
fn asset_hashes() -> &'static [String] {
    static HASHES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    HASHES.get_or_init(|| generated::ASSETS.iter().map(|a| hash(a.2)).collect())
}

/// The strong validator of a file's bytes sent with `coding`: each compression is its own
/// representation, so it has its own tag.
fn etag(hash: &str, coding: Option<&str>) -> HeaderValue {
    let tag = match coding {
        Some(coding) => format!("\"{hash}-{coding}\""),
        None => format!("\"{hash}\""),
    };
    HeaderValue::from_str(&tag).expect("hexadecimal and a coding's name are valid in a header")
}

/// Whether `If-None-Match` names `etag` (weakly, as the comparison for it is) or is `*`.
fn not_modified(asked: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    asked
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/").as_bytes() == etag)
}

/// `304 Not Modified`: the browser's copy tagged `etag` is current.
fn unchanged(etag: HeaderValue, varies: bool) -> Response {
    let mut response = StatusCode::NOT_MODIFIED.into_response();
    let headers = response.headers_mut();
    headers.insert(header::ETAG, etag);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if varies {
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

/// Whether the `Accept-Encoding` header lists `coding` (with a weight above zero).
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    let Some(value) = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    value.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let named = parts
            .next()
            .is_some_and(|name| name.eq_ignore_ascii_case(coding));
        // The weight's name is `q` or `Q` (RFC 9110 §12.4.2).
        let refused = parts.any(|p| {
            p.split_once('=')
                .filter(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
                .and_then(|(_, q)| q.trim().parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        named && !refused
    })
}

/// One built-in file, compressed as the browser accepts; 404 for anything else.
fn asset(path: &str, headers: &HeaderMap) -> Response {
    let Some(index) = generated::ASSETS.iter().position(|(p, ..)| *p == path) else {
        return HttpError::Plain(StatusCode::NOT_FOUND, "not found").into_response();
    };
    let (_, content_type, raw, gzipped, brotli) = generated::ASSETS[index];
    let (body, coding) = if accepts(headers, "br") {
        (brotli, Some("br"))
    } else if accepts(headers, "gzip") {
        (gzipped, Some("gzip"))
    } else {
        (raw, None)
    };
    let etag = etag(&asset_hashes()[index], coding);
    if not_modified(headers, &etag) {
        return unchanged(etag, true);
    }
    let mut response = body.into_response();
    if let Some(coding) = coding {
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::ETAG, etag);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        headers
    }

    fn coding_sent(value: &str) -> Option<String> {
        let response = asset("/engine.wasm", &asking(value));
        response
            .headers()
            .get(header::CONTENT_ENCODING)
            .map(|v| v.to_str().unwrap().to_owned())
    }

    #[test]
    fn brotli_is_sent_to_browsers_that_accept_it_and_gzip_to_the_others() {
        assert_eq!(
            coding_sent("gzip, deflate, br, zstd").as_deref(),
            Some("br")
        );
        assert_eq!(coding_sent("gzip").as_deref(), Some("gzip"));
        assert_eq!(coding_sent("br;q=0, gzip;q=0.8").as_deref(), Some("gzip"));
        assert_eq!(coding_sent("br;Q=0, gzip;Q=0").as_deref(), None, "Q is q");
        assert_eq!(coding_sent("br ; q = 0 , gzip").as_deref(), Some("gzip"));
        assert_eq!(coding_sent("identity"), None);
        assert_eq!(
            coding_sent("brotli"),
            None,
            "only the token br names Brotli"
        );
    }

    #[test]
    fn every_built_in_file_is_smaller_with_brotli_than_gzip_or_tiny() {
        for &(path, _, raw, gzipped, brotli) in generated::ASSETS {
            assert!(!brotli.is_empty(), "{path}");
            assert!(
                brotli.len() <= gzipped.len() || raw.len() < 512,
                "{path}: {} bytes with Brotli, {} gzipped",
                brotli.len(),
                gzipped.len()
            );
        }
    }
}
