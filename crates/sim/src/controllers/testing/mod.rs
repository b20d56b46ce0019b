//! Unit-test support: an in-memory cluster that applies the controllers' actions to a
//! [`Snapshot`] and a trivial kubelet that gives new pods a status from their image's tag.

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::Event;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

mod apply;
mod kubelet;

pub(crate) use kubelet::kubelet_status;

use super::{Action, Kind, Snapshot, Workload, gc, reconcile_all};

/// A cluster in memory: the snapshot, the clock, the events recorded.
pub(crate) struct Fake {
    pub snap: Snapshot,
    pub now: Timestamp,
    pub events: Vec<Event>,
    pub gone: std::collections::HashSet<String>,
    next: u64,
}

impl Fake {
    pub fn new(now: Timestamp) -> Self {
        Fake {
            snap: Snapshot {
                node: "sim-node-1".into(),
                ..Snapshot::default()
            },
            now,
            events: Vec::new(),
            gone: Default::default(),
            next: 0,
        }
    }

    fn uid(&mut self) -> String {
        self.next += 1;
        format!("uid-{}", self.next)
    }

    /// Stores a workload as the API would create it (uid, creationTimestamp, generation 1).
    pub fn add(&mut self, w: Workload) {
        let uid = self.uid();
        let now = self.now;
        let stamp = |m: &mut k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta| {
            m.uid.get_or_insert(uid);
            m.namespace.get_or_insert_with(|| "default".into());
            m.creation_timestamp.get_or_insert(Time(now));
            m.generation.get_or_insert(1);
        };
        match w {
            Workload::ReplicaSet(mut o) => {
                stamp(&mut o.metadata);
                self.snap.replica_sets.push(o)
            }
            Workload::Deployment(mut o) => {
                stamp(&mut o.metadata);
                self.snap.deployments.push(o)
            }
            Workload::StatefulSet(mut o) => {
                stamp(&mut o.metadata);
                self.snap.stateful_sets.push(o)
            }
            Workload::DaemonSet(mut o) => {
                stamp(&mut o.metadata);
                self.snap.daemon_sets.push(o)
            }
            Workload::Job(mut o) => {
                stamp(&mut o.metadata);
                self.snap.jobs.push(o)
            }
            Workload::CronJob(mut o) => {
                stamp(&mut o.metadata);
                self.snap.cron_jobs.push(o)
            }
        }
    }

    fn meta_mut(
        &mut self,
        kind: Kind,
        name: &str,
    ) -> Option<&mut k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta> {
        let n = Some(name.to_string());
        match kind {
            Kind::ReplicaSet => self
                .snap
                .replica_sets
                .iter_mut()
                .find(|o| o.metadata.name == n)
                .map(|o| &mut o.metadata),
            Kind::Deployment => self
                .snap
                .deployments
                .iter_mut()
                .find(|o| o.metadata.name == n)
                .map(|o| &mut o.metadata),
            Kind::StatefulSet => self
                .snap
                .stateful_sets
                .iter_mut()
                .find(|o| o.metadata.name == n)
                .map(|o| &mut o.metadata),
            Kind::DaemonSet => self
                .snap
                .daemon_sets
                .iter_mut()
                .find(|o| o.metadata.name == n)
                .map(|o| &mut o.metadata),
            Kind::Job => self
                .snap
                .jobs
                .iter_mut()
                .find(|o| o.metadata.name == n)
                .map(|o| &mut o.metadata),
            Kind::CronJob => self
                .snap
                .cron_jobs
                .iter_mut()
                .find(|o| o.metadata.name == n)
                .map(|o| &mut o.metadata),
        }
    }

    /// Deletes a workload (as `kubectl delete` does with background propagation).
    pub fn delete(&mut self, kind: Kind, name: &str) {
        let uid = self.meta_mut(kind, name).and_then(|m| m.uid.clone());
        let n = Some(name.to_string());
        match kind {
            Kind::ReplicaSet => self.snap.replica_sets.retain(|o| o.metadata.name != n),
            Kind::Deployment => self.snap.deployments.retain(|o| o.metadata.name != n),
            Kind::StatefulSet => self.snap.stateful_sets.retain(|o| o.metadata.name != n),
            Kind::DaemonSet => self.snap.daemon_sets.retain(|o| o.metadata.name != n),
            Kind::Job => self.snap.jobs.retain(|o| o.metadata.name != n),
            Kind::CronJob => self.snap.cron_jobs.retain(|o| o.metadata.name != n),
        }
        self.gone.extend(uid);
    }

    /// Removes a pod at once (a force delete).
    pub fn remove_pod(&mut self, name: &str) {
        self.snap
            .pods
            .retain(|p| p.metadata.name.as_deref() != Some(name));
    }

    /// One pass of every controller (and the collector); returns how many actions it applied
    /// and the wake-up it asked for.
    pub fn pass(&mut self) -> (usize, Option<Timestamp>) {
        let mut actions = gc::reconcile(&self.snap, &self.gone);
        let out = reconcile_all(&self.snap, self.now);
        actions.extend(out.actions);
        let n = actions
            .iter()
            .filter(|a| !matches!(a, Action::Event(_)))
            .count();
        for a in actions {
            self.apply(a);
        }
        (n, out.wake)
    }

    /// Passes until one changes nothing (at most 100); returns the last wake-up asked for.
    pub fn settle(&mut self) -> Option<Timestamp> {
        for _ in 0..100 {
            let (n, wake) = self.pass();
            if n == 0 {
                return wake;
            }
        }
        panic!("the controllers did not settle in 100 passes");
    }

    /// Moves the clock by `secs` seconds.
    pub fn advance(&mut self, secs: i64) {
        self.now = self
            .now
            .checked_add(SignedDuration::from_secs(secs))
            .expect("time");
    }

    /// The reasons and messages of the events recorded so far, in order.
    pub fn event_texts(&self) -> Vec<String> {
        self.events
            .iter()
            .map(|e| {
                format!(
                    "{}: {}",
                    e.reason.clone().unwrap_or_default(),
                    e.message.clone().unwrap_or_default()
                )
            })
            .collect()
    }

    /// Names of the pods (not terminating) whose controller has `uid`-owner `owner`'s name prefix.
    pub fn pod_names(&self, prefix: &str) -> Vec<String> {
        let mut v: Vec<String> = self
            .snap
            .pods
            .iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .filter_map(|p| p.metadata.name.clone())
            .filter(|n| n.starts_with(prefix))
            .collect();
        v.sort();
        v
    }
}

/// A pod template of one container `c` with `image`, labels `app: <app>`.
pub(crate) fn template(app: &str, image: &str) -> k8s_openapi::api::core::v1::PodTemplateSpec {
    serde_json::from_value(serde_json::json!({
        "metadata": {"labels": {"app": app}},
        "spec": {"containers": [{"name": "c", "image": image}]}
    }))
    .expect("template")
}

/// A fixed instant for tests.
pub(crate) fn t0() -> Timestamp {
    "2026-01-01T00:00:00Z".parse().expect("time")
}
