//! Messages of the container runtime creating and starting containers (runc, crun, the shims),
//! each with the runtime row it must meet.

use podscope_model::diagnosis::kb::On;

use super::{FAILED, PULL};

use super::Case;

pub(super) const MESSAGES: &[Case] = &[
    (
        On::Waiting("CreateContainerError"),
        r#"failed to reserve container name "homebridge_homebridge-59788f6597-hmhm5_homebridge_5741ca94-e5bb-429e-a4dc-9aaf8fc7ec0a_1": name "homebridge_homebridge-59788f6597-hmhm5_homebridge_5741ca94-e5bb-429e-a4dc-9aaf8fc7ec0a_1" is reserved for "4ef2837e74c3b6c5d39ba120cdb6082de84a470b1da2845416e6690b04cb6f6c""#,
        "runtime-name-reserved",
        &[
            (
                "name",
                "homebridge_homebridge-59788f6597-hmhm5_homebridge_5741ca94-e5bb-429e-a4dc-9aaf8fc7ec0a_1",
            ),
            (
                "holder",
                "4ef2837e74c3b6c5d39ba120cdb6082de84a470b1da2845416e6690b04cb6f6c",
            ),
        ],
    ),
    (
        FAILED,
        "Error: Kubelet may be retrying requests that are timing out in CRI-O due to system load: context deadline exceeded: error reserving ctr name k8s_assisted-service_assisted-service-7795d8f895-x6tpx_open-cluster-management_c560ebd2-f6b4-4d58-9dce-50b57d1c5f93_2 for id ebb5ae1ea296d5bb7d7ca45295cbcb541a4f50c10b1d9c2a90fc1baf0b6c3814: name is reserved",
        "runtime-name-reserved-crio",
        &[
            (
                "name",
                "k8s_assisted-service_assisted-service-7795d8f895-x6tpx_open-cluster-management_c560ebd2-f6b4-4d58-9dce-50b57d1c5f93_2",
            ),
            (
                "holder",
                "ebb5ae1ea296d5bb7d7ca45295cbcb541a4f50c10b1d9c2a90fc1baf0b6c3814",
            ),
        ],
    ),
    (
        FAILED,
        "Error: context deadline exceeded",
        "runtime-request-timeout",
        &[],
    ),
    (
        On::Waiting("CreateContainerError"),
        "context deadline exceeded",
        "runtime-request-timeout",
        &[],
    ),
    (
        FAILED,
        r#"Error: container has runAsNonRoot and image will run as root (pod: "grafana-tempo-0_grafana(ee923a76-6eb3-4c7b-b2e0-597aef6d24c5)", container: tempo-query)"#,
        "runtime-run-as-non-root-root-image",
        &[
            (
                "pod_ref",
                "grafana-tempo-0_grafana(ee923a76-6eb3-4c7b-b2e0-597aef6d24c5)",
            ),
            ("name", "tempo-query"),
        ],
    ),
    (
        On::Waiting("CreateContainerConfigError"),
        "container has runAsNonRoot and image will run as root",
        "runtime-run-as-non-root-root-image",
        &[],
    ),
    (
        FAILED,
        "Error: container has runAsNonRoot and image has non-numeric user (node), cannot verify user is non-root",
        "runtime-run-as-non-root-non-numeric",
        &[("user", "node")],
    ),
    (
        On::Waiting("CreateContainerConfigError"),
        r#"container's runAsUser breaks non-root policy (pod: "ditto-gateway-74586fcb58-89h22_default(0d6f0ad1-2c3e-4f5a-9b1d-7e8f9a0b1c2d)", container: ditto-init)"#,
        "runtime-run-as-user-root",
        &[],
    ),
    (
        FAILED,
        r#"Error: failed to create containerd container: cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/unshare.json": open /var/lib/kubelet/seccomp/profiles/unshare.json: no such file or directory"#,
        "runtime-seccomp-profile-missing",
        &[("profile", "/var/lib/kubelet/seccomp/profiles/unshare.json")],
    ),
    (
        On::Waiting("CreateContainerError"),
        r#"failed to generate security options for container "test-container": failed to generate seccomp security options for container: cannot load seccomp profile "/var/lib/kubelet/seccomp/operator/profiles/audit.json": open /var/lib/kubelet/seccomp/operator/profiles/audit.json: no such file or directory"#,
        "runtime-seccomp-profile-missing",
        &[(
            "profile",
            "/var/lib/kubelet/seccomp/operator/profiles/audit.json",
        )],
    ),
    (
        FAILED,
        "Error: failed to get container spec opts: failed to generate apparmor spec opts: apparmor profile not found k8s-apparmor-example-allow-write",
        "runtime-apparmor-profile-missing",
        &[("profile", "k8s-apparmor-example-allow-write")],
    ),
    (
        On::Status("AppArmor"),
        r#"Cannot enforce AppArmor: profile "k8s-apparmor-example-deny-write" is not loaded"#,
        "runtime-apparmor-profile-missing",
        &[("unloaded", "k8s-apparmor-example-deny-write")],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "podsync/config.toml" to rootfs at "/app/config.toml": mount src=podsync/config.toml, dst=/app/config.toml, dstFd=/proc/thread-self/fd/8, flags=MS_BIND|MS_REC: not a directory: unknown"#,
        "runtime-mount-not-a-directory",
        &[
            ("source", "podsync/config.toml"),
            ("target", "/app/config.toml"),
        ],
    ),
    (
        FAILED,
        r#"Error: failed to start container "flannel": Error response from daemon: OCI runtime create failed: container_linux.go:296: starting container process caused "process_linux.go:398: container init caused \"rootfs_linux.go:58: mounting \\\"/var/lib/kubelet/pods/d1d4/volume-subpaths/flannel-net-conf/kube-flannel/2\\\" to rootfs \\\"/var/lib/docker/overlay2/9a9b/merged\\\" at \\\"/var/lib/docker/overlay2/9a9b/merged/etc/kube-flannel/net-conf.json\\\" caused \\\"not a directory\\\"\"": unknown: Are you trying to mount a directory onto a file (or vice-versa)? Check if the specified host path exists and is the expected type"#,
        "runtime-mount-not-a-directory",
        &[
            (
                "source",
                "/var/lib/kubelet/pods/d1d4/volume-subpaths/flannel-net-conf/kube-flannel/2",
            ),
            (
                "target",
                "/var/lib/docker/overlay2/9a9b/merged/etc/kube-flannel/net-conf.json",
            ),
        ],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error mounting "/data/exports/app" to rootfs at "/srv/app": mount src=/data/exports/app, dst=/srv/app, dstFd=/proc/thread-self/fd/8, flags=MS_BIND|MS_REC: no such file or directory: unknown"#,
        "runtime-mount-source-missing",
        &[("source", "/data/exports/app"), ("target", "/srv/app")],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: chdir to cwd ("/workspace") set in config.json failed: permission denied: unknown"#,
        "runtime-chdir-cwd",
        &[("dir", "/workspace"), ("error", "permission denied")],
    ),
    (
        FAILED,
        r#"Error: failed to create containerd task: failed to create shim task: failed to start shim: failed to resolve runtime path: exec: "containerd-shim-runsc-v1": executable file not found in $PATH: unknown"#,
        "runtime-shim-missing",
        &[("shim", "containerd-shim-runsc-v1")],
    ),
    (
        On::Waiting("RunContainerError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "edge-agnet": executable file not found in $PATH: unknown"#,
        "runtime-exec-not-found",
        &[("cmd", "edge-agnet")],
    ),
    (
        PULL,
        r#"failed to pull and unpack image "registry.example/ml/big:1": failed to extract layer sha256:3f1c: write /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/812/fs/opt/model.bin: no space left on device: unknown"#,
        "runtime-no-space",
        &[(
            "path",
            "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/812/fs/opt/model.bin",
        )],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: unable to apply cgroup configuration: unable to start unit "cri-containerd-5f1e.scope" (properties [...]): Interactive authentication required.: unknown"#,
        "runtime-cgroup",
        &[],
    ),
    (
        On::Terminated("StartError"),
        r#"OCI runtime create failed: runc create failed: unable to start container process: error during container init: error setting cgroup config for procHooks process: failed to write "max 100000": write /sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/cpu.max: invalid argument: unknown"#,
        "runtime-cgroup",
        &[
            ("value", "max 100000"),
            (
                "file",
                "/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/cpu.max",
            ),
        ],
    ),
    (
        FAILED,
        "Error: failed to create containerd task: failed to create shim task: failed to mount rootfs component: mount /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/99/fs: device or resource busy: unknown",
        "runtime-device-busy",
        &[(
            "path",
            "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/99/fs",
        )],
    ),
    (
        On::Terminated("StartError"),
        "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: read init-p: connection reset by peer: unknown",
        "runtime-oci-failed",
        &[("op", "create")],
    ),
];
