//! Image rules: pull failures classified from containerd, Docker and CRI-O wordings, malformed
//! references, `ErrImageNeverPull`, `ImageInspectError`, and `runtime_answer` for the state line.

use crate::diagnosis_support;
use diagnosis_support::*;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::images::{PullClass, classify};
use podscope_model::diagnosis::{Lookup, ObjectRef, Related};
use podscope_model::event::EventSummary;
use serde_json::json;

fn pull_rule(answer: &str) -> podscope_model::diagnosis::Finding {
    let (p, e) = pulling(
        "ImagePullBackOff",
        &format!("Back-off pulling image \"{IMG}\""),
        Some(answer),
    );
    let f = run(&p, &e, now());
    f.into_iter()
        .find(|f| f.rule.starts_with("image-"))
        .expect("an image finding")
}

#[test]
fn case_13_tag_not_found_is_the_first_finding() {
    let (p, e, now) = case("13");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "image-not-found");
    assert_eq!(first.container.as_deref(), Some("leader"));
    has(
        first,
        &[
            "registry.example/drain/leader:v1.0-rc9",
            "does not exist",
            "NotFound",
            "imagePullPolicy Always",
            "restartCount 0",
            "not a crash loop",
            "10s doubling to 300s",
            "event Failed (×5, last at 12:06:07)",
        ],
    );
    assert!(first.action.as_deref().is_some_and(|h| h.contains("tags")));
}

#[test]
fn case_14_init_access_denied_retried_forever_under_never() {
    let (p, e, now) = case("14");
    let f = run(&p, &e, now);
    let first = &f[0];
    assert_eq!(first.rule, "image-pull-denied");
    assert_eq!(first.container.as_deref(), Some("init"));
    has(
        first,
        &[
            "registry.example/does-not-exist:latest",
            "access denied",
            "does not exist or needs credentials",
            "imagePullSecrets: none",
            "restartPolicy Never does not stop pull retries",
            "retried forever",
            "pull access denied",
            "kubectl create secret docker-registry",
        ],
    );
}

#[test]
fn not_found_in_docker_containerd_and_crio_wordings() {
    for answer in [
        "rpc error: code = Unknown desc = Error response from daemon: manifest for registry.corp/shop/web:1.4.2 not found: manifest unknown: manifest unknown",
        "rpc error: code = NotFound desc = failed to pull and unpack image \"registry.corp/shop/web:1.4.2\": failed to resolve reference \"registry.corp/shop/web:1.4.2\": registry.corp/shop/web:1.4.2: not found",
        "reading manifest 1.4.2 in registry.corp/shop/web: manifest unknown: manifest unknown",
        "Error response from daemon: repository registry.corp/shop/web not found: name unknown",
    ] {
        let f = pull_rule(answer);
        assert_eq!(f.rule, "image-not-found", "{answer}");
        assert_eq!(f.container.as_deref(), Some("web"));
        has(&f, &[IMG, "not an access problem", answer]);
    }
}

#[test]
fn access_denied_wordings() {
    for answer in [
        "rpc error: code = Unknown desc = failed to pull and unpack image \"x\": failed to resolve reference \"x\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed",
        "rpc error: code = Unknown desc = failed to pull and unpack image \"x\": failed to resolve reference \"x\": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://registry.corp/token: 401 Unauthorized",
        "rpc error: code = Unknown desc = failed to pull and unpack image \"x\": failed to resolve reference \"x\": unexpected status from HEAD request to https://registry.corp/v2/shop/web/manifests/1.4.2: 403 Forbidden",
        "rpc error: code = Unknown desc = Error response from daemon: Get https://123.dkr.ecr.eu-west-1.amazonaws.com/v2/web/manifests/1: no basic auth credentials",
        "initializing source docker://registry.corp/shop/web:1.4.2: reading manifest 1.4.2 in registry.corp/shop/web: unauthorized: access to the requested resource is not authorized",
        "Error response from daemon: pull access denied for shop/web, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
    ] {
        let f = pull_rule(answer);
        assert_eq!(f.rule, "image-pull-denied", "{answer}");
        has(
            &f,
            &["access denied", "imagePullSecrets: none", "docker-registry"],
        );
    }
}

