//! What a running port-forward reports, as a pure value, and how its connections change it.
//!
//! The forwarder (`cluster::forward`) calls the `connection_*` methods as connections are
//! accepted, reach the pod, fail and close, with the wall-clock instant it saw that happen (it
//! does IO, so it may read the clock); the TUI only reads the result and computes durations from
//! its own `now`.
//!
//! Breakage and recovery, in kubectl's terms: a connection *fails* when the API server or the
//! kubelet refuses it (`pods "web" not found`, `pod is not running`, the kubelet's
//! `error forwarding port … connection refused` on the port's error channel). A connection
//! *works* when the pod sends it bytes, or when it ends without an error. A forward is broken from
//! its first failed connection until a connection accepted after the last failure works; that
//! stretch is kept as [`ForwardGap`] (e.g. a container restart, or a pod deleted and created
//! again under the same name).

use std::net::SocketAddr;

use jiff::{SignedDuration, Timestamp};

use super::forward::PortSpec;

/// Lifecycle of one forward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForwardState {
    /// Bound locally, no open connection.
    Listening,
    /// At least one connection is being forwarded.
    Active,
    /// The last connection failed (see `last_error`); still listening for new ones.
    Broken,
    /// The listener is closed.
    Stopped,
}

/// A stretch of time during which a forward could not reach the pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForwardGap {
    /// When the first connection failed (the forwarder's wall clock).
    pub from: Timestamp,
    /// When a connection accepted after the last failure first worked.
    pub to: Timestamp,
}

impl ForwardGap {
    /// `to − from`; zero if the clock stepped back.
    #[must_use]
    pub fn length(&self) -> SignedDuration {
        self.to.duration_since(self.from).max(SignedDuration::ZERO)
    }
}

/// Progress of one forward, published after every change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForwardStatus {
    /// What was asked.
    pub spec: PortSpec,
    /// The first bound local address (after binding; port 0 resolved): `127.0.0.1:PORT` for the
    /// default loopback pair unless only `[::1]` could be bound.
    pub local: Option<SocketAddr>,
    /// Every bound local address, [`Self::local`] first (`127.0.0.1:PORT`, `[::1]:PORT`; all on
    /// the same port). Empty until bound.
    pub locals: Vec<SocketAddr>,
    /// Addresses of the loopback pair that could not be bound while the other was, with why
    /// (`address not available on this host`, `address already in use`); `docs/protocols.md`
    /// §4.4.
    pub unbound: Vec<(SocketAddr, String)>,
    /// The remote port number last resolved (names resolve per connection).
    pub remote_port: Option<u16>,
    /// Listening / Active / Broken / Stopped.
    pub state: ForwardState,
    /// Connections currently open.
    pub open_connections: u32,
    /// Connections accepted so far.
    pub total_connections: u64,
    /// Bytes received from the pod and written to local clients.
    pub bytes_in: u64,
    /// Bytes read from local clients and sent to the pod.
    pub bytes_out: u64,
    /// The last error: the text from the port's error channel, or the API error.
    pub last_error: Option<String>,
    /// Since when connections fail: the first failure since the start or since the forward last
    /// worked; `None` while it works.
    pub broken_since: Option<Timestamp>,
    /// The last time the forward was broken and then recovered (`None` until it recovered once).
    pub last_gap: Option<ForwardGap>,
    /// The number (1-based, in order of acceptance) of the last connection that failed; 0 = none.
    /// Only connections accepted after it count as a recovery.
    pub last_failed_connection: u64,
}

impl ForwardStatus {
    /// A fresh status for `spec` (Listening, nothing counted).
    #[must_use]
    pub fn new(spec: PortSpec) -> Self {
        ForwardStatus {
            spec,
            local: None,
            locals: Vec::new(),
            unbound: Vec::new(),
            remote_port: None,
            state: ForwardState::Listening,
            open_connections: 0,
            total_connections: 0,
            bytes_in: 0,
            bytes_out: 0,
            last_error: None,
            broken_since: None,
            last_gap: None,
            last_failed_connection: 0,
        }
    }

    /// A local connection was accepted: counted, state Active. Returns its number (1-based).
    pub fn connection_opened(&mut self) -> u64 {
        self.open_connections += 1;
        self.total_connections += 1;
        self.state = ForwardState::Active;
        self.total_connections
    }

    /// Connection `number` reached the pod at `at` (the pod sent bytes, or it ended without an
    /// error). If it was accepted after the last failure the forward has recovered:
    /// `broken_since` becomes the `from` of `last_gap`. Repeated calls change nothing.
    pub fn connection_worked(&mut self, number: u64, at: Timestamp) {
        if number > self.last_failed_connection
            && let Some(from) = self.broken_since.take()
        {
            self.last_gap = Some(ForwardGap { from, to: at });
        }
    }

