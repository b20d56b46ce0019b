//! The knowledge base's kubelet and scheduler tables (`crates/model/src/diagnosis/kb/kubelet.rs`,
//! `scheduler.rs`): every row compiles, every row is found for a real message of the form the
//! component writes (with the values worth quoting in its named groups), the specific rows win
//! over the general ones, every placeholder of a row's meaning and action is filled when it
//! matches, and the texts of the corpus cases 66-77 find their rows.

use podscope_model::diagnosis::kb::{self, On};

/// `(where, text, row id, named groups that must be captured with these values)`.
type Sample = (
    On<'static>,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const SAMPLES: &[Sample] = &[
    // --- a probe command the image does not have ---------------------------------------------
    (
        On::Event("Unhealthy"),
        "Readiness probe errored: rpc error: code = Unknown desc = failed to exec in container: failed to start exec \"8e0c\": OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file not found in $PATH: unknown",
        "kubelet-probe-command-missing",
        &[("probe", "Readiness"), ("cmd", "sh")],
    ),
    // --- postStart -------------------------------------------------------------------------
    (
        On::Waiting("PostStartHookError"),
        "Exec lifecycle hook ([/bin/sh -c /opt/hooks/post-start.sh]) for Container \"graylog\" in Pod \"graylog-0_logging(0b1c2d3e-0000-4000-8000-000000000001)\" failed - error: command '/bin/sh -c /opt/hooks/post-start.sh' exited with 126: /bin/sh: 1: /opt/hooks/post-start.sh: Permission denied\n, message: \"/bin/sh: 1: /opt/hooks/post-start.sh: Permission denied\\n\"",
        "kubelet-poststart-hook-not-executable",
        &[
            ("command", "[/bin/sh -c /opt/hooks/post-start.sh]"),
            ("cmdline", "/bin/sh -c /opt/hooks/post-start.sh"),
            ("code", "126"),
        ],
    ),
    (
        On::Event("FailedPostStartHook"),
        "Exec lifecycle hook ([/bin/bash /post-start-hook.sh]) for Container \"graylog-server\" in Pod \"graylog-1_default(5e2a)\" failed - error: command '/bin/bash /post-start-hook.sh' exited with 126: , message: \"\"",
        "kubelet-poststart-hook-not-executable",
        &[("cmdline", "/bin/bash /post-start-hook.sh")],
    ),
    (
        On::Waiting("PostStartHookError"),
        "Exec lifecycle hook ([/bin/sh -c /usr/local/bin/register.sh]) for Container \"app\" in Pod \"app-0_ns(uid)\" failed - error: command '/bin/sh -c /usr/local/bin/register.sh' exited with 127: /bin/sh: 1: /usr/local/bin/register.sh: not found\n, message: \"/bin/sh: 1: /usr/local/bin/register.sh: not found\\n\"",
        "kubelet-poststart-hook-not-found",
        &[("code", "127")],
    ),
    (
        On::Event("FailedPostStartHook"),
        "Exec lifecycle hook ([/bin/sh -c sleep 3 && (/usr/sbin/dsconf localhost monitor server || /usr/sbin/dsconf localhost backend create)]) for Container \"389ds\" in Pod \"fedora389ds-74fc7d99b6-t2zrl_aether(09e3)\" failed - error: command '/bin/sh -c sleep 3 && (/usr/sbin/dsconf localhost monitor server || /usr/sbin/dsconf localhost backend create)' exited with 1: , message: \"Enter Bind DN: Error: EOF when reading a line\\n\"",
        "kubelet-poststart-hook-exec",
        &[("code", "1")],
    ),
    (
        On::Waiting("PostStartHookError"),
        "Exec lifecycle hook ([/hooks/start]) for Container \"web\" in Pod \"web-1_shop(uid)\" failed - error: rpc error: code = Unknown desc = failed to exec in container: container is in CONTAINER_EXITED state, message: \"\"",
        "kubelet-poststart-hook-exec",
        &[
            ("command", "[/hooks/start]"),
            (
                "error",
                "rpc error: code = Unknown desc = failed to exec in container: container is in CONTAINER_EXITED state",
            ),
        ],
    ),
    (
        On::Waiting("PostStartHookError"),
        "HTTP lifecycle hook (/warmup) for Container \"api\" in Pod \"api-7d9_shop(uid)\" failed - error: Get \"http://10.244.1.17:8080/warmup\": dial tcp 10.244.1.17:8080: connect: connection refused",
        "kubelet-poststart-hook-http",
        &[("path", "/warmup")],
    ),
    (
        On::Event("FailedPostStartHook"),
        "PostStartHook failed",
        "kubelet-poststart-hook-generic",
        &[],
    ),
    // --- preStop -----------------------------------------------------------------------------
    (
        On::Event("FailedPreStopHook"),
        "Exec lifecycle hook ([bash -c /usr/sbin/nginx -s quit ; sleep 29]) for Container \"nginx\" in Pod \"nginx-678cbdbf9b-9m994_default(78dd52bd)\" failed - error: command 'bash -c /usr/sbin/nginx -s quit ; sleep 29' exited with 137: 2018/10/18 08:36:03 [notice] 13#13: signal process started\n, message: \"2018/10/18 08:36:03 [notice] 13#13: signal process started\\n\"",
        "kubelet-prestop-hook-killed",
        &[
            ("cmdline", "bash -c /usr/sbin/nginx -s quit ; sleep 29"),
            ("code", "137"),
        ],
    ),
    (
        On::Event("FailedPreStopHook"),
        "Exec lifecycle hook ([/bin/sh -c curl -fsS -X POST localhost:8080/drain]) for Container \"api\" in Pod \"api-1_shop(uid)\" failed - error: command '/bin/sh -c curl -fsS -X POST localhost:8080/drain' exited with 127: , message: \"/bin/sh: 1: curl: not found\\n\"",
        "kubelet-prestop-hook-exec",
        &[("code", "127")],
    ),
    (
        On::Event("FailedPreStopHook"),
        "Http lifecycle hook (/shutdown) for Container \"api\" in Pod \"api-1_shop(uid)\" failed - error: Get http://10.244.1.17:8081/shutdown: dial tcp 10.244.1.17:8081: connect: connection refused, message: \"\"",
        "kubelet-prestop-hook-http",
        &[("path", "/shutdown")],
    ),
    (
        On::Event("FailedPreStopHook"),
        "PreStopHook failed",
        "kubelet-prestop-hook-generic",
        &[],
    ),
    (
        On::Event("FailedPreStopHook"),
        "Sleep lifecycle hook (20) for Container \"web\" in Pod \"web-1_shop(uid)\" failed - error: container terminated before sleep hook finished",
        "kubelet-sleep-hook",
        &[
            ("seconds", "20"),
            ("error", "container terminated before sleep hook finished"),
        ],
    ),
    // --- admission ---------------------------------------------------------------------------
    (
        On::Status("SysctlForbidden"),
        "Pod was rejected: forbidden sysctl: \"net.core.somaxconn\" not allowlisted",
        "kubelet-sysctl-forbidden",
        &[("sysctl", "net.core.somaxconn")],
    ),
    (
        On::Event("SysctlForbidden"),
        "forbidden sysctl: \"kernel.msgmax\" not whitelisted",
        "kubelet-sysctl-forbidden",
        &[("sysctl", "kernel.msgmax")],
    ),
    (
        On::Status("SysctlForbidden"),
        "Pod was rejected: forbidden sysctl: \"net.ipv4.ip_local_port_range\" not allowed with host net enabled",
        "kubelet-sysctl-host-namespace",
        &[
            ("sysctl", "net.ipv4.ip_local_port_range"),
            ("hostns", "net"),
        ],
    ),
    (
        On::Status("OutOfcpu"),
        "Pod was rejected: Node didn't have enough resource: cpu, requested: 150, used: 11388, capacity: 11500",
        "kubelet-out-of-resource",
        &[
            ("resource", "cpu"),
            ("requested", "150"),
            ("used", "11388"),
            ("capacity", "11500"),
        ],
    ),
    (
        On::Event("OutOfmemory"),
        "Node didn't have enough resource: memory, requested: 4294967296, used: 30064771072, capacity: 32000000000",
        "kubelet-out-of-resource",
        &[("resource", "memory")],
    ),
    (
        On::Status("OutOfpods"),
        "Pod Node didn't have enough resource: pods, requested: 1, used: 110, capacity: 110",
        "kubelet-out-of-resource",
        &[("resource", "pods"), ("capacity", "110")],
    ),
    (
        On::Status("NodeAffinity"),
        "Pod was rejected: Predicate NodeAffinity failed",
        "kubelet-admission-predicate",
        &[("predicate", "NodeAffinity")],
    ),
    (
        On::Status("UnexpectedAdmissionError"),
        "Pod was rejected: Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected",
        "kubelet-admission-devices",
        &[
            ("resource", "nvidia.com/gpu"),
            ("requested", "1"),
            ("available", "0"),
        ],
    ),
    (
        On::Status("UnexpectedAdmissionError"),
        "Pod was rejected: Allocate failed due to not enough cpus available to satisfy request: requested=4, available=2, which is unexpected",
        "kubelet-admission-unexpected",
        &[(
            "detail",
            "not enough cpus available to satisfy request: requested=4, available=2",
        )],
    ),
    (
        On::Status("TopologyAffinityError"),
        "Pod was rejected: Resources cannot be allocated with Topology locality",
        "kubelet-admission-topology",
        &[],
    ),
    (
        On::Status("AppArmor"),
        "Pod was rejected: Cannot enforce AppArmor: AppArmor is not enabled on the host",
        "kubelet-apparmor",
        &[("detail", "AppArmor is not enabled on the host")],
    ),
    // --- shutdown, deadline ------------------------------------------------------------------
    (
        On::Status("Terminated"),
        "Pod was terminated in response to imminent node shutdown.",
        "kubelet-node-shutdown",
        &[],
    ),
    (
        On::Status("Shutdown"),
        "Node is shutting, evicting pods",
        "kubelet-node-shutdown",
        &[],
    ),
    (
        On::Status("TerminationByKubelet"),
        "Pod was terminated in response to imminent node shutdown.",
        "kubelet-node-shutdown",
        &[],
    ),
    (
        On::Status("NodeShutdown"),
        "Pod was rejected as the node is shutting down.",
        "kubelet-node-shutdown-rejected",
        &[],
    ),
    (
        On::Status("DeadlineExceeded"),
        "Pod was active on the node longer than the specified deadline",
        "kubelet-active-deadline",
        &[],
    ),
    (
        On::Event("DeadlineExceeded"),
        "Pod was active on the node longer than the specified deadline",
        "kubelet-active-deadline",
        &[],
    ),
    // --- eviction ----------------------------------------------------------------------------
    (
        On::Status("Evicted"),
        "Usage of EmptyDir volume \"scratch\" exceeds the limit \"1Gi\". ",
        "kubelet-evicted-emptydir-limit",
        &[("volume", "scratch"), ("limit", "1Gi")],
    ),
    (
        On::Event("Evicted"),
        "Container builder exceeded its local ephemeral storage limit \"2Gi\". ",
        "kubelet-evicted-container-ephemeral-limit",
        &[("culprit", "builder"), ("limit", "2Gi")],
    ),
    (
        On::Status("Evicted"),
        "Pod ephemeral local storage usage exceeds the total limit of containers 4Gi. ",
        "kubelet-evicted-pod-ephemeral-limit",
        &[("limit", "4Gi")],
    ),
    (
        On::Status("Evicted"),
        "The node was low on resource: ephemeral-storage. Container bff-api was using 34260Ki, which exceeds its request of 0. ",
        "kubelet-evicted-node-low",
        &[
            ("resource", "ephemeral-storage"),
            ("culprit", "bff-api"),
            ("usage", "34260Ki"),
            ("request", "0"),
        ],
    ),
    (
        On::Status("Evicted"),
        "The node was low on resource: memory. Threshold quantity: 100Mi, available: 91048Ki. Container worker was using 1843200Ki, request is 512Mi, has larger consumption of memory. ",
        "kubelet-evicted-node-low",
        &[
            ("resource", "memory"),
            ("threshold", "100Mi"),
            ("available", "91048Ki"),
            ("culprit", "worker"),
            ("request", "512Mi"),
        ],
    ),
    (
        On::Status("Evicted"),
        "The node had condition: [DiskPressure]. ",
        "kubelet-evicted-node-condition",
        &[("condition", "DiskPressure")],
    ),
    // --- readiness gates -----------------------------------------------------------------------
    (
        On::Status("ReadinessGatesNotReady"),
        "corresponding condition of pod readiness gate \"target-health.alb.ingress.k8s.aws/shop_web_80\" does not exist.",
        "kubelet-readiness-gate-missing",
        &[("gate", "target-health.alb.ingress.k8s.aws/shop_web_80")],
    ),
    (
        On::Status("ReadinessGatesNotReady"),
        "the status of pod readiness gate \"target-health.elbv2.k8s.aws/k8s-default-athomcl-226c95b632\" is not \"True\", but False",
        "kubelet-readiness-gate-false",
        &[
            (
                "gate",
                "target-health.elbv2.k8s.aws/k8s-default-athomcl-226c95b632",
            ),
            ("gate_status", "False"),
        ],
    ),
    // --- node-side failures --------------------------------------------------------------------
    (
        On::Event("FailedKillPod"),
        "error killing pod: [failed to \"KillContainer\" for \"app\" with KillContainerError: \"rpc error: code = DeadlineExceeded desc = context deadline exceeded\"]",
        "kubelet-failed-kill-pod",
        &[],
    ),
    (
        On::Event("ImageGCFailed"),
        "Failed to garbage collect required amount of images. Attempted to free 4509508403 bytes, but only found 0 bytes eligible to free.",
        "kubelet-image-gc-failed",
        &[("wanted", "4509508403"), ("freed", "0")],
    ),
    (
        On::Event("ImageGCFailed"),
        "wanted to free 1234 bytes, but freed 0 bytes space with errors in image deletion",
        "kubelet-image-gc-failed",
        &[("wanted", "1234"), ("freed", "0")],
    ),
    (
        On::Event("Unhealthy"),
        "Liveness probe errored: rpc error: code = NotFound desc = failed to exec in container: failed to load task: no running task found: task 5f0c not found",
        "kubelet-probe-errored",
        &[("probe", "Liveness")],
    ),
    (
        On::Event("ProbeWarning"),
        "Readiness probe warning: Probe terminated redirects, Response body: <html>moved</html>",
        "kubelet-probe-warning",
        &[("probe", "Readiness")],
    ),
    // --- scheduler -----------------------------------------------------------------------------
    (
        On::Status("SchedulingGated"),
        "Scheduling is blocked due to non-empty scheduling gates",
        "scheduler-gated",
        &[],
    ),
    (
        On::Event("FailedScheduling"),
        "0/4 nodes are available: persistentvolumeclaim \"data-kafka-0\" is being deleted. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
        "scheduler-pvc-being-deleted",
        &[("claim", "data-kafka-0")],
    ),
    (
        On::Event("FailedScheduling"),
        "running PreBind plugin \"VolumeBinding\": binding volumes: timed out waiting for the condition",
        "scheduler-prebind-volume-timeout",
        &[("detail", "timed out waiting for the condition")],
    ),
    (
        On::Event("FailedScheduling"),
        "running PreBind plugin \"VolumeBinding\": binding volumes: provisioning failed for PVC \"data-0\"",
        "scheduler-prebind-volume",
        &[(
            "detail",
            "binding volumes: provisioning failed for PVC \"data-0\"",
        )],
    ),
    (
        On::Event("FailedScheduling"),
        "0/5 nodes are available: 2 node(s) didn't match pod topology spread constraints (missing required label), 3 Insufficient cpu.",
        "scheduler-topology-spread-missing-label",
        &[("count", "2")],
    ),
    (
        On::Event("FailedScheduling"),
        "0/6 nodes are available: 2 Insufficient cpu, 4 node(s) didn't match pod topology spread constraints. preemption: 0/6 nodes are available: 2 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.",
        "scheduler-topology-spread",
        &[("count", "4")],
    ),
    (
        On::Event("FailedScheduling"),
        "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
        "scheduler-host-ports",
        &[("count", "1")],
    ),
    (
        On::Status("Unschedulable"),
        "0/3 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        "scheduler-untolerated-taint",
        &[
            ("count", "3"),
            ("taint", "node-role.kubernetes.io/control-plane: "),
        ],
    ),
    (
        On::Event("FailedScheduling"),
        "0/1 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate.",
        "scheduler-untolerated-taint",
        &[("old_taint", "node-role.kubernetes.io/master: ")],
    ),
    (
        On::Event("FailedScheduling"),
        "0/3 nodes are available: 3 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never.",
        "scheduler-preemption-policy-never",
        &[],
    ),
    (
        On::Event("FailedScheduling"),
        "0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node.",
        "scheduler-preemption-terminating-victim",
        &[],
    ),
    (
        On::Event("Preempted"),
        "Preempted by pod 8f3a2c1d-7e6b-4a5c-9d8e-0f1a2b3c4d5e on node worker-4",
        "scheduler-preempted-event",
        &[
            ("preemptor", "8f3a2c1d-7e6b-4a5c-9d8e-0f1a2b3c4d5e"),
            ("preempt_node", "worker-4"),
        ],
    ),
    (
        On::Event("Preempted"),
        "Preempted by payments/api-6b7d on node worker-4",
        "scheduler-preempted-event",
        &[("preemptor", "payments/api-6b7d")],
    ),
    (
        On::Status("PreemptionByScheduler"),
        "default-scheduler: preempting to accommodate a higher priority pod",
        "scheduler-preempted-condition",
        &[("scheduler", "default-scheduler")],
    ),
    (
        On::Status("PreemptionByKubeScheduler"),
        "Kube-scheduler: preempting to accommodate a higher priority pod: default/pause2",
        "scheduler-preempted-condition",
        &[
            ("scheduler", "Kube-scheduler"),
            ("preemptor", "default/pause2"),
        ],
    ),
    (
        On::Event("FailedCreate"),
        "Error creating: pods \"api-6b7d8c9f5-x2k4p\" is forbidden: exceeded quota: compute-quota, requested: requests.cpu=500m, used: requests.cpu=3800m, limited: requests.cpu=4",
        "scheduler-quota-exceeded",
        &[
            ("quota", "compute-quota"),
            ("requested", "requests.cpu=500m"),
            ("used", "requests.cpu=3800m"),
            ("limited", "requests.cpu=4"),
        ],
    ),
    (
        On::Event("FailedCreate"),
        "Error creating: pods \"api-6b7d8c9f5-x2k4p\" is forbidden: failed quota: compute-quota: must specify limits.cpu,limits.memory",
        "scheduler-quota-must-specify",
        &[
            ("quota", "compute-quota"),
            ("resources", "limits.cpu,limits.memory"),
        ],
    ),
];

