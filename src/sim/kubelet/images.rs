//! Image pulls: which images the simulated registry refuses, pull policy, `Pulled`/`Failed`.
//!
//! An image is "already present on machine" unless its tag is `latest` (or absent) or its
//! `imagePullPolicy` is `Always`; then it is pulled in `lifecycle::STEP` (1 s). The registry refuses a
//! tag or name `missing`, `doesnotexist`, `does-not-exist`, `notfound` with containerd's
//! NotFound text; retries follow the image back-off (10 s doubling, `docs/protocols.md` §5 curve).

use jiff::Timestamp;

use super::events;
use super::lifecycle::SYNC_LATENCY;
use super::pod_state::{ContainerRun, PodRun, RunState};
use super::{Node, Work, after, hash64};
use crate::sim::runtime::image::split_image;

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
        _ => unpullable(image) || (tag == "latest" && !node.images.contains(image)),
    }
}

/// A simulated pull finished: `Pulled`, or `Failed` + `ErrImagePull`.
pub(crate) fn pull_done(node: &mut Node, run: &mut PodRun, i: usize, at: Timestamp) {
    if run.terminating.is_some() {
        return;
    }
    let image = run.containers[i].image().to_string();
    let fp = run.containers[i].field_path();
    if unpullable(&image) {
        let q = qualified(&image);
        let error = format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{q}\": failed to resolve reference \"{q}\": {q}: not found"
        );
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
