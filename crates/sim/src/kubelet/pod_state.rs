//! The kubelet's in-memory state of one pod it runs ([`PodRun`]): per-container instances (role,
//! state, restarts, probes, the program chosen for it) and pod flags (sandbox, deletion).

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Container, ContainerStatus, Pod};

use crate::runtime::loops::Loop;
use crate::runtime::programs::Program;

/// Where a container sits in the start order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// `initContainers[]` without `restartPolicy: Always`.
    Init,
    /// `initContainers[]` with `restartPolicy: Always` (native sidecar).
    Sidecar,
    /// `containers[]`.
    Main,
    /// `ephemeralContainers[]`: started once, whatever the start order, never restarted
    /// (`docs/simulator-kubelet.md` §2).
    Ephemeral,
}

/// A finished instance (`state.terminated` / `lastState.terminated`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Term {
    pub exit_code: i32,
    pub reason: String,
    pub started_at: Timestamp,
    pub finished_at: Timestamp,
    pub container_id: String,
}

/// `state` of a container.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RunState {
    /// `waiting` with `reason` and optional `message`.
    Waiting {
        reason: String,
        message: Option<String>,
    },
    /// `running` since `started_at`.
    Running { started_at: Timestamp },
    /// `terminated`.
    Terminated(Term),
}

/// Consecutive probe results of one probe.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Streak {
    pub successes: i32,
    pub failures: i32,
}

/// One container of the pod.
#[derive(Debug, Clone)]
pub(crate) struct ContainerRun {
    pub spec: Container,
    pub role: Role,
    pub program: Program,
    pub state: RunState,
    pub last: Option<Term>,
    pub restart_count: i32,
    /// An instance has existed (so the next start is a restart).
    pub ever_started: bool,
    pub ready: bool,
    /// `started`: the startupProbe passed (or there is none) for the current instance.
    pub started: bool,
    /// Bumped at every start and exit; queued work for an older generation is dropped.
    pub generation: u64,
    /// A pull or create is in flight.
    pub busy: bool,
    /// A stop signal was sent to the current instance.
    pub stopping: bool,
    /// The current instance's `containerID`.
    pub container_id: String,
    /// `imageID` once the image is on the node.
    pub image_id: String,
    /// When the last image pull failed (for ImagePullBackOff).
    pub pull_failed_at: Option<Timestamp>,
    /// The spec changed (a new image): the next sync starts a new instance whatever
    /// `restartPolicy` says, without back-off (`spec_update`).
    pub respawn: bool,
    pub startup: Streak,
    pub liveness: Streak,
    pub readiness: Streak,
    /// The status the API shows while the postStart hook runs (the kubelet's pod sync is
    /// blocked in `startContainer` and writes nothing new; [`super::hooks`]), and whether it
    /// is the container's first start (the pod stays `Pending`).
    pub frozen: Option<(ContainerStatus, bool)>,
    /// The postStart hook of the current instance failed with this message: once the instance
    /// is killed the container waits in `PostStartHookError` with it.
    pub hook_error: Option<String>,
    /// The loop the current instance runs, waiting for a Service ([`super::waits`]).
    pub looping: Option<Loop>,
}

impl ContainerRun {
    /// A container not started yet, waiting with `reason` (`PodInitializing` or
    /// `ContainerCreating`).
    pub(crate) fn new(spec: Container, role: Role, reason: &str) -> Self {
        let program = super::interactive::program_for(&spec);
        Self {
            spec,
            role,
            program,
            state: RunState::Waiting {
                reason: reason.to_string(),
                message: None,
            },
            last: None,
            restart_count: 0,
            ever_started: false,
            ready: false,
            started: false,
            generation: 0,
            busy: false,
            stopping: false,
            container_id: String::new(),
            image_id: String::new(),
            pull_failed_at: None,
            respawn: false,
            startup: Streak::default(),
            liveness: Streak::default(),
            readiness: Streak::default(),
            frozen: None,
            hook_error: None,
            looping: None,
        }
    }

    /// `spec.containers{name}` / `spec.initContainers{name}` / `spec.ephemeralContainers{name}`.
    pub(crate) fn field_path(&self) -> String {
        match self.role {
            Role::Main => format!("spec.containers{{{}}}", self.spec.name),
            Role::Init | Role::Sidecar => format!("spec.initContainers{{{}}}", self.spec.name),
            Role::Ephemeral => format!("spec.ephemeralContainers{{{}}}", self.spec.name),
        }
    }

    /// `image` from the spec.
    pub(crate) fn image(&self) -> &str {
        self.spec.image.as_deref().unwrap_or("")
    }

    pub(crate) fn is_running(&self) -> bool {
        matches!(self.state, RunState::Running { .. })
    }

    /// The terminated instance to count back-off from: the current `terminated` state, else
    /// `lastState` when waiting after a run.
    pub(crate) fn latest_exit(&self) -> Option<&Term> {
        match &self.state {
            RunState::Terminated(t) => Some(t),
            RunState::Waiting { .. } if self.ever_started => self.last.as_ref(),
            _ => None,
        }
    }
}

/// Deletion in progress.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Terminating {
    /// `deletionTimestamp`: SIGKILL for whatever still runs.
    pub deadline: Timestamp,
    /// Sidecars are being stopped (main containers are gone).
    pub sidecars: bool,
}

/// One pod on this node.
#[derive(Debug, Clone)]
pub(crate) struct PodRun {
    /// The object as last written (spec, metadata, status).
    pub pod: Pod,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub pod_ip: String,
    pub containers: Vec<ContainerRun>,
    /// The sandbox exists (PodReadyToStartContainers).
    pub sandbox: bool,
    /// A pod sync ran (the kubelet wrote the pod's status: conditions, `hostIP`, `startTime`,
    /// waiting container statuses), even if the sandbox is not up yet because a volume waits
    /// (`docs/kubelet-references.md` §Volumes).
    pub synced: bool,
    /// All init containers done and sidecars started, once.
    pub initialized: bool,
    /// An init container failed under `restartPolicy: Never`.
    pub init_failed: bool,
    pub terminating: Option<Terminating>,
    /// Sidecars are being stopped because all main containers finished (Job-style completion):
    /// the instant whatever still runs is SIGKILLed (sidecars signalled + the pod's
    /// `terminationGracePeriodSeconds`, as the kubelet kills a pod that became terminal).
    pub completing: Option<Timestamp>,
    /// `(type, status, lastTransitionTime)` of the kubelet-owned conditions.
    pub conditions: Vec<(String, String, Timestamp)>,
    /// `metadata.creationTimestamp`.
    pub created: Timestamp,
    /// The kubelet gave the pod its final phase (Succeeded/Failed) and its sandbox is gone.
    pub terminal: bool,
    /// The object as last returned in a `Change::Pod` (to emit only real changes).
    pub emitted: Option<Pod>,
    /// A pod this kubelet did not admit (a fixture's static pod): only its ephemeral containers
    /// run here, the rest of its status stays the fixture's (`ephemeral::adopt`).
    pub adopted: bool,
}

impl PodRun {
    /// `spec.restartPolicy` (`Always` when absent).
    pub(crate) fn restart_policy(&self) -> &str {
        self.pod
            .spec
            .as_ref()
            .and_then(|s| s.restart_policy.as_deref())
            .unwrap_or("Always")
    }

    /// Indices of containers with `role`.
    pub(crate) fn indices(&self, role: Role) -> Vec<usize> {
        (0..self.containers.len())
            .filter(|&i| self.containers[i].role == role)
            .collect()
    }
}
