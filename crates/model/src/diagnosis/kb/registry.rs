//! Image pulls as the container runtime reports them and the kubelet passes them on verbatim
//! (`pkg/kubelet/images/image_manager.go`: the Failed event `Failed to pull image "<image>":
//! <error>` and the `ErrImagePull` waiting message `<error>`; since 1.29 the kubelet drops the
//! `rpc error: code = Unknown desc =` prefix, other gRPC codes keep it). The words are the
//! runtime's (containerd's `remotes/docker` resolver and fetcher, moby's distribution client,
//! containers/image for CRI-O), Go's `net`, `net/http` and `crypto/x509`, and the registry's own
//! error codes (OCI distribution spec: `MANIFEST_UNKNOWN`, `UNAUTHORIZED`, `DENIED`,
//! `TOOMANYREQUESTS`).
//!
//! Rows are ordered specific first: the platform miss before "not found" (containerd reports it
//! with code NotFound), the rate limit and TLS before credentials, credentials before the
//! network (a token fetch that times out is a network failure), DNS before TCP, the network
//! before the generic timeouts, and "not found" last. Every pattern may start at the quoted
//! image (`image "<ref>"`, the kubelet's or the runtime's), captured as `image` when present.

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// A pull's answer: the kubelet's Failed event and the container's waiting message while it
/// pulls or backs off (init containers use the same reasons).
const PULL: &[On] = &[
    On::Event("Failed"),
    On::Waiting("ErrImagePull"),
    On::Waiting("ImagePullBackOff"),
    On::Waiting("RegistryUnavailable"),
];

