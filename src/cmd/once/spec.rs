//! The container spec in `--once` output ([`crate::model::container_spec`]): the JSON
//! `containers[].spec` object and the text lines under each container.
//!
//! JSON: `{"command": [...], "args": [...], "env": [{"name", "value"} | {"name", "from":
//! {"kind": "ConfigMap"|"Secret", "name", "key", "optional"} | {"kind": "field", "fieldPath"} |
//! {"kind": "resource", "resource", "containerName"?, "divisor"?}}], "envFrom": [{"kind",
//! "name", "prefix"?, "optional"}], "mounts": [{"path", "volume", "source": {"type", "name"?} |
//! null, "readOnly", "subPath"?}], "securityContext": {"runAsUser"?, "runAsNonRoot"?,
//! "readOnlyRootFilesystem"?, "privileged"?, "allowPrivilegeEscalation"?, "capabilities"?:
//! {"add", "drop"}}}`, with `envOmitted` / `envFromOmitted` / `mountsOmitted` counts when a
//! list was cut. A Secret's value never appears: only its name and key.

use std::fmt::Write as _;

use serde_json::Value;

use crate::model::ContainerSummary;

/// `containers[].spec` of the JSON document.
#[must_use]
pub fn json(c: &ContainerSummary) -> Value {
    serde_json::to_value(&c.spec).unwrap_or(Value::Null)
}

/// `    Label:      value` with the value column at 16, as the container's other lines.
fn line(out: &mut String, label: &str, value: &str) {
    let head = if label.is_empty() {
        String::new()
    } else {
        format!("{label}:")
    };
    let _ = writeln!(out, "    {head:<12}{value}");
}

/// Each of `items` on its own line, the first labelled, then `… N more` for `omitted`.
fn list(out: &mut String, label: &str, items: &[String], omitted: usize) {
    for (i, item) in items.iter().enumerate() {
        line(out, if i == 0 { label } else { "" }, item);
    }
    if omitted > 0 {
        let label = if items.is_empty() { label } else { "" };
        line(out, label, &format!("… {omitted} more"));
    }
}

/// The text lines of the spec: `Command:`, then `Env:`, `Env From:`, `Mounts:` and
/// `Security:` when set.
pub fn text(out: &mut String, c: &ContainerSummary) {
    let spec = &c.spec;
    line(out, "Command", &spec.command_line());
    let env: Vec<String> = spec.env.iter().map(|e| e.text()).collect();
    list(out, "Env", &env, spec.env_omitted);
    let env_from: Vec<String> = spec.env_from.iter().map(|e| e.text()).collect();
    list(out, "Env From", &env_from, spec.env_from_omitted);
    let mounts: Vec<String> = spec.mounts.iter().map(|m| m.text()).collect();
    list(out, "Mounts", &mounts, spec.mounts_omitted);
    let security = spec.security_context.words();
    if !security.is_empty() {
        line(out, "Security", &security.join(", "));
    }
}
