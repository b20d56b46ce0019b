//! What an exit code means, in one line, for the Last State / State blocks.

use crate::model::{ContainerKind, Terminated};

/// Signal names for `exitCode − 128` (Linux numbering).
#[must_use]
pub fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => return None,
    })
}

/// `exit 137 (SIGKILL)`: the exit code plus the signal name for codes above 128.
#[must_use]
pub fn exit_text(exit_code: i32) -> String {
    match signal_name(exit_code - 128).filter(|_| exit_code > 128) {
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
    let text = match t.exit_code {
        0 => return None,
        1 => "generic application error: see the termination message and previous logs",
        2 => "misuse of a shell builtin or invalid command-line arguments",
        126 => "command found but not executable (permissions, wrong architecture)",
        127 => "command not found: the program is not in the image or not on PATH",
        128 => "the runtime could not start the process (bad entrypoint or working directory)",
        134 => "the process aborted itself (assertion, fatal runtime error)",
        137 => "killed from outside: liveness failure, grace period expired, or memory",
        139 => "segmentation fault in the process",
        143 => "asked to stop (liveness failure, deletion, eviction, rollout)",
        255 => "exit status out of range (often an entrypoint failure)",
        code if code > 128 => return Some(format!("killed by signal {}", code - 128)),
        _ => return None,
    };
    Some(text.to_owned())
}