    /// Connection `number` failed at `at` with `error` (kubectl's text): `last_error` set,
    /// `broken_since` set unless already broken.
    pub fn connection_failed(&mut self, number: u64, at: Timestamp, error: String) {
        self.last_failed_connection = self.last_failed_connection.max(number);
        self.last_error = Some(error);
        self.broken_since.get_or_insert(at);
    }

    /// A connection closed (after [`Self::connection_worked`] or [`Self::connection_failed`]):
    /// one fewer open; Broken while `broken_since` is set, else Listening when none is open,
    /// else Active.
    pub fn connection_closed(&mut self) {
        self.open_connections = self.open_connections.saturating_sub(1);
        self.state = if self.broken_since.is_some() {
            ForwardState::Broken
        } else if self.open_connections == 0 {
            ForwardState::Listening
        } else {
            ForwardState::Active
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().expect("timestamp")
    }

    fn status() -> ForwardStatus {
        ForwardStatus::new("8080:80".parse().expect("spec"))
    }

    #[test]
    fn a_failure_at_start_breaks_and_a_later_connection_recovers() {
        let mut s = status();
        let n1 = s.connection_opened();
        assert_eq!((n1, s.state), (1, ForwardState::Active));
        s.connection_failed(n1, at("2025-01-01T00:00:10Z"), "refused".into());
        s.connection_closed();
        assert_eq!(s.state, ForwardState::Broken);
        assert_eq!(s.broken_since, Some(at("2025-01-01T00:00:10Z")));
        // A second failure keeps the first instant.
        let n2 = s.connection_opened();
        s.connection_failed(n2, at("2025-01-01T00:00:15Z"), "refused again".into());
        s.connection_closed();
        assert_eq!(s.broken_since, Some(at("2025-01-01T00:00:10Z")));
        assert_eq!(s.last_error.as_deref(), Some("refused again"));
        let n3 = s.connection_opened();
        s.connection_worked(n3, at("2025-01-01T00:00:22Z"));
        assert_eq!(s.broken_since, None);
        let gap = s.last_gap.expect("a gap");
        assert_eq!(gap.from, at("2025-01-01T00:00:10Z"));
        assert_eq!(gap.length(), SignedDuration::from_secs(12));
        s.connection_worked(n3, at("2025-01-01T00:00:30Z"));
        assert_eq!(s.last_gap, Some(gap), "a repeat does not move the gap");
        s.connection_closed();
        assert_eq!((s.state, s.open_connections), (ForwardState::Listening, 0));
        // The last error stays for the panel.
        assert_eq!(s.last_error.as_deref(), Some("refused again"));
    }

    #[test]
    fn a_connection_older_than_the_failure_is_no_recovery() {
        let mut s = status();
        let old = s.connection_opened();
        s.connection_worked(old, at("2025-01-01T00:00:01Z"));
        let new = s.connection_opened();
        s.connection_failed(
            new,
            at("2025-01-01T00:00:05Z"),
            "pods \"web\" not found".into(),
        );
        s.connection_closed();
        assert_eq!((s.state, s.open_connections), (ForwardState::Broken, 1));
        // The long-lived first connection ends cleanly: still broken.
        s.connection_worked(old, at("2025-01-01T00:00:09Z"));
        s.connection_closed();
        assert_eq!(s.state, ForwardState::Broken);
        assert_eq!(s.broken_since, Some(at("2025-01-01T00:00:05Z")));
        assert_eq!(s.last_gap, None);
    }

    #[test]
    fn working_connections_never_open_a_gap() {
        let mut s = status();
        let a = s.connection_opened();
        let b = s.connection_opened();
        s.connection_worked(a, at("2025-01-01T00:00:01Z"));
        s.connection_closed();
        assert_eq!((s.state, s.open_connections), (ForwardState::Active, 1));
        s.connection_worked(b, at("2025-01-01T00:00:02Z"));
        s.connection_closed();
        assert_eq!(s.state, ForwardState::Listening);
        assert_eq!(
            (s.broken_since, s.last_gap, s.last_error),
            (None, None, None)
        );
    }

    #[test]
    fn gap_length_is_never_negative() {
        let gap = ForwardGap {
            from: at("2025-01-01T00:00:05Z"),
            to: at("2025-01-01T00:00:04Z"),
        };
        assert_eq!(gap.length(), SignedDuration::ZERO);
    }
}
