//! A test knob for failures in the middle of a stream: [`Store::cut_streams`] cuts every open
//! `pods/exec`, `pods/attach` and `pods/portforward` connection (WebSocket, SPDY/3.1, or SPDY
//! tunnelled in WebSocket) the way a dying API server, proxy or load balancer does: the
//! connection is dropped, with no close frame, no GOAWAY and no Status.

use tokio::sync::watch;

use super::Store;

impl Store {
    /// Cuts every exec, attach and port-forward connection open at this moment: the server drops
    /// the TCP connection (TLS without `close_notify`) without a close frame, a GOAWAY or an exit
    /// Status.
    /// Streams opened afterwards are served as usual.
    pub fn cut_streams(&self) {
        self.inner
            .stream_cuts
            .send_modify(|n| *n = n.wrapping_add(1));
    }

    /// A receiver whose `changed()` completes at the next [`Store::cut_streams`] (the current
    /// count is marked seen); streaming sessions subscribe when they start.
    pub(crate) fn stream_cuts(&self) -> watch::Receiver<u64> {
        self.inner.stream_cuts.subscribe()
    }
}
