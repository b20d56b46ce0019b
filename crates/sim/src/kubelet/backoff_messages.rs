//! The texts the kubelet writes for a container held in CrashLoopBackOff: the
//! `state.waiting.message` and the Warning `BackOff` event's message (`docs/protocols.md` §5.1).
//! The client reads the first back with `podscope_model::backoff::parse_waiting_message`; both
//! sides are pinned to the same captured kubelet output in `tests/diagnosis/model_backoff.rs`.

use std::time::Duration;

use podscope_model::duration::format_go_duration;

/// The kubelet's `state.waiting.message` for a container held in back-off:
/// `back-off <delay> restarting failed container=<container> pod=<pod>_<namespace>(<uid>)`,
/// with `delay` in Go duration text (`2m40s`). Source: kubelet `kuberuntime_manager.go` doBackOff.
pub fn waiting_message(
    container: &str,
    pod: &str,
    namespace: &str,
    uid: &str,
    delay: Duration,
) -> String {
    format!(
        "back-off {} restarting failed container={container} pod={pod}_{namespace}({uid})",
        format_go_duration(delay)
    )
}

/// The message of the kubelet's Warning `BackOff` event for a container held in back-off:
/// `Back-off restarting failed container <container> in pod <pod>_<namespace>(<uid>)`.
pub fn backoff_event_message(container: &str, pod: &str, namespace: &str, uid: &str) -> String {
    format!("Back-off restarting failed container {container} in pod {pod}_{namespace}({uid})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_message_uses_go_duration_text() {
        // protocols.md §5.1: `back-off 2m40s restarting failed container=…`.
        let m = waiting_message("hello", "crash", "default", "u-1", Duration::from_secs(160));
        assert_eq!(
            m,
            "back-off 2m40s restarting failed container=hello pod=crash_default(u-1)"
        );
    }
}
