//! What changed between two pod templates (a Deployment's previous and new ReplicaSet), field
//! by field, in the words `kubectl describe` uses (`docs/workloads.md` "Template changes").

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{
    Container, EnvFromSource, EnvVar, PodSpec, PodTemplateSpec, Probe, Volume,
};

use super::TemplateChange;
use crate::probe::describe_probe;
use crate::sanitize::sanitize;

fn change(container: &str, field: &str, from: String, to: String) -> TemplateChange {
    let clean = |s: &str| sanitize(s).into_owned();
    TemplateChange {
        container: clean(container),
        field: clean(field),
        from: clean(&from),
        to: clean(&to),
    }
}

/// The changes from `old` to `new`: per container (init containers, then containers, in `new`'s
/// order; added and removed ones as field `container`), `image`, `command`, `args`, each
/// `env NAME`, `envFrom`, each `resources requests.R` / `resources limits.R`, the three probes
/// (describe form); then pod-level `volume NAME` (container empty). Values are sanitised.
#[must_use]
pub fn template_changes(old: &PodTemplateSpec, new: &PodTemplateSpec) -> Vec<TemplateChange> {
    let empty = PodSpec::default();
    let old = old.spec.as_ref().unwrap_or(&empty);
    let new = new.spec.as_ref().unwrap_or(&empty);
    let mut out = Vec::new();
    let all = |s: &PodSpec| -> Vec<Container> {
        s.init_containers
            .iter()
            .flatten()
            .chain(s.containers.iter())
            .cloned()
            .collect()
    };
    let (olds, news) = (all(old), all(new));
    for n in &news {
        match olds.iter().find(|o| o.name == n.name) {
            Some(o) => container_changes(o, n, &mut out),
            None => out.push(change(&n.name, "container", String::new(), image(n))),
        }
    }
    for o in olds
        .iter()
        .filter(|o| !news.iter().any(|n| n.name == o.name))
    {
        out.push(change(&o.name, "container", image(o), String::new()));
    }
    volume_changes(old, new, &mut out);
    out
}

fn image(c: &Container) -> String {
    c.image.clone().unwrap_or_default()
}

fn words(v: Option<&Vec<String>>) -> String {
    v.map(shell_words::join).unwrap_or_default()
}

fn container_changes(o: &Container, n: &Container, out: &mut Vec<TemplateChange>) {
    let name = n.name.as_str();
    let mut push = |field: &str, from: String, to: String| {
        if from != to {
            out.push(change(name, field, from, to));
        }
    };
    push("image", image(o), image(n));
    push(
        "command",
        words(o.command.as_ref()),
        words(n.command.as_ref()),
    );
    push("args", words(o.args.as_ref()), words(n.args.as_ref()));
    let env = |c: &Container| -> BTreeMap<String, String> {
        c.env
            .iter()
            .flatten()
            .map(|e| (e.name.clone(), env_value(e)))
            .collect()
    };
    let (oe, ne) = (env(o), env(n));
    let order: Vec<&String> = n
        .env
        .iter()
        .flatten()
        .map(|e| &e.name)
        .chain(o.env.iter().flatten().map(|e| &e.name))
        .collect();
    let mut seen = Vec::new();
    for var in order {
        if seen.contains(&var) {
            continue;
        }
        seen.push(var);
        let from = oe.get(var).cloned();
        let to = ne.get(var).cloned();
        if from != to {
            push(
                &format!("env {var}"),
                from.unwrap_or_default(),
                to.unwrap_or_default(),
            );
        }
    }
    let env_from = |c: &Container| -> String {
        c.env_from
            .iter()
            .flatten()
            .map(env_from_text)
            .collect::<Vec<_>>()
            .join(", ")
    };
    push("envFrom", env_from(o), env_from(n));
    for (part, pick) in [("requests", 0), ("limits", 1)] {
        let map = |c: &Container| -> BTreeMap<String, String> {
            let r = c.resources.as_ref();
            let m = if pick == 0 {
                r.and_then(|r| r.requests.as_ref())
            } else {
                r.and_then(|r| r.limits.as_ref())
            };
            m.iter()
                .flat_map(|m| m.iter())
                .map(|(k, q)| (k.clone(), q.0.clone()))
                .collect()
        };
        let (om, nm) = (map(o), map(n));
        let keys: std::collections::BTreeSet<&String> = om.keys().chain(nm.keys()).collect();
        for k in keys {
            let from = om.get(k).cloned().unwrap_or_default();
            let to = nm.get(k).cloned().unwrap_or_default();
            push(&format!("resources {part}.{k}"), from, to);
        }
    }
    let probe = |p: Option<&Probe>| p.map(describe_probe).unwrap_or_default();
    push(
        "livenessProbe",
        probe(o.liveness_probe.as_ref()),
        probe(n.liveness_probe.as_ref()),
    );
    push(
        "readinessProbe",
        probe(o.readiness_probe.as_ref()),
        probe(n.readiness_probe.as_ref()),
    );
    push(
        "startupProbe",
        probe(o.startup_probe.as_ref()),
        probe(n.startup_probe.as_ref()),
    );
}

