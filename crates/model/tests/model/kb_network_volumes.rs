//! The knowledge base's pod-network and volume tables (`crates/model/src/diagnosis/kb/cni.rs`,
//! `crates/model/src/diagnosis/kb/volumes.rs`): every row compiles, every row is found for a real
//! message of the component that says it (the kubelet's, the runtime's, a CNI plugin's, the
//! attach/detach controller's, the scheduler's), with the values worth quoting in its named
//! groups; the specific rows win over the generic ones; the decisive event of each corpus case
//! of these areas is found by its row; and harmless messages of the same events match no row.

use podscope_model::diagnosis::kb::{self, On};
use podscope_model::sanitize::sanitize;

/// `(where, message, row id, named groups that must be captured with these values)`.
type Line = (
    On<'static>,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const SANDBOX: On<'static> = On::Event("FailedCreatePodSandBox");
const KILL: On<'static> = On::Event("FailedKillPod");
const MOUNT: On<'static> = On::Event("FailedMount");
const ATTACH: On<'static> = On::Event("FailedAttachVolume");
const SCHED: On<'static> = On::Event("FailedScheduling");

const LINES: &[Line] = &[
    // ---- teardown -------------------------------------------------------------------------
    (
        KILL,
        r#"error killing pod: failed to "KillPodSandbox" for "71dc90af-cacf-55eb-a66a-d28821111db2" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for sandbox \"c793171ae50a68a8\": plugin type=\"calico\" failed (delete): error getting ClusterInformation: Get \"https://10.96.0.1:443/apis/crd.projectcalico.org/v1/clusterinformations/default\": dial tcp 10.96.0.1:443: i/o timeout""#,
        "cni-teardown-failed",
        &[
            ("plugin", "calico"),
            (
                "cause",
                r#"error getting ClusterInformation: Get \"https://10.96.0.1:443/apis/crd.projectcalico.org/v1/clusterinformations/default\": dial tcp 10.96.0.1:443: i/o timeout"#,
            ),
        ],
    ),
    (
        KILL,
        r#"error killing pod: failed to "KillPodSandbox" for "18ba147d-9f0f-4255-816f-5d07998d6908" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy network for sandbox \"3bb433e9ee32\": plugin type=\"multus\" name=\"multus-cni-network\" failed (delete): delegateDel: error invoking ConflistDel - \"sriov-overlay\": conflistDel: error in getting result from DelNetworkList: failed to del rule table 500: no such file or directory ""#,
        "cni-teardown-failed",
        &[("plugin", "multus")],
    ),
    (
        KILL,
        r#"error killing pod: failed to "KillPodSandbox" for "11d141ef-59c9-49c8-99a7-0a42c6328d91" with KillPodSandboxError: "rpc error: code = Unknown desc = networkPlugin cni failed to teardown pod \"coredns-67b75cb4db-rvnxb_kube-system\" network: could not remove grpc wire: rpc error: code = Unavailable desc = connection error""#,
        "cni-teardown-failed",
        &[],
    ),
    // ---- no CNI configuration -------------------------------------------------------------
    (
        On::Event("NetworkNotReady"),
        "network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized",
        "cni-not-initialized",
        &[],
    ),
    (
        On::Event("NetworkNotReady"),
        "network is not ready: runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized",
        "cni-not-initialized",
        &[],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "df615a04a1ba1eef": cni plugin not initialized"#,
        "cni-not-initialized",
        &[],
    ),
    // ---- plugin binaries, bridge, IPAM ------------------------------------------------------
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "ed1acb1e2ecf": plugin type="flannel" failed (add): failed to find plugin "flannel" in path [/opt/cni/bin]"#,
        "cni-plugin-binary-missing",
        &[("binary", "flannel"), ("path", "/opt/cni/bin")],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "668c86dda892": plugin type="flannel" failed (add): failed to delegate add: failed to find plugin "bridge" in path [/opt/cni/bin]"#,
        "cni-plugin-binary-missing",
        &[("binary", "bridge")],
    ),
    (
        SANDBOX,
        r#"Failed create pod sandbox: rpc error: code = Unknown desc = [failed to set up sandbox container "7caa536a060b" network for pod "samplepod": NetworkPlugin cni failed to set up pod "samplepod_default" network: Multus: Err adding pod to network "macvlan-conf": Multus: error in invoke Delegate add - "macvlan": failed to find plugin "macvlan" in path [/opt/cni/bin], failed to clean up sandbox container "7caa536a060b" network for pod "samplepod"]"#,
        "cni-plugin-binary-missing",
        &[("binary", "macvlan"), ("path", "/opt/cni/bin")],
    ),
    (
        SANDBOX,
        r#"(combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_coredns-565d847f94-klvn6_kube-system_86d1ad84_0(c6ad012ffda7): error adding pod kube-system_coredns-565d847f94-klvn6 to CNI network "cbr0": plugin type="flannel" failed (add): failed to delegate add: failed to set bridge addr: "cni0" already has an IP address different from 10.244.0.1/24"#,
        "cni-bridge-addr-conflict",
        &[("bridge", "cni0"), ("addr", "10.244.0.1/24")],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "1826ea1ecd": plugin type="flannel" failed (add): failed to delegate add: failed to allocate for range 0: no IP addresses available in range set: 10.244.7.1-10.244.7.254"#,
        "cni-no-ip",
        &[("rangeid", "0"), ("range", "10.244.7.1-10.244.7.254")],
    ),
    (
        SANDBOX,
        r#"Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "test-hunt-microservice-3-rpdqh_test-test" network: CNI request failed with status 400: 'failed to run IPAM for 065c: failed to run CNI IPAM ADD: failed to allocate for range 0: no IP addresses available in range set: 10.128.0.1-10.128.1.254 '"#,
        "cni-no-ip",
        &[("range", "10.128.0.1-10.128.1.254")],
    ),
    // ---- AWS VPC CNI --------------------------------------------------------------------------
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "2585244756": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: failed to assign an IP address to container"#,
        "cni-aws-no-ip",
        &[],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "c821c7fd69b3": plugin type="aws-cni" name="aws-cni" failed (add): add cmd: Error received from AddNetwork gRPC call: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing dial tcp 127.0.0.1:50051: connect: connection refused""#,
        "cni-aws-ipamd-unreachable",
        &[("addr", "127.0.0.1:50051")],
    ),
    // ---- Calico ---------------------------------------------------------------------------
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "2bb9b172ef": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/"#,
        "cni-calico-nodename",
        &[],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "b6385006e8b3": plugin type="calico" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized"#,
        "cni-calico-unauthorized",
        &[],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "aabb5d29eb03": plugin type="calico" failed (add): error getting ClusterInformation: Get "https://10.233.0.1:443/apis/crd.projectcalico.org/v1/clusterinformations/default": dial tcp 10.233.0.1:443: connect: connection refused"#,
        "cni-calico-apiserver-unreachable",
        &[
            ("addr", "10.233.0.1:443"),
            ("err", "connect: connection refused"),
        ],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "aabb5d29eb03": plugin type="calico" failed (add): error getting ClusterInformation: Get "https://10.233.0.1:443/apis/crd.projectcalico.org/v1/clusterinformations/default": Service Unavailable"#,
        "cni-calico-apiserver-unreachable",
        &[("status", "Service Unavailable")],
    ),
    (
        On::Log,
        "2022-08-24 13:47:18.821 [FATAL][2338] felix/daemon.go 532: Failed to connect to Typha error=connection to typhas ([{node-3:5473 node-3 0xc0005ec640}]) failed",
        "cni-calico-typha-unreachable",
        &[],
    ),
    // ---- Cilium ---------------------------------------------------------------------------
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "f40f8a986e4c": plugin type="cilium-cni" name="cilium" failed (add): unable to create endpoint: Cilium API client timeout exceeded"#,
        "cni-cilium-api-timeout",
        &[],
    ),
    (
        SANDBOX,
        r#"Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "app1-78b4c7b56c-qzwp8_default" network: Unable to create endpoint: [PUT /endpoint/{id}][500] putEndpointIdFailed  endpoint 16569 did not synchronously regenerate after timeout"#,
        "cni-cilium-api-timeout",
        &[],
    ),
    (
        SANDBOX,
        r#"Failed create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "f11fd07d8d36" network for pod "portforwardlinux-6252-bc95f66d9-k5mdr": NetworkPlugin cni failed to set up pod "portforwardlinux-6252-bc95f66d9-k5mdr_default" network: unable to connect to Cilium daemon: failed to create cilium agent client after 30.000000 seconds timeout: Get "http:///var/run/cilium/cilium.sock/v1/config": dial unix /var/run/cilium/cilium.sock: connect: no such file or directory"#,
        "cni-cilium-agent-unreachable",
        &[],
    ),
    // ---- flannel --------------------------------------------------------------------------
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "0c2068d570": plugin type="flannel" failed (add): failed to load flannel 'subnet.env' file: open /run/flannel/subnet.env: no such file or directory. Check the flannel pod log for this node."#,
        "cni-flannel-subnet-env",
        &[("path", "/run/flannel/subnet.env")],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "3c05350cf571": plugin type="flannel" failed (add): loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory"#,
        "cni-flannel-subnet-env",
        &[("path", "/run/flannel/subnet.env")],
    ),
    (
        SANDBOX,
        r#"Failed create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "99e30671c80a" network for pod "node1-6777d4468-d6tvq": NetworkPlugin cni failed to set up pod "node1-6777d4468-d6tvq_default" network: open /run/flannel/subnet.env: no such file or directory"#,
        "cni-flannel-subnet-env",
        &[("path", "/run/flannel/subnet.env")],
    ),
    // ---- Multus ---------------------------------------------------------------------------
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "85c3132666": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): CNI request failed with status 400: 'ERRORED: error configuring pod [test-nick/test-pod-01] networking: Multus: [test-nick/test-pod-01/]: error loading k8s delegates k8s args: TryLoadPodDelegates: error in getting k8s network for pod: GetNetworkDelegates: failed getting the delegate: getKubernetesDelegate: cannot find a network-attachment-definition (macvlan-conf) in namespace (test-nick): network-attachment-definitions.k8s.cni.cncf.io "macvlan-conf" not found'"#,
        "cni-multus-nad-missing",
        &[("network", "macvlan-conf"), ("nadns", "test-nick")],
    ),
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "85c3132666": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): CNI request failed with status 400: 'ERRORED: error configuring pod [telco/sip-proxy-0] networking: [telco/sip-proxy-0/5c1d:macvlan-signal]: error adding container to network "macvlan-signal": plugin type="macvlan" failed (add): Link not found'"#,
        "cni-multus-delegate",
        &[("network", "macvlan-signal")],
    ),
    // ---- anything else ----------------------------------------------------------------------
    (
        SANDBOX,
        r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "bc0ff5692ad0": plugin type="weave-net" name="weave" failed (add): netplugin failed with no error message: signal: killed"#,
        "cni-setup-failed",
        &[("plugin", "weave-net")],
    ),
    (
        SANDBOX,
        r#"Failed create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "f11fd07d8d36" network for pod "web-0": NetworkPlugin cni failed to set up pod "web-0_default" network: unexpected end of JSON input"#,
        "cni-setup-failed",
        &[],
    ),
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

