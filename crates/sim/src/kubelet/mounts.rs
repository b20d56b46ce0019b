//! The volume manager's wait before the sandbox (`docs/kubelet-references.md` §Volumes): a pod
//! whose `configMap`/`secret`/`projected` volume names a missing object or key gets no sandbox;
//! each failed mount is a `FailedMount` event `MountVolume.SetUp failed for volume "V" : <why>`,
//! retried with the operation executor's exponential back-off (500 ms doubling to 2 min 2 s,
//! `pkg/util/goroutinemap/exponentialbackoff`), and every [`MOUNT_TIMEOUT`] the pod sync gives
//! up waiting with `Unable to attach or mount volumes: unmounted volumes=[…], unattached
//! volumes=[], failed to process volumes=[]: context deadline exceeded`
//! (`WaitForAttachAndMount` in `pkg/kubelet/volumemanager/volume_manager.go`). Once every
//! volume mounts, the sandbox comes up as usual.

use std::collections::HashMap;

use jiff::{SignedDuration, Timestamp};

use super::config_refs::{self, ConfigSources};
use super::events::EventSpec;
use super::pod_state::PodRun;
use super::{Node, Work, after};

/// The first retry of a failed mount.
pub const FIRST_RETRY: SignedDuration = SignedDuration::from_millis(500);
/// The longest wait between two mount attempts.
pub const MAX_RETRY: SignedDuration = SignedDuration::from_secs(122);
/// How long one pod sync waits for its volumes (`podAttachAndMountTimeout`: 2 min 3 s).
pub const MOUNT_TIMEOUT: SignedDuration = SignedDuration::from_secs(123);

/// One pod waiting for its volumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Wait {
    /// The next back-off step.
    delay: SignedDuration,
    /// When the current pod sync gives up waiting (the `Unable to attach or mount` event).
    deadline: Timestamp,
}

/// The pods (by uid) whose volumes do not mount yet, with the sources they are checked against.
#[derive(Debug, Default)]
pub(crate) struct Mounts {
    /// The ConfigMaps and Secrets the kubelet reads (refreshed by the driver).
    pub sources: ConfigSources,
    waits: HashMap<String, Wait>,
}

impl Mounts {
    /// Forgets a pod that left the node.
    pub(crate) fn forget(&mut self, uid: &str) {
        self.waits.remove(uid);
    }
}

fn failed_mount(message: String) -> EventSpec {
    EventSpec {
        type_: "Warning",
        reason: "FailedMount",
        message,
        field_path: None,
        component: "kubelet",
    }
}

/// Whether every volume of `run` mounts at `at`. When one does not: records the events,
/// queues the next attempt (a [`Work::Sandbox`]) and returns `false`.
pub(crate) fn ready(node: &mut Node, run: &PodRun, at: Timestamp) -> bool {
    let Some(spec) = run.pod.spec.as_ref() else {
        return true;
    };
    let failing = config_refs::unmountable(&run.namespace, spec, &node.mounts.sources);
    if failing.is_empty() {
        node.mounts.forget(&run.uid);
        return true;
    }
    for (volume, why) in &failing {
        let msg = format!("MountVolume.SetUp failed for volume \"{volume}\" : {why}");
        node.event(run, failed_mount(msg), at);
    }
    let mut wait = node.mounts.waits.get(&run.uid).copied().unwrap_or(Wait {
        delay: FIRST_RETRY,
        deadline: after(at, MOUNT_TIMEOUT),
    });
    if at >= wait.deadline {
        let names: Vec<&str> = failing.iter().map(|(v, _)| v.as_str()).collect();
        let msg = format!(
            "Unable to attach or mount volumes: unmounted volumes=[{}], unattached volumes=[], failed to process volumes=[]: context deadline exceeded",
            names.join(" ")
        );
        node.event(run, failed_mount(msg), at);
        wait.deadline = after(at, MOUNT_TIMEOUT);
    }
    let next = after(at, wait.delay).min(wait.deadline);
    wait.delay = (wait.delay * 2).min(MAX_RETRY);
    node.mounts.waits.insert(run.uid.clone(), wait);
    node.schedule(run, next, Work::Sandbox);
    false
}
