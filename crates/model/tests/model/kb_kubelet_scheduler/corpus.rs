//! The texts of the corpus cases 66–77 find their kubelet and scheduler rows, read from the case
//! files.

use podscope_model::diagnosis::kb::{self, On};

/// The messages of the corpus cases of this area find their rows, read from the case files.
#[test]
fn the_cases_texts_find_their_rows() {
    let root =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("assets/cases");
    let read = |case: &str, file: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(root.join(case).join(file)).expect("case file");
        serde_json::from_str(&text).expect("JSON")
    };
    let status = |case: &str| {
        let pod = read(case, "pod.json");
        (
            pod["status"]["reason"].as_str().unwrap_or("").to_owned(),
            pod["status"]["message"].as_str().unwrap_or("").to_owned(),
        )
    };
    let condition = |case: &str, type_: &str| {
        let pod = read(case, "pod.json");
        pod["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["type"] == type_)
            .map(|c| {
                (
                    c["reason"].as_str().unwrap_or("").to_owned(),
                    c["message"].as_str().unwrap_or("").to_owned(),
                )
            })
            .expect("the condition")
    };
    let event = |case: &str, reason: &str| {
        let list = read(case, "events.json");
        list["items"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["reason"] == reason)
            .and_then(|e| e["message"].as_str().map(str::to_owned))
            .expect("the event")
    };
    let find = |on: On<'_>, text: &str| kb::find(on, text).map(|h| h.entry.id);

    let pod = read("66-poststart-hook-failed", "pod.json");
    let waiting = &pod["status"]["containerStatuses"][0]["state"]["waiting"];
    assert_eq!(
        find(
            On::Waiting(waiting["reason"].as_str().expect("waiting.reason")),
            waiting["message"].as_str().expect("waiting.message")
        ),
        Some("kubelet-poststart-hook-not-executable")
    );
    assert_eq!(
        find(
            On::Event("FailedPostStartHook"),
            &event("66-poststart-hook-failed", "FailedPostStartHook")
        ),
        Some("kubelet-poststart-hook-generic")
    );
    for (case, id) in [
        (
            "68-pending-untolerated-taint-control-plane",
            "scheduler-untolerated-taint",
        ),
        (
            "69-pending-topology-spread-zone-full",
            "scheduler-topology-spread",
        ),
        (
            "71-pending-hostport-conflict-rolling-update",
            "scheduler-host-ports",
        ),
    ] {
        let (reason, message) = condition(case, "PodScheduled");
        assert_eq!(find(On::Status(&reason), &message), Some(id), "{case}");
        assert_eq!(
            find(
                On::Event("FailedScheduling"),
                &event(case, "FailedScheduling")
            ),
            Some(id),
            "{case}"
        );
    }
    // The unbound claim is the volumes table's row; it must be found, by whichever table.
    let (reason, message) = condition("70-pending-unbound-pvc-no-storageclass", "PodScheduled");
    assert!(find(On::Status(&reason), &message).is_some());
    let (reason, message) = condition("72-scheduling-gated-kueue-missing-queue", "PodScheduled");
    assert_eq!(find(On::Status(&reason), &message), Some("scheduler-gated"));
    let (reason, message) = status("73-sysctlforbidden-unsafe-sysctl");
    assert_eq!(
        find(On::Status(&reason), &message),
        Some("kubelet-sysctl-forbidden")
    );
    assert_eq!(
        find(
            On::Event("SysctlForbidden"),
            &event("73-sysctlforbidden-unsafe-sysctl", "SysctlForbidden")
        ),
        Some("kubelet-sysctl-forbidden")
    );
    let (reason, message) = status("74-node-shutdown-terminated");
    assert_eq!(
        find(On::Status(&reason), &message),
        Some("kubelet-node-shutdown")
    );
    let (reason, message) = condition("74-node-shutdown-terminated", "DisruptionTarget");
    assert_eq!(
        find(On::Status(&reason), &message),
        Some("kubelet-node-shutdown")
    );
    let (reason, message) = status("75-deadline-exceeded-active-deadline-seconds");
    assert_eq!(
        find(On::Status(&reason), &message),
        Some("kubelet-active-deadline")
    );
    let (reason, message) = condition("76-readiness-gate-condition-missing", "Ready");
    assert_eq!(
        find(On::Status(&reason), &message),
        Some("kubelet-readiness-gate-missing")
    );
    let (reason, message) = condition("77-preempted-by-higher-priority-pod", "DisruptionTarget");
    assert_eq!(
        find(On::Status(&reason), &message),
        Some("scheduler-preempted-condition")
    );
    assert_eq!(
        find(
            On::Event("Preempted"),
            &event("77-preempted-by-higher-priority-pod", "Preempted")
        ),
        Some("scheduler-preempted-event")
    );
}
