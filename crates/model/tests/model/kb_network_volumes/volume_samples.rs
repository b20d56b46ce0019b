//! Messages of volumes (the attach/detach controller, the kubelet's mounts, CSI drivers, NFS and
//! mount helpers, ownership, the scheduler), each with the volume row it must meet.

use podscope_model::diagnosis::kb::On;

use super::{ATTACH, Line, MOUNT, SCHED};

pub(super) const LINES: &[Line] = &[
    // ---- volumes: attach ------------------------------------------------------------------
    (
        ATTACH,
        r#"Multi-Attach error for volume "pvc-3b6f2e1a-8c4d-4f7e-9a21-5d0c7e8b9f14" Volume is already used by pod(s) grafana-5d9c8b7f6-98mqq"#,
        "volume-multi-attach-used",
        &[
            ("volume", "pvc-3b6f2e1a-8c4d-4f7e-9a21-5d0c7e8b9f14"),
            ("pods", "grafana-5d9c8b7f6-98mqq"),
        ],
    ),
    (
        ATTACH,
        r#"Multi-Attach error for volume "volume-name" Volume is already used by pod(s) pod2, pod3 and 1 pod(s) in different namespaces"#,
        "volume-multi-attach-used",
        &[("pods", "pod2, pod3")],
    ),
    (
        ATTACH,
        r#"Multi-Attach error for volume "pvc-c048abf5-1189-11e8-846f-000d3af71b87" Volume is already exclusively attached to one node and can't be attached to another"#,
        "volume-multi-attach-exclusive",
        &[("volume", "pvc-c048abf5-1189-11e8-846f-000d3af71b87")],
    ),
    (
        ATTACH,
        r#"AttachVolume.Attach failed for volume "pvc-7d2c9e41-5a3b-4c6d-8e1f-2a9b0c4d6e83" : timed out waiting for external-attacher of ebs.csi.aws.com CSI driver to attach volume vol-0a1b2c3d4e5f67890"#,
        "volume-attach-timeout",
        &[
            ("driver", "ebs.csi.aws.com"),
            ("handle", "vol-0a1b2c3d4e5f67890"),
        ],
    ),
    (
        ATTACH,
        r#"AttachVolume.Attach failed for volume "efs-pv" : Attach timeout for volume fs-0bd37fa1a498fc2c7"#,
        "volume-attach-timeout",
        &[("vol", "fs-0bd37fa1a498fc2c7")],
    ),
    (
        ATTACH,
        r#"AttachVolume.Attach failed for volume "pvc-9b8b9ad0-50b3-11e9-b9f7-9600001dedca" : rpc error: code = Internal desc = failed to publish volume: volume is already attached to a server, please detach it first (service_error)"#,
        "volume-attach-failed",
        &[
            ("volume", "pvc-9b8b9ad0-50b3-11e9-b9f7-9600001dedca"),
            ("code", "Internal"),
            (
                "desc",
                "failed to publish volume: volume is already attached to a server, please detach it first (service_error)",
            ),
        ],
    ),
    // ---- volumes: objects -----------------------------------------------------------------
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "certs" : secret "turn-server-tls" not found"#,
        "volume-object-not-found",
        &[
            ("volume", "certs"),
            ("kind", "secret"),
            ("object", "turn-server-tls"),
        ],
    ),
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "auth-proxy-certs" : secrets "auth-proxy-certs" not found"#,
        "volume-object-not-found",
        &[("kind", "secret"), ("object", "auth-proxy-certs")],
    ),
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "config" : configmap "redis-cofig" not found"#,
        "volume-object-not-found",
        &[("kind", "configmap"), ("object", "redis-cofig")],
    ),
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "config" : configmap references non-existent config key: app.yaml"#,
        "volume-object-key-missing",
        &[("kind", "configmap"), ("key", "app.yaml")],
    ),
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "kube-api-access-9xz2k" : object "default"/"kube-root-ca.crt" not registered"#,
        "volume-object-not-registered",
        &[("objns", "default"), ("object", "kube-root-ca.crt")],
    ),
    // ---- volumes: CSI driver ----------------------------------------------------------------
    (
        MOUNT,
        r#"MountVolume.MountDevice failed for volume "efs-shared" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name efs.csi.aws.com not found in the list of registered CSI drivers"#,
        "volume-csi-driver-not-registered",
        &[("driver", "efs.csi.aws.com")],
    ),
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "secrets-store-inline" : kubernetes.io/csi: mounter.SetUpAt failed to get CSI client: driver name secrets-store.csi.k8s.io not found in the list of registered CSI drivers"#,
        "volume-csi-driver-not-registered",
        &[("driver", "secrets-store.csi.k8s.io")],
    ),
    (
        MOUNT,
        r#"MountVolume.MountDevice failed for volume "pvc-3af18048" : rpc error: code = Internal desc = format of disk "/dev/nvme2n1" failed: type:("ext4") target:("/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/4c1b/globalmount")"#,
        "volume-csi-mount-failed",
        &[
            ("op", "MountDevice"),
            ("volume", "pvc-3af18048"),
            ("code", "Internal"),
        ],
    ),
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "pvc-1377ed49" : rpc error: code = DeadlineExceeded desc = context deadline exceeded"#,
        "volume-csi-mount-failed",
        &[("op", "SetUp"), ("code", "DeadlineExceeded")],
    ),
    // ---- volumes: NFS and mount helpers -----------------------------------------------------
    (
        MOUNT,
        "MountVolume.SetUp failed for volume \"archive\" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs 10.30.5.10:/exports/finance/archive /var/lib/kubelet/pods/5f0c/volumes/kubernetes.io~nfs/archive\nOutput: mount.nfs: access denied by server while mounting 10.30.5.10:/exports/finance/archive\n",
        "volume-nfs-access-denied",
        &[("export", "10.30.5.10:/exports/finance/archive")],
    ),
    (
        MOUNT,
        "MountVolume.SetUp failed for volume \"pvc-1377ed49\" : rpc error: code = Internal desc = rpc error: code = Internal desc = mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs files.example:/share/pvc-1377ed49 /var/lib/kubelet/pods/eca5/volumes/kubernetes.io~csi/pvc-1377ed49/mount\nOutput: mount.nfs: access denied by server while mounting files.example:/share/pvc-1377ed49",
        "volume-nfs-access-denied",
        &[("export", "files.example:/share/pvc-1377ed49")],
    ),
    (
        MOUNT,
        "MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs 10.0.0.9:/srv/missing /var/lib/kubelet/pods/ab12/volumes/kubernetes.io~nfs/data\nOutput: mount.nfs: mounting 10.0.0.9:/srv/missing failed, reason given by server: No such file or directory",
        "volume-nfs-no-such-path",
        &[("export", "10.0.0.9:/srv/missing")],
    ),
    (
        MOUNT,
        "MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs 10.0.0.9:/srv/data /var/lib/kubelet/pods/ab12/volumes/kubernetes.io~nfs/data\nOutput: mount.nfs: Connection timed out",
        "volume-nfs-unreachable",
        &[("err", "Connection timed out")],
    ),
    (
        MOUNT,
        "MountVolume.SetUp failed for volume \"nfs-vol\" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs 192.168.1.20:/volume1/k8s /var/lib/kubelet/pods/91fe/volumes/kubernetes.io~nfs/nfs-vol\nOutput: mount: /var/lib/kubelet/pods/91fe/volumes/kubernetes.io~nfs/nfs-vol: bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program.",
        "volume-mount-helper-missing",
        &[("fstype", "nfs")],
    ),
    (
        MOUNT,
        "MountVolume.SetUp failed for volume \"nfs\" : mount failed: exit status 32\nMounting command: systemd-run\nMounting arguments: --description=Kubernetes transient mount for /var/lib/kubelet/pods/2c/volumes/kubernetes.io~nfs/nfs --scope -- mount -t nfs 10.1.1.5:/exports /var/lib/kubelet/pods/2c/volumes/kubernetes.io~nfs/nfs\nOutput: mount: wrong fs type, bad option, bad superblock on 10.1.1.5:/exports,\n       missing codepage or helper program, or other error\n       (for several filesystems (e.g. nfs, cifs) you might\n       need a /sbin/mount.<type> helper program)",
        "volume-mount-helper-missing",
        &[("fstype", "nfs")],
    ),
    (
        MOUNT,
        "MountVolume.MountDevice failed for volume \"pvc-5e1b\" : rpc error: code = Internal desc = could not format \"/dev/nvme1n1\" and mount it at \"/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/9d2f/globalmount\": mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t ext4 -o defaults /dev/nvme1n1 /var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/9d2f/globalmount\nOutput: mount: /var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/9d2f/globalmount: cannot mount /dev/nvme1n1 read-only.",
        "volume-readonly-device",
        &[("device", "/dev/nvme1n1")],
    ),
    (
        MOUNT,
        r#"MountVolume.SetUp failed for volume "host-data" : hostPath type check failed: /srv/data is not a directory"#,
        "volume-mount-failed",
        &[
            ("op", "SetUp"),
            ("volume", "host-data"),
            (
                "desc",
                "hostPath type check failed: /srv/data is not a directory",
            ),
        ],
    ),
    (
        MOUNT,
        "Unable to attach or mount volumes: unmounted volumes=[certs], unattached volumes=[], failed to process volumes=[]: timed out waiting for the condition",
        "volume-wait-timeout",
        &[("volumes", "certs"), ("unattached", "")],
    ),
    (
        MOUNT,
        r#"Unable to mount volumes for pod "prometheus-server-0_monitoring(c070914c-66e0-11e9-a87d-9600001dedca)": timeout expired waiting for volumes to attach or mount for pod "monitoring"/"prometheus-server-0". list of unmounted volumes=[storage-volume]. list of unattached volumes=[storage-volume config-volume prometheus-server-token-lhlf6]"#,
        "volume-wait-timeout",
        &[
            ("volumes", "storage-volume"),
            (
                "unattached",
                "storage-volume config-volume prometheus-server-token-lhlf6",
            ),
        ],
    ),
    // ---- volumes: ownership, unmount ----------------------------------------------------------
    (
        On::Event("VolumePermissionChangeInProgress"),
        "Setting volume ownership for /var/lib/kubelet/pods/4f1a/volumes/kubernetes.io~csi/pvc-77/mount is taking longer than expected, consider using OnRootMismatch - https://kubernetes.io/docs/tasks/configure-pod-container/security-context/#configure-volume-permission-and-ownership-change-policy-for-pods",
        "volume-ownership-slow",
        &[(
            "dir",
            "/var/lib/kubelet/pods/4f1a/volumes/kubernetes.io~csi/pvc-77/mount",
        )],
    ),
    (
        On::Event("VolumePermissionChangeInProgress"),
        "Setting volume ownership for /var/lib/kubelet/pods/4f1a/volumes/kubernetes.io~csi/pvc-77/mount, processed 315923 files.",
        "volume-ownership-slow",
        &[("files", "315923")],
    ),
    (
        On::Event("FailedUnmount"),
        r#"UnmountVolume.TearDown failed for volume "downloads" (UniqueName: "kubernetes.io/nfs/5d0e-downloads") pod "5d0e" (UID: "5d0e") : unmount failed: exit status 16 Unmounting arguments: /var/lib/kubelet/pods/5d0e/volumes/kubernetes.io~nfs/downloads Output: umount.nfs4: /var/lib/kubelet/pods/5d0e/volumes/kubernetes.io~nfs/downloads: device is busy"#,
        "volume-unmount-failed",
        &[("volume", "downloads")],
    ),
    // ---- volumes: scheduling ----------------------------------------------------------------
    (
        SCHED,
        "0/5 nodes are available: 2 node(s) didn't match Pod's node affinity/selector, 3 node(s) had volume node affinity conflict. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.",
        "volume-node-affinity-conflict",
        &[("count", "3")],
    ),
    (
        On::Status("Unschedulable"),
        "0/1 nodes are available: 1 node(s) had volume node affinity conflict. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
        "volume-node-affinity-conflict",
        &[("count", "1")],
    ),
    (
        SCHED,
        "0/2 nodes are available: 1 node(s) exceed max volume count, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
        "volume-max-count",
        &[("count", "1")],
    ),
    (
        SCHED,
        r#"0/3 nodes are available: persistentvolumeclaim "data-kafka-3" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."#,
        "volume-claim-not-found",
        &[("claim", "data-kafka-3")],
    ),
    (
        SCHED,
        "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        "volume-claim-unbound",
        &[],
    ),
    (
        SCHED,
        "0/4 nodes are available: 4 node(s) didn't find available persistent volumes to bind. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
        "volume-claim-unbound",
        &[("count", "4")],
    ),
];
