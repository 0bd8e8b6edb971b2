//! The real server on port 0, spoken to over real TCP connections.

use ludo_server::{Application, Config};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Starts the server on a free port; it stops when the test's runtime ends.
async fn spawn_server() -> std::net::SocketAddr {
    let dir = tempfile::tempdir().unwrap();
    let app = Application::build(&Config::for_tests(dir.path().join("ludo.db")))
        .await
        .expect("the server binds a free port");
    let addr = app.local_addr();
    tokio::spawn(app.run_until_stopped(std::future::pending()));
    // The database file lives as long as the test's process.
    std::mem::forget(dir);
    addr
}

/// One HTTP/1.1 GET; the status code and the body.
async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts");
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[tokio::test]
async fn the_health_check_answers_ok() {
    let addr = spawn_server().await;
    assert_eq!(get(addr, "/healthz").await, (200, "ok".to_owned()));
}

#[tokio::test]
async fn the_home_page_is_served_at_the_root() {
    let addr = spawn_server().await;
    let (status, body) = get(addr, "/").await;
    assert_eq!(status, 200);
    assert!(body.contains("<title>Ludo</title>"));
}

#[tokio::test]
async fn the_rules_api_lists_every_preset_with_its_options() {
    let addr = spawn_server().await;
    let (status, body) = get(addr, "/api/rules").await;
    assert_eq!(status, 200);
    let rules: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(rules["default"], "qdan");
    let names: Vec<&str> = rules["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["preset"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["qdan", "classic", "vietnamese"]);
    assert_eq!(
        rules["presets"][2]["options"]["exit_values"],
        serde_json::json!([1, 6])
    );
}

#[tokio::test]
async fn an_unknown_path_is_not_found() {
    let addr = spawn_server().await;
    assert_eq!(get(addr, "/no/such/page").await.0, 404);
}
