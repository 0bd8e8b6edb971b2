//! `ludo-load`: drives rooms of four bot clients over real WebSockets against a running Ludo
//! server, as fast as the server answers, then checks every game's stored record against what
//! the clients saw; or holds many idle connections. Reports actions/s, latency percentiles and
//! the server's memory.

mod client;
mod http;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use clap::Parser;
use client::{Client, SeatPlan, Stats, play_seat};
use serde_json::{Value, json};

/// Load for a running Ludo server.
#[derive(Parser)]
#[command(name = "ludo-load", version, about)]
struct Args {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    server: SocketAddr,
    /// Rooms of four bot clients each.
    #[arg(long, default_value_t = 50)]
    rooms: usize,
    /// Seconds of play.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Instead of playing: hold this many idle connections (each has said hello).
    #[arg(long)]
    idle: Option<usize>,
    /// The server's process id, to report its memory.
    #[arg(long)]
    pid: Option<u32>,
}

/// The server's resident memory in MiB, from `/proc/<pid>/status`.
fn server_memory(pid: Option<u32>) -> String {
    let Some(pid) = pid else {
        return "unknown (pass --pid)".to_owned();
    };
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        })
        .map_or_else(
            || "unknown".to_owned(),
            |kb| format!("{:.1} MiB", kb / 1024.0),
        )
}

async fn create_room(addr: SocketAddr, device: &str) -> Result<String, String> {
    let body = json!({"device": device, "name": "Load"}).to_string();
    let (status, text) = http::request(addr, "POST", "/api/rooms", Some(&body))
        .await
        .map_err(|e| format!("creating a room: {e}"))?;
    if status != 201 {
        return Err(format!("creating a room: {status} {text}"));
    }
    let room: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    Ok(room["code"].as_str().unwrap_or_default().to_owned())
}

/// One room: four clients sit, the host starts, they play until `until`.
async fn room(
    addr: SocketAddr,
    index: usize,
    until: Instant,
    stats: Arc<Stats>,
) -> Result<HashMap<String, Value>, String> {
    const COLOURS: [&str; 4] = ["yellow", "blue", "red", "green"];
    let devices: Vec<String> = (0..4)
        .map(|s| format!("load-device-{index:05}-{s}"))
        .collect();
    let code = create_room(addr, &devices[0]).await?;
    let mut clients = Vec::new();
    for (seat, device) in devices.iter().enumerate() {
        let mut client = Client::join(addr, &code, device, &format!("Bot {seat}")).await?;
        client
            .send(json!({"t": "sit", "colour": COLOURS[seat]}))
            .await?;
        let colour = COLOURS[seat];
        client
            .until(|m| m["t"] == "room" && !m["room"]["seats"][colour].is_null())
            .await?;
        clients.push(client);
    }
    clients[0].send(json!({"t": "start"})).await?;
    let mut seats = Vec::new();
    for (seat, client) in clients.into_iter().enumerate() {
        let plan = SeatPlan {
            colour: COLOURS[seat],
            until,
        };
        seats.push(tokio::spawn(play_seat(client, plan, stats.clone())));
    }
    let mut seen = HashMap::new();
    for seat in seats {
        let last = seat.await.map_err(|e| e.to_string())??;
        // Keep the furthest position any of its clients saw of each game.
        for (id, (version, position)) in last {
            let furthest = seen.entry(id).or_insert((version, position.clone()));
            if version > furthest.0 {
                *furthest = (version, position);
            }
        }
    }
    Ok(seen
        .into_iter()
        .map(|(id, (_, position))| (id, position))
        .collect())
}

/// Every game's stored record replays to the last position its clients saw.
async fn check_records(addr: SocketAddr, games: &HashMap<String, Value>) -> (usize, Vec<String>) {
    let mut problems = Vec::new();
    for (id, seen) in games {
        let result = async {
            let (status, body) = http::request(addr, "GET", &format!("/api/games/{id}"), None)
                .await
                .map_err(|e| e.to_string())?;
            if status != 200 {
                return Err(format!("{status} {body}"));
            }
            let record: ludo_fair::Record =
                serde_json::from_str(&body).map_err(|e| e.to_string())?;
            let end = if record.seed.is_some() {
                record.verify()
            } else {
                record.replay()
            }
            .map_err(|e| e.to_string())?;
            let stored = serde_json::to_value(end.to_setup()).map_err(|e| e.to_string())?;
            if &stored == seen {
                Ok(())
            } else {
                Err("the stored record ends elsewhere than the clients saw".to_owned())
            }
        }
        .await;
        if let Err(e) = result {
            problems.push(format!("game {id}: {e}"));
        }
    }
    (games.len(), problems)
}

fn percentile(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    f64::from(sorted[((sorted.len() - 1) as f64 * q).round() as usize]) / 1000.0
}

async fn play(args: &Args) -> Result<bool, String> {
    let stats = Arc::new(Stats::default());
    let began = Instant::now();
    let until = began + Duration::from_secs(args.seconds);
    let rooms: Vec<_> = (0..args.rooms)
        .map(|i| tokio::spawn(room(args.server, i, until, stats.clone())))
        .collect();
    let mut games = HashMap::new();
    let mut failures = Vec::new();
    for r in rooms {
        match r.await.map_err(|e| e.to_string()).and_then(|r| r) {
            Ok(seen) => games.extend(seen),
            Err(e) => failures.push(e),
        }
    }
    let played = Duration::from_secs(args.seconds).as_secs_f64();
    let memory = server_memory(args.pid);
    let actions = stats.actions.load(Ordering::Relaxed);
    let mut latencies = std::mem::take(&mut *stats.latencies.lock().expect("not poisoned"));
    latencies.sort_unstable();
    let (checked, problems) = check_records(args.server, &games).await;
    println!("rooms: {} of 4 bot clients, {} s", args.rooms, args.seconds);
    println!(
        "actions: {actions} ({:.0} actions/s)",
        actions as f64 / played
    );
    println!(
        "latency, action sent to its broadcast received: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    println!("refusals: {}", stats.refusals.load(Ordering::Relaxed));
    println!("server memory: {memory}");
    println!(
        "records: {checked} games checked, {} replay to what the clients saw",
        checked - problems.len()
    );
    for p in problems.iter().chain(&failures).take(10) {
        println!("problem: {p}");
    }
    Ok(problems.is_empty() && failures.is_empty())
}

/// Holds `count` idle connections, four to a room as at real tables, each having said hello.
async fn idle(args: &Args, count: usize) -> Result<bool, String> {
    let before = server_memory(args.pid);
    let began = Instant::now();
    let mut clients = Vec::with_capacity(count);
    let mut code = String::new();
    for i in 0..count {
        let device = format!("load-idle-device-{i:06}");
        if i % 4 == 0 {
            code = create_room(args.server, &device).await?;
        }
        clients.push(Client::join(args.server, &code, &device, "Player").await?);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!(
        "idle connections: {count} open in {:.1} s (four to a room, each said hello)",
        began.elapsed().as_secs_f64()
    );
    println!(
        "server memory: {before} before, {} with them open",
        server_memory(args.pid)
    );
    for client in clients {
        client.close().await;
    }
    Ok(true)
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let outcome = match args.idle {
        Some(count) => idle(&args, count).await,
        None => play(&args).await,
    };
    match outcome {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::from(1),
        Err(e) => {
            eprintln!("ludo-load: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
