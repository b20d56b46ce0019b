//! Messages of the kubelet (probes, lifecycle hooks, admission, shutdown, eviction, readiness
//! gates, node-side failures), each with the kubelet row it must meet.

use podscope_model::diagnosis::kb::On;

use super::Sample;

pub(super) const SAMPLES: &[Sample] = &[
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
];
