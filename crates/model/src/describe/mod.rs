//! `kubectl describe pod` as text: the sections, field labels and alignment kubectl 1.33
//! prints (`staging/src/k8s.io/kubectl/pkg/describe/describe.go`, `describePod`), built from
//! the pod object and its events. Pure: the clock is the `now` argument. The layout in our
//! words is `docs/describe.md`.

mod containers;
mod env;
mod events;
mod gosort;
mod meta;
mod out;
mod qos;
pub mod quantity;
mod tabwriter;
mod volumes;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;

use crate::EventSummary;
use crate::duration::human_duration;

use out::{Out, clean, multiline, opt, rfc1123z};

pub use crate::probe::describe_probe;
pub use qos::pod_qos_class;

/// Which kubectl release's describe layout to reproduce: its minor version (`27` for 1.27; the
/// default is 33). The releases differ in details only:
/// - before 1.31 a pod with a `deletionTimestamp` is `Terminating (lasts …)` whatever its phase;
///   from 1.31 a `Succeeded` or `Failed` pod shows its phase;
/// - before 1.33 a projected volume's ConfigMap or Secret source prints Go's `%v` of the
///   `optional` pointer under `ConfigMapOptional:` / `SecretOptionalName:` (`<nil>` when unset;
///   a set pointer printed its address, which this cannot reproduce: `true`/`false` instead);
///   1.33 prints `Optional:` with `false` for unset;
/// - 34 and above stand for kubectl's current source (the layout of the seed's capture, not
///   run here): each port with its name (`8080/TCP (http)`, host ports too) and each event
///   message after its `involvedObject.fieldPath` (`spec.containers{app}: Started`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// kubectl's minor version (`33` for 1.33).
    pub kubectl_minor: u32,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { kubectl_minor: 33 }
    }
}

/// The text `kubectl describe pod` (1.33) prints for `pod` and its `events` at `now`:
/// `\n`-separated lines ending in `\n`, aligned as kubectl's tabwriter aligns them (trailing
/// spaces included, e.g. after `Conditions` statuses).
///
/// Sections in kubectl's order: Name, Namespace, Priority, Priority Class Name, Runtime Class
/// Name, Service Account, Node (`name/hostIP`), Start Time (RFC 1123 with zone, UTC here), Labels,
/// Annotations, Status (`Terminating (lasts …)` while deleting), Reason, Message,
/// SeccompProfile, IP, IPs, Controlled By, NominatedNodeName, Resources (pod-level), Init
/// Containers, Containers, Ephemeral Containers, Readiness Gates, Conditions, Volumes, QoS
/// Class, Node-Selectors, Tolerations, Topology Spread Constraints, Events.
///
/// `events` are the pod's events in the order the API listed them (the caller selects them by
/// `involvedObject`); they are sorted here as kubectl sorts them (by the `lastTimestamp` field,
/// oldest first, with Go's unstable `sort.Sort`, so the input order matters for equal times).
/// Ages (`Terminating (lasts …)`, the Events Age column) are `HumanDuration` of
/// `now − t` (`docs/protocols.md` §6.1); kubectl uses the wall clock of the machine it runs on.
/// Every string from the cluster is neutralised (`model::sanitize`).
pub fn describe_pod(pod: &Pod, events: &[EventSummary], now: Timestamp) -> String {
    describe_pod_with(pod, events, now, Layout::default())
}

/// [`describe_pod`] in the layout of another kubectl release ([`Layout`]).
pub fn describe_pod_with(
    pod: &Pod,
    events: &[EventSummary],
    now: Timestamp,
    layout: Layout,
) -> String {
    let mut o = Out::default();
    header(&mut o, pod, now, layout);
    let spec = pod.spec.as_ref();
    let status = pod.status.as_ref();
    let none = Vec::new();
    let init = spec
        .and_then(|s| s.init_containers.as_ref())
        .unwrap_or(&none);
    let main = spec.map(|s| &s.containers).unwrap_or(&none);
    let statuses = |f: fn(&k8s_openapi::api::core::v1::PodStatus) -> &Option<Vec<_>>| {
        status.and_then(|s| f(s).as_deref()).unwrap_or(&[])
    };
    if !init.is_empty() {
        containers::describe(
            &mut o,
            "Init Containers",
            init,
            statuses(|s| &s.init_container_statuses),
            pod,
            layout,
        );
    }
    containers::describe(
        &mut o,
        "Containers",
        main,
        statuses(|s| &s.container_statuses),
        pod,
        layout,
    );
    if let Some(eph) = spec.and_then(|s| s.ephemeral_containers.as_ref())
        && !eph.is_empty()
    {
        let as_containers: Vec<_> = eph.iter().map(containers::from_ephemeral).collect();
        containers::describe(
            &mut o,
            "Ephemeral Containers",
            &as_containers,
            statuses(|s| &s.ephemeral_container_statuses),
            pod,
            layout,
        );
    }
    conditions(&mut o, pod);
    volumes::describe(
        &mut o,
        spec.and_then(|s| s.volumes.as_deref()).unwrap_or(&[]),
        layout,
    );
    o.field(0, "QoS Class", &clean(&pod_qos_class(pod)));
    meta::labels(
        &mut o,
        "Node-Selectors",
        spec.and_then(|s| s.node_selector.as_ref()),
    );
    meta::tolerations(
        &mut o,
        "Tolerations",
        spec.and_then(|s| s.tolerations.as_deref()).unwrap_or(&[]),
    );
    meta::topology_spread(
        &mut o,
        spec.and_then(|s| s.topology_spread_constraints.as_deref())
            .unwrap_or(&[]),
    );
    events::describe(&mut o, events, now, layout);
    tabwriter::align(&o.into_text())
}

