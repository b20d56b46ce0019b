//! Helpers shared by the `sim_controllers*` tests: kubectl against one simulator, and what the
//! store holds (pods by name prefix, ready pods, finished Jobs).
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use podscope::sim::{Object, Resource, Simulator, Store};

use super::common::cluster::run_bin;
use super::common::sim::all_ready;
use super::common::wait::wait_until;

/// kubectl `bin` (`version` names it in messages) against one simulator, with a cache dir in
/// `dir`.
pub struct Kubectl<'a> {
    pub bin: PathBuf,
    pub version: String,
    pub sim: &'a Simulator,
    pub dir: &'a Path,
}

impl Kubectl<'_> {
    /// Runs kubectl; asserts it succeeded; returns stdout.
    pub async fn ok(&self, args: &[&str]) -> String {
        let cache = self.dir.join("cache");
        let (ok, out, err) =
            run_bin(&self.bin, self.sim.kubeconfig_path(), &cache, args, &[]).await;
        assert!(
            ok,
            "{} kubectl {}: {err}\n{out}",
            self.version,
            args.join(" ")
        );
        out
    }

    /// `kubectl apply -f` of `yaml`.
    pub async fn apply(&self, name: &str, yaml: &str) -> String {
        let file = self.dir.join(format!("{name}.yaml"));
        std::fs::write(&file, yaml).expect("manifest written");
        self.ok(&["apply", "-f", &file.to_string_lossy()]).await
    }
}

pub fn pods(store: &Store, prefix: &str) -> Vec<Pod> {
    store
        .list(Resource::Pods, Some("default"))
        .0
        .into_iter()
        .filter_map(|o| match o {
            Object::Pod(p) => Some((*p).clone()),
            _ => None,
        })
        .filter(|p| p.metadata.name.as_deref().unwrap_or("").starts_with(prefix))
        .collect()
}

/// How many Jobs named `prefix…` have the condition `type_` True.
pub fn finished_jobs(store: &Store, prefix: &str, type_: &str) -> usize {
    let done = |o: &Object| {
        let Object::Job(j) = o else { return false };
        let named = j
            .metadata
            .name
            .as_deref()
            .is_some_and(|n| n.starts_with(prefix));
        let conds = j
            .status
            .as_ref()
            .and_then(|s| s.conditions.clone())
            .unwrap_or_default();
        named && conds.iter().any(|c| c.type_ == type_ && c.status == "True")
    };
    store
        .list(Resource::Jobs, Some("default"))
        .0
        .iter()
        .filter(|o| done(o))
        .count()
}

/// Names of the pods of `prefix` that are not being deleted.
pub fn live(store: &Store, prefix: &str) -> BTreeSet<String> {
    pods(store, prefix)
        .into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter_map(|p| p.metadata.name)
        .collect()
}

/// Names of the ready pods of `prefix` (not being deleted) and of the pods there are at all.
pub fn ready_and_all(store: &Store, prefix: &str) -> (BTreeSet<String>, usize) {
    let all = pods(store, prefix);
    let ready = all
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none() && all_ready(p))
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    (ready, all.len())
}

/// The ReplicaSet names the pods of the Deployment `web` belong to (`pod-template-hash`).
pub fn hashes(store: &Store) -> BTreeSet<String> {
    pods(store, "web-")
        .into_iter()
        .filter_map(|p| p.metadata.labels?.get("pod-template-hash").cloned())
        .collect()
}

/// Waits until `web` has exactly 3 ready pods, all of one ReplicaSet, and nothing else (old
/// pods gone); returns that ReplicaSet's hash.
pub async fn settled(store: &Store, version: &str) -> String {
    let done = wait_until(Duration::from_secs(90), || {
        let (ready, all) = ready_and_all(store, "web-");
        ready.len() == 3 && all == 3 && hashes(store).len() == 1
    })
    .await;
    assert!(
        done,
        "{version}: web did not settle: {:?} {:?}",
        live(store, "web-"),
        hashes(store)
    );
    hashes(store).into_iter().next().expect("one hash")
}
