//! Quick ranked play: people ask for a ranked game with a preset and a size; one actor keeps the
//! waiting list, forms tables of players of similar rating ([`pool`]), opens a ranked room for
//! each table with its seats taken, starts the game and tells every player where to go.
//!
//! A matched room plays the preset's own rules with a 60-second turn clock, seats people only,
//! and gives out the colours in a random order.

pub mod no_shows;
pub mod pool;
mod shared;

use crate::ids::{ConnectionId, IdentityId};
use crate::protocol::RefusalCode;
use std::collections::HashMap;
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
    Cancel { ticket: ConnectionId },
}

/// Someone waiting for a ranked game.
struct Waiting {
    ticket: ConnectionId,
    identity: crate::ids::IdentityId,
    name: String,
    rating: f64,
    preset: Preset,
    wish: SizeWish,
    since: Instant,
    /// When the search began, in Unix milliseconds (shared with the other nodes).
    since_ms: i64,
    address: std::net::IpAddr,
    out: Outbox,
    /// The range last told to the player.
    told_range: f64,
}

/// A seeker's request, before the matchmaker takes it.
pub struct Seek {
    /// The connection's number: the ticket that cancels the request.
    pub ticket: ConnectionId,
    /// The identity's public id.
    pub identity: crate::ids::IdentityId,
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
            since_ms: crate::ids::now_ms(),
            address: seek.address,
            out: seek.out,
            told_range: 0.0,
        }));
    }

    /// Takes a request off the waiting list (its connection closed).
    pub fn cancel(&self, ticket: ConnectionId) {
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
    let shared = rooms.cluster().cloned().map(shared::Shared::new);
    if let Some(shared) = &shared {
        shared.forget_earlier_searches().await;
    }
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
                        told_elsewhere(&old);
                    }
                    if let Some(shared) = &shared
                        && let Err(error) = shared.put(&seeker).await
                    {
                        tracing::error!(%error, "a ranked search could not be shared");
                        tell(&seeker.out, &ServerMsg::error(RefusalCode::Internal, "something went wrong on our side"));
                        continue;
                    }
                    waiting.push(seeker);
                }
                Some(Request::Cancel { ticket }) => {
                    waiting.retain(|w| w.ticket != ticket);
                    if let Some(shared) = &shared {
                        shared.remove(ticket).await;
                    }
                }
                None => break,
            },
            _ = tick.tick() => {}
        }
        let looking = match &shared {
            None => {
                form_tables(&mut waiting, &rooms, &params, &mut shuffle).await;
                Looking::among(&waiting)
            }
            Some(shared) => {
                shared
                    .tick(&mut waiting, &rooms, &params, &mut shuffle)
                    .await
            }
        };
        tell_ranges(&mut waiting, &params, &looking);
    }
}

/// Tells a seeker that a newer search of the same identity replaced theirs.
fn told_elsewhere(old: &Waiting) {
    tell(
        &old.out,
        &ServerMsg::error(
            RefusalCode::SeekingElsewhere,
            "this device is looking for a game on another connection",
        ),
    );
}

/// Opens a room for every table that can be formed now and sends its players there.
async fn form_tables(waiting: &mut Vec<Waiting>, rooms: &Rooms, params: &Params, rng: &mut Rng) {
    let now = Instant::now();
    let seekers: Vec<(Seeker, IdentityId, String)> = waiting
        .iter()
        .map(|w| {
            let seeker = Seeker {
                rating: w.rating,
                preset: w.preset,
                wish: w.wish,
                waited: now - w.since,
                address: w.address,
            };
            (seeker, w.identity.clone(), w.name.clone())
        })
        .collect();
    let opened = open_tables(&seekers, rooms, params, rng).await;
    let mut matched = vec![false; waiting.len()];
    for (table, msg) in opened {
        for i in table {
            tell(&waiting[i].out, &msg);
            matched[i] = true;
        }
    }
    let mut index = 0;
    waiting.retain(|_| {
        index += 1;
        !matched[index - 1]
    });
}

/// Forms the tables `seekers` (each with its identity and name) make now and opens a ranked
/// room for each: every table opened, as indices into `seekers`, with the message that sends
/// its players there.
async fn open_tables(
    seekers: &[(Seeker, IdentityId, String)],
    rooms: &Rooms,
    params: &Params,
    rng: &mut Rng,
) -> Vec<(Vec<usize>, ServerMsg)> {
    let pool: Vec<Seeker> = seekers.iter().map(|s| s.0).collect();
    let mut opened = Vec::new();
    for mut table in pool::form_tables(params, &pool) {
        // Colours in a random order, so that the oldest seeker does not always start.
        for i in (1..table.len()).rev() {
            table.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let colours = colours_for(table.len());
        let people: Vec<(Colour, IdentityId, String)> = table
            .iter()
            .zip(colours)
            .map(|(&i, &colour)| (colour, seekers[i].1.clone(), seekers[i].2.clone()))
            .collect();
        let settings = Settings {
            rules: Rules::preset(pool[table[0]].preset),
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
                opened.push((table, msg));
            }
            Err(error) => tracing::error!(%error, "a matched room could not be opened"),
        }
    }
    opened
}

/// How many people are looking for a ranked game, by the rules they asked for: a seeker is told
/// of those who could share a table with them, not of searches under other rules.
#[derive(Debug, Default, PartialEq, Eq)]
struct Looking(HashMap<Preset, usize>);

impl Looking {
    /// One search under each of `presets`.
    fn of(presets: impl IntoIterator<Item = Preset>) -> Looking {
        let mut counts = HashMap::new();
        for preset in presets {
            *counts.entry(preset).or_default() += 1;
        }
        Looking(counts)
    }

    /// The searches this node holds.
    fn among(waiting: &[Waiting]) -> Looking {
        Looking::of(waiting.iter().map(|w| w.preset))
    }

    /// How many are looking under `preset`.
    fn under(&self, preset: Preset) -> usize {
        self.0.get(&preset).copied().unwrap_or(0)
    }
}

/// Tells every waiting player whose range widened how things stand, with how many people are
/// looking under the same rules (`looking`).
fn tell_ranges(waiting: &mut [Waiting], params: &Params, looking: &Looking) {
    let now = Instant::now();
    for w in waiting {
        let range = params.range(now - w.since);
        if range != w.told_range {
            w.told_range = range;
            tell(
                &w.out,
                &ServerMsg::Seeking {
                    rating: w.rating,
                    range,
                    waiting: looking.under(w.preset),
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