/// The `involvedObject.uid` kubectl selects the pod's events by (with `involvedObject.name` and
/// `.namespace`): a mirror pod's (one carrying the `kubernetes.io/config.mirror` annotation) is
/// that annotation's value, the uid of its static pod; any other pod's is `metadata.uid`
/// (`docs/describe.md` §9).
pub fn events_uid(pod: &Pod) -> Option<&str> {
    pod.metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get("kubernetes.io/config.mirror"))
        .or(pod.metadata.uid.as_ref())
        .map(String::as_str)
}

/// Name … NominatedNodeName and the pod-level Resources.
fn header(o: &mut Out, pod: &Pod, now: Timestamp, layout: Layout) {
    let meta = &pod.metadata;
    let spec = pod.spec.as_ref();
    let status = pod.status.as_ref();
    o.field(0, "Name", &opt(&meta.name));
    o.field(0, "Namespace", &opt(&meta.namespace));
    if let Some(p) = spec.and_then(|s| s.priority) {
        o.field(0, "Priority", &p.to_string());
    }
    if let Some(pc) = spec.and_then(|s| s.priority_class_name.as_deref())
        && !pc.is_empty()
    {
        o.field(0, "Priority Class Name", &clean(pc));
    }
    if let Some(rc) = spec.and_then(|s| s.runtime_class_name.as_deref())
        && !rc.is_empty()
    {
        o.field(0, "Runtime Class Name", &clean(rc));
    }
    if let Some(sa) = spec.and_then(|s| s.service_account_name.as_deref())
        && !sa.is_empty()
    {
        o.field(0, "Service Account", &clean(sa));
    }
    match spec.and_then(|s| s.node_name.as_deref()).unwrap_or("") {
        "" => o.field(0, "Node", "<none>"),
        node => {
            let host_ip = status.and_then(|s| s.host_ip.as_deref()).unwrap_or("");
            o.field(0, "Node", &format!("{}/{}", clean(node), clean(host_ip)));
        }
    }
    if let Some(t) = status.and_then(|s| s.start_time.as_ref()) {
        o.field(0, "Start Time", &rfc1123z(Some(t.0)));
    }
    meta::labels(o, "Labels", meta.labels.as_ref());
    meta::annotations(o, "Annotations", meta.annotations.as_ref());
    let phase = status.and_then(|s| s.phase.as_deref()).unwrap_or("");
    let terminal = phase == "Failed" || phase == "Succeeded";
    match &meta.deletion_timestamp {
        Some(t) if !terminal || layout.kubectl_minor < 31 => {
            o.field(
                0,
                "Status",
                &format!(
                    "Terminating (lasts {})",
                    human_duration(now.duration_since(t.0))
                ),
            );
            let grace = meta.deletion_grace_period_seconds.unwrap_or(0);
            o.field(0, "Termination Grace Period", &format!("{grace}s"));
        }
        _ => o.field(0, "Status", &clean(phase)),
    }
    if let Some(r) = status.and_then(|s| s.reason.as_deref())
        && !r.is_empty()
    {
        o.field(0, "Reason", &clean(r));
    }
    if let Some(m) = status.and_then(|s| s.message.as_deref())
        && !m.is_empty()
    {
        o.field(0, "Message", &multiline(m));
    }
    if let Some(sp) = spec
        .and_then(|s| s.security_context.as_ref())
        .and_then(|sc| sc.seccomp_profile.as_ref())
    {
        o.field(0, "SeccompProfile", &clean(&sp.type_));
        if sp.type_ == "Localhost" {
            o.field(0, "LocalhostProfile", &opt(&sp.localhost_profile));
        }
    }
    o.field(0, "IP", &opt(&status.and_then(|s| s.pod_ip.clone())));
    match status.and_then(|s| s.pod_ips.as_deref()).unwrap_or(&[]) {
        [] => o.field(0, "IPs", "<none>"),
        ips => {
            o.w(0, "IPs:\n");
            for ip in ips {
                o.field(1, "IP", &clean(&ip.ip));
            }
        }
    }
    if let Some(c) = meta
        .owner_references
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .find(|r| r.controller == Some(true))
    {
        o.field(
            0,
            "Controlled By",
            &format!("{}/{}", clean(&c.kind), clean(&c.name)),
        );
    }
    if let Some(n) = status.and_then(|s| s.nominated_node_name.as_deref())
        && !n.is_empty()
    {
        o.field(0, "NominatedNodeName", &clean(n));
    }
    if let Some(r) = spec.and_then(|s| s.resources.as_ref()) {
        o.w(0, "Resources:\n");
        containers::resources(o, r, 1);
    }
}

/// Readiness Gates and Conditions: `Type` and `Status` columns, each cell followed by a space.
fn conditions(o: &mut Out, pod: &Pod) {
    let conds = pod
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_deref())
        .unwrap_or(&[]);
    let gates = pod
        .spec
        .as_ref()
        .and_then(|s| s.readiness_gates.as_deref())
        .unwrap_or(&[]);
    if !gates.is_empty() {
        o.w(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let status = conds
                .iter()
                .find(|c| c.type_ == g.condition_type)
                .map_or("<none>".into(), |c| clean(&c.status));
            o.w(1, &format!("{} \t{} \n", clean(&g.condition_type), status));
        }
    }
    if !conds.is_empty() {
        o.w(0, "Conditions:\n  Type\tStatus\n");
        for c in conds {
            o.w(1, &format!("{} \t{} \n", clean(&c.type_), clean(&c.status)));
        }
    }
}
