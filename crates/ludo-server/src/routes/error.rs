//! Every HTTP answer that is not a success, in one type: [`HttpError`]. The API's refusals are
//! JSON, `{"code": …, "message": …}` with `"engine": {"code", "params", "option"}` when the rules
//! engine refused, under the status that says what kind of refusal it is; the addresses a browser
//! opens itself (pages, the WebSocket's handshake) answer in plain text.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::protocol::{Refusal, RefusalCode};

/// An HTTP request refused, or failed.
#[derive(Debug)]
pub enum HttpError {
    /// `400 Bad Request`: the request itself is at fault (with the engine's reason if it has
    /// one).
    BadRequest(Refusal),
    /// `404 Not Found`: what the request names does not exist.
    NotFound(Refusal),
    /// `413 Payload Too Large`: a body over its limit.
    TooLarge(Refusal),
    /// `415 Unsupported Media Type`: a body that is not JSON.
    NotJson(Refusal),
    /// `429 Too Many Requests`: over one of the address's limits.
    TooMany(Refusal),
    /// `503 Service Unavailable`: busy for now; the same request may succeed in a moment.
    Busy(Refusal),
    /// `500 Internal Server Error`: something failed on the server's side (logged when made, see
    /// [`HttpError::internal`]), answered `internal` without details.
    Internal,
    /// An answer in plain text, for the addresses a browser opens itself rather than the API.
    Plain(StatusCode, &'static str),
}

impl HttpError {
    /// A failure on the server's side: logged, answered without details.
    pub fn internal(error: impl std::fmt::Display) -> HttpError {
        tracing::error!(%error, "a request failed");
        HttpError::Internal
    }

    /// The status and, for the API's answers, the refusal.
    fn parts(self) -> Result<(StatusCode, Refusal), (StatusCode, &'static str)> {
        let refused = |status, refusal| Ok((status, refusal));
        match self {
            HttpError::BadRequest(refusal) => refused(StatusCode::BAD_REQUEST, refusal),
            HttpError::NotFound(refusal) => refused(StatusCode::NOT_FOUND, refusal),
            HttpError::TooLarge(refusal) => refused(StatusCode::PAYLOAD_TOO_LARGE, refusal),
            HttpError::NotJson(refusal) => refused(StatusCode::UNSUPPORTED_MEDIA_TYPE, refusal),
            HttpError::TooMany(refusal) => refused(StatusCode::TOO_MANY_REQUESTS, refusal),
            HttpError::Busy(refusal) => refused(StatusCode::SERVICE_UNAVAILABLE, refusal),
            HttpError::Internal => refused(
                StatusCode::INTERNAL_SERVER_ERROR,
                Refusal::new(RefusalCode::Internal, "something went wrong on our side"),
            ),
            HttpError::Plain(status, text) => Err((status, text)),
        }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        match self.parts() {
            Ok((status, refusal)) => {
                let mut body = json!({ "code": refusal.code, "message": refusal.message });
                if let Some(engine) = refusal.engine {
                    body["engine"] = json!(engine);
                }
                (status, Json(body)).into_response()
            }
            Err(plain) => plain.into_response(),
        }
    }
}
