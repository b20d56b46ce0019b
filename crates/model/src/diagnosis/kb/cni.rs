//! The pod's network as the container runtime and its CNI plugins report it: the kubelet asks
//! the runtime for a sandbox (`RunPodSandbox`), the runtime (containerd, CRI-O) runs the CNI
//! plugins of the node's configuration in `/etc/cni/net.d` (binaries in `/opt/cni/bin`) with
//! `ADD`, and on deletion `StopPodSandbox` runs them with `DEL`. A failed `ADD` reaches the pod
//! as a `FailedCreatePodSandBox` event (`Failed to create pod sandbox: rpc error: ... failed to
//! setup network for sandbox "<id>": plugin type="<plugin>" failed (add): <the plugin's error>`,
//! `kuberuntime_manager.go`, containerd `sandbox_run.go`, libcni `api.go`); a failed `DEL` as a
//! `FailedKillPod` event (`error killing pod: failed to "KillPodSandbox" for "<uid>" with
//! KillPodSandboxError: ...failed to destroy network for sandbox...`) and a pod that stays
//! `Terminating`. A runtime without a loaded CNI configuration reports `NetworkReady=false`, and
//! the kubelet then refuses to sync pods that are not `hostNetwork` with a `NetworkNotReady`
//! event. Older kubelets (dockershim) said `NetworkPlugin cni failed to set up pod "<pod>"
//! network: ...` and `network plugin is not ready: cni config uninitialized`.
//!
//! Rows are ordered specific first: the teardown before any setup failure, a plugin's own error
//! (IPAM exhausted, a missing file of the node agent, an agent that does not answer) before the
//! generic "the network could not be set up".

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// Where a CNI `ADD` failure is read: the sandbox event, and the kubelet's network-not-ready
/// event (the runtime's status says why).
const SETUP: &[On<'static>] = &[
    On::Event("FailedCreatePodSandBox"),
    On::Event("NetworkNotReady"),
];

