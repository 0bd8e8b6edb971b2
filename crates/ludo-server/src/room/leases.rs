//! Serving rooms from several nodes that share one PostgreSQL database.
//!
//! A node serves a room only while it holds the room's lease, a row in the database that says
//! which node serves the room until when (by the database's clock). The node claims the lease
//! when it loads the room, renews every lease it holds every third of the lease's term, and
//! gives a lease up when the room unloads, when the node stops, or when another node asks for
//! the room (a client reached that node through the balancer; the holder looks for such
//! requests every 200 ms). A node that cannot renew a lease
//! (another node took it, or the database cannot be reached for two thirds of a term) stops the
//! room at once: it acts no more, and its connections close, asking their clients to come back
//! through the balancer.
//!
//! When a node dies, its leases run out after one term; every node looks every third of a term
//! for rooms with a game being played that nobody holds, and takes them over from their last
//! stored action. The database refuses a second action at a number already stored, so two
//! nodes can never fork a game even if one of them acts late.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Command, Rooms};
use crate::ids::RoomCode;
use crate::store::{Claim, ClusterStore, StoreResult};

/// This node's place among the nodes sharing the database.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// This node's name, unique among the nodes.
    pub node: Arc<str>,
    /// How long a lease lasts unrenewed.
    pub term: Duration,
    /// The state the nodes share in the database.
    pub shared: ClusterStore,
}

impl Cluster {
    /// How often leases are renewed, and rooms nobody holds looked for.
    pub fn renew_every(&self) -> Duration {
        self.term / 3
    }

    /// How often a node looks whether another asked for one of its rooms.
    pub fn ask_every(&self) -> Duration {
        self.renew_every().min(Duration::from_millis(200))
    }

    /// How long a client's `hello` may wait for another node to hand its room over (it gives
    /// the room up at its next renewal) or for a dead node's lease to run out.
    pub fn handover_wait(&self) -> Duration {
        self.term + self.renew_every()
    }

    fn term_ms(&self) -> i64 {
        i64::try_from(self.term.as_millis()).unwrap_or(i64::MAX)
    }
}

/// A lease this node was granted: what releases it, and only it.
#[derive(Clone, Debug)]
pub struct Grant {
    /// The node's place among the nodes.
    pub cluster: Cluster,
    /// Names this grant.
    pub token: i64,
}

