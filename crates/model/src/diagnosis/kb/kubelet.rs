//! The kubelet's own messages: lifecycle hooks (`pkg/kubelet/lifecycle/handlers.go`,
//! `kuberuntime_container.go`), admission refusals (`pkg/kubelet/lifecycle/predicate.go`, the
//! sysctl allowlist, the device and topology managers, AppArmor, graceful node shutdown), the
//! pod's active deadline (`active_deadline.go`), local-storage and node-pressure eviction
//! (`pkg/kubelet/eviction/helpers.go`), readiness gates (`pkg/kubelet/status/generate.go`),
//! probes that could not run (`pkg/kubelet/prober`), and a few node-side failures it reports on
//! the pod (killing, image garbage collection, a runtime too slow to create a container).
//!
//! Read from the pod's `status.message` and conditions (by `status.reason` / condition reason),
//! from a container's waiting message, and from the kubelet's events. Rows are ordered specific
//! first: a hook's exit 126/127/137 before any hook failure, the emptyDir and ephemeral-storage
//! limits before node pressure.

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// Where a postStart hook failure is read: the waiting message (current kubelets) and the event
/// (kubelets before v1.26 put the whole hook message there).
const POST_START: &[On<'static>] = &[
    On::Waiting("PostStartHookError"),
    On::Event("FailedPostStartHook"),
];