/// Messages of the same events that no row of these tables may claim.
const INNOCENT: &[(On<'static>, &str)] = &[
    (
        On::Event("FailedScheduling"),
        "0/12 nodes are available: 3 Insufficient memory, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling.",
    ),
    (
        On::Event("SandboxChanged"),
        "Pod sandbox changed, it will be killed and re-created.",
    ),
    (
        On::Event("SuccessfulAttachVolume"),
        r#"AttachVolume.Attach succeeded for volume "pvc-6f1c2a9e-3b7d-4e58-9a0c-2d8e4f7b1c35""#,
    ),
    (
        On::Event("Scheduled"),
        "Successfully assigned ledger/ledger-pg-0 to node-c1",
    ),
    (On::Log, "INFO mounted /data, 3 files"),
    (On::Log, "level=info msg=\"network ready\""),
];

fn cni_or_volume(id: &str) -> bool {
    id.starts_with("cni-") || id.starts_with("volume-")
}

#[test]
fn every_row_compiles() {
    let invalid = kb::invalid_rows();
    assert!(invalid.is_empty(), "rows that do not compile: {invalid:#?}");
}

/// Each message as the component wrote it, and as the diagnosis reads it: events and statuses
/// are sanitised to one line first (`model::sanitize`: a newline becomes `␊`).
#[test]
fn every_message_finds_its_row_and_groups() {
    let mut failures = Vec::new();
    for (on, raw, id, groups) in LINES {
        for text in [raw.to_string(), sanitize(raw).into_owned()] {
            let Some(hit) = kb::find(*on, &text) else {
                failures.push(format!("{id}: no row for {text:?}"));
                continue;
            };
            if hit.entry.id != *id {
                failures.push(format!("{id}: got {} for {text:?}", hit.entry.id));
                continue;
            }
            for (name, value) in *groups {
                let got = hit
                    .groups
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.as_str());
                if got != Some(*value) {
                    failures.push(format!(
                        "{id}: group {name} = {got:?}, want {value:?} in {text:?}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_row_of_both_tables_is_exercised() {
    let tested: std::collections::BTreeSet<&str> = LINES.iter().map(|l| l.2).collect();
    let missing: Vec<&str> = kb::entries()
        .map(|e| e.id)
        .filter(|id| cni_or_volume(id) && !tested.contains(id))
        .collect();
    assert!(missing.is_empty(), "rows without a message: {missing:?}");
}

#[test]
fn rows_are_well_formed() {
    for e in kb::entries().filter(|e| cni_or_volume(e.id)) {
        assert!(!e.on.is_empty(), "{}: reads nothing", e.id);
        assert!(!e.source.is_empty(), "{}: no source", e.id);
        assert!(
            !e.meaning.is_empty() && !e.action.is_empty(),
            "{}: meaning and action",
            e.id
        );
        // every placeholder of the meaning and the action is a group or a context name
        for text in [e.meaning, e.action] {
            let mut rest = text;
            while let Some(open) = rest.find('{') {
                let after = &rest[open + 1..];
                let close = after.find('}').expect("closed placeholder");
                let key = &after[..close];
                let known = ["container", "pod", "namespace", "node", "reason"].contains(&key)
                    || e.pattern.contains(&format!("?P<{key}>"))
                    // literal braces of a jsonpath in an action
                    || key.starts_with('.');
                assert!(known, "{}: unknown placeholder {{{key}}}", e.id);
                rest = &after[close + 1..];
            }
        }
    }
}

#[test]
fn harmless_messages_match_no_row_of_these_tables() {
    for (on, text) in INNOCENT {
        if let Some(hit) = kb::find(*on, text) {
            assert!(
                !cni_or_volume(hit.entry.id),
                "{text:?} matched {}",
                hit.entry.id
            );
        }
    }
}

/// `(case, event reason, row id)`: the decisive event of each corpus case of these areas.
const CASE_EVENTS: &[(&str, &str, &str)] = &[
    (
        "53-sandbox-cni-not-initialized",
        "NetworkNotReady",
        "cni-not-initialized",
    ),
    (
        "54-sandbox-host-local-no-ip",
        "FailedCreatePodSandBox",
        "cni-no-ip",
    ),
    (
        "55-sandbox-calico-nodename-missing",
        "FailedCreatePodSandBox",
        "cni-calico-nodename",
    ),
    (
        "56-sandbox-cilium-api-timeout",
        "FailedCreatePodSandBox",
        "cni-cilium-api-timeout",
    ),
    (
        "57-sandbox-flannel-subnet-env-missing",
        "FailedCreatePodSandBox",
        "cni-flannel-subnet-env",
    ),
    (
        "58-volume-secret-not-found-init",
        "FailedMount",
        "volume-object-not-found",
    ),
    (
        "59-volume-multi-attach-rolling-update",
        "FailedAttachVolume",
        "volume-multi-attach-used",
    ),
    (
        "60-volume-attach-timeout-external-attacher",
        "FailedAttachVolume",
        "volume-attach-timeout",
    ),
    (
        "61-volume-csi-driver-not-registered",
        "FailedMount",
        "volume-csi-driver-not-registered",
    ),
    (
        "62-volume-node-affinity-conflict-zone",
        "FailedScheduling",
        "volume-node-affinity-conflict",
    ),
    (
        "63-volume-nfs-access-denied",
        "FailedMount",
        "volume-nfs-access-denied",
    ),
    (
        "64-terminating-cni-teardown-failed",
        "FailedKillPod",
        "cni-teardown-failed",
    ),
    (
        "65-sandbox-multus-plugin-missing",
        "FailedCreatePodSandBox",
        "cni-plugin-binary-missing",
    ),
];

fn events(case: &str) -> Vec<(String, String)> {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(case)
        .join("events.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("events.json is JSON");
    doc["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|e| {
            (
                e["reason"].as_str().unwrap_or_default().to_owned(),
                sanitize(e["message"].as_str().unwrap_or_default()).into_owned(),
            )
        })
        .collect()
}

#[test]
fn the_corpus_cases_decisive_events_find_their_rows() {
    let mut failures = Vec::new();
    for (case, reason, id) in CASE_EVENTS {
        let found: Vec<&str> = events(case)
            .iter()
            .filter(|(r, _)| r == reason)
            .filter_map(|(r, message)| kb::find(On::Event(r), message))
            .map(|hit| hit.entry.id)
            .collect();
        if !found.contains(id) {
            failures.push(format!(
                "{case}: {reason} events found {found:?}, want {id}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
