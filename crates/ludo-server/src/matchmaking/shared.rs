//! Matchmaking across the nodes sharing one PostgreSQL database.
//!
//! Each node keeps its own seekers' connections, and writes every search into the shared table
//! of searches. Every quarter of a second, each node renews its searches there and reads them
//! all; the node holding the role `matchmaker` (one node at a time, a lease in the database)
//! forms tables from every node's searches with the same [`super::pool`] as a single server,
//! opens a ranked room for each and writes the room into its seekers' rows. Each node then tells
//! its own seekers whose row has a room, and drops them. Searches whose node has not renewed
//! them for a lease's term (it died) are forgotten.

use std::net::IpAddr;
use std::time::Duration;

use ludo_bots::Rng;
use ludo_rules::Preset;

use super::pool::{Params, Seeker, SizeWish};
use super::{Looking, Waiting, open_tables, tell, told_elsewhere};
use crate::protocol::ServerMsg;
use crate::room::{Cluster, Rooms};
use crate::store::{ClusterStore, SharedSeeker, StoreResult};

/// The role of the node that forms the tables.
const ROLE: &str = "matchmaker";

/// This node's side of the shared searches.
pub(super) struct Shared {
    cluster: Cluster,
    store: ClusterStore,
}

impl Shared {
    pub(super) fn new(cluster: Cluster) -> Shared {
        let store = cluster.shared.clone();
        Shared { cluster, store }
    }

    /// A seeker's ticket among every node's: `node/connection`.
    fn ticket(&self, connection: crate::ids::ConnectionId) -> String {
        format!("{}/{connection}", self.cluster.node)
    }

    fn term_ms(&self) -> i64 {
        i64::try_from(self.cluster.term.as_millis()).unwrap_or(i64::MAX)
    }

    /// Forgets the searches an earlier run of this node left (their connections are gone).
    pub(super) async fn forget_earlier_searches(&self) {
        let node = self.cluster.node.clone();
        // Searches not renewed for no time at all are those of nobody but this node, which has
        // none yet: the others renewed theirs in the last quarter-second.
        let forgotten = self
            .store
            .run(move |b| {
                let earlier: Vec<String> = b
                    .seekers(&node, i64::MAX)?
                    .into_iter()
                    .filter(|s| *s.node == *node)
                    .map(|s| s.ticket)
                    .collect();
                earlier.iter().try_for_each(|t| b.remove_seeker(t))
            })
            .await;
        if let Err(error) = forgotten {
            tracing::warn!(%error, "earlier ranked searches could not be forgotten");
        }
    }

    /// Shares a search.
    ///
    /// # Errors
    /// When storage fails.
    pub(super) async fn put(&self, w: &Waiting) -> StoreResult<()> {
        let seeker = SharedSeeker {
            ticket: self.ticket(w.ticket),
            node: self.cluster.node.to_string(),
            identity: w.identity.clone(),
            name: w.name.clone(),
            rating: w.rating,
            preset: w.preset.name().to_owned(),
            size: match w.wish {
                SizeWish::Exactly(n) => n,
                SizeWish::Any => 0,
            },
            address: w.address.to_string(),
            since: w.since_ms,
            table: None,
        };
        self.store.run(move |b| b.put_seeker(&seeker)).await
    }

    /// Takes a search away.
    pub(super) async fn remove(&self, connection: crate::ids::ConnectionId) {
        let ticket = self.ticket(connection);
        if let Err(error) = self.store.run(move |b| b.remove_seeker(&ticket)).await {
            tracing::warn!(%error, "a ranked search could not be taken away; it is forgotten soon");
        }
    }

    /// One round: renews this node's searches, forms tables if this node is the matchmaker,
    /// and tells this node's seekers whose table is ready. How many people are looking.
    pub(super) async fn tick(
        &self,
        waiting: &mut Vec<Waiting>,
        rooms: &Rooms,
        params: &Params,
        rng: &mut Rng,
    ) -> Looking {
        match self.round(waiting, rooms, params, rng).await {
            Ok(looking) => looking,
            Err(error) => {
                tracing::warn!(%error, "the shared ranked searches could not be read");
                Looking::among(waiting)
            }
        }
    }

    async fn round(
        &self,
        waiting: &mut Vec<Waiting>,
        rooms: &Rooms,
        params: &Params,
        rng: &mut Rng,
    ) -> StoreResult<Looking> {
        let (node, term) = (self.cluster.node.clone(), self.term_ms());
        let (mut all, matchmaker) = self
            .store
            .run(move |b| {
                let all = b.seekers(&node, term)?;
                let matchmaker = b.claim_role(ROLE, &node, term)?;
                Ok((all, matchmaker))
            })
            .await?;
        if matchmaker {
            self.form_tables(&mut all, rooms, params, rng).await?;
        }
        self.tell_own(waiting, &all).await;
        let presets = all.iter().filter(|s| s.table.is_none());
        Ok(Looking::of(presets.filter_map(|s| s.preset.parse().ok())))
    }

    /// Forms the tables every node's waiting searches make, opens their rooms and writes them
    /// into `all` and the shared searches.
    async fn form_tables(
        &self,
        all: &mut [SharedSeeker],
        rooms: &Rooms,
        params: &Params,
        rng: &mut Rng,
    ) -> StoreResult<()> {
        let now = crate::ids::now_ms();
        let open: Vec<usize> = (0..all.len()).filter(|&i| all[i].table.is_none()).collect();
        let seekers: Vec<(Seeker, crate::ids::IdentityId, String)> = open
            .iter()
            .filter_map(|&i| {
                let s = &all[i];
                let seeker = Seeker {
                    rating: s.rating,
                    preset: Preset::ALL.into_iter().find(|p| p.name() == s.preset)?,
                    wish: match s.size {
                        0 => SizeWish::Any,
                        n => SizeWish::Exactly(n),
                    },
                    waited: Duration::from_millis(u64::try_from(now - s.since).unwrap_or(0)),
                    address: s.address.parse().unwrap_or(IpAddr::from([0, 0, 0, 0])),
                };
                Some((seeker, s.identity.clone(), s.name.clone()))
            })
            .collect();
        for (table, msg) in open_tables(&seekers, rooms, params, rng).await {
            let ServerMsg::Matched { room, seats, .. } = &msg else {
                continue;
            };
            let tickets: Vec<String> = table.iter().map(|&i| all[open[i]].ticket.clone()).collect();
            for &i in &table {
                all[open[i]].table = Some((room.clone(), *seats));
            }
            let (room, seats) = (room.clone(), *seats);
            self.store
                .run(move |b| b.seat_seekers(&tickets, &room, seats))
                .await?;
        }
        Ok(())
    }

    /// Tells this node's seekers whose table is ready, and those whose search was replaced by a
    /// newer one of the same identity on another node; both stop waiting.
    async fn tell_own(&self, waiting: &mut Vec<Waiting>, all: &[SharedSeeker]) {
        let mut done = Vec::new();
        waiting.retain(|w| {
            let ticket = self.ticket(w.ticket);
            match all.iter().find(|s| s.ticket == ticket) {
                None => {
                    told_elsewhere(w);
                    false
                }
                Some(SharedSeeker {
                    table: Some((room, seats)),
                    ..
                }) => {
                    let msg = ServerMsg::Matched {
                        link: format!("/r/{room}"),
                        room: room.clone(),
                        seats: *seats,
                    };
                    tell(&w.out, &msg);
                    done.push(w.ticket);
                    false
                }
                Some(_) => true,
            }
        });
        for connection in done {
            self.remove(connection).await;
        }
    }
}