/// Where a preStop hook failure is read: only the event (the kubelet logs the rest).
const PRE_STOP: &[On<'static>] = &[On::Event("FailedPreStopHook")];

/// Either hook: the message names the handler, not the hook.
const ANY_HOOK: &[On<'static>] = &[
    On::Waiting("PostStartHookError"),
    On::Event("FailedPostStartHook"),
    On::Event("FailedPreStopHook"),
];

/// The kubelet's admission refusals, as `status.reason` (message prefixed `Pod was rejected: `)
/// and as the event it records with the same reason.
const OUT_OF: &[On<'static>] = &[
    On::Status("OutOfcpu"),
    On::Status("OutOfmemory"),
    On::Status("OutOfpods"),
    On::Status("OutOfephemeral-storage"),
    On::Status(""),
    On::Event("OutOfcpu"),
    On::Event("OutOfmemory"),
    On::Event("OutOfpods"),
    On::Event("OutOfephemeral-storage"),
];

const EVICTED: &[On<'static>] = &[On::Status("Evicted"), On::Event("Evicted")];

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    // --- postStart: the hook's own exit code ------------------------------------------------
    Entry {
        id: "kubelet-poststart-hook-not-executable",
        on: POST_START,
        pattern: r#"Exec lifecycle hook \((?P<command>\[[^\n]*?\])\) for Container "[^"]*" in Pod "[^"]*" failed - error: command '(?P<cmdline>[^']*)' exited with (?P<code>126)\b"#,
        meaning: "the postStart hook of {container} ({cmdline}) exited with 126: the shell found the hook's program but could not execute it (no execute permission, e.g. a script from a ConfigMap volume with defaultMode 0644, or a directory); the kubelet kills a container whose postStart hook fails and restarts it, so {container}'s own exit code (137/143) is the kill's, not the application's",
        action: "make the hook's program executable (ConfigMap/Secret volume defaultMode: 0755, or chmod +x in the image) or call it through the interpreter (sh /path/script.sh) in lifecycle.postStart of {container}",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/lifecycle/handlers.go (Exec lifecycle hook message), CRI ExecSync exit code via remote_runtime.go (`command '...' exited with N: <stderr>`), kuberuntime_container.go startContainer (kill on FailedPostStartHook); POSIX sh exit 126",
    },
    Entry {
        id: "kubelet-poststart-hook-not-found",
        on: POST_START,
        pattern: r#"Exec lifecycle hook \((?P<command>\[[^\n]*?\])\) for Container "[^"]*" in Pod "[^"]*" failed - error: command '(?P<cmdline>[^']*)' exited with (?P<code>127)\b"#,
        meaning: "the postStart hook of {container} ({cmdline}) exited with 127: the shell did not find the hook's program (not in the image, not on PATH, or a volume that is not mounted); the kubelet kills a container whose postStart hook fails and restarts it, so {container}'s own exit code is the kill's, not the application's",
        action: "fix the command in lifecycle.postStart of {container}: use a program that exists in the image (check with kubectl debug or the image's filesystem) or mount the volume that provides it",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/lifecycle/handlers.go, remote_runtime.go ExecSync; POSIX sh exit 127 (command not found)",
    },
    Entry {
        id: "kubelet-poststart-hook-exec",
        on: POST_START,
        pattern: r#"Exec lifecycle hook \((?P<command>\[[^\n]*?\])\) for Container "[^"]*" in Pod "[^"]*" failed - error: (?:command '(?P<cmdline>[^']*)' exited with (?P<code>\d+)|(?P<error>[^\n]+?), message:)"#,
        meaning: "the postStart hook of {container} ({command}) failed; the kubelet runs the hook right after starting the container, kills the container when the hook fails (Killing: FailedPostStartHook) and restarts it under the restart policy, so {container} never becomes Running and its own exit code is the kill's",
        action: "read the hook's output in the waiting message of {container} and make lifecycle.postStart succeed (or tolerate its failure with `|| true` if the step is optional)",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/lifecycle/handlers.go (`Exec lifecycle hook (%v) for Container %q in Pod %q failed - error: %v, message: %q`), kuberuntime_container.go startContainer",
    },
    Entry {
        id: "kubelet-poststart-hook-http",
        on: POST_START,
        pattern: r#"HTTP lifecycle hook \((?P<path>[^)\n]*)\) for Container "[^"]*" in Pod "[^"]*" failed - error: (?P<error>[^\n]+)"#,
        meaning: "the postStart HTTP hook of {container} (GET {path}) failed: {error}; the kubelet sends it as soon as the container starts, usually before the application listens, and kills the container when it fails",
        action: "replace the httpGet postStart hook of {container} with an exec hook that retries until the application answers, or drop the hook and do the work in the application's start-up",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/lifecycle/handlers.go runHTTPHandler (`HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: %v`; `Http` before v1.23)",
    },
    Entry {
        id: "kubelet-poststart-hook-generic",
        on: &[
            On::Event("FailedPostStartHook"),
            On::Waiting("PostStartHookError"),
        ],
        pattern: r"^(?:PostStartHook failed)?\s*$",
        meaning: "the postStart hook of {container} failed; current kubelets keep the hook's output out of the event (it may hold secrets) and the kubelet kills and restarts the container after each failure",
        action: "read the hook's command and output in the waiting message of {container} (kubectl get pod {pod} -n {namespace} -o jsonpath='{.status.containerStatuses[*].state.waiting.message}') and fix lifecycle.postStart",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "kuberuntime_container.go startContainer: recordContainerEvent(FailedPostStartHook, \"PostStartHook failed\")",
    },
    // --- preStop ---------------------------------------------------------------------------
    Entry {
        id: "kubelet-prestop-hook-killed",
        on: PRE_STOP,
        pattern: r#"Exec lifecycle hook \((?P<command>\[[^\n]*?\])\) for Container "[^"]*" in Pod "[^"]*" failed - error: command '(?P<cmdline>[^']*)' exited with (?P<code>137)\b"#,
        meaning: "the preStop hook of {container} ({cmdline}) was killed (exit 137): either the grace period ran out while it ran, so the kubelet stopped the container and the hook with it, or the hook itself stopped the container's main process; the kubelet sends SIGTERM only after the hook returns, within terminationGracePeriodSeconds",
        action: "make the preStop hook of {container} finish well inside terminationGracePeriodSeconds (or raise the grace period above the hook's longest run plus the shutdown time)",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "kuberuntime_container.go killContainer/executePreStopHook (hook bounded by the grace period, then StopContainer with at least 2 s), pkg/kubelet/lifecycle/handlers.go",
    },
    Entry {
        id: "kubelet-prestop-hook-exec",
        on: PRE_STOP,
        pattern: r#"Exec lifecycle hook \((?P<command>\[[^\n]*?\])\) for Container "[^"]*" in Pod "[^"]*" failed - error: (?:command '(?P<cmdline>[^']*)' exited with (?P<code>\d+)|(?P<error>[^\n]+?), message:)"#,
        meaning: "the preStop hook of {container} ({command}) failed; the kubelet then goes on with the stop (SIGTERM) at once, so whatever the hook was meant to do before shutdown (draining, deregistering) did not happen",
        action: "run the preStop command of {container} by hand (kubectl exec) to see why it fails, and fix lifecycle.preStop",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "pkg/kubelet/lifecycle/handlers.go, kuberuntime_container.go executePreStopHook",
    },
    Entry {
        id: "kubelet-prestop-hook-http",
        on: PRE_STOP,
        pattern: r#"HTTP lifecycle hook \((?P<path>[^)\n]*)\) for Container "[^"]*" in Pod "[^"]*" failed - error: (?P<error>[^\n]+)"#,
        meaning: "the preStop HTTP hook of {container} (GET {path}) failed: {error}; the kubelet then sends SIGTERM at once, without the shutdown step the hook was meant to trigger",
        action: "point the httpGet preStop hook of {container} at a path and port the application serves (the port must be the container's, resolved by name from its ports)",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "pkg/kubelet/lifecycle/handlers.go runHTTPHandler, kuberuntime_container.go executePreStopHook",
    },
    Entry {
        id: "kubelet-prestop-hook-generic",
        on: PRE_STOP,
        pattern: r"^(?:PreStopHook failed)?\s*$",
        meaning: "the preStop hook of {container} failed or was cut off at the end of the grace period; current kubelets keep the hook's output out of the event, and the container was stopped anyway",
        action: "run the preStop command of {container} by hand (kubectl exec) and compare its duration with terminationGracePeriodSeconds; the kubelet's log on {node} has the hook's error",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "kuberuntime_container.go executePreStopHook: recordContainerEvent(FailedPreStopHook, \"PreStopHook failed\")",
    },
    Entry {
        id: "kubelet-sleep-hook",
        on: ANY_HOOK,
        pattern: r#"Sleep lifecycle hook \((?P<seconds>\d+)\) for Container "[^"]*" in Pod "[^"]*" failed - error: (?P<error>[^\n]+)"#,
        meaning: "the sleep hook of {container} ({seconds} s) did not finish: {error} — the container stopped first, or the grace period ended",
        action: "keep the sleep of {container}'s hook shorter than terminationGracePeriodSeconds",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "pkg/kubelet/lifecycle/handlers.go runSleepHandler (`container terminated before sleep hook finished`)",
    },
    // --- admission refusals -----------------------------------------------------------------
    Entry {
        id: "kubelet-sysctl-forbidden",
        on: &[On::Status("SysctlForbidden"), On::Event("SysctlForbidden")],
        pattern: r#"forbidden sysctl: "(?P<sysctl>[^"]+)" not (?:allowlisted|whitelisted)"#,
        meaning: "the kubelet on {node} refused the pod before starting anything: sysctl {sysctl} in securityContext.sysctls is not in the safe set and not in that kubelet's allowed unsafe sysctls; the pod is Failed and will not be retried",
        action: "allow it on the nodes meant for this workload (kubelet --allowed-unsafe-sysctls / allowedUnsafeSysctls: {sysctl}) and steer the pod there, or remove {sysctl} from the pod's securityContext.sysctls",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "pkg/kubelet/sysctl/allowlist.go (ForbiddenReason SysctlForbidden, `forbidden sysctl: %q not allowlisted`), kubelet.go rejectPod (`Pod was rejected: `)",
    },
    Entry {
        id: "kubelet-sysctl-host-namespace",
        on: &[On::Status("SysctlForbidden"), On::Event("SysctlForbidden")],
        pattern: r#"forbidden sysctl: "(?P<sysctl>[^"]+)" not allowed with host (?P<hostns>net|ipc) enabled"#,
        meaning: "the kubelet on {node} refused the pod: sysctl {sysctl} is namespaced by the {hostns} namespace, which the pod shares with the host (hostNetwork/hostIPC), so setting it would change the node",
        action: "remove {sysctl} from securityContext.sysctls, or stop sharing the host's {hostns} namespace",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/sysctl/allowlist.go validateSysctl (`%q not allowed with host %s enabled`)",
    },
    Entry {
        id: "kubelet-out-of-resource",
        on: OUT_OF,
        pattern: r"Node didn't have enough resource: (?P<resource>[\w./-]+), requested: (?P<requested>\d+), used: (?P<used>\d+), capacity: (?P<capacity>\d+)",
        meaning: "the kubelet on {node} refused the pod at admission: with the pods already admitted there ({used} used) its request of {requested} {resource} exceeds the node's allocatable {capacity}; the scheduler's view and the kubelet's disagreed (a pod bound with spec.nodeName, a static pod, or pods the scheduler had not yet seen finish) and the pod is Failed, not retried",
        action: "delete the Failed pod and let the scheduler place its replacement (do not set spec.nodeName by hand; use nodeSelector or affinity), or lower the request of {resource}",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "pkg/kubelet/lifecycle/predicate.go (OutOfcpu, OutOfmemory, OutOfpods, OutOf<resource>; InsufficientResourceError `Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d`)",
    },
    Entry {
        id: "kubelet-admission-predicate",
        on: &[
            On::Status("NodeAffinity"),
            On::Status("NodeName"),
            On::Status("NodePorts"),
            On::Status("TaintToleration"),
            On::Event("NodeAffinity"),
            On::Event("NodeName"),
            On::Event("NodePorts"),
            On::Event("TaintToleration"),
        ],
        pattern: r"Predicate (?P<predicate>\w+) failed",
        meaning: "the kubelet on {node} re-checked the scheduler's {predicate} filter and the pod failed it: the node's labels, taints or ports no longer match the pod (changed since scheduling, or the pod was bound with spec.nodeName); the pod is Failed and not retried",
        action: "compare the node with the pod (kubectl get node {node} --show-labels; kubectl describe node {node}) and delete the Failed pod so its controller creates one the scheduler places",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "pkg/kubelet/lifecycle/predicate.go generalFilter (PredicateFailureError `Predicate %s failed`)",
    },
    Entry {
        id: "kubelet-admission-devices",
        on: &[
            On::Status("UnexpectedAdmissionError"),
            On::Event("UnexpectedAdmissionError"),
        ],
        pattern: r"requested number of devices unavailable for (?P<resource>[^\s.]+(?:\.[^\s.]+)*)\. Requested: (?P<requested>\d+), Available: (?P<available>\d+)",
        meaning: "the kubelet on {node} could not give the pod {requested} {resource} (only {available} free in its device plugin): the devices the scheduler counted are held by other pods or the device plugin re-registered (after a kubelet or plugin restart); the pod is Failed, not retried",
        action: "check the device plugin on {node} (kubectl describe node {node}: Allocatable and Allocated {resource}) and delete the Failed pod so its controller schedules a new one",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "pkg/kubelet/cm/devicemanager/manager.go (`requested number of devices unavailable for %s. Requested: %d, Available: %d`), pkg/kubelet/cm/admission (UnexpectedAdmissionError `Allocate failed due to %v, which is unexpected`)",
    },
    Entry {
        id: "kubelet-admission-unexpected",
        on: &[
            On::Status("UnexpectedAdmissionError"),
            On::Event("UnexpectedAdmissionError"),
        ],
        pattern: r"Allocate failed due to (?P<detail>[^\n]+?), which is unexpected",
        meaning: "the kubelet on {node} failed to allocate the pod's CPUs, memory or devices at admission ({detail}); the pod is Failed and not retried",
        action: "read the kubelet's log on {node} for the resource manager named in the message and delete the Failed pod once the node is healthy",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "pkg/kubelet/cm/admission/errors.go, cpumanager/memorymanager/devicemanager Allocate",
    },
    Entry {
        id: "kubelet-admission-topology",
        on: &[
            On::Status("TopologyAffinityError"),
            On::Event("TopologyAffinityError"),
        ],
        pattern: r"Resources cannot be allocated with Topology locality",
        meaning: "the kubelet on {node} refused the pod: its topology manager policy (single-numa-node or restricted) found no NUMA alignment for the pod's CPUs, memory and devices; the pod is Failed, and the scheduler does not see NUMA topology, so it may pick the same node again",
        action: "lower the pod's exclusive CPUs/devices so they fit one NUMA node, or schedule it on nodes with a looser topology manager policy",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "pkg/kubelet/cm/topologymanager (TopologyAffinityError, `Resources cannot be allocated with Topology locality`)",
    },
    Entry {
        id: "kubelet-apparmor",
        on: &[On::Status("AppArmor"), On::Event("AppArmor")],
        pattern: r"Cannot enforce AppArmor: (?P<detail>[^\n]+)",
        meaning: "the kubelet on {node} refused the pod because it cannot enforce the AppArmor confinement the pod asks for ({detail}): AppArmor is off on that node or the profile is unusable there (an unloaded Localhost profile is read by the runtime table)",
        action: "run the pod on nodes with AppArmor enabled and the profile loaded (apparmor_parser), or drop the AppArmor profile from its securityContext, then recreate the pod",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "pkg/kubelet/lifecycle/handlers.go appArmorAdmitHandler (`Cannot enforce AppArmor: %v`)",
    },
    // --- node shutdown, deadline ---------------------------------------------------------
    Entry {
        id: "kubelet-node-shutdown",
        on: &[
            On::Status("Terminated"),
            On::Status("Shutdown"),
            On::Status("TerminationByKubelet"),
            On::Status(""),
        ],
        pattern: r"Pod was terminated in response to (?:imminent )?node shutdown|Node is shutting, evicting pods",
        meaning: "the kubelet stopped the pod because node {node} was shutting down (graceful node shutdown); the exit codes of its containers (143, 137) are that stop, not a failure of the application, and the pod stays Failed until deleted",
        action: "nothing to fix in the pod: its controller replaces it; delete the Failed object (kubectl delete pod {pod} -n {namespace}) and, if shutdowns cut work short, raise the kubelet's shutdownGracePeriod",
        fix: Fix::Retry,
        severity: Severity::Warning,
        source: "pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go (reason Terminated, `Pod was terminated in response to imminent node shutdown.`; before v1.22 reason Shutdown, `Node is shutting, evicting pods`; DisruptionTarget TerminationByKubelet)",
    },
    Entry {
        id: "kubelet-node-shutdown-rejected",
        on: &[On::Status("NodeShutdown"), On::Event("NodeShutdown")],
        pattern: r"Pod was rejected as the node is shutting down|Node is in progress of shutting down",
        meaning: "the kubelet on {node} refused the pod because the node was shutting down; the pod is Failed and its controller creates another one elsewhere",
        action: "nothing to fix in the pod: delete the Failed object; a pod bound with spec.nodeName must be recreated once {node} is back",
        fix: Fix::Retry,
        severity: Severity::Warning,
        source: "pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go Admit (NodeShutdown, `Pod was rejected as the node is shutting down.`)",
    },
    Entry {
        id: "kubelet-active-deadline",
        on: &[
            On::Status("DeadlineExceeded"),
            On::Event("DeadlineExceeded"),
        ],
        pattern: r"Pod was active on the node longer than the specified deadline",
        meaning: "the kubelet stopped the pod because it ran longer than its spec.activeDeadlineSeconds (counted from status.startTime, restarts included); the pod is Failed for good and the exit codes of its containers are that stop",
        action: "raise activeDeadlineSeconds in the pod template (or the Job/workflow step that sets it) or make the work fit the deadline",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/active_deadline.go (reason DeadlineExceeded, `Pod was active on the node longer than the specified deadline`)",
    },
    // --- eviction: limits of the pod itself first, then node pressure ----------------------
    Entry {
        id: "kubelet-evicted-emptydir-limit",
        on: EVICTED,
        pattern: r#"Usage of EmptyDir volume "(?P<volume>[^"]+)" exceeds the limit "(?P<limit>[^"]+)""#,
        meaning: "the kubelet evicted the pod because its emptyDir volume {volume} held more than its sizeLimit {limit}; this is the pod's own limit, not a node shortage",
        action: "raise emptyDir.sizeLimit of volume {volume}, or make the writer clean up (logs, caches, temporary files) so it stays under {limit}",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/eviction/helpers.go emptyDirMessageFmt (`Usage of EmptyDir volume %q exceeds the limit %q. `), eviction_manager.go emptyDirLimitEviction",
    },
    Entry {
        id: "kubelet-evicted-container-ephemeral-limit",
        on: EVICTED,
        pattern: r#"Container (?P<culprit>\S+) exceeded its local ephemeral storage limit "(?P<limit>[^"]+)""#,
        meaning: "the kubelet evicted the pod because container {culprit} wrote more to its writable layer and logs than its ephemeral-storage limit {limit}",
        action: "raise resources.limits.ephemeral-storage of {culprit}, or move what it writes to a volume (emptyDir with a sizeLimit, a PVC)",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/eviction/helpers.go containerEphemeralStorageMessageFmt (`Container %s exceeded its local ephemeral storage limit %q. `)",
    },
    Entry {
        id: "kubelet-evicted-pod-ephemeral-limit",
        on: EVICTED,
        pattern: r"Pod ephemeral local storage usage exceeds the total limit of containers (?P<limit>[0-9]+(?:\.[0-9]+)?[A-Za-z]*)",
        meaning: "the kubelet evicted the pod because its containers' writable layers, logs and emptyDir volumes together used more than the sum of their ephemeral-storage limits ({limit})",
        action: "raise the containers' resources.limits.ephemeral-storage or find what fills the pod's local storage (emptyDir volumes, logs, files written to the image's filesystem)",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/eviction/helpers.go podEphemeralStorageMessageFmt (`Pod ephemeral local storage usage exceeds the total limit of containers %s. `)",
    },
    Entry {
        id: "kubelet-evicted-node-low",
        on: EVICTED,
        pattern: r"The node was low on resource: (?P<resource>[\w.-]+)\.(?:\s*Threshold quantity: (?P<threshold>[^,\s]+), available: (?P<available>[^.\s]+)\.)?(?:\s*Container (?P<culprit>\S+) was using (?P<usage>[^,\s]+), (?:which exceeds its request of|request is) (?P<request>[^,.\s]+))?",
        meaning: "the kubelet on {node} evicted the pod to reclaim {resource} for the node (node-pressure eviction): the node went below its eviction threshold, and pods using more {resource} than they request are evicted first",
        action: "set requests that match the pod's real use of {resource} (pods within their requests are evicted last) and look at what fills the node (kubectl describe node {node})",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/kubelet/eviction/helpers.go nodeLowMessageFmt, thresholdMetMessageFmt, containerMessageFmt (old `which exceeds its request of %s`, new `request is %s, has larger consumption of %v`)",
    },
    Entry {
        id: "kubelet-evicted-node-condition",
        on: EVICTED,
        pattern: r"The node had condition: \[?(?P<condition>\w+)\]?\.",
        meaning: "the kubelet on {node} evicted the pod because the node had condition {condition} (node-pressure eviction at admission or while running)",
        action: "find what exhausts the node (kubectl describe node {node}) and let the controller place the replacement elsewhere; delete the Failed object",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "pkg/kubelet/eviction/helpers.go nodeConditionMessageFmt (`The node had condition: %v. `)",
    },
    // --- readiness gates ------------------------------------------------------------------
    Entry {
        id: "kubelet-readiness-gate-missing",
        on: &[On::Status("ReadinessGatesNotReady")],
        pattern: r#"corresponding condition of pod readiness gate "(?P<gate>[^"]+)" does not exist"#,
        meaning: "the pod is not Ready although its containers may be: readiness gate {gate} has no condition in the pod's status, and only the controller that owns that condition type can set it; the kubelet does not",
        action: "find the controller that sets {gate} (for target-health.elbv2.k8s.aws gates the AWS Load Balancer Controller and a TargetGroupBinding) and check it serves this pod, or remove the gate from the pod template",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "pkg/kubelet/status/generate.go GeneratePodReadyCondition (ReadinessGatesNotReady, `corresponding condition of pod readiness gate %q does not exist.`)",
    },
    Entry {
        id: "kubelet-readiness-gate-false",
        on: &[On::Status("ReadinessGatesNotReady")],
        pattern: r#"the status of pod readiness gate "(?P<gate>[^"]+)" is not "True", but (?P<gate_status>\w+)"#,
        meaning: "the pod is not Ready because the controller behind readiness gate {gate} reports {gate_status} for it (for a load balancer gate: the target is not healthy or not registered yet)",
        action: "read the message of the {gate} condition in the pod's status and the owning controller's view of the pod (for target-health.elbv2.k8s.aws: the target group's health checks)",
        fix: Fix::Cluster,
        severity: Severity::Warning,
        source: "pkg/kubelet/status/generate.go (`the status of pod readiness gate %q is not \"True\", but %v`)",
    },
    // --- node-side failures reported on the pod ------------------------------------------
    Entry {
        id: "kubelet-failed-kill-pod",
        on: &[On::Event("FailedKillPod")],
        pattern: r"error killing pod: (?P<detail>[^\n]+)",
        meaning: "the kubelet on {node} could not stop the pod's containers or its sandbox: {detail}; the pod stays Terminating until the runtime or the CNI plugin lets it finish, and the kubelet keeps retrying",
        action: "look at the container runtime and the CNI plugin on {node} (journalctl -u containerd / -u kubelet); a forced delete only removes the API object, not what still runs on the node",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "pkg/kubelet/pod_workers.go / kubelet.go killPod (events.FailedToKillPod `error killing pod: %v`)",
    },
    Entry {
        id: "kubelet-image-gc-failed",
        on: &[On::Event("ImageGCFailed"), On::Event("FreeDiskSpaceFailed")],
        pattern: r"(?:failed to garbage collect required amount of images\. (?:Attempted|Wanted)|wanted) to free (?P<wanted>\d+) bytes, but (?:only found|freed) (?P<freed>\d+) bytes",
        meaning: "the image filesystem of {node} is above the kubelet's image GC high threshold and removing unused images freed {freed} of the {wanted} bytes it needed: the space is taken by images in use or by other data, and the node moves towards disk pressure (evictions, no new pods)",
        action: "free disk on {node}: kubectl describe node {node} (DiskPressure), crictl images / du on the runtime's directory, remove what is not images (logs, emptyDirs) or grow the disk",
        fix: Fix::Node,
        severity: Severity::Warning,
        source: "pkg/kubelet/images/image_gc_manager.go (`Failed to garbage collect required amount of images. Attempted to free %d bytes, but only found %d bytes eligible to free.`), kubelet.go events ImageGCFailed",
    },
    // --- probes that could not run -------------------------------------------------------
    Entry {
        id: "kubelet-probe-command-missing",
        on: &[On::Event("Unhealthy")],
        pattern: r#"(?P<probe>Liveness|Readiness|Startup) probe errored[^\n]*?exec: "(?P<cmd>[^"]+)": executable file not found"#,
        meaning: "the {probe} probe of {container} runs \"{cmd}\", which is not in the container's image (a distroless or scratch image has no shell): the probe can never succeed, and the kubelet counts every attempt as a failure",
        action: "use an httpGet, tcpSocket or grpc probe, or a command the image has (its own binary), instead of \"{cmd}\"",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "pkg/kubelet/prober/prober.go (`%s probe errored: %v`); runc `exec: \"%s\": executable file not found in $PATH` for a missing probe command",
    },
    Entry {
        id: "kubelet-probe-errored",
        on: &[On::Event("Unhealthy")],
        pattern: r"(?P<probe>Liveness|Readiness|Startup) probe errored(?: and resulted in unknown state)?: (?P<error>[^\n]+)",
        meaning: "the kubelet could not run the {probe} probe of {container} at all ({error}): the runtime refused the exec or the container was stopping; an error counts as a failure, so it can still restart (liveness) or unready (readiness) the container without the check having said anything about the application",
        action: "check that {container} is running and the runtime on {node} answers exec (crictl exec); if the errors come only while the container stops, they are harmless",
        fix: Fix::Node,
        severity: Severity::Warning,
        source: "pkg/kubelet/prober/prober.go runProbeWithRetries / probe (`%s probe errored: %v`)",
    },
    Entry {
        id: "kubelet-probe-warning",
        on: &[On::Event("ProbeWarning")],
        pattern: r"(?P<probe>Liveness|Readiness|Startup) probe warning: (?P<warning>[^\n]+)",
        meaning: "the {probe} probe of {container} passed but with a warning ({warning}): for example an HTTP redirect to another host that the kubelet did not follow and counted as success",
        action: "point the probe of {container} at a path that answers 2xx directly, so its result means what it says",
        fix: Fix::Spec,
        severity: Severity::Info,
        source: "pkg/kubelet/prober/prober.go (ProbeWarning `%s probe warning: %s`), pkg/probe/http/http.go (`Probe terminated redirects`)",
    },
];
