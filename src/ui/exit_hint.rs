//! What an exit code means, in one line, for the Last State / State blocks: the model's
//! `exit_code_meaning`, plus context only the pod gives (memory limit, sidecar stopped at the end).

use crate::model::signal::{exit_code_meaning, signal_name};
use crate::model::{ContainerKind, Terminated};

/// `exit 137 (SIGKILL)`: the exit code plus the signal name for codes 129..=159
/// (`model::signal::signal_name`).
#[must_use]
pub fn exit_text(exit_code: i32) -> String {
    match signal_name(exit_code) {
        Some(name) => format!("exit {exit_code} ({name})"),
        None => format!("exit {exit_code}"),
    }
}

/// A one-line explanation of why `t` ended, or `None` when there is nothing useful to add.
///
/// `memory_limit` is the container's `resources.limits.memory`; `pod_finished` is true when the
/// pod phase is `Succeeded` or `Failed` (sidecars are then stopped by the kubelet on purpose).
#[must_use]
pub fn hint(
    t: &Terminated,
    kind: ContainerKind,
    memory_limit: Option<&str>,
    pod_finished: bool,
) -> Option<String> {
    if t.reason == "OOMKilled" {
        return Some(match memory_limit {
            Some(limit) => format!(
                "the kernel OOM killer stopped it: memory use exceeded the limit {limit}; logs end abruptly"
            ),
            None => "the kernel OOM killer stopped it (no memory limit: node memory pressure)"
                .to_owned(),
        });
    }
    if kind == ContainerKind::Sidecar && pod_finished && matches!(t.exit_code, 137 | 143) {
        return Some(
            "stopped by the kubelet after the main containers finished (expected)".to_owned(),
        );
    }
    if t.exit_code == 0 {
        return None;
    }
    exit_code_meaning(t.exit_code, &t.reason)
        .map(str::to_owned)
        .or_else(|| signal_name(t.exit_code).map(|name| format!("killed by {name}")))
}
