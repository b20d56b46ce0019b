//! Image pulls: which images the simulated registry refuses, pull policy, `Pulled`/`Failed`.
//!
//! An image is "already present on machine" unless its tag is `latest` (or absent) or its
//! `imagePullPolicy` is `Always`; then it is pulled in `lifecycle::STEP` (1 s). The registry refuses a
//! tag or name `missing`, `doesnotexist`, `does-not-exist`, `notfound` with containerd's
//! NotFound text; retries follow the image back-off (10 s doubling, `docs/protocols.md` §5 curve).
//!
//! A repository under a `private/` path is private ([`private`]): the registry (a Harbor-style
//! one with a token service) refuses an anonymous pull, so without credentials containerd
//! fails with `failed to authorize: failed to fetch anonymous token: unexpected status from GET
//! request to https://<registry>/service/token?scope=repository%3A<repo>%3Apull&service=harbor-registry:
//! 401 Unauthorized`. The pod's `imagePullSecrets` are its credentials when one of the named
//! Secrets exists; a named Secret that does not exist is a Warning
//! `FailedToRetrieveImagePullSecret` on the pod before each pull (`getPullSecretsForPod` in
//! `pkg/kubelet/kubelet_pods.go`), and the pull goes on without it.

use jiff::Timestamp;

use super::events;
use super::lifecycle::SYNC_LATENCY;
use super::pod_state::{ContainerRun, PodRun, RunState};
use super::{Node, Work, after, hash64};
use crate::runtime::image::split_image;

pub(crate) fn pull_key(run: &PodRun, i: usize) -> String {
    format!(
        "{}/{}/{}",
        run.uid,
        run.containers[i].spec.name,
        run.containers[i].image()
    )
}

/// Whether the simulated registry refuses `image` (tag or name `missing`, `doesnotexist`,
/// `does-not-exist`, `notfound`).
pub(crate) fn unpullable(image: &str) -> bool {
    let (repo, tag) = split_image(image);
    let bad = ["missing", "doesnotexist", "does-not-exist", "notfound"];
    bad.contains(&tag) || bad.iter().any(|b| repo.rsplit('/').next() == Some(b))
}

/// Docker-style fully qualified reference, as containerd reports it.
fn qualified(image: &str) -> String {
    let first = image.split('/').next().unwrap_or("");
    let has_registry =
        image.contains('/') && (first.contains('.') || first.contains(':') || first == "localhost");
    let full = match (has_registry, image.contains('/')) {
        (true, _) => image.to_string(),
        (false, true) => format!("docker.io/{image}"),
        (false, false) => format!("docker.io/library/{image}"),
    };
    let (_, tag) = split_image(&full);
    if full.ends_with(&format!(":{tag}")) || full.contains('@') {
        full
    } else {
        format!("{full}:latest")
    }
}

/// Whether the simulated registry wants credentials for `image` (a `private/` path segment).
pub(crate) fn private(image: &str) -> bool {
    let (repo, _) = split_image(image);
    repo.split('/').any(|seg| seg == "private")
}

/// containerd's error for an anonymous pull of the private `image` (see the module docs).
fn unauthorized(image: &str) -> String {
    let q = qualified(image);
    let (repo, _) = split_image(&q);
    let (registry, path) = repo.split_once('/').unwrap_or(("docker.io", repo));
    let scope = path.replace('/', "%2F");
    format!(
        "rpc error: code = Unknown desc = failed to pull and unpack image \"{q}\": failed to resolve reference \"{q}\": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://{registry}/service/token?scope=repository%3A{scope}%3Apull&service=harbor-registry: 401 Unauthorized"
    )
}

/// The pod's pull credentials: whether one of its `imagePullSecrets` exists, and the names
/// of those that do not (for `FailedToRetrieveImagePullSecret`).
fn pull_secrets(node: &Node, run: &PodRun) -> (bool, Vec<String>) {
    let names: Vec<String> = run
        .pod
        .spec
        .iter()
        .flat_map(|s| s.image_pull_secrets.iter().flatten())
        .map(|r| r.name.clone())
        .filter(|n| !n.is_empty())
        .collect();
    let secrets = &node.mounts.sources.secrets;
    let (found, missing): (Vec<String>, Vec<String>) = names
        .into_iter()
        .partition(|n| secrets.contains_key(&(run.namespace.clone(), n.clone())));
    (!found.is_empty(), missing)
}

/// Records `FailedToRetrieveImagePullSecret` when some of the pod's `imagePullSecrets` do not
/// exist (before a pull, as the kubelet's pod sync looks them up).
pub(crate) fn warn_missing_secrets(node: &mut Node, run: &PodRun, at: Timestamp) {
    let (_, missing) = pull_secrets(node, run);
    if !missing.is_empty() {
        node.event(run, events::pull_secrets_missing(&missing.join(", ")), at);
    }
}

pub(crate) fn needs_pull(node: &Node, c: &ContainerRun) -> bool {
    let image = c.image();
    let (_, tag) = split_image(image);
    let policy = c
        .spec
        .image_pull_policy
        .as_deref()
        .unwrap_or(if tag == "latest" {
            "Always"
        } else {
            "IfNotPresent"
        });
    match policy {
        "Always" => true,
        "Never" => false,
        _ => {
            unpullable(image)
                || ((tag == "latest" || private(image)) && !node.images.contains(image))
        }
    }
}

/// A simulated pull finished: `Pulled`, or `Failed` + `ErrImagePull`.
pub(crate) fn pull_done(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    if run.terminating.is_some() {
        return;
    }
    let image = run.containers[i].image().to_string();
    let fp = run.containers[i].field_path();
    let denied = private(&image) && !pull_secrets(node, run).0;
    if unpullable(&image) || denied {
        let q = qualified(&image);
        let error = if denied {
            unauthorized(&image)
        } else {
            format!(
                "rpc error: code = NotFound desc = failed to pull and unpack image \"{q}\": failed to resolve reference \"{q}\": {q}: not found"
            )
        };
        node.event(run, events::pull_failed(&fp, &image, &error), at);
        node.event(run, events::failed_reason(&fp, "ErrImagePull"), at);
        let key = pull_key(run, i);
        node.pulls.next(&key, at, at);
        let c = &mut run.containers[i];
        c.busy = false;
        c.pull_failed_at = Some(at);
        c.state = RunState::Waiting {
            reason: "ErrImagePull".into(),
            message: Some(error),
        };
        node.schedule(run, after(at, SYNC_LATENCY), Work::Sync);
        return;
    }
    node.images.insert(image.clone());
    let size = 10_000_000 + hash64(7, &[&image]) % 190_000_000;
    node.event(run, events::pulled(&fp, &image, size), at);
    node.schedule(run, at, Work::Create(i));
}
