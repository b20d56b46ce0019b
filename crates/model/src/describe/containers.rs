//! The Init Containers, Containers and Ephemeral Containers sections (`describeContainers` and
//! its helpers in kubectl's `describe.go`): identity, image, ports, command, state, resources,
//! probes, environment and mounts of each container, in spec order.

use k8s_openapi::api::core::v1::{
    Container, ContainerPort, ContainerState, ContainerStatus, EphemeralContainer, Pod,
    ResourceRequirements,
};

use super::out::{Out, clean, go_bool_title, go_quote, multiline, opt, rfc1123z, split_lines};
use super::{Layout, describe_probe, env, quantity};

/// Writes `label:` (` <none>` when empty) and one block per container, its status found by name.
pub(super) fn describe(
    o: &mut Out,
    label: &str,
    containers: &[Container],
    statuses: &[ContainerStatus],
    pod: &Pod,
    layout: Layout,
) {
    let none = if containers.is_empty() { " <none>" } else { "" };
    o.w(0, &format!("{label}:{none}\n"));
    for c in containers {
        let status = statuses.iter().find(|s| s.name == c.name);
        basic_info(o, c, status, layout);
        command(o, c);
        if let Some(s) = status {
            state(o, s);
        }
        resources(o, &c.resources.clone().unwrap_or_default(), 2);
        probes(o, c);
        if c.env_from.as_ref().is_some_and(|e| !e.is_empty()) {
            env::env_from(o, c);
        }
        env::env_vars(o, c, pod);
        mounts(o, c);
    }
}

/// An ephemeral container as the `Container` it shares its fields with.
pub(super) fn from_ephemeral(e: &EphemeralContainer) -> Container {
    Container {
        name: e.name.clone(),
        image: e.image.clone(),
        command: e.command.clone(),
        args: e.args.clone(),
        ports: e.ports.clone(),
        env: e.env.clone(),
        env_from: e.env_from.clone(),
        resources: e.resources.clone(),
        volume_mounts: e.volume_mounts.clone(),
        volume_devices: e.volume_devices.clone(),
        liveness_probe: e.liveness_probe.clone(),
        readiness_probe: e.readiness_probe.clone(),
        startup_probe: e.startup_probe.clone(),
        security_context: e.security_context.clone(),
        ..Container::default()
    }
}

fn basic_info(o: &mut Out, c: &Container, status: Option<&ContainerStatus>, layout: Layout) {
    let named = layout.kubectl_minor >= 34;
    o.w(1, &format!("{}:\n", clean(&c.name)));
    if let Some(s) = status {
        o.field(2, "Container ID", &opt(&s.container_id));
    }
    o.field(2, "Image", &opt(&c.image));
    if let Some(s) = status {
        o.field(2, "Image ID", &clean(&s.image_id));
    }
    let ports = c.ports.as_deref().unwrap_or(&[]);
    let port = ports_text(ports, named, |p| p.container_port);
    if port.contains(',') {
        o.field(2, "Ports", &port);
    } else {
        o.field(2, "Port", or_none(&port));
    }
    let host = ports_text(ports, named, |p| p.host_port.unwrap_or(0));
    if host.contains(',') {
        o.field(2, "Host Ports", &host);
    } else {
        o.field(2, "Host Port", or_none(&host));
    }
    if let Some(sp) = c
        .security_context
        .as_ref()
        .and_then(|sc| sc.seccomp_profile.as_ref())
    {
        o.field(2, "SeccompProfile", &clean(&sp.type_));
        if sp.type_ == "Localhost" {
            o.field(3, "LocalhostProfile", &opt(&sp.localhost_profile));
        }
    }
}

