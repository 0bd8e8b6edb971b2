//! Quick ranked play: people ask for a ranked game with a preset and a size; one actor keeps the
//! waiting list, forms tables of players of similar rating ([`pool`]), opens a ranked room for
//! each table with its seats taken, starts the game and tells every player where to go.
//!
//! A matched room plays the preset's own rules with a 60-second turn clock, seats people only,
//! and gives out the colours in a random order.

pub mod pool;

use crate::protocol::RefusalCode;
use std::time::Instant;

use ludo_bots::Rng;
use ludo_rules::{Colour, Preset, Rules};
use tokio::sync::mpsc;

use crate::protocol::{ServerMsg, Settings};
use crate::room::{Outbox, Rooms};
use crate::store::Store;
use pool::{Params, Seeker, SizeWish};

/// A request to the matchmaker.
enum Request {
    Seek(Waiting),
    Cancel { ticket: u64 },
}

/// Someone waiting for a ranked game.
struct Waiting {
    ticket: u64,
    identity: String,
    name: String,
    rating: f64,
    preset: Preset,
    wish: SizeWish,
    since: Instant,
    address: std::net::IpAddr,
    out: Outbox,
    /// The range last told to the player.
    told_range: f64,
}

/// A seeker's request, before the matchmaker takes it.
pub struct Seek {
    /// The connection's number: the ticket that cancels the request.
    pub ticket: u64,
    /// The identity's public id.
    pub identity: String,
    /// The display name.
    pub name: String,
    /// The rules wanted.
    pub preset: Preset,
    /// The table sizes accepted.
    pub wish: SizeWish,
    /// The network address the request came from.
    pub address: std::net::IpAddr,
    /// Where to tell the player what happens.
    pub out: Outbox,
}

/// The way to the matchmaker's actor. Cheap to clone.
#[derive(Clone)]
pub struct Matchmaker {
    requests: mpsc::UnboundedSender<Request>,
}

impl Matchmaker {
    /// Starts the matchmaker: it opens rooms in `rooms` and reads ratings from `store`.
    pub fn start(rooms: Rooms, store: Store, params: Params) -> Matchmaker {
        let (requests, queue) = mpsc::unbounded_channel();
        tokio::spawn(run(queue, rooms, store, params));
        Matchmaker { requests }
    }

    /// Puts a player on the waiting list (replacing any earlier request of the same identity).
    pub fn seek(&self, seek: Seek) {
        let _ = self.requests.send(Request::Seek(Waiting {
            ticket: seek.ticket,
            identity: seek.identity,
            name: seek.name,
            rating: crate::rating::START,
            preset: seek.preset,
            wish: seek.wish,
            since: Instant::now(),
            address: seek.address,
            out: seek.out,
            told_range: 0.0,
        }));
    }

    /// Takes a request off the waiting list (its connection closed).
    pub fn cancel(&self, ticket: u64) {
        let _ = self.requests.send(Request::Cancel { ticket });
    }
}

fn tell(out: &Outbox, msg: &ServerMsg) {
    let _ = out.send(msg.to_json().into());
}

async fn run(
    mut queue: mpsc::UnboundedReceiver<Request>,
    rooms: Rooms,
    store: Store,
    params: Params,
) {
    let mut waiting: Vec<Waiting> = Vec::new();
    let mut tick = tokio::time::interval(params.second / 4);
    let mut shuffle = Rng::new(crate::ids::now_ms() as u64);
    loop {
        tokio::select! {
            request = queue.recv() => match request {
                Some(Request::Seek(mut seeker)) => {
                    let (identity, family) = (seeker.identity.clone(), seeker.preset.name());
                    match store.run(move |b| b.rating(&identity, family)).await {
                        Ok((rating, _)) => seeker.rating = rating,
                        Err(error) => {
                            tracing::error!(%error, "a rating could not be read");
                            tell(&seeker.out, &ServerMsg::error(RefusalCode::Internal, "something went wrong on our side"));
                            continue;
                        }
                    }
                    if let Some(old) = waiting.iter().position(|w| w.identity == seeker.identity) {
                        let old = waiting.remove(old);
                        tell(&old.out, &ServerMsg::error(
                            RefusalCode::SeekingElsewhere,
                            "this device is looking for a game on another connection",
                        ));
                    }
                    waiting.push(seeker);
                }
                Some(Request::Cancel { ticket }) => waiting.retain(|w| w.ticket != ticket),
                None => break,
            },
            _ = tick.tick() => {}
        }
        form_tables(&mut waiting, &rooms, &params, &mut shuffle).await;
        tell_ranges(&mut waiting, &params);
    }
}

/// Opens a room for every table that can be formed now and sends its players there.
async fn form_tables(waiting: &mut Vec<Waiting>, rooms: &Rooms, params: &Params, rng: &mut Rng) {
    let now = Instant::now();
    let seekers: Vec<Seeker> = waiting
        .iter()
        .map(|w| Seeker {
            rating: w.rating,
            preset: w.preset,
            wish: w.wish,
            waited: now - w.since,
            address: w.address,
        })
        .collect();
    let tables = pool::form_tables(params, &seekers);
    if tables.is_empty() {
        return;
    }
    let mut matched = vec![false; waiting.len()];
    for mut table in tables {
        // Colours in a random order, so that the oldest seeker does not always start.
        for i in (1..table.len()).rev() {
            table.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let colours = colours_for(table.len());
        let people: Vec<(Colour, String, String)> = table
            .iter()
            .zip(colours)
            .map(|(&i, &colour)| (colour, waiting[i].identity.clone(), waiting[i].name.clone()))
            .collect();
        let preset = waiting[table[0]].preset;
        let settings = Settings {
            rules: Rules::preset(preset),
            clock: Some(crate::protocol::RANKED_CLOCK),
            ranked: true,
            rotate: true,
            public: false,
        };
        match rooms.create_matched(people, settings).await {
            Ok(code) => {
                let msg = ServerMsg::Matched {
                    link: format!("/r/{code}"),
                    room: code,
                    seats: table.len(),
                };
                for &i in &table {
                    tell(&waiting[i].out, &msg);
                    matched[i] = true;
                }
            }
            Err(error) => tracing::error!(%error, "a matched room could not be opened"),
        }
    }
    let mut index = 0;
    waiting.retain(|_| {
        index += 1;
        !matched[index - 1]
    });
}

/// Tells every waiting player whose range widened how things stand.
fn tell_ranges(waiting: &mut [Waiting], params: &Params) {
    let now = Instant::now();
    let count = waiting.len();
    for w in waiting {
        let range = params.range(now - w.since);
        if range != w.told_range {
            w.told_range = range;
            tell(
                &w.out,
                &ServerMsg::Seeking {
                    rating: w.rating,
                    range,
                    waiting: count,
                },
            );
        }
    }
}

/// The colours of a table of `seats`: opposite arms for two.
fn colours_for(seats: usize) -> &'static [Colour] {
    match seats {
        2 => &[Colour::Yellow, Colour::Red],
        3 => &[Colour::Yellow, Colour::Blue, Colour::Red],
        _ => &Colour::ALL,
    }
}
