//! Messages of the scheduler and the pod's scheduling conditions, each with the scheduler row
//! it must meet.

use podscope_model::diagnosis::kb::On;

use super::Sample;

pub(super) const SAMPLES: &[Sample] = &[
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