/// `8080/TCP, 9090/UDP`: number and protocol, and with `named` the port's name in parentheses
/// (`8080/TCP (http)`, kubectl after 1.33).
fn ports_text(
    ports: &[ContainerPort],
    named: bool,
    number: impl Fn(&ContainerPort) -> i32,
) -> String {
    ports
        .iter()
        .map(|p| {
            let text = format!("{}/{}", number(p), opt(&p.protocol));
            match p.name.as_deref().filter(|n| named && !n.is_empty()) {
                Some(n) => format!("{text} ({})", clean(n)),
                None => text,
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn or_none(s: &str) -> &str {
    if s.is_empty() { "<none>" } else { s }
}

/// `Command:` and `Args:`, one line per element and per line of an element.
fn command(o: &mut Out, c: &Container) {
    for (title, items) in [("Command", &c.command), ("Args", &c.args)] {
        let items = items.as_deref().unwrap_or(&[]);
        if items.is_empty() {
            continue;
        }
        o.w(2, &format!("{title}:\n"));
        for item in items {
            for line in split_lines(item) {
                o.w(3, &format!("{line}\n"));
            }
        }
    }
}

/// State, Last State (only when it is a termination), Ready and Restart Count.
fn state(o: &mut Out, s: &ContainerStatus) {
    describe_state(o, "State", s.state.as_ref());
    if let Some(last) = &s.last_state
        && last.terminated.is_some()
    {
        describe_state(o, "Last State", Some(last));
    }
    o.field(2, "Ready", go_bool_title(s.ready));
    o.field(2, "Restart Count", &s.restart_count.to_string());
}

/// kubectl's `describeStatus`: Running with Started; Waiting with its Reason; Terminated with
/// Reason, Message, Exit Code, Signal (when > 0), Started and Finished; no state is Waiting.
fn describe_state(o: &mut Out, name: &str, state: Option<&ContainerState>) {
    let state = state.cloned().unwrap_or_default();
    if let Some(r) = &state.running {
        o.field(2, name, "Running");
        o.field(3, "Started", &rfc1123z(r.started_at.as_ref().map(|t| t.0)));
    } else if let Some(w) = &state.waiting {
        o.field(2, name, "Waiting");
        if let Some(r) = w.reason.as_deref().filter(|r| !r.is_empty()) {
            o.field(3, "Reason", &clean(r));
        }
    } else if let Some(t) = &state.terminated {
        o.field(2, name, "Terminated");
        if let Some(r) = t.reason.as_deref().filter(|r| !r.is_empty()) {
            o.field(3, "Reason", &clean(r));
        }
        if let Some(m) = t.message.as_deref().filter(|m| !m.is_empty()) {
            o.field(3, "Message", &multiline(m));
        }
        o.field(3, "Exit Code", &t.exit_code.to_string());
        if let Some(sig) = t.signal.filter(|s| *s > 0) {
            o.field(3, "Signal", &sig.to_string());
        }
        o.field(3, "Started", &rfc1123z(t.started_at.as_ref().map(|t| t.0)));
        o.field(
            3,
            "Finished",
            &rfc1123z(t.finished_at.as_ref().map(|t| t.0)),
        );
    } else {
        o.field(2, name, "Waiting");
    }
}

/// `Limits:` and `Requests:` at `level`, one `name:\tquantity` line per resource by name, the
/// quantity in its canonical form (`quantity::canonical`).
pub(super) fn resources(o: &mut Out, r: &ResourceRequirements, level: usize) {
    for (title, list) in [("Limits", &r.limits), ("Requests", &r.requests)] {
        let Some(list) = list.as_ref().filter(|l| !l.is_empty()) else {
            continue;
        };
        o.w(level, &format!("{title}:\n"));
        for (name, q) in list {
            o.field(level + 1, &clean(name), &clean(&quantity::canonical(&q.0)));
        }
    }
}

fn probes(o: &mut Out, c: &Container) {
    for (title, p) in [
        ("Liveness", &c.liveness_probe),
        ("Readiness", &c.readiness_probe),
        ("Startup", &c.startup_probe),
    ] {
        if let Some(p) = p {
            o.field(2, title, &clean(&describe_probe(p)));
        }
    }
}

/// `Mounts:` sorted by mount path (`ro`/`rw`, `path="subPath"`), then `Devices:` when any.
fn mounts(o: &mut Out, c: &Container) {
    let mut mounts = c.volume_mounts.clone().unwrap_or_default();
    let none = if mounts.is_empty() { "\t<none>" } else { "" };
    o.w(2, &format!("Mounts:{none}\n"));
    mounts.sort_by(|a, b| a.mount_path.cmp(&b.mount_path));
    for m in &mounts {
        let mut flags = vec![
            if m.read_only == Some(true) {
                "ro"
            } else {
                "rw"
            }
            .to_string(),
        ];
        if let Some(sub) = m.sub_path.as_deref().filter(|s| !s.is_empty()) {
            flags.push(format!("path={}", go_quote(&clean(sub))));
        }
        o.w(
            3,
            &format!(
                "{} from {} ({})\n",
                clean(&m.mount_path),
                clean(&m.name),
                flags.join(",")
            ),
        );
    }
    let mut devices = c.volume_devices.clone().unwrap_or_default();
    if !devices.is_empty() {
        o.w(2, &format!("Devices:{none}\n"));
        devices.sort_by(|a, b| a.device_path.cmp(&b.device_path));
        for d in &devices {
            o.w(
                3,
                &format!("{} from {}\n", clean(&d.device_path), clean(&d.name)),
            );
        }
    }
}
