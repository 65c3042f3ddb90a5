//! The lobby (HTTP + JSON): the shipped scenarios, making a game with its seats, a game's public
//! face, the games a person's tokens open, and the door to a game's live stream.

use crate::catalog::Entry;
use crate::hub::{CreateRequest, Created, Hub, LobbyError};
use crate::protocol::{SeatInfo, Status};
use crate::seats;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The largest request body, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Most tokens one "my games" question may hold.
pub const MAX_TOKENS: usize = 64;

pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/api/scenarios", get(scenarios))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(game))
        .route("/api/my-games", post(my_games))
        .route("/api/games/{id}/live", get(crate::live::upgrade))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub)
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

/// A game as anyone may know it.
#[derive(Serialize, Deserialize)]
pub struct GameInfo {
    pub game: String,
    pub kind: String,
    pub scenario: String,
    pub seed_commit: String,
    pub seats: Vec<serde_json::Value>,
    pub status: serde_json::Value,
}

fn info(game: &str, state: &crate::room::RoomState) -> GameInfo {
    let seats: Vec<SeatInfo> = state.seats.iter().map(crate::room::SeatState::info).collect();
    let status: Status = state.status();
    GameInfo {
        game: game.to_string(),
        kind: state.rec.kind.clone(),
        scenario: state.rec.scenario.clone(),
        seed_commit: state.rec.seed_commit.clone(),
        seats: seats.iter().filter_map(|s| serde_json::to_value(s).ok()).collect(),
        status: serde_json::to_value(status).unwrap_or_default(),
    }
}

async fn game(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Json<GameInfo>, LobbyError> {
    let room = hub.room(&id).await.ok_or(LobbyError::NoGame)?;
    let state = room.state.lock().await;
    Ok(Json(info(&id, &state)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MyGamesRequest {
    tokens: Vec<String>,
}

/// A seat a token opens.
#[derive(Serialize, Deserialize)]
pub struct MySeat {
    pub game: String,
    pub seat: u32,
    pub name: String,
    pub kind: String,
    pub scenario: String,
}

async fn my_games(State(hub): State<Arc<Hub>>, Json(req): Json<MyGamesRequest>) -> Response {
    if req.tokens.len() > MAX_TOKENS {
        let e = Failure { error: format!("at most {MAX_TOKENS} tokens") };
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(e)).into_response();
    }
    let mut out = Vec::new();
    for room in hub.rooms().await {
        let state = room.state.lock().await;
        let hashes: Vec<&str> = state.seats.iter().map(|s| s.rec.token_hash.as_str()).collect();
        for token in &req.tokens {
            if let Some(i) = seats::find_seat(token, &hashes) {
                out.push(MySeat {
                    game: room.id.clone(),
                    seat: state.seats[i].info().seat,
                    name: state.seats[i].rec.name.clone(),
                    kind: state.rec.kind.clone(),
                    scenario: state.rec.scenario.clone(),
                });
            }
        }
    }
    Json(out).into_response()
}
