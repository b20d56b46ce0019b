//! The pod's volumes as the scheduler, the attach/detach controller and the kubelet's volume
//! manager report them. Before any container of a pod starts (init containers included), the
//! kubelet waits until every volume is attached and mounted (`volumemanager`
//! `WaitForAttachAndMount`, 2 min 3 s per attempt): the attach/detach controller attaches block
//! volumes to the node (`FailedAttachVolume`: `Multi-Attach error for volume ...`,
//! `AttachVolume.Attach failed for volume ...`, `pkg/controller/volume/attachdetach`), the
//! kubelet stages and mounts them (`FailedMount`: `MountVolume.MountDevice failed ...`,
//! `MountVolume.SetUp failed for volume "<name>" : <the plugin's error>`,
//! `pkg/volume/util/operationexecutor/operation_generator.go`), and when the wait expires it says
//! only that it gave up (`Unable to attach or mount volumes: unmounted volumes=[...]`). The
//! scheduler places a pod only on nodes its volumes can reach (`FailedScheduling`: `node(s) had
//! volume node affinity conflict`, `node(s) exceed max volume count`, an unbound or missing
//! claim). CSI drivers answer with gRPC status texts (`rpc error: code = Internal desc = ...`)
//! wrapped in these; NFS and other mount-based volumes with the `mount` command's output.
//!
//! Rows are ordered specific first: an NFS server's answer before any mount failure, a missing
//! object before a driver's error, the kubelet's "gave up waiting" last.

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// The kubelet's mount failures (and a device-mode volume's map failures).
const MOUNT: &[On<'static>] = &[On::Event("FailedMount"), On::Event("FailedMapVolume")];

/// The attach/detach controller's attach failures.
const ATTACH: &[On<'static>] = &[On::Event("FailedAttachVolume")];

/// The scheduler's verdict, as the event and as the pod's PodScheduled condition.
const SCHEDULING: &[On<'static>] = &[On::Event("FailedScheduling"), On::Status("Unschedulable")];

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    // --- attach: the volume is on another node ----------------------------------------------
    Entry {
        id: "volume-multi-attach-used",
        on: ATTACH,
        pattern: r#"Multi-Attach error for volume "(?P<volume>[^"\n]+)" Volume is already used by (?:pod\(s\) (?P<pods>[\w.-]+(?:, [\w.-]+)*)|(?P<others>\d+) pod\(s\) in different namespaces)"#,
        meaning: "volume {volume} can be attached to one node at a time (a ReadWriteOnce block volume) and is attached to another node, where pod(s) {pods} still use it; the attach/detach controller will not attach it to node {node} while they do — typically a RollingUpdate that starts the new pod before the old one stops, on another node, or several replicas sharing one ReadWriteOnce claim",
        action: "let only one pod at a time use the claim: give the Deployment strategy type Recreate (or rollingUpdate maxSurge 0), or give each replica its own claim with a StatefulSet's volumeClaimTemplates; deleting the old pod {pods} unblocks this rollout once",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "kubernetes pkg/controller/volume/attachdetach/reconciler/reconciler.go reportMultiAttachError (`Volume is already used by pod(s) %s`); Kubernetes docs, Persistent Volumes access modes (ReadWriteOnce)",
    },
    Entry {
        id: "volume-multi-attach-exclusive",
        on: ATTACH,
        pattern: r#"Multi-Attach error for volume "(?P<volume>[^"\n]+)" Volume is already exclusively attached to one node and can't be attached to another"#,
        meaning: "volume {volume} can be attached to one node at a time and is still attached to another node, although no scheduled pod there uses it any more: the pod that used it was deleted, and the kubelet of that node has not reported it unmounted (the node is down or the unmount fails); the controller detaches it when that node releases it, or forcibly after 6 minutes when the node is not healthy",
        action: "find the node it is attached to (kubectl get volumeattachments | grep {volume}) and why it keeps it (node NotReady, a pod there still Terminating, an unmount error in its kubelet log); if that node is gone for good, taint it node.kubernetes.io/out-of-service=nodeshutdown:NoExecute so the volume is detached",
        fix: Fix::Node,
        severity: Severity::Warning,
        source: "kubernetes pkg/controller/volume/attachdetach/reconciler/reconciler.go (reportMultiAttachError, maxWaitForUnmountDuration 6m0s); Kubernetes docs, Non-graceful node shutdown (out-of-service taint)",
    },
    // --- attach: the CSI driver's controller does not answer ---------------------------------
    Entry {
        id: "volume-attach-timeout",
        on: ATTACH,
        pattern: r"timed out waiting for external-attacher of (?P<driver>[\w.-]+) CSI driver to attach volume (?P<handle>[^\s␊]+)|Attach timeout for volume (?P<vol>[^\s␊]+)",
        meaning: "the attach/detach controller created a VolumeAttachment for the volume and waited, but the CSI driver's external-attacher (the csi-attacher sidecar in the driver's controller pod) never marked it attached: the driver's controller pod is not running, not elected leader, or stuck, so the volume is not attached to node {node} and the pod cannot start",
        action: "check the controller pod of the CSI driver {driver} (its csi-attacher container's log) and the VolumeAttachment of the volume for node {node} (kubectl describe volumeattachment, status.attachError)",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "kubernetes pkg/volume/csi/csi_attacher.go waitForVolumeAttachmentInternal (`timed out waiting for external-attacher of %v CSI driver to attach volume %v`, before 1.24 `Attach timeout for volume %v`); kubernetes-csi/external-attacher README",
    },
    Entry {
        id: "volume-attach-failed",
        on: ATTACH,
        pattern: r#"AttachVolume\.Attach failed for volume "(?P<volume>[^"\n]+)" : (?:rpc error: code = (?P<code>\w+) desc = )?(?P<desc>[^\n]+)"#,
        meaning: "attaching volume {volume} to node {node} failed in the storage back end (the CSI driver's ControllerPublishVolume or the cloud's attach call): {desc}",
        action: "act on the back end's error: check the VolumeAttachment of {volume} (kubectl describe volumeattachment) and the CSI controller's log for the cloud's answer — a missing permission of the driver's role, a volume in another zone than node {node}, the instance's attachment limit, a volume still attached elsewhere",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "kubernetes pkg/volume/util/operationexecutor/operation_generator.go GenerateAttachVolumeFunc (`AttachVolume.Attach failed`); CSI spec ControllerPublishVolume errors",
    },
    // --- mount: an object the volume is made of does not exist -------------------------------
    Entry {
        id: "volume-object-not-found",
        on: MOUNT,
        pattern: r#"MountVolume\.SetUp failed for volume "(?P<volume>[^"\n]+)" : (?P<kind>secret|configmap)s? "(?P<object>[^"\n]+)" not found"#,
        meaning: "volume {volume} is filled from {kind} {object}, which does not exist in namespace {namespace}; the kubelet keeps retrying the mount, and no container of the pod, init containers included, is started until it exists (a waiting init container is blocked, not failing)",
        action: "create {kind} {object} in namespace {namespace} (or correct the name in volume {volume}; set optional: true only if the pod can run without it)",
        fix: Fix::Object,
        severity: Severity::Error,
        source: "kubernetes pkg/volume/secret/secret.go and pkg/volume/configmap/configmap.go SetUpAt (the API's NotFound, `secret \"%s\" not found`), operation_generator.go (`MountVolume.SetUp failed for volume`); volumemanager WaitForAttachAndMount",
    },
    Entry {
        id: "volume-object-key-missing",
        on: MOUNT,
        pattern: r#"MountVolume\.SetUp failed for volume "(?P<volume>[^"\n]+)" : (?P<kind>configmap|secret) references non-existent (?:config|secret) key: (?P<key>[^\s␊]+)"#,
        meaning: "volume {volume} projects key {key} (in its items) from a {kind} that exists but has no such key, so the kubelet cannot build the volume and no container of the pod starts",
        action: "add key {key} to the {kind}, or correct the key in volume {volume}'s items",
        fix: Fix::Object,
        severity: Severity::Error,
        source: "kubernetes pkg/volume/configmap/configmap.go and pkg/volume/secret/secret.go MakePayload (`configmap references non-existent config key: %s`, `secret references non-existent secret key: %s`)",
    },
    Entry {
        id: "volume-object-not-registered",
        on: MOUNT,
        pattern: r#"object "(?P<objns>[^"\n]+)"/"(?P<object>[^"\n]+)" not registered"#,
        meaning: "the kubelet's cache of ConfigMaps and Secrets had not registered object {objns}/{object} for this pod yet when it mounted the volume (a race when the pod starts or the kubelet restarts): it is retried and normally passes within seconds; a pod already running is not affected",
        action: "nothing to change while the pod starts; if the pod stays ContainerCreating with only this message, restart the kubelet on node {node}",
        fix: Fix::Retry,
        severity: Severity::Warning,
        source: "kubernetes pkg/kubelet/util/manager/watch_based_manager.go (`object %q/%q not registered`)",
    },
    // --- mount: the CSI driver is not on this node -------------------------------------------
    Entry {
        id: "volume-csi-driver-not-registered",
        on: &[
            On::Event("FailedMount"),
            On::Event("FailedMapVolume"),
            On::Event("FailedAttachVolume"),
        ],
        pattern: r"driver name (?P<driver>[\w.-]+) not found in the list of registered CSI drivers",
        meaning: "the kubelet on node {node} has no registration of the CSI driver {driver}: the driver's node plugin (its DaemonSet pod, whose node-driver-registrar registers a socket in /var/lib/kubelet/plugins_registry) is not running on this node or has not registered yet, so the kubelet cannot ask it to mount the volume",
        action: "find the node pod of the driver {driver} on node {node} (kubectl get pods -A -o wide --field-selector spec.nodeName={node}): if there is none, the DaemonSet's tolerations or nodeSelector exclude this node; if it runs, read its node-driver-registrar container's log",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "kubernetes pkg/volume/csi/csi_client.go newCsiDriverClient (`driver name %s not found in the list of registered CSI drivers`); kubernetes-csi/node-driver-registrar",
    },
    // --- mount: NFS --------------------------------------------------------------------------
    Entry {
        id: "volume-nfs-access-denied",
        on: MOUNT,
        pattern: r"mount\.nfs4?: access denied by server while mounting (?P<export>[^\s␊]+)",
        meaning: "the NFS server answered access denied to node {node} for the export {export}: its export list (/etc/exports) does not allow this node's address or network, or the path is not exported as written (NFSv4 paths are relative to the server's pseudo-root)",
        action: "on the NFS server, export the path to the nodes' addresses (an /etc/exports entry for the node network, then exportfs -ra), and check that the server and path in the volume match the export exactly",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "nfs-utils mount.nfs (`access denied by server while mounting %s`, the server's MNT3ERR_ACCES/NFS4ERR_ACCESS); kubernetes pkg/volume/nfs (mount output in the event); exports(5)",
    },
    Entry {
        id: "volume-nfs-no-such-path",
        on: MOUNT,
        pattern: r"mount\.nfs4?: mounting (?P<export>[^\s␊]+) failed, reason given by server: No such file or directory",
        meaning: "the NFS server answered that the path of {export} does not exist there: the path in the volume (or PersistentVolume) is wrong, or the directory was removed on the server",
        action: "correct the path of the NFS volume to a directory that exists in the server's export, or create it on the server",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "nfs-utils mount.nfs (`mounting %s failed, reason given by server: %s`)",
    },
    Entry {
        id: "volume-nfs-unreachable",
        on: MOUNT,
        pattern: r"mount\.nfs4?: (?P<err>Connection timed out|No route to host|Connection refused|Network is unreachable|requested NFS version or transport protocol is not supported)",
        meaning: "node {node} could not talk to the NFS server: {err} (the server is down, a firewall drops the NFS ports 2049 and, for NFSv3, 111 and mountd, or the server does not offer the NFS version asked for)",
        action: "from node {node}, check that the server answers (rpcinfo -p <server>, or a TCP connection to port 2049) and open the NFS ports between the nodes and the server",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "nfs-utils mount.nfs error texts; Kubernetes docs, Volumes: nfs",
    },
    Entry {
        id: "volume-mount-helper-missing",
        on: MOUNT,
        pattern: r"-t (?P<fstype>nfs4?|cifs|smb3|glusterfs|ceph)\s[\s\S]*?(?:bad option|wrong fs type)[\s\S]*?(?:/sbin/mount\.<type> helper program|missing codepage or helper program)",
        meaning: "node {node} has no mount helper for {fstype} (/sbin/mount.{fstype}, from the nfs-common/nfs-utils or cifs-utils package), so the kernel's mount rejects the filesystem's options and the volume cannot be mounted",
        action: "install the client package for {fstype} on node {node} and in the node image (nfs-common on Debian/Ubuntu, nfs-utils on RHEL-like systems, cifs-utils for SMB)",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "util-linux mount (`bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program`, older `wrong fs type, bad option, bad superblock ... missing codepage or helper program`); Kubernetes docs, Volumes: nfs (the node needs the NFS client)",
    },
    // --- mount: a device the node can only read ---------------------------------------------
    Entry {
        id: "volume-readonly-device",
        on: MOUNT,
        pattern: r"cannot mount (?P<device>/dev/[^\s␊]+) read-only|is write-protected, mount(?:ing|ed) read-only|Read-only file system",
        meaning: "a filesystem the mount needs is read-only on node {node}: the volume's device was attached read-only (a readOnly volume or PersistentVolume, a multi-attached disk), the kernel remounted its filesystem read-only after I/O errors, or (when the path is the kubelet's own directory) the node's disk itself went read-only, so a read-write mount is refused",
        action: "check the node's kernel log on {node} (dmesg) for I/O or filesystem errors on the device and the readOnly settings of the volume and its PersistentVolume; after errors, repair the filesystem (fsck) before mounting it again",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "util-linux mount (`cannot mount %s read-only`, `%s is write-protected, mounting read-only`); ext4/xfs remount read-only on errors; Kubernetes docs, Persistent Volumes (readOnly)",
    },
    // --- mount: the CSI driver's node plugin failed ------------------------------------------
    Entry {
        id: "volume-csi-mount-failed",
        on: MOUNT,
        pattern: r#"MountVolume\.(?P<op>MountDevice|SetUp|MapPodDevice|WaitForAttach) failed for volume "(?P<volume>[^"\n]+)" : (?:kubernetes\.io/csi: [^\n]*?)?rpc error: code = (?P<code>\w+) desc = (?P<desc>[^\n]+)"#,
        meaning: "the CSI driver's node plugin on node {node} failed to {op} volume {volume} (CSI NodeStageVolume for MountDevice, NodePublishVolume for SetUp) with {code}: {desc}",
        action: "read the node plugin's log on node {node} (the driver's DaemonSet pod on that node) for the failed {op} of {volume} and fix the cause it names (the device not visible yet, a format or filesystem error, a missing mount option or helper)",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "kubernetes pkg/volume/util/operationexecutor/operation_generator.go (`MountVolume.MountDevice failed`, `MountVolume.SetUp failed`); pkg/volume/csi/csi_attacher.go MountDevice (NodeStageVolume), csi_mounter.go SetUpAt (NodePublishVolume)",
    },
    Entry {
        id: "volume-mount-failed",
        on: MOUNT,
        pattern: r#"MountVolume\.(?P<op>MountDevice|SetUp|MapPodDevice|WaitForAttach) failed for volume "(?P<volume>[^"\n]+)" : (?P<desc>[^\n]+)"#,
        meaning: "the kubelet on node {node} could not {op} volume {volume}: {desc}",
        action: "act on the error after the volume's name (for a mount command, its Output line is the cause) on node {node}",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "kubernetes pkg/volume/util/operationexecutor/operation_generator.go (`MountVolume.SetUp failed for volume`, `MountVolume.MountDevice failed for volume`)",
    },
    // --- mount: the ownership change of fsGroup is slow --------------------------------------
    Entry {
        id: "volume-ownership-slow",
        on: &[On::Event("VolumePermissionChangeInProgress"), On::Log],
        pattern: r"Setting volume ownership for (?P<dir>[^\s,␊]+)(?: is taking longer than expected|, processed (?P<files>\d+) files| and fsGroup set\. If the volume has a lot of files then setting volume ownership could be slow)",
        meaning: "the kubelet is changing the owner group and permissions of every file on the volume to the pod's fsGroup before any container starts (fsGroupChangePolicy Always, the default); on a volume with many files this walk takes minutes and is repeated on every mount, so the pod stays ContainerCreating or Init meanwhile",
        action: "set spec.securityContext.fsGroupChangePolicy: OnRootMismatch in the pod template, so the kubelet skips the walk when the volume's root already has the right owner",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "kubernetes pkg/volume/volume_linux.go SetVolumeOwnership (VolumePermissionChangeInProgress `Setting volume ownership for %s is taking longer than expected, consider using OnRootMismatch`, `..., processed %d files`); Kubernetes docs, Configure volume permission and ownership change policy",
    },
    // --- unmount: a deleted pod's volume is not released -------------------------------------
    Entry {
        id: "volume-unmount-failed",
        on: &[On::Event(""), On::Log],
        pattern: r#"UnmountVolume\.TearDown failed for volume "(?P<volume>[^"\n]+)"[^\n]*?: (?P<err>[^\n]+)|UnmountDevice failed for volume "(?P<device>[^"\n]+)""#,
        meaning: "the kubelet on node {node} could not unmount volume {volume} of a pod being removed: until it does, the pod's volume directory stays and a ReadWriteOnce volume stays attached to this node, so a replacement pod elsewhere waits on Multi-Attach",
        action: "on node {node}, find what keeps the mount busy (a process still using it, an unreachable NFS server: `device is busy`, `stale file handle`) and release it; the kubelet retries the unmount by itself",
        fix: Fix::Node,
        severity: Severity::Warning,
        source: "kubernetes pkg/volume/util/operationexecutor/operation_generator.go GenerateUnmountVolumeFunc (`UnmountVolume.TearDown failed`) and GenerateUnmountDeviceFunc (`UnmountDevice failed`)",
    },
    // --- scheduling: where the volumes can be ------------------------------------------------
    Entry {
        id: "volume-node-affinity-conflict",
        on: SCHEDULING,
        pattern: r"(?P<count>\d+) node\(s\) had volume node affinity conflict",
        meaning: "{count} node(s) were ruled out because a PersistentVolume the pod uses has node affinity (a zone, or one node for a local volume) that they do not satisfy: the volume exists only where those nodes are not, and the pod can only run on a node that matches the volume and the pod's own node constraints",
        action: "compare the PersistentVolume's node affinity (kubectl get pv <volume> -o jsonpath='{.spec.nodeAffinity}') with the zones of the nodes the pod may use; add a node in the volume's zone, or relax the pod's nodeSelector or affinity to include it",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "kubernetes pkg/scheduler/framework/plugins/volumebinding (ErrReasonNodeConflict `node(s) had volume node affinity conflict`); Kubernetes docs, Persistent Volumes node affinity and Storage Classes volumeBindingMode WaitForFirstConsumer",
    },
    Entry {
        id: "volume-max-count",
        on: SCHEDULING,
        pattern: r"(?P<count>\d+) node\(s\) exceed max volume count",
        meaning: "{count} node(s) were ruled out because they already have as many volumes of the pod's volume type attached as they allow (the CSI driver's per-node limit in CSINode, or the cloud's disk limit of the instance type)",
        action: "add nodes (or larger instance types with a higher attachment limit), or spread the volume-heavy pods over more nodes",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "kubernetes pkg/scheduler/framework/plugins/nodevolumelimits (ErrReasonMaxVolumeCountExceeded `node(s) exceed max volume count`); Kubernetes docs, Node-specific Volume Limits",
    },
    Entry {
        id: "volume-claim-not-found",
        on: &[
            On::Event("FailedScheduling"),
            On::Status("Unschedulable"),
            On::Event("FailedMount"),
        ],
        pattern: r#"persistentvolumeclaim "(?P<claim>[^"\n]+)" not found"#,
        meaning: "the pod uses PersistentVolumeClaim {claim}, which does not exist in namespace {namespace}, so the scheduler does not place the pod",
        action: "create PersistentVolumeClaim {claim} in namespace {namespace} (for a StatefulSet the controller creates it from volumeClaimTemplates; a claim deleted by hand is not recreated while the pod exists: delete the pod too), or correct claimName",
        fix: Fix::Object,
        severity: Severity::Error,
        source: "kubernetes pkg/scheduler/framework/plugins/volumebinding PreFilter (the claim lister's NotFound, `persistentvolumeclaim %q not found`)",
    },
    Entry {
        id: "volume-claim-unbound",
        on: SCHEDULING,
        pattern: r"pod has unbound immediate PersistentVolumeClaims|(?P<count>\d+) node\(s\) didn't find available persistent volumes to bind",
        meaning: "a PersistentVolumeClaim of the pod is not bound to a volume: no existing PersistentVolume matches it (size, access mode, storage class, node) and no provisioner has created one, so the scheduler cannot place the pod",
        action: "look at the claim's events (kubectl describe pvc -n {namespace}) for what the provisioner says; check that its storageClassName names an existing StorageClass whose provisioner runs, or that a matching PersistentVolume exists",
        fix: Fix::Object,
        severity: Severity::Error,
        source: "kubernetes pkg/scheduler/framework/plugins/volumebinding (`pod has unbound immediate PersistentVolumeClaims`, ErrReasonBindConflict `node(s) didn't find available persistent volumes to bind`)",
    },
    // --- the kubelet gave up waiting (the cause is in another event) --------------------------
    Entry {
        id: "volume-wait-timeout",
        on: MOUNT,
        pattern: r"(?:Unable to attach or mount volumes|Unable to mount volumes for pod)[^\n]*?unmounted volumes=\[(?P<volumes>[^\]\n]*)\][.,]\s*(?:list of )?unattached volumes=\[(?P<unattached>[^\]\n]*)\]",
        meaning: "the kubelet waited the full 2 minutes for volumes [{volumes}] to be attached and mounted and gave up for this attempt (it tries again); this message only reports the wait: the reason is in the FailedAttachVolume or FailedMount events that name those volumes",
        action: "read the FailedAttachVolume and FailedMount events about [{volumes}] (kubectl describe pod {pod} -n {namespace}); if there are none, look at the kubelet's log on node {node} for that volume",
        fix: Fix::Node,
        severity: Severity::Warning,
        source: "kubernetes pkg/kubelet/volumemanager/volume_manager.go WaitForAttachAndMount (`unmounted volumes=%v, unattached volumes=%v, failed to process volumes=%v: %w`, podAttachAndMountTimeout 2m3s); kubelet.go (FailedMount `Unable to attach or mount volumes: %v`)",
    },
];