/// `8080`, or where a `valueFrom` reads: `from secret/NAME KEY`, `from configmap/NAME KEY`,
/// `from field metadata.name`, `from resource limits.memory`.
fn env_value(e: &EnvVar) -> String {
    let Some(from) = &e.value_from else {
        return e.value.clone().unwrap_or_default();
    };
    if let Some(s) = &from.secret_key_ref {
        return format!("from secret/{} {}", s.name, s.key);
    }
    if let Some(c) = &from.config_map_key_ref {
        return format!("from configmap/{} {}", c.name, c.key);
    }
    if let Some(f) = &from.field_ref {
        return format!("from field {}", f.field_path);
    }
    if let Some(r) = &from.resource_field_ref {
        return format!("from resource {}", r.resource);
    }
    "from (another source)".to_owned()
}

/// `configmap/NAME`, `secret/NAME`, with ` prefix P` when set.
fn env_from_text(e: &EnvFromSource) -> String {
    let source = match (&e.config_map_ref, &e.secret_ref) {
        (Some(c), _) => format!("configmap/{}", c.name),
        (None, Some(s)) => format!("secret/{}", s.name),
        (None, None) => "(another source)".to_owned(),
    };
    match e.prefix.as_deref() {
        Some(p) if !p.is_empty() => format!("{source} prefix {p}"),
        _ => source,
    }
}

/// A volume's source in a few words: `configMap NAME`, `secret NAME`, `persistentVolumeClaim
/// NAME`, `emptyDir`, `hostPath PATH`, `projected`, `downwardAPI`, else `other`.
fn volume_text(v: &Volume) -> String {
    if let Some(c) = &v.config_map {
        return format!("configMap {}", c.name);
    }
    if let Some(s) = &v.secret {
        return format!("secret {}", s.secret_name.as_deref().unwrap_or(""));
    }
    if let Some(p) = &v.persistent_volume_claim {
        return format!("persistentVolumeClaim {}", p.claim_name);
    }
    if v.empty_dir.is_some() {
        return "emptyDir".to_owned();
    }
    if let Some(h) = &v.host_path {
        return format!("hostPath {}", h.path);
    }
    if v.projected.is_some() {
        return "projected".to_owned();
    }
    if v.downward_api.is_some() {
        return "downwardAPI".to_owned();
    }
    "other".to_owned()
}

fn volume_changes(old: &PodSpec, new: &PodSpec, out: &mut Vec<TemplateChange>) {
    let olds: Vec<&Volume> = old.volumes.iter().flatten().collect();
    let news: Vec<&Volume> = new.volumes.iter().flatten().collect();
    for n in &news {
        match olds.iter().find(|o| o.name == n.name) {
            None => out.push(change(
                "",
                &format!("volume {}", n.name),
                String::new(),
                volume_text(n),
            )),
            Some(o) if o != n => {
                let (from, to) = (volume_text(o), volume_text(n));
                // Same kind and name but other settings (items, mode): say it changed.
                let to = if from == to {
                    format!("{to} (changed)")
                } else {
                    to
                };
                out.push(change("", &format!("volume {}", n.name), from, to));
            }
            Some(_) => {}
        }
    }
    for o in olds
        .iter()
        .filter(|o| !news.iter().any(|n| n.name == o.name))
    {
        out.push(change(
            "",
            &format!("volume {}", o.name),
            volume_text(o),
            String::new(),
        ));
    }
}

/// `to` shortened against `from` when only the tag or digest differs:
/// (`ghcr.io/example/hello:1.0`, `ghcr.io/example/hello:1.1`) → `:1.1`.
#[must_use]
pub fn short_image(from: &str, to: &str) -> String {
    let split = |s: &str| -> (usize, usize) {
        // The repository ends at `@` (digest) or at the last `:` after the last `/` (tag).
        let slash = s.rfind('/').map_or(0, |i| i + 1);
        let at = s.find('@').unwrap_or(s.len());
        let colon = s[slash..at].rfind(':').map_or(at, |i| slash + i);
        (colon, at)
    };
    let (fc, _) = split(from);
    let (tc, _) = split(to);
    if fc == tc && fc < from.len() && from[..fc] == to[..tc] && tc < to.len() {
        to[tc..].to_owned()
    } else {
        to.to_owned()
    }
}

/// The changes as one line, each container named once before its changes:
/// `hello: image ghcr.io/example/hello:1.0 → :1.1; env PORT 8080 → abc`. Added values read
/// `env DEBUG added 1`, removed ones `env DEBUG removed (was 1)`, an empty value `""`.
#[must_use]
pub fn changes_text(changes: &[TemplateChange]) -> String {
    let mut out = String::new();
    let mut current: Option<&str> = None;
    for c in changes {
        if !out.is_empty() {
            out.push_str("; ");
        }
        if current != Some(c.container.as_str()) {
            let who = if c.container.is_empty() {
                "pod"
            } else {
                c.container.as_str()
            };
            out.push_str(who);
            out.push_str(": ");
            current = Some(c.container.as_str());
        }
        let shown = |v: &str| {
            if v.is_empty() {
                "\"\"".to_owned()
            } else {
                v.to_owned()
            }
        };
        let text = match (c.from.is_empty(), c.to.is_empty()) {
            (true, false) => format!("{} added {}", c.field, c.to),
            (false, true) => format!("{} removed (was {})", c.field, c.from),
            _ if c.field == "image" => {
                format!("image {} → {}", c.from, short_image(&c.from, &c.to))
            }
            _ => format!("{} {} → {}", c.field, shown(&c.from), shown(&c.to)),
        };
        out.push_str(&text);
    }
    out
}
