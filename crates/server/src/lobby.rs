//! The lobby (HTTP + JSON): the shipped scenarios, making a game with its seats, a game's public
//! face, the games a person's tokens open, and the door to a game's live stream.

use crate::catalog::Entry;
use crate::hub::{CreateRequest, Created, Hub, LobbyError, Place};
use crate::protocol::{SeatInfo, Status};
use crate::seats;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use std::sync::Arc;
pub use wire::{GameInfo, MyGamesRequest, MySeat};

/// The largest request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Most tokens one "my games" question may hold.
pub const MAX_TOKENS: usize = 64;

pub fn router(hub: Arc<Hub>, web: Option<crate::web::WebRoot>) -> Router {
    let api = Router::new()
        .route("/api/scenarios", get(scenarios))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(game))
        .route("/api/my-games", post(my_games))
        .route("/api/games/{id}/live", get(crate::live::upgrade))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub);
    match web {
        // What no API route takes is the browser build's (GET and HEAD only).
        Some(web) => api.fallback(move |method: axum::http::Method, uri: axum::http::Uri| async move {
            if method == axum::http::Method::GET || method == axum::http::Method::HEAD {
                web.serve(&uri).await
            } else {
                StatusCode::METHOD_NOT_ALLOWED.into_response()
            }
        }),
        None => api,
    }
}

#[derive(Serialize)]
struct Failure {
    error: String,
}

impl IntoResponse for LobbyError {
    fn into_response(self) -> Response {
        let code = match &self {
            LobbyError::NoScenario(_) | LobbyError::NoGame => StatusCode::NOT_FOUND,
            LobbyError::Scenario(_) | LobbyError::Seats(_) | LobbyError::Settings(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            LobbyError::Store(_) | LobbyError::Random(_) => StatusCode::INTERNAL_SERVER_ERROR,
            LobbyError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        (code, Json(Failure { error: self.to_string() })).into_response()
    }
}

async fn scenarios(State(hub): State<Arc<Hub>>) -> Json<Vec<Entry>> {
    Json(hub.catalog.entries.clone())
}

async fn create(State(hub): State<Arc<Hub>>, Json(req): Json<CreateRequest>) -> Result<Json<Created>, LobbyError> {
    hub.create(req).await.map(Json)
}

fn info(game: &str, state: &crate::room::RoomState) -> GameInfo {
    let seats: Vec<SeatInfo> = state.seats.iter().map(crate::room::SeatState::info).collect();
    let status: Status = state.status();
    GameInfo {
        game: game.to_string(),
        kind: state.rec.kind.clone(),
        scenario: state.rec.scenario.clone(),
        seed_commit: state.rec.seed_commit.clone(),
        seats,
        status,
    }
}

async fn game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Response, LobbyError> {
    // A question passed on by another process is answered here or not at all (no loop).
    let forwarded = headers.contains_key(crate::forward::FORWARDED);
    match hub.locate(&id).await? {
        Place::Here(room) => {
            let state = room.state.lock().await;
            Ok(Json(info(&id, &state)).into_response())
        }
        // Another process holds the game: its answer, as it gives it.
        Place::There(addr) => {
            let unavailable = || LobbyError::Unavailable(addr.clone());
            if forwarded {
                return Err(unavailable());
            }
            let owner: std::net::SocketAddr = addr.parse().map_err(|_| unavailable())?;
            let path = format!("/api/games/{id}");
            let (code, body) = crate::client::http_with(owner, "GET", &path, "", &[(crate::forward::FORWARDED, "1")])
                .await
                .map_err(|_| unavailable())?;
            let code = StatusCode::from_u16(code).map_err(|_| unavailable())?;
            Ok((code, Json(body)).into_response())
        }
        Place::NoGame => Err(LobbyError::NoGame),
    }
}

/// The seats the tokens open, in every game of the record (whichever process holds it).
async fn my_games(State(hub): State<Arc<Hub>>, Json(req): Json<MyGamesRequest>) -> Response {
    if req.tokens.len() > MAX_TOKENS {
        let e = Failure { error: format!("at most {MAX_TOKENS} tokens") };
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(e)).into_response();
    }
    let mut out = Vec::new();
    for token in req.tokens.iter().filter(|t| seats::well_formed(t)) {
        match hub.store.seats_of_token(&seats::token_hash(token)).await {
            Ok(found) => out.extend(found.into_iter().map(|s| MySeat {
                game: s.game,
                seat: u32::try_from(s.seat).unwrap_or(u32::MAX),
                name: s.name,
                kind: s.kind,
                scenario: s.scenario,
            })),
            Err(e) => return LobbyError::Store(e).into_response(),
        }
    }
    Json(out).into_response()
}
