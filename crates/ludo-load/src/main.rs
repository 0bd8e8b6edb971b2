//! `ludo-load`: drives rooms of four bot clients over real WebSockets against a running Ludo
//! server, as fast as the server answers, then checks every game's stored record against what
//! the clients saw; or holds many idle connections. Reports actions/s, latency percentiles,
//! reconnections, the server's memory and the CPU an action costs the server and the tool.

mod check;
mod client;
mod cpu;
mod http;
mod message;
mod seen;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use check::Findings;
use clap::Parser;
use client::{Client, SeatPlan, Stats, play_seat};
use message::Outgoing;
use seen::Seen;
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
    /// The server's process id, to report its memory and the CPU it spends an action.
    #[arg(long)]
    pid: Option<u32>,
    /// Reconnect (and say hello again) when a connection is lost, for up to 60 s.
    #[arg(long)]
    reconnect: bool,
    /// After `--seconds`, play each game in progress to its end (no new game is started).
    #[arg(long)]
    finish_games: bool,
    /// Also print every figure as one line of JSON at the end.
    #[arg(long)]
    json: bool,
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

/// How every room plays.
#[derive(Clone, Copy)]
struct RoomPlan {
    addr: SocketAddr,
    /// When time is up.
    until: Instant,
    reconnect: bool,
    finish_games: bool,
}

/// How many times a room is set up in all when its node goes away before its game starts.
const SETUP_ATTEMPTS: u32 = 5;

