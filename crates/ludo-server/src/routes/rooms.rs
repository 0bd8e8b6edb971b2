//! The small HTTP API for rooms: create one, look one up, list the public ones.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::error::HttpError;
use crate::AppState;
use crate::protocol::{Refusal, RefusalCode, Settings, check_name, read_rules};

/// The room routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/rooms", post(create))
        .route("/api/rooms/{code}", get(lookup))
        .route("/api/tables/{kind}", get(tables))
}

/// The most bytes a `POST /api/rooms` body may have: a room with every option set and the longest
/// name takes under 1 KiB. A longer body is refused with `too_large` at this many bytes read.
pub const NEW_ROOM_MAX_BYTES: usize = 8 * 1024;

/// The body of `POST /api/rooms`, read straight into its types: the rules are kept as their text
/// until [`Rules::check_json`](ludo_rules::Rules::check_json) reads them, never as a generic
/// JSON tree, and a field given twice is refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRoom {
    device: String,
    name: String,
    #[serde(default)]
    rules: Option<Box<serde_json::value::RawValue>>,
    #[serde(default)]
    clock: Option<u32>,
    #[serde(default)]
    ranked: bool,
    #[serde(default = "yes")]
    rotate: bool,
    #[serde(default)]
    public: bool,
}

const fn yes() -> bool {
    true
}

/// Creates a room. The address's limit is checked before a byte of the body is read, and the
/// body is read up to [`NEW_ROOM_MAX_BYTES`] only.
async fn create(
    State(state): State<AppState>,
    super::client_address::ClientAddress(address): super::client_address::ClientAddress,
    request: axum::extract::Request,
) -> Result<(StatusCode, Json<serde_json::Value>), HttpError> {
    if !state
        .per_address
        .allows(crate::per_address::Ask::Room, address)
    {
        return Err(HttpError::TooMany(Refusal::new(
            RefusalCode::RateLimited,
            "too many rooms created from this address; wait a minute",
        )));
    }
    let room = read_new_room(request).await?;
    let name = check_name(&room.name)
        .map_err(|e| HttpError::BadRequest(Refusal::new(RefusalCode::BadName, e)))?;
    let rules = match &room.rules {
        Some(json) => read_rules(json.get()).map_err(HttpError::BadRequest)?,
        None => Default::default(),
    };
    crate::protocol::check_clock(room.clock).map_err(HttpError::BadRequest)?;
    let host = crate::routes::ws::identify(&state, address, &room.device, &name)
        .await
        .map_err(|e| {
            use crate::routes::ws::IdentifyError;
            let refused = match &e {
                IdentifyError::Store(e) => return HttpError::internal(e),
                IdentifyError::TooMany => HttpError::TooMany,
                IdentifyError::BadDevice(_) => HttpError::BadRequest,
            };
            refused(e.refusal().expect("the client's fault has a refusal"))
        })?;
    let settings = Settings {
        rules,
        clock: crate::protocol::clock_for(room.ranked, room.clock),
        ranked: room.ranked,
        rotate: room.rotate,
        public: room.public,
    };
    settings.check().map_err(HttpError::BadRequest)?;
    let code = state
        .rooms
        .create(host.clone(), name, settings)
        .await
        .map_err(HttpError::internal)?;
    let link = format!("/r/{code}");
    Ok((
        StatusCode::CREATED,
        Json(json!({ "code": code, "link": link, "you": host })),
    ))
}

/// Reads a `POST /api/rooms` body: JSON (by its `Content-Type`) of at most
/// [`NEW_ROOM_MAX_BYTES`], read into a [`NewRoom`].
async fn read_new_room(request: axum::extract::Request) -> Result<NewRoom, HttpError> {
    let bad =
        |message: String| HttpError::BadRequest(Refusal::new(RefusalCode::BadMessage, message));
    let is_json = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(HttpError::NotJson(Refusal::new(
            RefusalCode::BadMessage,
            "Expected request with `Content-Type: application/json`",
        )));
    }
    let body = axum::body::to_bytes(request.into_body(), NEW_ROOM_MAX_BYTES)
        .await
        .map_err(|_| {
            HttpError::TooLarge(Refusal::new(
                RefusalCode::TooLarge,
                format!("a new room's request is at most {NEW_ROOM_MAX_BYTES} bytes"),
            ))
        })?;
    serde_json::from_slice(&body).map_err(|e| bad(e.to_string()))
}

/// How long a lookup waits for a room that is busy (storing a change) before answering 503.
const LOOKUP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// A room's table. An address that tried too many codes naming no room is refused, found or
/// not (see [`crate::per_address`]).
async fn lookup(
    State(state): State<AppState>,
    super::client_address::ClientAddress(address): super::client_address::ClientAddress,
    Path(code): Path<crate::ids::RoomCode>,
) -> Result<Json<crate::protocol::RoomView>, HttpError> {
    let now = std::time::Instant::now();
    if !state.per_address.may_look_up(address, now) {
        return Err(HttpError::TooMany(super::ws::too_many_codes_tried()));
    }
    // A room whose storage is stuck (a frozen disk) answers after its write; the lookup does not
    // wait for it.
    let view = tokio::time::timeout(LOOKUP_TIMEOUT, state.rooms.view(&code))
        .await
        .map_err(|_| {
            HttpError::Busy(Refusal::new(
                RefusalCode::Internal,
                "the room is busy; try again in a moment",
            ))
        })?
        .map_err(HttpError::internal)?;
    let Some(view) = view else {
        state.per_address.missed_code(address, now);
        return Err(HttpError::NotFound(Refusal::new(
            RefusalCode::NoSuchRoom,
            "no such room",
        )));
    };
    Ok(Json(view))
}

/// The query of `GET /api/tables/{kind}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesQuery {
    #[serde(default)]
    page: usize,
}

/// `GET /api/tables/open` (public tables with a free seat) or `GET /api/tables/playing` (public
/// games being played), `?page=N` from 0: `{"tables": [...], "page", "total"}`, newest first,
/// [`crate::room::directory::PAGE_SIZE`] a page.
async fn tables(
    State(state): State<AppState>,
    Path(kind): Path<String>,
    query: Result<axum::extract::Query<TablesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<crate::room::directory::Page>, HttpError> {
    use crate::room::directory::Kind;
    let kind = match kind.as_str() {
        "open" => Kind::Open,
        "playing" => Kind::Playing,
        _ => {
            return Err(HttpError::NotFound(Refusal::new(
                RefusalCode::BadMessage,
                "the lists are /api/tables/open and /api/tables/playing",
            )));
        }
    };
    let axum::extract::Query(query) = query
        .map_err(|e| HttpError::BadRequest(Refusal::new(RefusalCode::BadMessage, e.body_text())))?;
    state
        .rooms
        .tables(kind, query.page)
        .await
        .map(Json)
        .map_err(HttpError::internal)
}
