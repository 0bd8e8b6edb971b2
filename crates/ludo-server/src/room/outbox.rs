//! A connection's outbox: the messages a room or the matchmaker queues for one connection,
//! already serialised, bounded in number and in bytes, never waited on.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use futures_util::task::AtomicWaker;
use tokio::sync::mpsc;

/// A message's text, serialised once: its clones share one buffer, and the WebSocket frame
/// takes it as it is, so a broadcast to four players costs no copy of the text at all.
pub type Text = tokio_tungstenite::tungstenite::Utf8Bytes;

/// A connection's outbox: messages already serialised (one copy shared between all the
/// recipients of a broadcast), bounded both in number and in bytes.
///
/// Sending never waits: a room or the matchmaker must never be held up by one slow client. A
/// message that does not fit marks the outbox as *overflowed* and is dropped; the connection's
/// writer then closes the connection at once (the client reconnects and says `hello` again to
/// get the whole state back: the server's state is authoritative, so nothing is lost). What an
/// outbox holds is therefore at most `messages` messages of at most `bytes` bytes of text in
/// all, plus, per message, the text's shared header (about 32 bytes) and the queue's slot (32 bytes).
#[derive(Clone)]
pub struct Outbox {
    queue: mpsc::Sender<Text>,
    shared: Arc<OutboxShared>,
}

struct OutboxShared {
    /// Bytes of text queued and not yet taken by the writer.
    bytes: AtomicUsize,
    max_bytes: usize,
    /// Set once a message did not fit.
    overflowed: AtomicBool,
    /// Wakes the writer when the outbox overflows. Registering with it takes a few atomic
    /// operations, no lock: the writer registers each time it waits for a message.
    wake: AtomicWaker,
}

/// Why a message was not queued.
#[derive(Debug, PartialEq, Eq)]
pub enum Undelivered {
    /// The connection is gone.
    Closed,
    /// The client is too far behind: the connection is being closed.
    Overflowed,
}

impl Outbox {
    /// An outbox holding at most `messages` messages and `bytes` bytes of text, and the
    /// connection's end of it.
    pub fn bounded(messages: usize, bytes: usize) -> (Outbox, OutboxReceiver) {
        let (queue, receiver) = mpsc::channel(messages.max(1));
        let shared = Arc::new(OutboxShared {
            bytes: AtomicUsize::new(0),
            max_bytes: bytes,
            overflowed: AtomicBool::new(false),
            wake: AtomicWaker::new(),
        });
        let outbox = Outbox {
            queue,
            shared: shared.clone(),
        };
        (outbox, OutboxReceiver { receiver, shared })
    }

    /// Queues a message without waiting. A message that does not fit overflows the outbox.
    ///
    /// # Errors
    /// When the connection is gone or its outbox has overflowed (the message is dropped).
    pub fn send(&self, text: Text) -> Result<(), Undelivered> {
        let shared = &self.shared;
        if shared.overflowed.load(Ordering::Acquire) {
            return Err(Undelivered::Overflowed);
        }
        let len = text.len();
        if shared.bytes.fetch_add(len, Ordering::AcqRel) + len > shared.max_bytes {
            shared.bytes.fetch_sub(len, Ordering::AcqRel);
            self.overflow();
            return Err(Undelivered::Overflowed);
        }
        match self.queue.try_send(text) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                shared.bytes.fetch_sub(len, Ordering::AcqRel);
                self.overflow();
                Err(Undelivered::Overflowed)
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                shared.bytes.fetch_sub(len, Ordering::AcqRel);
                Err(Undelivered::Closed)
            }
        }
    }

    /// Queues chatter (a watcher's phrase, a watcher coming or going) only while the outbox is
    /// less than half full, by messages and by bytes; otherwise drops it. Chatter never fills an
    /// outbox, so what others say can never get a person disconnected for being behind: only
    /// the game and the table can.
    ///
    /// Returns whether the message was queued.
    pub fn offer(&self, text: Text) -> bool {
        let shared = &self.shared;
        let messages_free = self.queue.capacity();
        let half_messages = self.queue.max_capacity() / 2;
        let bytes = shared.bytes.load(Ordering::Acquire);
        if messages_free <= half_messages || (bytes + text.len()) * 2 > shared.max_bytes {
            return false;
        }
        self.send(text).is_ok()
    }

    fn overflow(&self) {
        if !self.shared.overflowed.swap(true, Ordering::AcqRel) {
            self.shared.wake.wake();
        }
    }
}

/// What a connection's writer takes next from its outbox.
#[derive(Debug)]
pub enum Next {
    /// A message to send.
    Message(Text),
    /// The outbox overflowed: close the connection without sending the rest.
    Overflowed,
    /// Every sender is gone and the queue is empty.
    Closed,
}

