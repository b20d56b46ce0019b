//! Classifying a container runtime's answer to a pull.
//!
//! The kubelet passes the runtime's error through verbatim (`pkg/kubelet/images/image_manager.go`:
//! `Failed to pull image "IMG": <err>`), so the words are the runtime's and the registry's:
//! containerd (`rpc error: code = NotFound desc = failed to pull and unpack image …: not found`,
//! `pull access denied, repository does not exist or may require authorization: server message:
//! insufficient_scope: authorization failed`, `failed to authorize: … 401 Unauthorized`,
//! `dial tcp: lookup … no such host`, `no match for platform in manifest: not found`), Docker
//! (`Error response from daemon: manifest for IMG not found: manifest unknown`, `pull access
//! denied for R, repository does not exist or may require 'docker login'`,
//! `no matching manifest for linux/arm64/v8 in the manifest list entries`, `toomanyrequests: You
//! have reached your pull rate limit`) and CRI-O (`reading manifest T in R: manifest unknown`,
//! `unauthorized: access to the requested resource is not authorized`). The kubelet's own
//! `RegistryUnavailable` / `SignatureValidationFailed` (`evalCRIPullErr`) come from the CRI error.

/// What kind of failure a pull error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PullClass {
    /// The registry answered that the tag, digest or repository does not exist.
    NotFound,
    /// The registry refused: no or wrong credentials, or (Docker Hub) a repository that does not
    /// exist (it answers both the same).
    AccessDenied,
    /// The registry limits pulls (HTTP 429).
    RateLimited,
    /// The image has no variant for the node's OS/architecture.
    Platform,
    /// The node does not trust the registry's TLS certificate, or HTTP/HTTPS mismatch.
    Tls,
    /// The node cannot reach the registry (DNS, routing, firewall, proxy) or the registry fails.
    Network,
    /// The pull took longer than the runtime's deadline.
    Timeout,
    /// The node has no disk space left for the layers.
    Disk,
    /// `RegistryUnavailable` from the runtime.
    RegistryUnavailable,
    /// `SignatureValidationFailed`: a signature policy rejected the image.
    SignatureInvalid,
    /// None of the above.
    Unclassified,
}

/// A classification and the words in the answer that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classified {
    /// The class.
    pub class: PullClass,
    /// The matched phrase (lowercase, as searched), empty for [`PullClass::Unclassified`].
    pub token: &'static str,
}

/// Phrases per class, in the order they are tried: the more specific first (a platform miss in
/// containerd ends in `not found`; Docker Hub's access denial says `does not exist`).
const TABLE: &[(PullClass, &[&str])] = &[
    (
        PullClass::SignatureInvalid,
        &[
            "signaturevalidationfailed",
            "signature validation failed",
            "source image rejected",
        ],
    ),
    (
        PullClass::RegistryUnavailable,
        &["registryunavailable", "registry is unavailable"],
    ),
    (
        PullClass::Platform,
        &[
            "no matching manifest for",
            "no match for platform",
            "does not match the specified platform",
            "image operating system",
        ],
    ),
    (
        PullClass::RateLimited,
        &[
            "toomanyrequests",
            "429 too many requests",
            "too many requests",
            "pull rate limit",
            "rate limit",
            "pull qps exceeded",
        ],
    ),
    (
        PullClass::Disk,
        &["no space left on device", "disk quota exceeded"],
    ),
    (
        PullClass::Tls,
        &[
            "x509:",
            "certificate signed by unknown authority",
            "certificate has expired",
            "certificate is not valid",
            "tls: failed to verify",
            "server gave http response to https client",
        ],
    ),
    (
        PullClass::AccessDenied,
        &[
            "pull access denied",
            "insufficient_scope",
            "401 unauthorized",
            "403 forbidden",
            "authorization failed",
            "no basic auth credentials",
            "may require 'docker login'",
            "may require authorization",
            "requested access to the resource is denied",
            "access to the requested resource is not authorized",
            "authentication required",
            "failed to authorize",
            "unauthorized",
            "forbidden",
            "denied",
        ],
    ),
    (
        PullClass::Network,
        &[
            "dial tcp",
            "i/o timeout",
            "no such host",
            "connection refused",
            "tls handshake timeout",
            "connection reset by peer",
            "network is unreachable",
            "no route to host",
            "temporary failure in name resolution",
            "server misbehaving",
            "request canceled while waiting for connection",
            "client.timeout exceeded",
            "proxyconnect tcp",
            "502 bad gateway",
            "503 service unavailable",
            "504 gateway timeout",
            "500 internal server error",
            "unexpected eof",
        ],
    ),
    (
        PullClass::Timeout,
        &[
            "context deadline exceeded",
            "deadlineexceeded",
            "context canceled",
            "pulling image canceled",
        ],
    ),
    (
        PullClass::NotFound,
        &[
            "code = notfound",
            "manifest unknown",
            "name unknown",
            "not found",
            "does not exist",
            "repository name not known to registry",
        ],
    ),
];

/// The class of a runtime's pull error `answer` (any wording: containerd, Docker, CRI-O).
#[must_use]
pub fn classify(answer: &str) -> Classified {
    let lower = answer.to_ascii_lowercase();
    for (class, phrases) in TABLE {
        if let Some(token) = phrases.iter().find(|p| lower.contains(**p)) {
            return Classified {
                class: *class,
                token,
            };
        }
    }
    Classified {
        class: PullClass::Unclassified,
        token: "",
    }
}

impl PullClass {
    /// The rule id of a pull failure of this class.
    #[must_use]
    pub fn rule(self) -> &'static str {
        match self {
            PullClass::NotFound => "image-not-found",
            PullClass::AccessDenied => "image-pull-denied",
            PullClass::RateLimited => "image-pull-rate-limited",
            PullClass::Platform => "image-platform-mismatch",
            PullClass::Tls | PullClass::Network | PullClass::RegistryUnavailable => {
                "image-pull-network"
            }
            PullClass::Timeout => "image-pull-timeout",
            PullClass::Disk => "image-pull-disk-full",
            PullClass::SignatureInvalid => "image-signature-invalid",
            PullClass::Unclassified => "image-pull-failed",
        }
    }

    /// What the answer means, for the headline after `cannot pull image "…": `.
    #[must_use]
    pub fn meaning(self, registry: &str) -> String {
        match self {
            PullClass::NotFound => "the registry says it does not exist (wrong tag or repository), not an access problem".to_owned(),
            PullClass::AccessDenied => "access denied: the repository does not exist or needs credentials (the registry answers both the same)".to_owned(),
            PullClass::RateLimited => format!("the registry {registry} refuses with a pull rate limit (429)"),
            PullClass::Platform => "the image has no variant for the node's OS/architecture".to_owned(),
            PullClass::Tls => format!("the node does not trust the TLS of registry {registry} (certificate or HTTP/HTTPS mismatch)"),
            PullClass::Network => format!("the node cannot reach registry {registry} (network, DNS, proxy or registry failure)"),
            PullClass::Timeout => format!("the pull did not finish in time (registry {registry} slow or unreachable, or a very large image)"),
            PullClass::Disk => "the node has no disk space left for the image".to_owned(),
            PullClass::RegistryUnavailable => format!("the runtime reports registry {registry} unavailable"),
            PullClass::SignatureInvalid => "the image's signature does not satisfy the node's signature policy".to_owned(),
            PullClass::Unclassified => "the runtime's answer is not one podscope recognises (quoted in the evidence)".to_owned(),
        }
    }
}