#[test]
fn network_tls_timeout_rate_limit_platform_disk() {
    let cases = [
        (
            "dial tcp: lookup registry.corp on 10.96.0.10:53: no such host",
            "image-pull-network",
            "cannot reach registry registry.corp",
        ),
        (
            "failed to do request: Head \"https://registry.corp/v2/shop/web/manifests/1.4.2\": dial tcp 10.0.0.9:443: i/o timeout",
            "image-pull-network",
            "registry.corp",
        ),
        (
            "Get \"https://registry.corp/v2/\": dial tcp 10.0.0.9:443: connect: connection refused",
            "image-pull-network",
            "registry.corp",
        ),
        (
            "Get \"https://registry.corp/v2/\": net/http: TLS handshake timeout",
            "image-pull-network",
            "cannot reach",
        ),
        (
            "failed to do request: Head \"https://registry.corp/v2/\": tls: failed to verify certificate: x509: certificate signed by unknown authority",
            "image-pull-network",
            "TLS",
        ),
        (
            "rpc error: code = DeadlineExceeded desc = context deadline exceeded",
            "image-pull-timeout",
            "did not finish in time",
        ),
        (
            "failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:1: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.",
            "image-pull-rate-limited",
            "rate limit",
        ),
        (
            "Error response from daemon: no matching manifest for linux/arm64/v8 in the manifest list entries",
            "image-platform-mismatch",
            "OS/architecture",
        ),
        (
            "rpc error: code = NotFound desc = failed to pull and unpack image \"x\": no match for platform in manifest sha256:abc: not found",
            "image-platform-mismatch",
            "OS/architecture",
        ),
        (
            "failed to extract layer sha256:1: write /var/lib/containerd/x: no space left on device",
            "image-pull-disk-full",
            "disk space",
        ),
    ];
    for (answer, rule, words) in cases {
        let f = pull_rule(answer);
        assert_eq!(f.rule, rule, "{answer}");
        has(&f, &[words, answer]);
    }
}

#[test]
fn unclassified_answer_is_quoted_not_guessed() {
    let f = pull_rule("rpc error: code = Unknown desc = the flux capacitor is misaligned");
    assert_eq!(f.rule, "image-pull-failed");
    has(
        &f,
        &[
            "not one podscope recognises",
            "the flux capacitor is misaligned",
        ],
    );
    assert!(!text(&f).contains("read as"));
}

#[test]
fn classify_table() {
    assert_eq!(classify("manifest unknown").class, PullClass::NotFound);
    assert_eq!(
        classify("x: 401 Unauthorized").class,
        PullClass::AccessDenied
    );
    assert_eq!(
        classify("no match for platform in manifest: not found").class,
        PullClass::Platform
    );
    assert_eq!(
        classify("RegistryUnavailable: boom").class,
        PullClass::RegistryUnavailable
    );
    assert_eq!(
        classify("SignatureValidationFailed: nope").class,
        PullClass::SignatureInvalid
    );
    assert_eq!(classify("").class, PullClass::Unclassified);
    assert_eq!(classify("weird").token, "");
}

#[test]
fn newer_backoff_message_carries_the_answer_when_events_expired() {
    let msg = format!(
        "Back-off pulling image \"{IMG}\": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image \"{IMG}\": not found"
    );
    let (p, _) = pulling("ImagePullBackOff", &msg, None);
    let f = run(&p, &[], now());
    let f = find(&f, "image-not-found");
    has(
        &f.clone(),
        &["waiting.reason ImagePullBackOff", "code = NotFound"],
    );
}

#[test]
fn err_image_pull_message_alone_is_classified() {
    let (p, _) = pulling(
        "ErrImagePull",
        "rpc error: code = Unknown desc = Error response from daemon: pull access denied for web, repository does not exist or may require 'docker login'",
        None,
    );
    let f = run(&p, &[], now());
    find(&f, "image-pull-denied");
}

