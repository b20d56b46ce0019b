//! The resources the simulator stores, with the names the API server gives them: plural,
//! kind, group, version, scope (see `docs/workloads-api.md`).

/// Which resource a request or a change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    /// `pods` (core/v1 Pod).
    Pods,
    /// `events` (core/v1 Event).
    Events,
    /// `deployments` (apps/v1 Deployment).
    Deployments,
    /// `replicasets` (apps/v1 ReplicaSet).
    ReplicaSets,
    /// `statefulsets` (apps/v1 StatefulSet).
    StatefulSets,
    /// `daemonsets` (apps/v1 DaemonSet).
    DaemonSets,
    /// `jobs` (batch/v1 Job).
    Jobs,
    /// `cronjobs` (batch/v1 CronJob).
    CronJobs,
}

impl Resource {
    /// The workload kinds of the `apps` and `batch` groups, in discovery order.
    pub const WORKLOADS: [Resource; 6] = [
        Resource::Deployments,
        Resource::ReplicaSets,
        Resource::StatefulSets,
        Resource::DaemonSets,
        Resource::Jobs,
        Resource::CronJobs,
    ];

    /// The plural resource name as it appears in URLs (`pods`, `deployments`, `cronjobs`).
    pub fn plural(self) -> &'static str {
        match self {
            Resource::Pods => "pods",
            Resource::Events => "events",
            Resource::Deployments => "deployments",
            Resource::ReplicaSets => "replicasets",
            Resource::StatefulSets => "statefulsets",
            Resource::DaemonSets => "daemonsets",
            Resource::Jobs => "jobs",
            Resource::CronJobs => "cronjobs",
        }
    }

    /// The singular name discovery lists (`deployment`, `cronjob`).
    pub fn singular(self) -> &'static str {
        match self {
            Resource::Pods => "pod",
            Resource::Events => "event",
            Resource::Deployments => "deployment",
            Resource::ReplicaSets => "replicaset",
            Resource::StatefulSets => "statefulset",
            Resource::DaemonSets => "daemonset",
            Resource::Jobs => "job",
            Resource::CronJobs => "cronjob",
        }
    }

    /// The `kind` of a single object (`Pod`, `Event`, `Deployment`, `CronJob`).
    pub fn kind(self) -> &'static str {
        match self {
            Resource::Pods => "Pod",
            Resource::Events => "Event",
            Resource::Deployments => "Deployment",
            Resource::ReplicaSets => "ReplicaSet",
            Resource::StatefulSets => "StatefulSet",
            Resource::DaemonSets => "DaemonSet",
            Resource::Jobs => "Job",
            Resource::CronJobs => "CronJob",
        }
    }

    /// The API group: `""` (core), `"apps"` or `"batch"`.
    pub fn group(self) -> &'static str {
        match self {
            Resource::Pods | Resource::Events => "",
            Resource::Deployments
            | Resource::ReplicaSets
            | Resource::StatefulSets
            | Resource::DaemonSets => "apps",
            Resource::Jobs | Resource::CronJobs => "batch",
        }
    }

    /// The `apiVersion` objects carry: `"v1"`, `"apps/v1"` or `"batch/v1"`.
    pub fn api_version(self) -> &'static str {
        match self.group() {
            "apps" => "apps/v1",
            "batch" => "batch/v1",
            _ => "v1",
        }
    }

    /// Whether objects live in a namespace (every stored resource does).
    pub fn namespaced(self) -> bool {
        true
    }

    /// The group-qualified plural the API server's messages use: `pods`, `deployments.apps`,
    /// `jobs.batch` (as in `deployments.apps "web" not found`).
    pub fn qualified(self) -> String {
        match self.group() {
            "" => self.plural().to_string(),
            g => format!("{}.{g}", self.plural()),
        }
    }

    /// Discovery's `shortNames` (`po`, `ev`, `deploy`, `rs`, `sts`, `ds`, `cj`; jobs have none).
    pub fn short_names(self) -> &'static [&'static str] {
        match self {
            Resource::Pods => &["po"],
            Resource::Events => &["ev"],
            Resource::Deployments => &["deploy"],
            Resource::ReplicaSets => &["rs"],
            Resource::StatefulSets => &["sts"],
            Resource::DaemonSets => &["ds"],
            Resource::Jobs => &[],
            Resource::CronJobs => &["cj"],
        }
    }

    /// Whether the resource has a `scale` subresource (deployments, replicasets,
    /// statefulsets).
    pub fn has_scale(self) -> bool {
        matches!(
            self,
            Resource::Deployments | Resource::ReplicaSets | Resource::StatefulSets
        )
    }

    /// The resource of an `apis/{group}/v1` URL's plural (`deployments` in `apps`), if stored.
    pub fn from_group_plural(group: &str, plural: &str) -> Option<Resource> {
        Resource::WORKLOADS
            .into_iter()
            .find(|r| r.group() == group && r.plural() == plural)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_the_api_server_gives_them() {
        assert_eq!(Resource::ReplicaSets.qualified(), "replicasets.apps");
        assert_eq!(Resource::CronJobs.qualified(), "cronjobs.batch");
        assert_eq!(Resource::Pods.qualified(), "pods");
        assert_eq!(Resource::Jobs.api_version(), "batch/v1");
        assert_eq!(Resource::DaemonSets.api_version(), "apps/v1");
        assert_eq!(Resource::Events.api_version(), "v1");
        assert_eq!(
            Resource::from_group_plural("batch", "jobs"),
            Some(Resource::Jobs)
        );
        assert_eq!(Resource::from_group_plural("apps", "jobs"), None);
    }
}