impl Rooms {
    /// Claims `code` for this node: the grant, or the node that holds it. With `wait`, a room
    /// held by another node is asked for and claimed again until [`Cluster::handover_wait`]
    /// has passed.
    ///
    /// # Errors
    /// When storage fails.
    pub(super) async fn claim(
        &self,
        cluster: &Cluster,
        code: &str,
        wait: bool,
    ) -> StoreResult<Result<Grant, String>> {
        let until = Instant::now() + cluster.handover_wait();
        loop {
            let claim = {
                let (code, node, term) = (
                    RoomCode::from(code),
                    cluster.node.clone(),
                    cluster.term_ms(),
                );
                cluster
                    .shared
                    .run(move |c| c.claim_room(&code, &node, term))
                    .await?
            };
            match claim {
                Claim::Granted { token } => {
                    return Ok(Ok(Grant {
                        cluster: cluster.clone(),
                        token,
                    }));
                }
                Claim::HeldBy(node) if !wait || Instant::now() >= until => return Ok(Err(node)),
                Claim::HeldBy(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Until the server stops: every 200 ms hands over the rooms another node asked for, and
    /// every third of a term renews this node's leases, takes over the rooms nobody serves and
    /// publishes the public tables; then hands everything over.
    pub(super) fn keep_leases(&self, cluster: Cluster) {
        let rooms = self.clone();
        tokio::spawn(async move {
            let mut stopping = rooms.context.stopping.clone();
            let mut tick = tokio::time::interval(cluster.ask_every());
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut renewed = Instant::now();
            let mut last_round = Instant::now();
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = stopping.wait_for(|&stop| stop) => break,
                }
                if last_round.elapsed() < cluster.renew_every() {
                    rooms.hand_over_asked(&cluster).await;
                    continue;
                }
                last_round = Instant::now();
                match rooms.renew(&cluster).await {
                    Ok(()) => renewed = Instant::now(),
                    Err(error) if renewed.elapsed() >= cluster.term * 2 / 3 => {
                        tracing::error!(%error, "leases could not be renewed in time; this node stops serving its rooms");
                        let held = rooms.held();
                        rooms.stop_serving(&held);
                    }
                    Err(error) => {
                        tracing::warn!(%error, "leases could not be renewed; trying again")
                    }
                }
                if let Err(error) = rooms.take_over(&cluster).await {
                    tracing::warn!(%error, "rooms nobody serves could not be looked for");
                }
                if let Err(error) = rooms.publish_listings(&cluster).await {
                    tracing::warn!(%error, "the public tables could not be published");
                }
            }
            rooms.hand_everything_over().await;
        });
    }

    /// Between renewals: hands over at once the rooms another node asked for.
    async fn hand_over_asked(&self, cluster: &Cluster) {
        let node = cluster.node.clone();
        match cluster.shared.run(move |c| c.asked_rooms(&node)).await {
            Ok(asked) if !asked.is_empty() => {
                tracing::info!(rooms = ?asked, "rooms asked for by another node; handed over");
                self.stop_serving(&asked);
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "requests for rooms could not be read"),
        }
    }

    /// The codes of the rooms this node serves.
    fn held(&self) -> Vec<RoomCode> {
        super::lock(&self.context.registry)
            .keys()
            .cloned()
            .collect()
    }

    /// Renews every lease held; stops serving the rooms whose lease was lost or that another
    /// node asked for.
    async fn renew(&self, cluster: &Cluster) -> StoreResult<()> {
        let held = self.held();
        if held.is_empty() {
            return Ok(());
        }
        let renewal = {
            let (node, term, rooms) = (cluster.node.clone(), cluster.term_ms(), held.clone());
            cluster
                .shared
                .run(move |c| c.renew_leases(&node, &rooms, term))
                .await?
        };
        let lost: Vec<RoomCode> = held
            .into_iter()
            .filter(|code| !renewal.kept.contains(code))
            .collect();
        if !lost.is_empty() {
            tracing::warn!(rooms = ?lost, "leases lost to another node; stopped serving those rooms");
        }
        if !renewal.wanted.is_empty() {
            tracing::info!(rooms = ?renewal.wanted, "rooms asked for by another node; handed over");
        }
        self.stop_serving(&lost);
        self.stop_serving(&renewal.wanted);
        Ok(())
    }

    /// Stops these rooms' actors: they act no more, close their connections and give their
    /// leases up.
    fn stop_serving(&self, codes: &[RoomCode]) {
        let mut registry = super::lock(&self.context.registry);
        for code in codes {
            if let Some(handle) = registry.remove(code.as_str()) {
                handle.send(Command::Release);
            }
        }
    }

    /// Loads the rooms with a game being played that nobody holds (their node died).
    async fn take_over(&self, cluster: &Cluster) -> StoreResult<()> {
        let orphans = cluster.shared.run(|c| c.unheld_rooms_in_play()).await?;
        for (code, state) in orphans {
            if self.bring_back(&code, &state, false).await?.is_ok() {
                tracing::info!(room = %code, node = %cluster.node, "took over a room nobody served");
            }
        }
        Ok(())
    }

    /// A node stopping: stops every room it serves (each finishes what it was doing, then its
    /// connections close, asking their clients to come back through the balancer) and gives
    /// every lease up, so that the other nodes take the rooms at once rather than after the
    /// leases run out.
    async fn hand_everything_over(&self) {
        let handles: Vec<super::RoomHandle> = {
            let mut registry = super::lock(&self.context.registry);
            registry.drain().map(|(_, handle)| handle).collect()
        };
        for handle in &handles {
            handle.send(Command::Release);
        }
        let all_stopped = futures_util::future::join_all(handles.iter().map(|h| h.stopped()));
        if tokio::time::timeout(Duration::from_secs(2), all_stopped)
            .await
            .is_err()
        {
            tracing::warn!("some rooms took long to stop; their leases are given up all the same");
        }
        if let Err(error) = self.release_all().await {
            tracing::warn!(%error, "this node's leases could not be given up; they run out by themselves");
        }
    }

    /// Publishes this node's public tables for every node to list.
    async fn publish_listings(&self, cluster: &Cluster) -> StoreResult<()> {
        let (node, term) = (cluster.node.clone(), cluster.term_ms());
        let listings = self.context.directory.published();
        cluster
            .shared
            .run(move |c| c.publish_listings(&node, &listings, term))
            .await
    }

    /// One page of a list of public tables, from every node's.
    ///
    /// # Errors
    /// When storage fails.
    pub async fn tables(
        &self,
        kind: super::directory::Kind,
        page: usize,
    ) -> StoreResult<super::directory::Page> {
        let Some(cluster) = &self.context.cluster else {
            return Ok(self.context.directory.page(kind, page));
        };
        let texts = cluster.shared.run(|c| c.listings()).await?;
        let entries = texts
            .iter()
            .filter_map(|text| super::directory::read_published(text))
            .collect();
        Ok(super::directory::page_of(entries, kind, page))
    }

    /// Gives up every lease of this node (it is stopping, and has stopped every room).
    ///
    /// # Errors
    /// When storage fails.
    pub async fn release_all(&self) -> StoreResult<()> {
        let Some(cluster) = self.context.cluster.clone() else {
            return Ok(());
        };
        let node = cluster.node.clone();
        cluster.shared.run(move |c| c.release_all(&node)).await
    }
}

/// Gives up `grant`'s lease on `code` (its room has stopped).
pub(super) async fn release(code: crate::ids::RoomCode, grant: Grant) {
    let (node, token) = (grant.cluster.node.clone(), grant.token);
    let released = grant
        .cluster
        .shared
        .run(move |c| c.release_room(&code, &node, token))
        .await;
    if let Err(error) = released {
        tracing::warn!(%error, "a lease could not be given up; it runs out by itself");
    }
}
