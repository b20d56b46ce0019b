//! Pod STATUS / READY / RESTARTS / AGE exactly as the API server's printer computes them.
//!
//! Mirrors kubectl's `printPod` (kubernetes `pkg/printers/internalversion/printers.go`); see
//! `notes/protocols.md` §6. This is the one printer shared by the TUI, `--once` and the simulator.

use jiff::Timestamp;

/// The printer's clock-free result for one pod.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PodPrint {
    /// Ready containers (main containers plus started, ready sidecars).
    pub ready: u32,
    /// `len(spec.containers)` + sidecars.
    pub total: u32,
    /// The STATUS column, e.g. `CrashLoopBackOff`, `Init:1/2`, `Terminating`.
    pub status: String,
    /// Sum of restart counts as the printer counts them.
    pub restarts: i64,
    /// Newest `lastState.terminated.finishedAt` that the printer considered.
    pub last_restart: Option<Timestamp>,
}

/// One `kubectl get pod` row at a given `now` (the cells as strings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodRow {
    /// NAME.
    pub name: String,
    /// READY, e.g. `1/2`.
    pub ready: String,
    /// STATUS.
    pub status: String,
    /// RESTARTS, e.g. `5 (70s ago)`.
    pub restarts: String,
    /// AGE, e.g. `10m`.
    pub age: String,
    /// IP (wide), `<none>` when absent.
    pub ip: String,
    /// NODE (wide), `<none>` when absent.
    pub node: String,
    /// NOMINATED NODE (wide).
    pub nominated_node: String,
    /// READINESS GATES (wide), `<none>` or `n/m`.
    pub readiness_gates: String,
}