/// The image reference the message quotes, captured when the text has one before the cause.
macro_rules! image {
    () => {
        r#"(?:image "(?P<image>[^"]+)"[^\n]*?)?"#
    };
}

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    Entry {
        id: "registry-platform-mismatch",
        on: PULL,
        pattern: concat!(
            image!(),
            r#"(?:no match for platform in manifest|no matching manifest for (?P<platform>\S+) in the manifest list entries|no image found in (?:image index|manifest list) for architecture "?(?P<arch>\w+))"#
        ),
        meaning: "the image of container {container} has no variant for node {node}'s OS and CPU architecture: its image index lists other platforms only, so the runtime finds nothing to pull although the tag exists",
        action: "publish a multi-platform image that includes the node's architecture (docker buildx build --platform linux/amd64,linux/arm64 --push), or schedule the pod onto nodes of an architecture the image has (nodeSelector kubernetes.io/arch)",
        fix: Fix::Image,
        severity: Severity::Error,
        source: "containerd images/image.go (`no match for platform in manifest`, code NotFound); moby distribution/pull_v2.go (`no matching manifest for <platform> in the manifest list entries`); containers/image manifest/oci_index.go (`no image found in image index for architecture ...`)",
    },
    Entry {
        id: "registry-rate-limit",
        on: PULL,
        pattern: concat!(
            image!(),
            r"(?:toomanyrequests|\b429 Too Many Requests|(?:status(?: code)?|request to \S+):? 429\b|pull rate limit)"
        ),
        meaning: "the registry refused to serve the image of container {container} because a pull rate limit was reached (HTTP 429 toomanyrequests); Docker Hub counts anonymous pulls per public IP, so nodes behind one NAT share the allowance",
        action: "pull with authenticated credentials (an imagePullSecret for the registry, e.g. docker.io) or through a registry mirror / pull-through cache; prefer pinned tags with imagePullPolicy IfNotPresent so restarts do not pull again",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "Docker Hub usage and rate limits (HTTP 429, TOOMANYREQUESTS); OCI distribution spec error codes; containerd remotes/docker fetcher (`unexpected status code <url>: 429 Too Many Requests`)",
    },
    Entry {
        id: "registry-tls-unknown-authority",
        on: PULL,
        pattern: concat!(
            image!(),
            r#"(?:"?https://(?P<host>[^/"\s]+)[^\s"]*"?: )?(?:tls: failed to verify certificate: )?x509: certificate signed by unknown authority"#
        ),
        meaning: "node {node}'s container runtime does not trust the certificate authority that signed the registry's TLS certificate (x509: certificate signed by unknown authority): a private or self-signed CA, or a TLS-intercepting proxy, missing from the runtime's trust store",
        action: "install the registry's CA certificate on every node where the runtime reads it (containerd: /etc/containerd/certs.d/<registry host>/ca.crt with a hosts.toml, or the OS trust store and a containerd restart), or give the registry a certificate from a publicly trusted CA",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "Go crypto/x509 UnknownAuthorityError, crypto/tls (`tls: failed to verify certificate:`); containerd remotes/docker resolver (`failed to do request: Head ...`); containerd docs/hosts.md",
    },
    Entry {
        id: "registry-tls-expired",
        on: PULL,
        pattern: concat!(
            image!(),
            r"x509: certificate has expired or is not yet valid(?:: current time (?P<now>\S+) is (?:after|before) (?P<bound>\S+))?"
        ),
        meaning: "the registry's TLS certificate is outside its validity period as seen from node {node} (x509: certificate has expired or is not yet valid): it expired, or the node's clock is wrong",
        action: "renew the registry's certificate; if it is still valid, correct the node's clock (timedatectl, chrony) — a skewed clock makes valid certificates look expired",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "Go crypto/x509 CertificateInvalidError (Expired)",
    },
    Entry {
        id: "registry-tls-hostname",
        on: PULL,
        pattern: concat!(
            image!(),
            r#"x509: (?:certificate is valid for (?P<names>.+?), not (?P<host>[^\s":]+)|certificate is not valid for any names, but wanted to match (?P<wanted>[^\s":]+)|cannot validate certificate for (?P<ip>[^\s"]+) because it doesn't contain any IP SANs|certificate relies on legacy Common Name field)"#
        ),
        meaning: "the registry's TLS certificate does not name the host the image reference uses (x509 host name mismatch): the image points at a name or an IP address the certificate was not issued for",
        action: "reference the registry by a host name listed in its certificate's subjectAltName, or reissue the certificate with the name (or IP SAN) the image reference uses",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "Go crypto/x509 HostnameError",
    },
    Entry {
        id: "registry-http-to-https",
        on: PULL,
        pattern: concat!(image!(), r"server gave HTTP response to HTTPS client"),
        meaning: "the registry answered in plain HTTP where the runtime spoke HTTPS (http: server gave HTTP response to HTTPS client): it serves no TLS on that port, and the runtime on node {node} is not configured to use HTTP for it",
        action: "serve the registry over TLS, or declare it a plain-HTTP registry in the runtime configuration of every node (containerd: /etc/containerd/certs.d/<host>/hosts.toml with server = \"http://<host>\"; Docker: insecure-registries)",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "Go net/http transport (`http: server gave HTTP response to HTTPS client`); containerd docs/hosts.md",
    },
    Entry {
        id: "registry-access-denied",
        on: PULL,
        pattern: concat!(
            image!(),
            r"pull access denied(?: for (?P<repo>[^,\s]+))?, repository does not exist or may require (?:'docker login'|authorization)"
        ),
        meaning: "the registry refused to let container {container}'s image be pulled (pull access denied): it answers the same for a repository that does not exist and for one the request has no right to read, so either the repository name is wrong or the credentials are missing",
        action: "check the repository name in the image reference; if it is private, reference an imagePullSecret (in the pod or its ServiceAccount) whose server matches the registry host exactly and whose account may pull it",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "containerd remotes/docker resolver.go (`pull access denied, repository does not exist or may require authorization`); moby distribution/errors.go (`... may require 'docker login'`)",
    },
    Entry {
        id: "registry-unauthorized",
        on: PULL,
        pattern: concat!(
            image!(),
            r"(?:\bunauthorized\b|request to \S+:\s*401\b|status: 401\b|no basic auth credentials|authentication required)"
        ),
        meaning: "the registry rejected the pull for container {container} as unauthenticated (401 Unauthorized): no credentials were sent for this registry, or they are wrong or expired",
        action: "check the pod's imagePullSecrets (and its ServiceAccount's): each Secret must exist in namespace {namespace}, be of type kubernetes.io/dockerconfigjson, name this registry's host exactly, and hold a valid, unexpired credential",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "OCI distribution spec (401 UNAUTHORIZED); containerd remotes/docker resolver.go (`pulling from host <host> failed with status code [manifests <tag>]: 401 Unauthorized`) and authorizer (`failed to fetch oauth token`); kubelet credential lookup (pkg/credentialprovider)",
    },
    Entry {
        id: "registry-forbidden",
        on: PULL,
        pattern: concat!(
            image!(),
            r"(?:\b403 Forbidden|request to \S+:\s*403\b|\bdenied: (?:requested access|permission))"
        ),
        meaning: "the registry recognized the request but forbids pulling this image (403 Forbidden / denied): the credentials used lack read permission on the repository, or a registry policy (IP allow-list, the node's cloud identity) blocks the node",
        action: "grant the pulling identity read access to the repository (registry project membership, the cloud IAM role of the node or of the imagePullSecret's account), or use credentials that have it",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "OCI distribution spec (403 DENIED); containerd remotes/docker resolver.go",
    },
    Entry {
        id: "registry-dns-no-such-host",
        on: PULL,
        pattern: concat!(
            image!(),
            r"lookup (?P<host>[^\s:]+)(?: on (?P<resolver>[^\s:]+):\d+)?: no such host"
        ),
        meaning: "node {node} cannot resolve the registry host {host} (DNS: no such host): the runtime pulls with the node's resolver, not the cluster DNS, so the name must exist in the node's DNS — Service names (*.svc.cluster.local) and typos do not",
        action: "use a registry host name the nodes resolve (check on the node: nslookup {host}), correct a typo in the image reference, or add the name to the nodes' DNS",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "Go net dnsclient (`lookup <host> on <server>: no such host`); containerd remotes/docker resolver (`failed to do request`)",
    },
    Entry {
        id: "registry-dns-failure",
        on: PULL,
        pattern: concat!(
            image!(),
            r"lookup (?P<host>[^\s:]+)(?: on (?P<resolver>[^\s:]+):\d+)?: (?:server misbehaving|read udp \S+: i/o timeout|i/o timeout|Temporary failure in name resolution)"
        ),
        meaning: "node {node}'s DNS resolver failed while resolving the registry host {host} (server misbehaving / timeout): the node's DNS servers are unreachable or failing, the image reference is not at fault",
        action: "check the node's DNS configuration and reachability (resolvectl status or /etc/resolv.conf on the node, then nslookup {host}); the kubelet keeps retrying and the pull succeeds once DNS answers",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "Go net dnsclient (`server misbehaving`, `read udp ...: i/o timeout`); getaddrinfo(3) EAI_AGAIN",
    },
    Entry {
        id: "registry-proxy-unreachable",
        on: PULL,
        pattern: concat!(
            image!(),
            r"proxyconnect tcp: dial tcp (?P<addr>[^\s]+?): (?P<error>[^\n]+)"
        ),
        meaning: "the HTTP(S) proxy configured for the container runtime on node {node} ({addr}) could not be reached ({error}), so no pull gets out",
        action: "fix or remove the proxy in the runtime's environment on node {node} (the HTTPS_PROXY/NO_PROXY of containerd's systemd unit), and list the registry in NO_PROXY if it is internal",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "Go net/http transport (`proxyconnect tcp:`); containerd and the HTTP_PROXY/HTTPS_PROXY/NO_PROXY environment",
    },
    Entry {
        id: "registry-connection-refused",
        on: PULL,
        pattern: concat!(
            image!(),
            r"dial tcp (?P<addr>[^\s]+?): connect: connection refused"
        ),
        meaning: "nothing accepts connections at the registry address {addr} as seen from node {node} (connection refused): the registry is down or listens on another port, or the image names a host such as localhost that means the node itself",
        action: "check that the registry is up and listening at {addr} (from the node: curl -v https://{addr}/v2/) and that the image reference names the right host and port",
        fix: Fix::Registry,
        severity: Severity::Error,
        source: "connect(2) ECONNREFUSED; Go net (`dial tcp <addr>: connect: connection refused`)",
    },
    Entry {
        id: "registry-no-route",
        on: PULL,
        pattern: concat!(
            image!(),
            r"dial tcp (?P<addr>[^\s]+?): connect: (?:no route to host|network is unreachable)"
        ),
        meaning: "node {node} has no network path to {addr} (no route to host / network is unreachable): a routing table, a firewall that rejects, or an IPv6 address on a node without IPv6",
        action: "check the node's routes, firewall and egress to {addr} (from the node: ip route get <ip>, curl -v)",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "connect(2) EHOSTUNREACH / ENETUNREACH",
    },
    Entry {
        id: "registry-network-timeout",
        on: PULL,
        pattern: concat!(
            image!(),
            r"(?:dial tcp (?P<addr>[^\s]+?): (?:i/o timeout|connect: connection timed out)|net/http: TLS handshake timeout|Client\.Timeout exceeded while awaiting headers|read tcp \S+: read: connection timed out)"
        ),
        meaning: "node {node} could not reach the registry — or the storage host that serves its layers — within the network timeout (i/o timeout): a firewall, egress rule, proxy or routing problem drops the traffic; the failure is in the network path, before any answer about credentials or tags",
        action: "test the host named in the message from the node (curl -v https://<host>); allow egress from the nodes to it — registries often redirect layer downloads to a separate storage or CDN host — or set the runtime's HTTPS_PROXY",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "connect(2) ETIMEDOUT; Go net (`dial tcp <addr>: i/o timeout`), net/http (`TLS handshake timeout`, `Client.Timeout exceeded`); containerd remotes/docker fetcher (`failed to copy: httpReadSeeker: failed open`)",
    },
    Entry {
        id: "registry-server-error",
        on: PULL,
        pattern: concat!(
            image!(),
            r"\b(?P<status>50[0234]) (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)"
        ),
        meaning: "the registry, or a proxy in front of it, failed while serving the image (HTTP {status}): a server-side fault or outage, not the pod's configuration",
        action: "check the registry's health, logs or status page; the kubelet retries with back-off and the pull succeeds when the registry recovers",
        fix: Fix::Registry,
        severity: Severity::Warning,
        source: "RFC 9110 5xx status codes; containerd remotes/docker (`unexpected status code`); kubelet image back-off (pkg/kubelet/images)",
    },
    Entry {
        id: "registry-pull-canceled",
        on: PULL,
        pattern: concat!(
            image!(),
            r"(?:code = Canceled desc = [^\n]*?context canceled|pulling image canceled|cancel pulling image)"
        ),
        meaning: "the pull of container {container}'s image was canceled before it finished (context canceled): containerd cancels a pull whose download makes no progress for image_pull_progress_timeout (a stalled transfer), and the kubelet cancels pulls for pods being removed",
        action: "if the pod is not being deleted, look for the stalled download on node {node} (containerd log: `cancel pulling image ... because of no progress`); fix the slow network path, or raise image_pull_progress_timeout in containerd's CRI configuration",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "containerd internal/cri/server/images/image_pull.go (pull progress reporter, image_pull_progress_timeout); kubernetes/kubernetes#131521",
    },
    Entry {
        id: "registry-pull-deadline",
        on: &[On::Event("Failed"), On::Waiting("ErrImagePull")],
        pattern: r#"^(?:Failed to pull image "(?P<image>[^"]+)": [^\n]*?|rpc error: code = DeadlineExceeded desc = [^\n]*?|[^\n]*?failed to pull and unpack image [^\n]*?)?context deadline exceeded"#,
        meaning: "the pull of container {container}'s image did not finish before a deadline (context deadline exceeded): the runtime's or the kubelet's timeout ran out — a very large image, a slow link, or an overloaded runtime on node {node}",
        action: "pull the image once by hand on node {node} (crictl pull <image>) to see its speed; shrink the image, fix the slow path to the registry, or pre-pull it on the nodes",
        fix: Fix::Node,
        severity: Severity::Error,
        source: "kubelet pkg/kubelet/images/image_manager.go (`Failed to pull image`); cri-dockerd and CRI runtimes' request deadlines (`context deadline exceeded`)",
    },
    Entry {
        id: "registry-not-found",
        on: PULL,
        pattern: concat!(
            image!(),
            r#"(?:failed to resolve reference "(?P<ref>[^"]+)": [^\n]*?: not found|manifest for (?P<manifest>\S+) not found|manifest unknown|name unknown|repository name not known to registry)"#
        ),
        meaning: "the registry has no image under the reference container {container} uses (not found / manifest unknown): the tag or digest does not exist in that repository, or the repository name is wrong",
        action: "list the repository's tags (crane ls <repository>, skopeo list-tags docker://<repository>, or the registry's UI) and correct the image reference in the pod template",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "OCI distribution spec (MANIFEST_UNKNOWN, NAME_UNKNOWN); containerd remotes/docker resolver.go (`<ref>: not found`); moby distribution (`manifest for <ref> not found: manifest unknown`); containers/image (`reading manifest <tag> in <repo>: manifest unknown`)",
    },
];