/// The connection's end of an [`Outbox`].
pub struct OutboxReceiver {
    receiver: mpsc::Receiver<Text>,
    shared: Arc<OutboxShared>,
}

impl OutboxReceiver {
    /// The next message, waiting for one; [`Next::Overflowed`] as soon as the outbox overflows.
    pub async fn next(&mut self) -> Next {
        std::future::poll_fn(|cx| {
            // Registered before the flag is read: an overflow after the read wakes this wait.
            self.shared.wake.register(cx.waker());
            if self.shared.overflowed.load(Ordering::Acquire) {
                return std::task::Poll::Ready(Next::Overflowed);
            }
            self.receiver
                .poll_recv(cx)
                .map(|text| taken(&self.shared, text))
        })
        .await
    }

    /// The next message if one is queued now; [`Next::Closed`] if none is (and
    /// [`Next::Overflowed`] if the outbox has overflowed).
    pub fn try_next(&mut self) -> Next {
        if self.shared.overflowed.load(Ordering::Acquire) {
            return Next::Overflowed;
        }
        taken(&self.shared, self.receiver.try_recv().ok())
    }
}

fn taken(shared: &OutboxShared, text: Option<Text>) -> Next {
    match text {
        Some(text) => {
            shared.bytes.fetch_sub(text.len(), Ordering::AcqRel);
            Next::Message(text)
        }
        None => Next::Closed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn text(len: usize) -> Text {
        Text::from("x".repeat(len))
    }

    #[tokio::test]
    async fn an_outbox_delivers_in_order_within_its_bounds() {
        let (out, mut inbox) = Outbox::bounded(4, 100);
        for i in 0..4 {
            out.send(Text::from(i.to_string())).unwrap();
        }
        for i in 0..4 {
            assert!(matches!(inbox.next().await, Next::Message(t) if t.as_str() == i.to_string()));
        }
        // Taking messages frees their room.
        for _ in 0..10 {
            out.send(text(90)).unwrap();
            assert!(matches!(inbox.next().await, Next::Message(_)));
        }
        drop(out);
        assert!(matches!(inbox.next().await, Next::Closed));
    }

    #[tokio::test]
    async fn an_outbox_overflows_past_its_count_and_stays_overflowed() {
        let (out, mut inbox) = Outbox::bounded(2, 1000);
        out.send(text(1)).unwrap();
        out.send(text(1)).unwrap();
        assert_eq!(out.send(text(1)), Err(Undelivered::Overflowed));
        assert!(matches!(inbox.next().await, Next::Overflowed));
        // Nothing more is taken or queued once it has overflowed.
        assert!(matches!(inbox.try_next(), Next::Overflowed));
        assert_eq!(out.clone().send(text(1)), Err(Undelivered::Overflowed));
    }

    #[tokio::test]
    async fn chatter_is_dropped_once_an_outbox_is_half_full_and_never_overflows_it() {
        let (out, mut inbox) = Outbox::bounded(4, 1000);
        assert!(out.offer(text(1)));
        assert!(out.offer(text(1)));
        assert!(!out.offer(text(1)), "two of four taken: half full");
        out.send(text(1)).unwrap();
        out.send(text(1)).unwrap();
        assert!(!out.offer(text(1)));
        for _ in 0..4 {
            assert!(matches!(inbox.next().await, Next::Message(_)));
        }
        assert!(out.offer(text(1)), "room again once taken");
        let (out, _inbox) = Outbox::bounded(100, 100);
        assert!(!out.offer(text(51)), "more than half the bytes");
        assert!(out.offer(text(50)));
    }

    #[tokio::test]
    async fn an_outbox_overflows_past_its_bytes() {
        let (out, mut inbox) = Outbox::bounded(100, 100);
        out.send(text(60)).unwrap();
        assert_eq!(out.send(text(41)), Err(Undelivered::Overflowed));
        assert!(matches!(inbox.next().await, Next::Overflowed));
    }

    #[tokio::test]
    async fn a_writer_waiting_for_a_message_learns_at_once_that_its_outbox_overflowed() {
        let (out, mut inbox) = Outbox::bounded(100, 100);
        let waiting = tokio::spawn(async move { inbox.next().await });
        // Let the writer start waiting before the message that does not fit comes.
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        assert_eq!(out.send(text(101)), Err(Undelivered::Overflowed));
        let next = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the waiting writer is woken")
            .unwrap();
        assert!(matches!(next, Next::Overflowed), "{next:?}");
    }

    #[tokio::test]
    async fn an_outbox_whose_connection_is_gone_says_so() {
        let (out, inbox) = Outbox::bounded(4, 100);
        drop(inbox);
        assert_eq!(out.send(text(1)), Err(Undelivered::Closed));
    }
}