fn group<'a>(hit: &'a kb::Hit, name: &str) -> Option<&'a str> {
    hit.groups
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn every_row_compiles() {
    let invalid = kb::invalid_rows();
    assert!(invalid.is_empty(), "rows that do not compile: {invalid:#?}");
}

#[test]
fn every_sample_finds_its_row_and_groups() {
    let mut failures = Vec::new();
    for (on, text, id, groups) in SAMPLES {
        let Some(hit) = kb::find(*on, text) else {
            failures.push(format!("{id}: no row for {on:?} {text:?}"));
            continue;
        };
        if hit.entry.id != *id {
            failures.push(format!("{id}: got {} for {text:?}", hit.entry.id));
            continue;
        }
        for (name, value) in *groups {
            if group(&hit, name) != Some(*value) {
                failures.push(format!(
                    "{id}: group {name} = {:?}, want {value:?}",
                    group(&hit, name)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_kubelet_and_scheduler_row_has_a_sample() {
    let sampled: Vec<&str> = SAMPLES.iter().map(|s| s.2).collect();
    let missing: Vec<&str> = kb::kubelet::ENTRIES
        .iter()
        .chain(kb::scheduler::ENTRIES)
        .map(|e| e.id)
        .filter(|id| !sampled.contains(id))
        .collect();
    assert!(missing.is_empty(), "rows without a sample: {missing:?}");
}

#[test]
fn rows_are_prefixed_by_their_table_and_unique() {
    let mut seen = std::collections::BTreeSet::new();
    for e in kb::kubelet::ENTRIES {
        assert!(e.id.starts_with("kubelet-"), "{}", e.id);
        assert!(seen.insert(e.id), "duplicate {}", e.id);
    }
    for e in kb::scheduler::ENTRIES {
        assert!(e.id.starts_with("scheduler-"), "{}", e.id);
        assert!(seen.insert(e.id), "duplicate {}", e.id);
    }
}

/// Every `{name}` of a row's meaning and action is a group the sample captured or one the caller
/// fills; nothing is left unfilled.
#[test]
fn placeholders_are_filled_for_every_sample() {
    let context = [
        ("container", "c"),
        ("pod", "p"),
        ("namespace", "ns"),
        ("node", "n"),
        ("reason", "r"),
    ];
    let mut failures = Vec::new();
    for (on, text, id, _) in SAMPLES {
        let Some(hit) = kb::find(*on, text) else {
            continue;
        };
        for filled in [hit.meaning(&context), hit.action(&context)] {
            // A jsonpath in an action (`{.status...}`) is not a placeholder.
            let left: Vec<&str> = filled
                .match_indices('{')
                .map(|(i, _)| &filled[i..])
                .filter(|rest| rest[1..].starts_with(|c: char| c.is_ascii_alphabetic()))
                .filter(|rest| {
                    let end = rest.find('}').unwrap_or(rest.len());
                    rest[1..end]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
                .collect();
            if !left.is_empty() {
                failures.push(format!("{id}: unfilled {left:?} in {filled:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

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

/// Healthy or unrelated texts of the same places find no row of these tables.
#[test]
fn unrelated_texts_find_no_kubelet_or_scheduler_row() {
    for (on, text) in [
        (
            On::Event("FailedScheduling"),
            "0/3 nodes are available: 3 Insufficient memory.",
        ),
        (On::Event("Killing"), "Stopping container web"),
        (
            On::Status("ContainersNotReady"),
            "containers with unready status: [web]",
        ),
        (
            On::Event("Unhealthy"),
            "Readiness probe failed: HTTP probe failed with statuscode: 503",
        ),
        (On::Event("Failed"), "Error: ImagePullBackOff"),
    ] {
        let hit = kb::find(on, text);
        assert!(
            hit.as_ref()
                .is_none_or(|h| !h.entry.id.starts_with("kubelet-")
                    && !h.entry.id.starts_with("scheduler-")),
            "{text:?} found {:?}",
            hit.map(|h| h.entry.id)
        );
    }
}