#[test]
fn no_answer_says_so_and_that_events_expired() {
    let p = pod(json!({
        "metadata": {"name": "web", "namespace": "shop", "creationTimestamp": ago(7200)},
        "spec": {"nodeName": "node-1", "containers": [{"name": "web", "image": IMG}]},
        "status": {"phase": "Pending", "containerStatuses": [waiting("web", "ImagePullBackOff", &format!("Back-off pulling image \"{IMG}\""))]}
    }));
    let f = run(&p, &[], now());
    let f = find(&f, "image-pull-failed");
    has(
        f,
        &[
            "answer is not available",
            "keeps events about 1 h",
            "imagePullPolicy not set (defaults to IfNotPresent",
        ],
    );
}

#[test]
fn huge_answer_is_bounded_and_escapes_are_sanitised() {
    let big = format!("manifest unknown: {}", "x".repeat(100_000));
    let f = pull_rule(&big);
    assert_eq!(f.rule, "image-not-found");
    assert!(f.evidence.iter().any(|l| l.contains("bytes more]")));
    assert!(f.evidence.iter().all(|l| l.len() < 5000));
    let f = pull_rule("not found \u{1b}[2J\u{1b}]0;pwned\u{7}");
    assert!(text(&f).contains('␛'));
    assert!(!text(&f).contains('\u{1b}'));
}

#[test]
fn pull_secrets_are_checked_and_their_answers_shown() {
    let p = pod_with(
        json!({"containers": [{"name": "web", "image": IMG}],
               "imagePullSecrets": [{"name": "regcred"}, {"name": "other"}]}),
        json!({"phase": "Pending", "containerStatuses": [waiting("web", "ErrImagePull", "x")]}),
    );
    let events = vec![
        event(
            "Failed",
            &format!("Failed to pull image \"{IMG}\": 401 Unauthorized"),
            "spec.containers{web}",
            1,
            5,
        ),
        event(
            "FailedToRetrieveImagePullSecret",
            "Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed.",
            "",
            1,
            6,
        ),
    ];
    let mut related = Related::new();
    related.insert(ObjectRef::Secret("regcred".into()), Lookup::Absent);
    related.insert(
        ObjectRef::Secret("other".into()),
        Lookup::Found {
            keys: vec!["token".into()],
            phase: None,
            conditions: vec![],
        },
    );
    let f = run_with(&p, &events, now(), &related, &OwnerStatus::Unknown);
    let f = find(&f, "image-pull-denied");
    has(
        f,
        &[
            "imagePullSecrets: regcred, other",
            "Secret regcred: absent (GET returned 404)",
            "Secret other: exists, keys: token — it has no .dockerconfigjson key",
            "Unable to retrieve some image pull secrets (regcred)",
        ],
    );
    assert!(f.checks.contains(&ObjectRef::Secret("regcred".into())));
}

#[test]
fn registry_unavailable_and_signature_reasons() {
    let (p, e) = pulling(
        "RegistryUnavailable",
        &format!(
            "image pull failed for {IMG} because the registry is unavailable: dial tcp: i/o timeout"
        ),
        None,
    );
    let f = run(&p, &e, now());
    find(&f, "image-pull-network");
    let (p, e) = pulling(
        "SignatureValidationFailed",
        "image pull failed for x because the signature validation failed",
        None,
    );
    let f = run(&p, &e, now());
    find(&f, "image-signature-invalid");
}

#[test]
fn extreme_timestamps_do_not_panic() {
    use k8s_openapi::api::core::v1::Event;
    let (p, _) = pulling("ErrImagePull", "manifest unknown", None);
    let v = json!({
        "metadata": {"name": "e"},
        "involvedObject": {"kind": "Pod", "name": "web", "fieldPath": "spec.containers{web}"},
        "reason": "Failed",
        "message": format!("Failed to pull image \"{IMG}\": manifest unknown"),
        "count": 2147483647,
        "firstTimestamp": "0001-01-01T00:00:00Z",
        "lastTimestamp": "9999-12-30T12:00:00Z"
    });
    let e = vec![EventSummary::from_event(
        &serde_json::from_value::<Event>(v).expect("event"),
    )];
    let f = run(&p, &e, now());
    find(&f, "image-not-found");
}
