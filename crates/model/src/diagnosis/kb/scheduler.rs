//! What the scheduler (and the API server's admission, for the objects that create pods) says
//! about a pod that does not get a node, beyond the `0/N nodes are available: …` histogram that
//! `scheduling::fit_error` already splits: scheduling gates, the VolumeBinding plugin's claim
//! being deleted and its PreBind timeout (unbound, missing claims, attach limits and volume zones
//! are the volumes table's), preemption (of this pod, or by it), a few per-node reasons
//! that need their own advice, and the ResourceQuota refusal that keeps a controller from
//! creating the pod at all.
//!
//! Read from the `FailedScheduling` event and the `PodScheduled` condition (reason
//! `Unschedulable` or `SchedulingGated`), the `Preempted` event and the `DisruptionTarget`
//! condition, and the owner's `FailedCreate` event. Rows are ordered specific first.

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// The scheduler's verdict on a pod it tried.
const SCHED: &[On<'static>] = &[
    On::Event("FailedScheduling"),
    On::Status("Unschedulable"),
    On::Status("SchedulerError"),
];

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    Entry {
        id: "scheduler-gated",
        on: &[On::Status("SchedulingGated")],
        pattern: r"Scheduling is blocked due to non-empty scheduling gates",
        meaning: "the scheduler does not consider the pod at all while spec.schedulingGates is not empty (no FailedScheduling events come); the controller that added the gate (a queueing system such as Kueue) must remove it",
        action: "find who owns the gate (kueue.x-k8s.io/admission: Kueue's LocalQueue named in the pod's kueue.x-k8s.io/queue-name label, kubectl get workloads -n {namespace}) and let it admit the pod",
        fix: Fix::Cluster,
        severity: Severity::Warning,
        source: "pkg/registry/core/pod/strategy.go applySchedulingGatedCondition (PodScheduled=False, reason SchedulingGated); scheduler SchedulingGates PreEnqueue plugin",
    },
    // --- volumes: what the volumes table does not read ----------------------------------
    Entry {
        id: "scheduler-pvc-being-deleted",
        on: SCHED,
        pattern: r#"persistentvolumeclaim "(?P<claim>[^"]+)" is being deleted"#,
        meaning: "PersistentVolumeClaim {claim} has a deletionTimestamp (it waits on its kubernetes.io/pvc-protection finalizer for the pods still using it); the scheduler will not place a new pod on a claim that is going away",
        action: "let the deletion finish (delete the old pods that still use {claim}), then recreate the claim",
        fix: Fix::Object,
        severity: Severity::Error,
        source: "pkg/scheduler/framework/plugins/volumebinding (`persistentvolumeclaim %q is being deleted`)",
    },
    Entry {
        id: "scheduler-prebind-volume-timeout",
        on: SCHED,
        pattern: r#"running PreBind plugin "VolumeBinding": binding volumes: (?P<detail>timed out waiting for the condition|context deadline exceeded|[^\n]*?timed out[^\n]*)"#,
        meaning: "the scheduler picked a node and asked for the pod's volumes to be provisioned or bound there, but that did not finish within the bind timeout ({detail}); the CSI provisioner is slow, failing, or cannot create a volume in that node's topology",
        action: "kubectl describe pvc -n {namespace} on the pod's claims: the provisioner's events (ProvisioningFailed, ExternalProvisioning) say why; check the CSI controller pods",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "pkg/scheduler/framework/plugins/volumebinding (PreBind, bindTimeoutSeconds default 600), schedule_one.go (`running PreBind plugin %q: %w`)",
    },
    Entry {
        id: "scheduler-prebind-volume",
        on: SCHED,
        pattern: r#"running PreBind plugin "VolumeBinding": (?P<detail>[^\n]+)"#,
        meaning: "the scheduler picked a node but could not bind or provision the pod's volumes there: {detail}",
        action: "kubectl describe pvc -n {namespace} on the pod's claims and check the storage provisioner's events and logs",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "pkg/scheduler/schedule_one.go (`running PreBind plugin %q: %w`), volumebinding PreBind",
    },
    // --- per-node reasons with their own remedy -------------------------------------------
    Entry {
        id: "scheduler-topology-spread-missing-label",
        on: SCHED,
        pattern: r"(?P<count>\d+) node\(s\) didn't match pod topology spread constraints \(missing required label\)",
        meaning: "{count} nodes lack the label named by a topologyKey of the pod's topologySpreadConstraints, so they belong to no topology domain and cannot take the pod",
        action: "label those nodes with the topologyKey (kubectl get nodes -L <topologyKey>) or use a topologyKey every node has",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (ErrReasonNodeLabelNotMatch)",
    },
    Entry {
        id: "scheduler-topology-spread",
        on: SCHED,
        pattern: r"(?P<count>\d+) node\(s\) didn't match pod topology spread constraints",
        meaning: "placing the pod on those {count} nodes would make the count of matching pods in their topology domain exceed the least-filled eligible domain by more than maxSkew (whenUnsatisfiable: DoNotSchedule); the other reasons in the message usually say why the emptier domains cannot take it",
        action: "add room in the emptier domains (the nodes listed under the other reasons), or relax the constraint: whenUnsatisfiable: ScheduleAnyway or a larger maxSkew",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (ErrReasonConstraintsNotMatch `node(s) didn't match pod topology spread constraints`)",
    },
    Entry {
        id: "scheduler-host-ports",
        on: SCHED,
        pattern: r"(?P<count>\d+) node\(s\) didn't have free ports for the requested pod ports",
        meaning: "on {count} nodes another pod already holds a hostPort (same port, protocol and hostIP) the pod asks for; with a Deployment that is often the previous replica during a rolling update",
        action: "for hostPort workloads use a DaemonSet or strategy Recreate (or maxSurge 0), or drop hostPort and publish the port through a Service",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/scheduler/framework/plugins/nodeports/node_ports.go (ErrReason `node(s) didn't have free ports for the requested pod ports`)",
    },
    Entry {
        id: "scheduler-untolerated-taint",
        on: SCHED,
        pattern: r"(?P<count>\d+) node\(s\) had (?:untolerated taint \{(?P<taint>[^}]*)\}|taints? \{(?P<old_taint>[^}]*)\}, that the pod didn't tolerate)",
        meaning: "{count} nodes carry a NoSchedule/NoExecute taint the pod has no toleration for (control-plane nodes are tainted node-role.kubernetes.io/control-plane by kubeadm)",
        action: "add a toleration for that taint to the pod template if it may run there, or remove the taint from the node (kubectl taint nodes NODE KEY-) — or add worker nodes",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go (`node(s) had untolerated taint {%s: %s}`; before v1.25 `node(s) had taint {%s: %s}, that the pod didn't tolerate`)",
    },
    // --- preemption ------------------------------------------------------------------------
    Entry {
        id: "scheduler-preemption-policy-never",
        on: SCHED,
        pattern: r"preemption: not eligible due to preemptionPolicy=Never",
        meaning: "the pod may not preempt others (preemptionPolicy: Never in its PriorityClass), so it waits until room appears by itself",
        action: "free or add capacity for it, or give it a PriorityClass with preemptionPolicy PreemptLowerPriority",
        fix: Fix::Cluster,
        severity: Severity::Warning,
        source: "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go PodEligibleToPreemptOthers (`not eligible due to preemptionPolicy=Never.`)",
    },
    Entry {
        id: "scheduler-preemption-terminating-victim",
        on: SCHED,
        pattern: r"preemption: not eligible due to a terminating pod on the nominated node",
        meaning: "the pod already preempted pods on its nominated node and waits for them to finish terminating; it is placed there once they are gone",
        action: "wait for the victims' grace period to end; if they stay Terminating, see why they do not stop",
        fix: Fix::Retry,
        severity: Severity::Info,
        source: "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go PodEligibleToPreemptOthers (`not eligible due to a terminating pod on the nominated node.`)",
    },
    Entry {
        id: "scheduler-preempted-event",
        on: &[On::Event("Preempted")],
        pattern: r"Preempted by (?:pod )?(?P<preemptor>\S+) on node (?P<preempt_node>\S+)",
        meaning: "the scheduler deleted this pod from node {preempt_node} to make room for a higher-priority pod ({preemptor}); it is a regular graceful deletion, not a failure of the pod",
        action: "nothing to fix in the pod; if it must not be preempted give it a higher PriorityClass, and for a Job add a podFailurePolicy rule that ignores the DisruptionTarget condition",
        fix: Fix::Cluster,
        severity: Severity::Warning,
        source: "pkg/scheduler/framework/preemption/preemption.go (event Preempted, `Preempted by pod %v on node %v`)",
    },
    Entry {
        id: "scheduler-preempted-condition",
        on: &[
            On::Status("PreemptionByScheduler"),
            On::Status("PreemptionByKubeScheduler"),
        ],
        pattern: r"(?P<scheduler>[\w.-]+): preempting to accommodate a higher priority pod(?: group| workload)?(?:: (?P<preemptor>\S+))?",
        meaning: "the scheduler {scheduler} chose this pod as a preemption victim and deleted it to make room for a higher-priority pod; it is a regular graceful deletion, not a failure of the pod",
        action: "nothing to fix in the pod; if it must not be preempted give it a higher PriorityClass, and for a Job add a podFailurePolicy rule that ignores the DisruptionTarget condition",
        fix: Fix::Cluster,
        severity: Severity::Warning,
        source: "pkg/scheduler/framework/preemption/preemption.go (DisruptionTarget, reason PreemptionByScheduler, `%s: preempting to accommodate a higher priority pod`; v1.26: PreemptionByKubeScheduler)",
    },
    // --- the owner could not create the pod ----------------------------------------------
    Entry {
        id: "scheduler-quota-exceeded",
        on: &[On::Event("FailedCreate")],
        pattern: r"exceeded quota: (?P<quota>[\w.-]+), requested: (?P<requested>[^\n]+?), used: (?P<used>[^\n]+?), limited: (?P<limited>[^\n]+)",
        meaning: "the API server refused to create the pod: ResourceQuota {quota} in {namespace} would be exceeded (requested {requested}, used {used}, limited {limited}); the controller retries, and no pod exists to schedule",
        action: "kubectl describe resourcequota {quota} -n {namespace}: free quota (delete finished pods, lower requests) or raise the quota",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "plugin/pkg/admission/resourcequota/controller.go (`exceeded quota: %s, requested: %s, used: %s, limited: %s`), surfaced by the ReplicaSet/Job controller as FailedCreate",
    },
    Entry {
        id: "scheduler-quota-must-specify",
        on: &[On::Event("FailedCreate")],
        pattern: r"failed quota: (?P<quota>[\w.-]+): must specify (?P<resources>[\w.,/-]+)",
        meaning: "the API server refused to create the pod: ResourceQuota {quota} in {namespace} constrains {resources}, so every container must declare them, and the template does not",
        action: "set {resources} on every container of the template, or add a LimitRange with defaults in {namespace}",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "plugin/pkg/admission/resourcequota/controller.go (`failed quota: %s: must specify %s`)",
    },
];
