//! Application-level messages that are usually not a bug in the application: what the kernel,
//! the C library, the language runtimes (Go, Node.js, the JVM, Python) and well-known clients
//! (libpq, MySQL, Redis, TLS stacks) print when the pod's environment refuses something — a
//! read-only or foreign-owned path, a port another container holds, a name that does not
//! resolve, a dependency that refuses or drops connections, a certificate nobody trusts, a
//! credential the server rejects, a full disk, a memory limit, a sidecar proxy that is not
//! listening yet. Read from one log line (current or previous instance) and from the
//! termination message of a container that exited with an error (`terminationMessagePolicy:
//! FallbackToLogsOnError` copies the last log lines there). Rows are ordered specific first:
//! the mesh proxy's ports before any connection refused, DNS timeouts before any timeout, the
//! inotify limit before `ENOSPC` and `EMFILE`, the proxy's certificate before any certificate.

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// A log line, or the termination message of a container that exited with an error (the
/// runtime's own start failures have reason `StartError`/`ContainerCannotRun` and are read by
/// the runtime's table).
const APP: &[On] = &[On::Log, On::Terminated("Error")];

/// The ports the Istio sidecar (Envoy 15000 admin, 15001 outbound, 15004 debug, 15006 inbound,
/// 15020 merged metrics, 15021 health, 15090 stats) and the Linkerd proxy (4140 outbound, 4143
/// inbound, 4191 admin) listen on inside the pod.
macro_rules! mesh_ports {
    () => {
        "(?:15000|15001|15004|15006|15020|15021|15090|4140|4143|4191)"
    };
}

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    // --- the mesh sidecar: a localhost port of the proxy refused ------------------------------
    Entry {
        id: "app-mesh-proxy-refused",
        on: APP,
        pattern: concat!(
            r"(?P<addr>(?:127\.0\.0\.1|localhost|\[::1\])(?::|\s+port\s+)(?P<port>",
            mesh_ports!(),
            r"))\b[^\n]*?(?:connection refused|couldn't connect to server)"
        ),
        meaning: "{container} was refused on {addr}, a port the pod's service-mesh proxy listens on (Istio's Envoy 15000-15090, Linkerd's proxy 4140-4191): the proxy container of this pod is not listening yet or has stopped, so the cause is in that sidecar, not in {container}",
        action: "make {container} start only after the proxy is ready (Istio: annotate the pod template with proxy.istio.io/config: '{ \"holdApplicationUntilProxyStarts\": true }'; Linkerd: config.linkerd.io/proxy-await: \"enabled\"), and if the proxy never becomes ready read its own log",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Istio docs, Application requirements: ports used by Istio (15000, 15001, 15006, 15020, 15021, 15090) and ProxyConfig holdApplicationUntilProxyStarts; Linkerd docs, proxy ports 4140/4143/4191 and config.linkerd.io/proxy-await; connect(2) ECONNREFUSED",
    },
    Entry {
        id: "app-mesh-proxy-econnrefused",
        on: APP,
        pattern: concat!(
            r"(?:ECONNREFUSED|Connection refused:)\s+(?:[\w.-]+/)?(?P<addr>(?:127\.0\.0\.1|localhost|::1|\[::1\]):(?P<port>",
            mesh_ports!(),
            r"))\b"
        ),
        meaning: "{container} was refused on {addr}, a port the pod's service-mesh proxy listens on (Istio's Envoy 15000-15090, Linkerd's proxy 4140-4191): the proxy container of this pod is not listening yet or has stopped, so the cause is in that sidecar, not in {container}",
        action: "make {container} start only after the proxy is ready (Istio: annotate the pod template with proxy.istio.io/config: '{ \"holdApplicationUntilProxyStarts\": true }'; Linkerd: config.linkerd.io/proxy-await: \"enabled\"), and if the proxy never becomes ready read its own log",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Node.js docs, Common system errors: ECONNREFUSED; java.net.ConnectException (Netty: `Connection refused: host/ip:port`); Istio and Linkerd port lists as for app-mesh-proxy-refused",
    },
    // --- the mesh sidecar does not trust its control plane -----------------------------------
    Entry {
        id: "app-proxy-x509",
        on: APP,
        pattern: r"(?:istiod|\bxds(?:proxy)?\b|\bsds\b|ca request|failed to sign|pilot-agent)[^\n]*?x509: certificate signed by unknown authority",
        meaning: "the mesh proxy in {container} does not trust the certificate of its control plane (istiod): the root certificate the proxy was given (ConfigMap istio-ca-root-cert in {namespace}) is not the CA that signed istiod's certificate — typically after the mesh CA was replaced or plugged in; the proxy gets no certificates or configuration and stays not ready",
        action: "make the trust roots agree: compare ConfigMap istio-ca-root-cert in {namespace} with the CA istiod signs with (secret cacerts or istio-ca-secret in istio-system), let istiod rewrite the ConfigMap, then restart the pod",
        fix: Fix::Cluster,
        severity: Severity::Error,
        source: "Go crypto/x509 UnknownAuthorityError (`x509: certificate signed by unknown authority`); Istio docs, Plug in CA certificates and Troubleshooting: istio-ca-root-cert distributed to every namespace by istiod",
    },
    // --- the filesystem: read-only, permission, full ------------------------------------------
    Entry {
        id: "app-readonly-fs",
        on: APP,
        pattern: r#"(?P<path>/[^\s"':()]+)["']?(?::|\s+failed\s+\(30:)\s*read-only file system"#,
        meaning: "{container} tried to write {path} and the kernel answered EROFS: that path lies on a read-only filesystem — the container's root filesystem when securityContext.readOnlyRootFilesystem is true, or a volume mounted readOnly (ConfigMap, Secret, projected and downwardAPI volumes are always read-only)",
        action: "mount an emptyDir volume at the directory {container} writes ({path}, or its parent directory when {path} is a file) and keep readOnlyRootFilesystem",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "open(2)/mkdir(2) EROFS (errno 30, strerror `Read-only file system`); Go os.PathError `mkdir <path>: read-only file system`; nginx `mkdir() \"<path>\" failed (30: Read-only file system)`; Kubernetes docs, SecurityContext readOnlyRootFilesystem",
    },
    Entry {
        id: "app-readonly-fs-any",
        on: APP,
        pattern: r"read-only file system|\bEROFS\b|ReadOnlyFilesystem",
        meaning: "a write in {container} failed with EROFS: the file it wrote lies on a read-only filesystem — the container's root filesystem when securityContext.readOnlyRootFilesystem is true, or a volume mounted readOnly (ConfigMap, Secret, projected and downwardAPI volumes are always read-only)",
        action: "find the directory the program writes (its temp or cache directory; /tmp for a shell here-document) and mount an emptyDir volume there, keeping readOnlyRootFilesystem",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "open(2) EROFS; Python OSError `[Errno 30] Read-only file system`; Rust std::io::ErrorKind::ReadOnlyFilesystem (`Os { code: 30, kind: ReadOnlyFilesystem }`); bash `cannot create temp file for here-document: Read-only file system`",
    },
    Entry {
        id: "app-permission-denied",
        on: APP,
        pattern: r#"(?P<path>/[^\s"':()]+)["']?(?::\s*|\s+\()permission denied"#,
        meaning: "{container} was refused access to {path} (EACCES): the user and groups it runs as (securityContext runAsUser/runAsGroup, or the image's USER) lack the permission the access needed (write, read, or search of a directory on the way) — typically a volume whose directory belongs to root or to another UID",
        action: "set the pod's securityContext.fsGroup to the group {container} runs as, so the kubelet makes the volume group-writable; for hostPath and NFS volumes, which fsGroup does not change, chown the directory in an initContainer instead",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "open(2)/mkdir(2) EACCES (errno 13, strerror `Permission denied`); coreutils `mkdir: cannot create directory '<path>': Permission denied`; Go `mkdir <path>: permission denied`; Kubernetes docs, Configure a Security Context: fsGroup and fsGroupChangePolicy",
    },
    Entry {
        id: "app-permission-denied-quoted",
        on: APP,
        pattern: r"(?:EACCES: permission denied,\s*\w+\s+'|\[Errno 13\] Permission denied:\s*'|AccessDeniedException:\s*)(?P<path>/[^'\s]+)",
        meaning: "{container} was refused access to {path} (EACCES): the user and groups it runs as (securityContext runAsUser/runAsGroup, or the image's USER) lack the permission the access needed (write, read, or search of a directory on the way) — typically a volume whose directory belongs to root or to another UID",
        action: "set the pod's securityContext.fsGroup to the group {container} runs as, so the kubelet makes the volume group-writable; for hostPath and NFS volumes, which fsGroup does not change, chown the directory in an initContainer instead",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Node.js docs, Common system errors: EACCES (`EACCES: permission denied, mkdir '<path>'`); Python PermissionError `[Errno 13] Permission denied: '<path>'`; java.nio.file.AccessDeniedException",
    },
    Entry {
        id: "app-inotify-limit",
        on: APP,
        pattern: r"(?:fsnotify|inotify|watcher)[^\n]*?(?:too many open files|no space left on device)|System limit for number of file watchers reached|inotify watch limit reached",
        meaning: "{container} could not create an inotify instance or watch: the node's per-user inotify limits (fs.inotify.max_user_instances, fs.inotify.max_user_watches) are used up by the processes of the same UID on node {node} — inotify reports them as EMFILE or ENOSPC although no file descriptor limit or disk is exhausted",
        action: "raise fs.inotify.max_user_instances and fs.inotify.max_user_watches on node {node} (sysctl, or the node image's defaults), or run fewer file watchers on it",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "inotify(7) /proc/sys/fs/inotify limits; inotify_init1(2) EMFILE, inotify_add_watch(2) ENOSPC; Node.js chokidar `ENOSPC: System limit for number of file watchers reached`; Go fsnotify NewWatcher errors",
    },
    Entry {
        id: "app-token-audience",
        on: APP,
        pattern: r"(?:Incorrect token audience|invalid audience|audience (?:is )?(?:not valid|invalid|mismatch)|aud claim (?:is )?(?:invalid|not (?:valid|expected)))",
        meaning: "the identity provider {container} exchanges its projected service account token with rejected the token's audience (its aud claim is not the one the provider expects): the token the kubelet mounts is minted for the audience the pod's serviceAccountToken projection names",
        action: "set the serviceAccountToken projection's audience to the one the provider expects (for AWS IRSA sts.amazonaws.com; the identity webhook or the pod spec sets it), then recreate the pod",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Kubernetes docs, service account token volume projection (`audience`); AWS STS AssumeRoleWithWebIdentity InvalidIdentityToken (`Incorrect token audience`); OIDC aud claim validation",
    },
    Entry {
        id: "app-no-space",
        on: APP,
        pattern: r#"(?:(?P<path>/[^\s:'"]+)['"]?:\s*)?(?:no space left on device|\bENOSPC\b|\[Errno 28\])"#,
        meaning: "a write in {container} failed with ENOSPC: the filesystem it wrote to is full — a PersistentVolume at its capacity, an emptyDir on a full node disk or at its sizeLimit, or the node's container filesystem; running out of inodes gives the same error",
        action: "find the full filesystem with kubectl exec {pod} -c {container} -- df -h (and df -i for inodes), then expand the PVC, raise the emptyDir sizeLimit, or free space",
        fix: Fix::Object,
        severity: Severity::Error,
        source: "write(2) ENOSPC (errno 28, strerror `No space left on device`); Kubernetes docs, Expanding Persistent Volumes Claims and emptyDir sizeLimit",
    },
    Entry {
        id: "app-too-many-open-files",
        on: APP,
        pattern: r"too many open files|\bEMFILE\b|\[Errno 24\]",
        meaning: "{container}'s process reached its open-file limit (EMFILE: RLIMIT_NOFILE, inherited from the container runtime's default): a descriptor leak (sockets or files never closed) or a limit too low for the connections it serves",
        action: "check the process's descriptors against its limit (kubectl exec {pod} -c {container} -- sh -c 'ls /proc/1/fd | wc -l; grep \"open files\" /proc/1/limits'); fix the leak, or raise the runtime's LimitNOFILE on the nodes if the workload needs more",
        fix: Fix::App,
        severity: Severity::Error,
        source: "open(2)/socket(2)/accept(2) EMFILE (errno 24, strerror `Too many open files`); getrlimit(2) RLIMIT_NOFILE; containerd and CRI-O default rlimits",
    },
    // --- the network: ports, names, refusals, silence -----------------------------------------
    Entry {
        id: "app-addr-in-use",
        on: APP,
        pattern: r"(?:listen (?:tcp|udp)[46]?\s+|bind\(\) to\s+)(?P<addr>\S*:\d+)(?::\s*bind:|\s+failed\s+\(98:)\s*address already in use",
        meaning: "{container} could not listen on {addr}: another socket in the same network namespace already holds that port (EADDRINUSE) — all containers of a pod share one network namespace, so another container of this pod binds it (or, with hostNetwork, a process on node {node}), or a previous copy of the program in {container} still runs",
        action: "give each container of the pod its own port: change the port {container} listens on (its args or env) or the other container's, so no two bind {addr}",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "bind(2) EADDRINUSE (errno 98, strerror `Address already in use`); Go net `listen tcp :8080: bind: address already in use`; nginx `bind() to 0.0.0.0:80 failed (98: Address already in use)`; Kubernetes docs, Pods: containers of a pod share the network namespace",
    },
    Entry {
        id: "app-addr-in-use-node",
        on: APP,
        pattern: r"EADDRINUSE(?::\s*address already in use)?\s+(?P<addr>\S*:\d+)",
        meaning: "{container} could not listen on {addr}: another socket in the same network namespace already holds that port (EADDRINUSE) — all containers of a pod share one network namespace, so another container of this pod binds it (or, with hostNetwork, a process on node {node}), or a previous copy of the program in {container} still runs",
        action: "give each container of the pod its own port: change the port {container} listens on (its args or env) or the other container's, so no two bind {addr}",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Node.js docs, Common system errors: EADDRINUSE (`Error: listen EADDRINUSE: address already in use :::3000`); bind(2)",
    },
    Entry {
        id: "app-addr-in-use-any",
        on: APP,
        pattern: r"address already in use|BindException|\[Errno 98\]|Port (?P<port>\d+) was already in use",
        meaning: "{container} could not listen on a port another socket in the same network namespace already holds (EADDRINUSE): all containers of a pod share one network namespace, so another container of this pod binds it (or, with hostNetwork, a process on node {node}), or a previous copy of the program still runs",
        action: "give each container of the pod its own port: compare the ports the containers listen on (their args, env and containerPort) and change one of them",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "bind(2) EADDRINUSE; java.net.BindException `Address already in use`; Spring Boot `Web server failed to start. Port 8080 was already in use.`; Python OSError `[Errno 98] Address already in use`",
    },
    Entry {
        id: "app-kernel-oom",
        on: APP,
        pattern: r"(?P<scope>Memory cgroup out of memory|Out of memory): Killed process (?P<pid>\d+) \((?P<comm>[^)]+)\)",
        meaning: "the kernel reports `{scope}` and killed {comm} (pid {pid}) with SIGKILL: `Memory cgroup out of memory` means a cgroup (a container's or a pod's memory limit) was full, a plain `Out of memory` means node {node} itself ran out of memory",
        action: "for a cgroup OOM raise the memory limit of the container running {comm} or lower its use; for a node OOM set memory requests that match real use so the scheduler does not overcommit node {node}",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Linux mm/oom_kill.c (`%s: Killed process %d (%s)`, with `Memory cgroup out of memory` for a cgroup's OOM); Kubernetes docs, Assign Memory Resources: exceeding a limit",
    },
    Entry {
        id: "app-shell-killed",
        on: APP,
        pattern: r"line \d+:\s+(?P<pid>\d+)\s+Killed\s+(?P<cmd>\S[^\n]*)",
        meaning: "the shell in {container} reports that its child `{cmd}` (pid {pid}) was killed by SIGKILL while the shell itself survived: in a container the usual sender is the kernel's OOM killer at the container's memory limit, which on cgroup v1 (or v2 without memory.oom.group) kills one process, so the container is not marked OOMKilled unless its main process dies",
        action: "compare resources.limits.memory of {container} with the peak use of `{cmd}` and raise the limit or lower the program's memory use (heap size, workers, batch size)",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "bash jobs.c job status `<pid> Killed <command>` (strsignal(SIGKILL)); Linux cgroup v2 memory.oom.group; Kubernetes docs, Assign Memory Resources",
    },
    Entry {
        id: "app-jvm-native-thread",
        on: APP,
        pattern: r"OutOfMemoryError: unable to create (?:new )?native thread",
        meaning: "the JVM in {container} could not start another thread: the pod's process/thread limit (the pids cgroup, podPidsLimit on the node) or the memory for thread stacks is exhausted — not the Java heap",
        action: "count the threads (kubectl exec {pod} -c {container} -- sh -c 'ls /proc/1/task | wc -l') and fix a thread leak or pool size; raise the node's podPidsLimit only if the workload needs that many",
        fix: Fix::App,
        severity: Severity::Error,
        source: "Java SE troubleshooting guide, `OutOfMemoryError: unable to create new native thread`; Kubernetes docs, Process ID Limits And Reservations (podPidsLimit)",
    },
    Entry {
        id: "app-jvm-heap",
        on: APP,
        pattern: r"java\.lang\.OutOfMemoryError: (?P<kind>Java heap space|GC overhead limit exceeded|Metaspace|Compressed class space|Direct buffer memory|Requested array size exceeds VM limit)",
        meaning: "the JVM in {container} exhausted its own {kind} limit (the heap's -Xmx or -XX:MaxRAMPercentage, MaxMetaspaceSize, MaxDirectMemorySize): the JVM threw the error itself, the kernel did not kill the container — a heap set too small for the work, or a leak",
        action: "raise the JVM's limit (-Xmx or -XX:MaxRAMPercentage for the heap) while keeping it below resources.limits.memory with room for non-heap memory, and if use keeps growing take a heap dump (-XX:+HeapDumpOnOutOfMemoryError) to find the leak",
        fix: Fix::App,
        severity: Severity::Error,
        source: "Java SE troubleshooting guide, Understand the OutOfMemoryError Exception (`Java heap space`, `GC overhead limit exceeded`, `Metaspace`)",
    },
    Entry {
        id: "app-node-heap",
        on: APP,
        pattern: r"JavaScript heap out of memory",
        meaning: "Node.js in {container} reached V8's old-space heap limit and aborted itself (the limit is --max-old-space-size, by default derived from the memory V8 sees): the kernel did not kill the container — a heap limit too small for the work, or a leak",
        action: "set NODE_OPTIONS=--max-old-space-size=<MiB> to about three quarters of resources.limits.memory of {container} (raising the limit if needed), and if use keeps growing take a heap snapshot to find the leak",
        fix: Fix::App,
        severity: Severity::Error,
        source: "V8 heap.cc fatal OOM (`FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory`); Node.js docs, --max-old-space-size",
    },
];
