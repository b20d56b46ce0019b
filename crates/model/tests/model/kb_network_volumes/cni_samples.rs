//! Messages of pod networking (the kubelet, the runtime, CNI plugins: bridge, IPAM, AWS VPC CNI,
//! Calico, Cilium, flannel, Multus), each with the cni row it must meet.

use podscope_model::diagnosis::kb::On;

use super::{KILL, Line, SANDBOX};

pub(super) const LINES: &[Line] = &[
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
];