/// Where a CNI `DEL` failure is read: the kubelet's kill event of a pod being deleted.
const TEARDOWN: &[On<'static>] = &[On::Event("FailedKillPod")];

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    // --- teardown: the pod cannot finish terminating -----------------------------------------
    Entry {
        id: "cni-teardown-failed",
        on: TEARDOWN,
        pattern: r#"KillPodSandbox(?:[^\n]*?plugin type=\\*"(?P<plugin>[\w.-]+)\\*"(?: name=\\*"[^"\\\n]*\\*")? failed \(delete\):\s*(?P<cause>[^\n]+?)(?:\\*"|\]|\s)*$|[^\n]*?(?:failed to destroy network for sandbox|failed to teardown pod|cni plugin not initialized)[^\n]*)"#,
        meaning: "the kubelet stopped the containers of {pod} but the container runtime cannot remove its sandbox: the CNI plugin's DEL (tearing down the pod's network and releasing its IP) fails on node {node}, and the kubelet does not finish a pod whose sandbox it could not stop, so the pod stays Terminating and retries on every sync",
        action: "fix the CNI plugin on node {node} so that its DEL succeeds (the error after `failed (delete):` names the cause: its node agent not running, the API server or the kubernetes Service IP unreachable from the node, a missing file); only if the node is gone for good, remove the pod with kubectl delete pod {pod} -n {namespace} --grace-period=0 --force",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "kubelet kubelet.go syncTerminatingPod (FailedKillPod `error killing pod: %v`), kuberuntime_manager.go killPodWithSyncResult (KillPodSandbox); containerd sandbox_stop.go `failed to destroy network for sandbox %q`; libcni api.go `plugin %s failed (delete)`",
    },
    // --- the runtime has no CNI configuration -------------------------------------------------
    Entry {
        id: "cni-not-initialized",
        on: SETUP,
        pattern: r"cni plugin not initialized|cni config (?:un|not )initiali[sz]ed|network plugin is not ready|no networks found in (?P<dir>/[\w./-]+)|no network config found in (?P<confdir>/[\w./-]+)|NetworkPluginNotReady",
        meaning: "the container runtime on node {node} has no usable CNI network configuration (no config file in /etc/cni/net.d, or one the runtime has not loaded), so it cannot give any pod a network: nothing that is not hostNetwork can start on this node, and the kubelet reports the node NotReady",
        action: "make the CNI add-on's DaemonSet pod run on node {node} so that it writes its config to /etc/cni/net.d (kubectl get pods -A -o wide --field-selector spec.nodeName={node}); if the file is there and the runtime still says not initialized, restart containerd on the node so that it reloads the directory",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containerd go-cni errors.go (ErrCNINotInitialized `cni plugin not initialized`) and cri status.go (NetworkReady=false, NetworkPluginNotReady); kubelet kubelet.go syncPod (NetworkNotReady `network is not ready: %v`); dockershim network/cni/cni.go (`cni config uninitialized`, `No networks found in %s`)",
    },
    // --- a plugin binary is missing ---------------------------------------------------------
    Entry {
        id: "cni-plugin-binary-missing",
        on: SETUP,
        pattern: r#"failed to find plugin \\*"(?P<binary>[\w.-]+)\\*" in path \[(?P<path>[^\]\n]*)\]"#,
        meaning: "the CNI configuration on node {node} (or a network it delegates to) names the plugin binary {binary}, which is not in the runtime's CNI binary directories [{path}]: the plugin package was never installed on this node, or the runtime looks in another directory than the one the add-on installed into",
        action: "install the plugin {binary} into [{path}] on node {node} (the standard plugins come from the containernetworking/plugins release; a CNI add-on's own binary is copied there by its DaemonSet's install container), or point the runtime's bin_dir at the directory the add-on uses",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containernetworking/cni pkg/invoke/find.go (`failed to find plugin %q in path %s`); containerd cri config bin_dir",
    },
    // --- the bridge plugin: cni0 has an old subnet ------------------------------------------
    Entry {
        id: "cni-bridge-addr-conflict",
        on: SETUP,
        pattern: r#"failed to set bridge addr: \\*"(?P<bridge>[\w.-]+)\\*" already has an IP address different from (?P<addr>[0-9a-fA-F.:]+/\d+)"#,
        meaning: "the bridge plugin on node {node} wants to give bridge {bridge} the gateway address {addr} of the node's current pod subnet, but the bridge still carries the address of an earlier subnet (the node was re-joined or the network add-on reinstalled with another CIDR, and the old bridge survived): every pod sandbox on this node fails",
        action: "drain node {node}, delete the stale bridge (ip link delete {bridge}) and let the network add-on recreate it with {addr}",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containernetworking/plugins plugins/main/bridge/bridge.go ensureAddr (`%q already has an IP address different from %v`); flannel delegates to bridge",
    },
    // --- IPAM: the node's range is used up --------------------------------------------------
    Entry {
        id: "cni-no-ip",
        on: SETUP,
        pattern: r"(?:failed to allocate for range (?P<rangeid>\d+): )?no IP addresses available in range set: (?P<range>[0-9a-fA-F.:]+-[0-9a-fA-F.:]+)",
        meaning: "the host-local IPAM plugin on node {node} finds every address of its range {range} reserved (one file per address under /var/lib/cni/networks/<network>/): either the node runs as many pods as its pod CIDR holds, or reservations of sandboxes long gone were never released (their CNI DEL did not run, typically after the runtime crashed or the node rebooted uncleanly), so no new pod on this node gets an IP",
        action: "on node {node}, compare the reservation files under /var/lib/cni/networks/<network>/ with the sandboxes that exist (crictl pods -q) and, with the node drained, delete the files whose container ID no longer exists; if the node really runs that many pods, lower its maxPods to fit {range}",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containernetworking/plugins plugins/ipam/host-local/backend/allocator/allocator.go (`no IP addresses available in range set: %s`) and main.go (`failed to allocate for range %d: %w`); backend/disk/backend.go (one file per reserved IP)",
    },
    // --- AWS VPC CNI ------------------------------------------------------------------------
    Entry {
        id: "cni-aws-no-ip",
        on: SETUP,
        pattern: r"add cmd: failed to assign an IP address to container",
        meaning: "the AWS VPC CNI's IP address manager (ipamd, in the aws-node pod) on node {node} had no free address to give: the addresses of the node's ENIs are all in use (the instance type's ENI and IP limit is reached), or ipamd could not get more (the subnet has no free addresses, or attaching an ENI or prefix failed)",
        action: "read ipamd's log on node {node} (/var/log/aws-routed-eni/ipamd.log, or the aws-node pod's log) for why it cannot allocate: if the subnet is exhausted, add subnets or enable prefix delegation (ENABLE_PREFIX_DELEGATION); if the instance's limit is reached, keep maxPods at the value the instance type supports",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "aws/amazon-vpc-cni-k8s cmd/routed-eni-cni-plugin/cni.go (`add cmd: failed to assign an IP address to container` when ipamd answers Success=false); EKS docs, Amazon VPC CNI IP address management",
    },
    Entry {
        id: "cni-aws-ipamd-unreachable",
        on: SETUP,
        pattern: r"add cmd: Error received from AddNetwork gRPC call(?::[^\n]*?(?P<addr>127\.0\.0\.1:\d+))?",
        meaning: "the AWS VPC CNI plugin on node {node} could not reach ipamd, the IP address manager of the aws-node pod (gRPC on 127.0.0.1:50051): aws-node is not running on this node or has not finished starting",
        action: "check the aws-node pod on node {node} (kubectl -n kube-system get pods -l k8s-app=aws-node -o wide --field-selector spec.nodeName={node}) and its log; pods created before it is ready are retried by the kubelet",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "aws/amazon-vpc-cni-k8s cmd/routed-eni-cni-plugin/cni.go (`add cmd: Error received from AddNetwork gRPC call`), ipamd gRPC server on 127.0.0.1:50051",
    },
    // --- Calico -----------------------------------------------------------------------------
    Entry {
        id: "cni-calico-nodename",
        on: SETUP,
        pattern: r"stat /var/lib/calico/nodename: no such file or directory",
        meaning: "the Calico CNI plugin on node {node} reads the node's Calico name from /var/lib/calico/nodename, a file the calico-node pod writes when it starts; the file is missing, so calico-node is not running on this node, has not started yet, or does not mount /var/lib/calico",
        action: "make the calico-node pod on node {node} run (kubectl get pods -A -l k8s-app=calico-node -o wide --field-selector spec.nodeName={node}, then its events and log); the file appears when it starts and the kubelet's next sandbox attempt succeeds",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "projectcalico/calico cni-plugin/pkg/plugin (nodename file, `check that the calico/node container is running and has mounted /var/lib/calico/`); calico/node startup writes /var/lib/calico/nodename",
    },
    Entry {
        id: "cni-calico-unauthorized",
        on: SETUP,
        pattern: r"(?:error getting ClusterInformation: )?connection is unauthorized: Unauthorized",
        meaning: "the Calico CNI plugin on node {node} was refused by the API server (401 Unauthorized): the credentials it uses, the service-account token calico-node writes into /etc/cni/net.d/calico-kubeconfig, have expired or been invalidated (the token was rotated or the calico-node ServiceAccount recreated) and calico-node has not written a fresh one",
        action: "restart the calico-node pod on node {node} so that it writes a new token into /etc/cni/net.d/calico-kubeconfig, and upgrade Calico if the token keeps expiring",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "projectcalico/calico cni-plugin k8s client (`error getting ClusterInformation`), libcalico-go errors (`connection is unauthorized`); calico/node token refresher for calico-kubeconfig",
    },
    Entry {
        id: "cni-calico-apiserver-unreachable",
        on: SETUP,
        pattern: r"error getting ClusterInformation:[^\n]*?(?:dial tcp (?P<addr>[0-9a-fA-F.:\[\]]+:\d+): (?P<err>i/o timeout|connect: connection refused|connect: no route to host)|(?P<status>Service Unavailable|context deadline exceeded|TLS handshake timeout))",
        meaning: "the Calico CNI plugin on node {node} could not reach the Kubernetes API server to read its ClusterInformation: the address it uses is usually the kubernetes Service's ClusterIP, which works from the node only when kube-proxy (or the eBPF replacement) programs it there, and it did not answer",
        action: "from node {node}, check that the API server answers at that address (curl -k https://<address>/healthz) and that kube-proxy runs on the node; if only the ClusterIP fails, fix kube-proxy on node {node}",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "projectcalico/calico cni-plugin (reads ClusterInformation `default` on ADD and DEL); Kubernetes docs, Virtual IPs and Service Proxies",
    },
    Entry {
        id: "cni-calico-typha-unreachable",
        on: &[On::Log, On::Event("Unhealthy")],
        pattern: r"Failed to connect to Typha|connection to typhas? [^\n]*?failed",
        meaning: "Felix in the calico-node pod on node {node} cannot connect to Typha (port 5473 on the nodes running calico-typha): a firewall or security group between the nodes blocks the port, or Typha is not running; calico-node stays not ready and this node's pods get no routes or policy updates",
        action: "allow TCP 5473 from node {node} to the nodes running calico-typha (security groups, host firewall) and check that the calico-typha pods run",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "projectcalico/calico felix/daemon (`Failed to connect to Typha`), typha client (`connection to typhas (...) failed`); Calico docs, network requirements (Typha TCP 5473)",
    },
    // --- Cilium -----------------------------------------------------------------------------
    Entry {
        id: "cni-cilium-agent-unreachable",
        on: SETUP,
        pattern: r"unable to connect to Cilium (?:daemon|agent)|failed to create cilium agent client|cilium\.sock[^\n]*?(?:no such file or directory|connection refused)",
        meaning: "the Cilium CNI plugin on node {node} could not connect to the cilium-agent through /var/run/cilium/cilium.sock: the agent is not running on this node (crashing, not scheduled, still starting)",
        action: "check the cilium agent pod on node {node} (kubectl -n kube-system get pods -l k8s-app=cilium -o wide --field-selector spec.nodeName={node}) and its log",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "cilium plugins/cilium-cni (`unable to connect to Cilium daemon`, client over /var/run/cilium/cilium.sock)",
    },
    Entry {
        id: "cni-cilium-api-timeout",
        on: SETUP,
        pattern: r"Cilium API client timeout exceeded|Unable to create endpoint:[^\n]*?(?:context deadline exceeded|did not synchronously regenerate after timeout)",
        meaning: "the Cilium CNI plugin on node {node} reached the cilium-agent, but the agent did not finish creating the pod's endpoint within the plugin's timeout: the agent is overloaded or blocked (restoring or regenerating endpoints after a restart, waiting on the API server or the kvstore), so every sandbox on this node fails until it recovers",
        action: "look at the cilium agent on node {node} (cilium status and its log, kubectl -n kube-system exec <cilium pod> -- cilium status); if it stays stuck, restart that agent pod",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "cilium plugins/cilium-cni cmd (`unable to create endpoint`), pkg/client (`Cilium API client timeout exceeded`); cilium daemon endpoint creation and regeneration",
    },
    // --- flannel ----------------------------------------------------------------------------
    Entry {
        id: "cni-flannel-subnet-env",
        on: SETUP,
        pattern: r"(?:failed to load flannel 'subnet\.env' file: |loadFlannelSubnetEnv failed: )?open (?P<path>/[\w./-]*subnet\.env): no such file or directory",
        meaning: "the flannel CNI plugin on node {node} reads the node's subnet lease from {path}, a file flanneld (the kube-flannel pod) writes once it has acquired the node's subnet; the file is missing, so flanneld is not running on this node or could not acquire a lease (often because the node has no podCIDR: the controller manager does not allocate node CIDRs)",
        action: "check the kube-flannel pod on node {node} and its log (kubectl get pods -A -l app=flannel -o wide --field-selector spec.nodeName={node}); `pod cidr not assigned` there means the cluster was set up without a pod network CIDR (kubeadm init --pod-network-cidr, kube-controller-manager --allocate-node-cidrs)",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "flannel-io/cni-plugin flannel.go (`failed to load flannel 'subnet.env' file: %w. Check the flannel pod log for this node.`; older `loadFlannelSubnetEnv failed`); flanneld writes /run/flannel/subnet.env",
    },
    // --- Multus -----------------------------------------------------------------------------
    Entry {
        id: "cni-multus-nad-missing",
        on: SETUP,
        pattern: r"cannot find a network-attachment-definition \((?P<network>[^)\n]+)\) in namespace \((?P<nadns>[^)\n]+)\)",
        meaning: "the pod asks (annotation k8s.v1.cni.cncf.io/networks) for the additional network {network}, but no NetworkAttachmentDefinition of that name exists in namespace {nadns}, so Multus fails the whole sandbox",
        action: "create the NetworkAttachmentDefinition {network} in namespace {nadns}, or correct the name in the pod template's k8s.v1.cni.cncf.io/networks annotation",
        fix: Fix::Object,
        severity: Severity::Error,
        source: "k8snetworkplumbingwg/multus-cni pkg/k8sclient (`cannot find a network-attachment-definition (%s) in namespace (%s)`)",
    },
    Entry {
        id: "cni-multus-delegate",
        on: SETUP,
        pattern: r#"(?:Multus|multus)[^\n]*?(?:error adding container to network|Err adding pod to network|error in invoke Delegate add -) \\*"(?P<network>[\w.-]+)\\*""#,
        meaning: "Multus could not attach the pod to network {network}: the plugin that network delegates to failed, and Multus fails the whole sandbox (the delegate's own error follows in the message)",
        action: "read the delegate's error at the end of the message and check the network's configuration (kubectl get network-attachment-definitions -n {namespace} {network} -o yaml) against node {node}: the plugin binary, the master interface, the IPAM range",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "k8snetworkplumbingwg/multus-cni pkg/multus (`error adding container to network %q`, older `Multus: Err adding pod to network %q`, `error in invoke Delegate add - %q`)",
    },
    // --- any other setup failure ------------------------------------------------------------
    Entry {
        id: "cni-setup-failed",
        on: SETUP,
        pattern: r#"^(?:[^\n]*?plugin type=\\*"(?P<plugin>[\w.-]+)\\*"(?: name=\\*"[^"\\\n]*\\*")? failed \(add\)|[^\n]*?(?:failed to setup network for sandbox|failed to set up sandbox container|NetworkPlugin cni failed to set up pod|failed to create pod network sandbox))"#,
        meaning: "the container runtime on node {node} could not set up the pod's network: the node's CNI plugin failed its ADD, so the pod sandbox is torn down and retried and no container of {pod} starts; the plugin's own error, at the end of the message, is the cause",
        action: "read the plugin's error at the end of the message and check the network add-on's pod on node {node} (kubectl get pods -A -o wide --field-selector spec.nodeName={node}) and its log",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "kubelet kuberuntime_manager.go (FailedCreatePodSandBox `Failed to create pod sandbox: %v`); containerd sandbox_run.go (`failed to setup network for sandbox %q: %w`); libcni api.go (`plugin %s failed (add): %w`); dockershim (`NetworkPlugin cni failed to set up pod %q network`)",
    },
];
