//! Creating and starting containers, as the kubelet, the CRI runtimes (containerd's CRI plugin,
//! CRI-O) and the OCI runtime (runc, crun) report it. The kubelet's own refusals before it asks
//! the runtime (`runAsNonRoot`, `kuberuntime/security_context_others.go`) give
//! `CreateContainerConfigError`; the runtime's `CreateContainer` errors give
//! `CreateContainerError`; `StartContainer` errors give `RunContainerError` and a terminated
//! state `StartError` with exit code 128 (`ContainerCannotRun` under Docker). The kubelet records
//! each as a Warning `Failed` event `Error: <message>` (`kuberuntime_container.go`).
//!
//! Rows are ordered specific first: the name reservation and the kubelet's timeout, the
//! security settings, mounts, the working directory and the command, the node's disk, cgroups
//! and busy resources, then any OCI runtime failure. The errno of `execve` is read by
//! [`super::loader`] before these rows.

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// A create or start failure: the waiting message (`CreateContainerError`,
/// `RunContainerError`, …), the terminated message (`StartError`), the Failed event.
const CREATE: &[On] = &[On::Waiting(""), On::Terminated(""), On::Event("Failed")];

/// The kubelet's refusals before the runtime is called.
const CONFIG: &[On] = &[
    On::Waiting("CreateContainerConfigError"),
    On::Event("Failed"),
];

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    Entry {
        id: "runtime-name-reserved",
        on: CREATE,
        pattern: r#"failed to reserve container name \\?"(?P<name>[^"\\]+)\\?": name \\?"[^"\\]+\\?" is reserved for \\?"(?P<holder>[0-9a-f]+)"#,
        meaning: "the container name {name} is still reserved in containerd for an earlier CreateContainer of container {container} (container {holder}) that has not finished or was left behind — typically the kubelet's request timed out (context deadline exceeded) while the runtime on node {node} kept working on it (slow disk I/O, a hung volume, a large image); every retry with the same name is refused meanwhile",
        action: "wait for the runtime to finish the earlier request (the next retry then succeeds); if it persists, inspect node {node}: crictl ps -a | grep {holder}, containerd's log, disk I/O and hung mounts — restart containerd as the last resort",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containerd internal/cri/server/container_create.go (containerNameIndex.Reserve: `failed to reserve container name`), internal/registrar (`name %q is reserved for %q`); containerd/containerd#4604",
    },
    Entry {
        id: "runtime-name-reserved-crio",
        on: CREATE,
        pattern: r"error reserving ctr name (?P<name>\S+) for id (?P<holder>[0-9a-f]+): name is reserved",
        meaning: "the container name {name} is still reserved in CRI-O for an earlier create request of container {container} (id {holder}) that the kubelet timed out: the runtime on node {node} is slow under load (its message says the kubelet may be retrying requests that are timing out)",
        action: "wait for CRI-O to finish the earlier request (the next retry then succeeds); if it persists, inspect node {node}: crictl ps -a, CRI-O's log (journalctl -u crio), disk I/O and slow volume setup",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "cri-o server/container_create.go (`Kubelet may be retrying requests that are timing out in CRI-O due to system load`), internal/lib (ReserveContainerName: `error reserving ctr name ... name is reserved`)",
    },
    Entry {
        id: "runtime-request-timeout",
        on: &[
            On::Waiting("CreateContainerError"),
            On::Waiting("RunContainerError"),
            On::Terminated("StartError"),
            On::Event("Failed"),
        ],
        pattern: r"^(?:Error: )?context deadline exceeded$",
        meaning: "the kubelet's call to the container runtime to create or start container {container} did not return within the runtime request timeout (2 minutes by default; context deadline exceeded): the runtime on node {node} is overloaded or stuck, and the kubelet retries",
        action: "look at node {node}: the runtime's log (journalctl -u containerd), disk I/O, hung mounts; a later `failed to reserve container name` is the same slowness",
        fix: Fix::Node,
        severity: Severity::Warning,
        source: "kubelet --runtime-request-timeout (default 2m0s; k8s.io/cri-client remote_runtime.go); kuberuntime_container.go (`Error: %v` on CreateContainer/StartContainer failures)",
    },
    Entry {
        id: "runtime-run-as-non-root-root-image",
        on: CONFIG,
        pattern: r#"container has runAsNonRoot and image will run as root(?: \(pod: "(?P<pod_ref>[^"]*)", container: (?P<name>[^)\s]+)\))?"#,
        meaning: "container {container} must run as non-root (runAsNonRoot: true) but its image runs as root (uid 0, or no USER) and no runAsUser is set, so the kubelet refuses to create it",
        action: "set securityContext.runAsUser (pod or container) to a non-zero uid the image works with, or rebuild the image with a numeric non-root USER",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "kubelet pkg/kubelet/kuberuntime/security_context_others.go (verifyRunAsNonRoot)",
    },
    Entry {
        id: "runtime-run-as-non-root-non-numeric",
        on: CONFIG,
        pattern: r"container has runAsNonRoot and image has non-numeric user \((?P<user>[^)]*)\), cannot verify user is non-root",
        meaning: "container {container} must run as non-root but its image names its user by name ({user}); the kubelet cannot tell a uid from a name, so it refuses to create the container",
        action: "set securityContext.runAsUser to the numeric uid of {user} (from the image's /etc/passwd), or rebuild the image with USER <uid>",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "kubelet pkg/kubelet/kuberuntime/security_context_others.go (verifyRunAsNonRoot)",
    },
    Entry {
        id: "runtime-run-as-user-root",
        on: CONFIG,
        pattern: r"container's runAsUser breaks non-root policy",
        meaning: "container {container} sets runAsUser: 0 while runAsNonRoot is true; the two contradict, so the kubelet refuses to create it",
        action: "set runAsUser to a non-zero uid, or drop runAsNonRoot if the container really must run as root",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "kubelet pkg/kubelet/kuberuntime/security_context_others.go (verifyRunAsNonRoot)",
    },
    Entry {
        id: "runtime-seccomp-profile-missing",
        on: CREATE,
        pattern: r#"(?:cannot|failed to|unable to) load seccomp profile \\?"?(?P<profile>[^"\\\s:]+)\\?"?[^\n]*?no such file or directory"#,
        meaning: "the Localhost seccomp profile of container {container} does not exist on node {node} at {profile}: the kubelet resolves localhostProfile relative to its seccomp root (/var/lib/kubelet/seccomp), and the file must be there on every node that runs the pod",
        action: "put the profile at {profile} on the nodes (Security Profiles Operator, or a DaemonSet that copies it), or correct seccompProfile.localhostProfile to the file's path relative to /var/lib/kubelet/seccomp",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "containerd internal/cri/server/container_create_linux.go (generateSeccompSpecOpts: `cannot load seccomp profile`); Kubernetes seccomp docs (localhostProfile relative to <kubelet-root>/seccomp)",
    },
    Entry {
        id: "runtime-apparmor-profile-missing",
        on: &[
            On::Waiting(""),
            On::Terminated(""),
            On::Event("Failed"),
            On::Status("AppArmor"),
        ],
        pattern: r#"apparmor profile not found (?P<profile>\S+)|Cannot enforce AppArmor: profile "(?P<unloaded>[^"]+)" is not loaded"#,
        meaning: "the AppArmor profile that container {container} asks for (appArmorProfile type Localhost) is not loaded in node {node}'s kernel, so the container cannot be created there",
        action: "load the profile on every node that may run the pod (apparmor_parser -r /etc/apparmor.d/<profile>, e.g. from a DaemonSet), or use appArmorProfile type RuntimeDefault",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containerd internal/cri (generateApparmorSpecOpts: `apparmor profile not found`); kubelet pkg/security/apparmor/validate.go before 1.30 (`Cannot enforce AppArmor: profile ... is not loaded`)",
    },
    Entry {
        id: "runtime-mount-not-a-directory",
        on: CREATE,
        pattern: r#"(?:error )?mounting \\*"(?P<source>[^"\\]+)\\*" to rootfs (?:\\*"[^"\\]*\\*" )?at \\*"(?P<target>[^"\\]+)\\*"[^\n]*?not a directory"#,
        meaning: "the runtime could not bind-mount {source} at {target} in container {container}: one is a file and the other a directory (not a directory) — typically a subPath that selects a file mounted onto a path that is a directory in the image, or the reverse",
        action: "make the volumeMount's mountPath match its source: mount a subPath file at a file path (e.g. a file inside that directory), or mount the whole volume at a directory without subPath",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "runc libcontainer/rootfs_linux.go (`error mounting %q to rootfs at %q`, mountError); mount(2) ENOTDIR; moby daemon hint (`Are you trying to mount a directory onto a file (or vice-versa)?`)",
    },
    Entry {
        id: "runtime-mount-source-missing",
        on: CREATE,
        pattern: r#"(?:error )?mounting \\*"(?P<source>[^"\\]+)\\*" to rootfs (?:\\*"[^"\\]*\\*" )?at \\*"(?P<target>[^"\\]+)\\*"[^\n]*?no such file or directory"#,
        meaning: "the runtime could not mount {source} at {target} for container {container} because a path does not exist (no such file or directory): the source on node {node} vanished after the kubelet prepared it (a hostPath, a subPath or volume directory removed), or the target cannot be created in the image",
        action: "check on node {node} that {source} still exists (and what removed it); deleting the pod lets the kubelet prepare the volume again",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "runc libcontainer/rootfs_linux.go (`error mounting %q to rootfs at %q`); mount(2) ENOENT",
    },
    Entry {
        id: "runtime-chdir-cwd",
        on: CREATE,
        pattern: r#"chdir to cwd \(\\?"(?P<dir>[^"\\]+)\\?"\) set in config\.json failed: (?P<error>[^:\n]+)"#,
        meaning: "the runtime could not enter the working directory {dir} of container {container} ({error}): workingDir (or the image's WORKDIR) does not exist or the container's user may not enter it",
        action: "set workingDir to a directory that exists in the image and that the container's user may enter, or create it in the image",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "runc libcontainer/init_linux.go (finalizeNamespace: `chdir to cwd (%q) set in config.json failed`)",
    },
    Entry {
        id: "runtime-shim-missing",
        on: CREATE,
        pattern: r#"failed to start shim: [^\n]*?exec: \\?"(?P<shim>containerd-shim[^"\\]*)\\?": executable file not found"#,
        meaning: "containerd on node {node} cannot start its runtime shim {shim} (not found in its PATH): the runtime installation or the RuntimeClass handler's configuration on that node is broken, so no container using it can start there",
        action: "install the shim binary on node {node} (or fix runtime_type in containerd's config for this RuntimeClass handler) and restart containerd; cordon the node meanwhile",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containerd core/runtime/v2 shim binary resolution (`failed to start shim`); Go os/exec ErrNotFound",
    },
    Entry {
        id: "runtime-exec-not-found",
        on: CREATE,
        pattern: r#"exec: \\?"(?P<cmd>[^"\\]+)\\?": executable file not found in \$PATH"#,
        meaning: "the command {cmd} of container {container} is in none of the image's PATH directories (executable file not found in $PATH): a typo, or a program the image does not contain; the process never started",
        action: "correct command/args in the pod spec (or the image's ENTRYPOINT) to a program the image contains, with its full path when it lies outside PATH",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Go os/exec ErrNotFound (`executable file not found in $PATH`) via runc standard_init_linux.go (exec.LookPath before the start)",
    },
    Entry {
        id: "runtime-no-space",
        on: &[On::Waiting(""), On::Event("Failed")],
        pattern: r"(?P<path>/[^\s:]+)?:? ?no space left on device",
        meaning: "a filesystem on node {node} that the runtime writes to is full (no space left on device): image layers, container writable layers or logs cannot be written",
        action: "free space on node {node} (crictl rmi --prune, old logs) or grow its disk; check the kubelet's image garbage-collection thresholds and the node's DiskPressure condition",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "write(2)/mkdir(2) ENOSPC as containerd's snapshotter and runc report it; kubelet image garbage collection (imageGCHighThresholdPercent)",
    },
    Entry {
        id: "runtime-cgroup",
        on: CREATE,
        // Anchored, each alternative scanning the line itself: the first alternative wins when
        // the line has it anywhere, so the written value and file are quoted when present.
        pattern: r#"^(?:[^\n]*?failed to write \\?"(?P<value>[^"\\]*)\\?": write (?P<file>/sys/fs/cgroup/\S+?):|[^\n]*?(?:unable to apply cgroup configuration|error setting cgroup config|cgroup[^\n]*?: (?:no such file or directory|invalid argument|cannot allocate memory)))"#,
        meaning: "the runtime could not set up the cgroup of container {container} on node {node}: a node-side problem — the kubelet and the runtime disagree on the cgroup driver (systemd vs cgroupfs), systemd failed to create the scope, or the kernel rejected a resource value",
        action: "compare the kubelet's cgroupDriver with the runtime's (containerd: SystemdCgroup) on node {node} and read the runtime's log around the failure; for invalid argument on a limit, check the container's resources",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "runc libcontainer/process_linux.go (`unable to apply cgroup configuration`); opencontainers/cgroups file.go (`failed to write %q`); kubelet cgroupDriver docs",
    },
    Entry {
        id: "runtime-device-busy",
        on: CREATE,
        pattern: r"(?P<path>/[^\s:]+): device or resource busy",
        meaning: "the runtime could not use {path} on node {node} because it is still in use (device or resource busy, EBUSY): a mount or file left behind by an earlier container, or held by another process",
        action: "find what holds {path} on node {node} (grep it in /proc/*/mountinfo, fuser -m {path}); deleting the pod or stopping the holder releases it",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "mount(2)/umount(2)/rmdir(2) EBUSY as runc and containerd report it",
    },
    Entry {
        id: "runtime-oci-failed",
        on: CREATE,
        pattern: r"OCI runtime (?P<op>create|start) failed: (?P<detail>[^\n]+)",
        meaning: "the OCI runtime (runc or crun) failed to {op} the process of container {container}; the rest of its message names the step: {detail}",
        action: "read the failing step in the runtime's message; the runtime's log on node {node} (journalctl -u containerd) has the surrounding context",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containerd runtime v2 (`failed to create shim task: OCI runtime create failed`); runc create.go (`runc create failed`), libcontainer/container_linux.go (`unable to start container process`)",
    },
];