/// A new room with `people` sat at `colours`, each with their connection. With `--reconnect`,
/// should anything fail before the game starts (the room's node going away in a rolling restart,
/// say), the room is left and another set up, as people would make a new table, after 0.4 s,
/// then 0.8, 1.6 and 3.2: what is measured is the games.
async fn seated(
    plan: &RoomPlan,
    people: &[(String, String)],
    colours: &[&'static str],
) -> Result<(String, Vec<Client>), String> {
    let mut attempt = 1;
    loop {
        match sit_all(plan.addr, people, colours).await {
            Err(_) if plan.reconnect && attempt < SETUP_ATTEMPTS => {
                tokio::time::sleep(std::time::Duration::from_millis(200 << attempt)).await;
                attempt += 1;
            }
            done => return done,
        }
    }
}

/// A new room, and `people` sat in it at `colours`.
async fn sit_all(
    addr: SocketAddr,
    people: &[(String, String)],
    colours: &[&'static str],
) -> Result<(String, Vec<Client>), String> {
    let code = create_room(addr, &people[0].0).await?;
    let mut clients = Vec::new();
    for ((device, name), &colour) in people.iter().zip(colours) {
        let (mut client, _) = Client::join(addr, &code, device, name).await?;
        client.send(&Outgoing::Sit { colour }).await?;
        client
            .until(|m| m["t"] == "room" && !m["room"]["seats"][colour].is_null())
            .await?;
        clients.push(client);
    }
    Ok((code, clients))
}

/// One room: four clients sit, the host starts, they play until `plan.until` (and, with
/// `finish_games`, to the end of the game then in progress); what they saw.
async fn room(plan: RoomPlan, index: usize, stats: Arc<Stats>) -> Result<Seen, String> {
    const COLOURS: [&str; 4] = ["yellow", "blue", "red", "green"];
    // Each seat's device secret and name.
    let people: Vec<(String, String)> = (0..4)
        .map(|s| (format!("load-device-{index:05}-{s}"), format!("Bot {s}")))
        .collect();
    let (code, mut clients) = seated(&plan, &people, &COLOURS).await?;
    clients[0].send(&Outgoing::Start).await?;
    let mut seats = Vec::new();
    for ((seat, client), (device, name)) in clients.into_iter().enumerate().zip(people) {
        let seat_plan = SeatPlan {
            addr: plan.addr,
            room: code.clone(),
            device,
            name,
            colour: COLOURS[seat],
            until: plan.until,
            reconnect: plan.reconnect,
            finish_games: plan.finish_games,
        };
        seats.push(tokio::spawn(play_seat(client, seat_plan, stats.clone())));
    }
    let mut seen = Seen::default();
    for seat in seats {
        seen.merge(seat.await.map_err(|e| e.to_string())??);
    }
    Ok(seen)
}

fn percentile(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    f64::from(sorted[((sorted.len() - 1) as f64 * q).round() as usize]) / 1000.0
}

/// Every figure of a run.
struct Report {
    actions: u64,
    actions_per_s: f64,
    /// Latency percentiles in milliseconds: p50, p99, max.
    latency: [f64; 3],
    refusals: u64,
    reconnections: u64,
    longest_to_welcome_ms: u64,
    longest_to_action_ms: u64,
    /// The median of the outages the seats lived through, to the next action, in milliseconds.
    median_outage_ms: f64,
    findings: Findings,
    /// Microseconds of CPU an action while the bots played: the server's (with `--pid`), and
    /// this tool's.
    cpu_per_action: cpu::PerAction,
}

/// A figure in microseconds, or why there is none.
fn micros(figure: Option<f64>, missing: &str) -> String {
    figure.map_or_else(|| missing.to_owned(), |us| format!("{us:.0} µs"))
}

impl Report {
    fn new(
        args: &Args,
        stats: &Stats,
        findings: Findings,
        cpu_per_action: cpu::PerAction,
    ) -> Report {
        let actions = stats.actions.load(Ordering::Relaxed);
        // Games finished after time is up count their actions over the time they took.
        let mut played = Duration::from_secs(args.seconds);
        if args.finish_games {
            played = played.max(stats.last_action());
        }
        let mut latencies = std::mem::take(&mut *stats.latencies.lock().expect("not poisoned"));
        latencies.sort_unstable();
        let mut outages = std::mem::take(&mut *stats.outages_ms.lock().expect("not poisoned"));
        outages.sort_unstable();
        Report {
            actions,
            actions_per_s: actions as f64 / played.as_secs_f64(),
            latency: [0.5, 0.99, 1.0].map(|q| percentile(&latencies, q)),
            refusals: stats.refusals.load(Ordering::Relaxed),
            reconnections: stats.reconnections.load(Ordering::Relaxed),
            longest_to_welcome_ms: stats.longest_to_welcome_ms.load(Ordering::Relaxed),
            longest_to_action_ms: stats.longest_to_action_ms.load(Ordering::Relaxed),
            // The lower middle one of an even count.
            median_outage_ms: outages
                .get(outages.len().saturating_sub(1) / 2)
                .map_or(0.0, |&ms| ms as f64),
            cpu_per_action,
            findings,
        }
    }

    fn print(&self, args: &Args, memory: &str) {
        let finishing = if args.finish_games {
            ", then each game played to its end"
        } else {
            ""
        };
        println!(
            "rooms: {} of 4 bot clients, {} s{finishing}",
            args.rooms, args.seconds
        );
        println!(
            "actions: {} ({:.0} actions/s)",
            self.actions, self.actions_per_s
        );
        let [p50, p99, max] = self.latency;
        println!(
            "latency, action sent to its broadcast received: p50 {p50:.2} ms, p99 {p99:.2} ms, \
             max {max:.2} ms"
        );
        println!("refusals: {}", self.refusals);
        if self.reconnections == 0 {
            println!("reconnections: 0");
        } else {
            println!(
                "reconnections: {}, longest outage: {} ms to welcome, {} ms to the next action \
                 (median {:.0} ms)",
                self.reconnections,
                self.longest_to_welcome_ms,
                self.longest_to_action_ms,
                self.median_outage_ms
            );
        }
        println!("server memory: {memory}");
        println!(
            "cpu an action: server {}, this tool {}",
            micros(self.cpu_per_action.server, "unknown (pass --pid)"),
            micros(self.cpu_per_action.tool, "unknown")
        );
        let f = &self.findings;
        println!(
            "records: {} games checked, {} replay to what the clients saw, {} finished",
            f.checked, f.matching, f.finished
        );
        println!(
            "actions seen: {} distinct, {} missing, {} doubled",
            f.distinct, f.missing, f.doubled
        );
        for p in f.problems.iter().take(10) {
            println!("problem: {p}");
        }
        if f.problems.len() > 10 {
            println!("problems: {} more", f.problems.len() - 10);
        }
    }

    fn to_json(&self) -> Value {
        let f = &self.findings;
        json!({
            "actions": self.actions,
            "actions_per_s": self.actions_per_s,
            "p50_ms": self.latency[0],
            "p99_ms": self.latency[1],
            "max_ms": self.latency[2],
            "refusals": self.refusals,
            "reconnections": self.reconnections,
            "longest_outage_welcome_ms": self.longest_to_welcome_ms,
            "longest_outage_action_ms": self.longest_to_action_ms,
            "median_outage_action_ms": self.median_outage_ms,
            "games_checked": f.checked,
            "games_finished": f.finished,
            "actions_seen": f.distinct,
            "missing": f.missing,
            "doubled": f.doubled,
            "problems": f.problems,
            "server_cpu_us_per_action": self.cpu_per_action.server,
            "tool_cpu_us_per_action": self.cpu_per_action.tool,
        })
    }
}

async fn play(args: &Args) -> Result<bool, String> {
    let stats = Arc::new(Stats::new());
    let cpu_before = cpu::Reading::now(args.pid);
    let plan = RoomPlan {
        addr: args.server,
        until: Instant::now() + Duration::from_secs(args.seconds),
        reconnect: args.reconnect,
        finish_games: args.finish_games,
    };
    let rooms: Vec<_> = (0..args.rooms)
        .map(|i| tokio::spawn(room(plan, i, stats.clone())))
        .collect();
    let mut seen = Seen::default();
    let mut failures = Vec::new();
    for r in rooms {
        match r.await.map_err(|e| e.to_string()).and_then(|r| r) {
            Ok(room_seen) => seen.merge(room_seen),
            Err(e) => failures.push(e),
        }
    }
    // The CPU of play only: the records' check that follows is not part of it.
    let cpu_after = cpu::Reading::now(args.pid);
    let memory = server_memory(args.pid);
    let mut findings = check::check_records(args.server, &seen, args.finish_games).await;
    findings.problems.extend(failures);
    let actions = stats.actions.load(Ordering::Relaxed);
    let cpu_per_action = cpu_before.per_action(&cpu_after, actions);
    let report = Report::new(args, &stats, findings, cpu_per_action);
    report.print(args, &memory);
    if args.json {
        println!("{}", report.to_json());
    }
    Ok(report.findings.problems.is_empty())
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
        let (client, _) = Client::join(args.server, &code, &device, "Player").await?;
        clients.push(client);
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

/// One thread drives every bot: the tool shares the machine with the server it measures, and on
/// one thread it spends about a tenth less CPU an action than on two (no waking of a second
/// thread, and each wait for the network returns many bots' messages at once).
#[tokio::main(flavor = "current_thread")]
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
