//! `Environment Variables from:` and `Environment:` of one container
//! (`describeContainerEnvFrom`, `describeContainerEnvVars` in kubectl's `describe.go`). A
//! Secret's value is never read: kubectl (and this) print the key and the object it names.

use k8s_openapi::api::core::v1::{Container, EnvVar, Pod, ResourceFieldSelector};

use super::out::{Out, clean, opt, split_lines};
use super::quantity;

/// `Environment Variables from:` then `name\tConfigMap|Secret[ with prefix 'p']\tOptional: b`.
pub(super) fn env_from(o: &mut Out, c: &Container) {
    let sources = c.env_from.as_deref().unwrap_or(&[]);
    let none = if sources.is_empty() { "\t<none>" } else { "" };
    o.w(2, &format!("Environment Variables from:{none}\n"));
    for e in sources {
        let (from, name, optional) = if let Some(r) = &e.config_map_ref {
            ("ConfigMap", r.name.as_str(), r.optional == Some(true))
        } else if let Some(r) = &e.secret_ref {
            ("Secret", r.name.as_str(), r.optional == Some(true))
        } else {
            ("", "", false)
        };
        let name = clean(name);
        match e.prefix.as_deref().filter(|p| !p.is_empty()) {
            None => o.w(3, &format!("{name}\t{from}\tOptional: {optional}\n")),
            Some(p) => o.w(
                3,
                &format!(
                    "{name}\t{from} with prefix '{}'\tOptional: {optional}\n",
                    clean(p)
                ),
            ),
        }
    }
}

/// `Environment:` then one line per variable in spec order: a literal value (its further lines
/// as continuation cells), a field reference with its resolved value, a resource reference with
/// the container's quantity, or the key and name of a Secret or ConfigMap.
pub(super) fn env_vars(o: &mut Out, c: &Container, pod: &Pod) {
    let vars = c.env.as_deref().unwrap_or(&[]);
    let none = if vars.is_empty() { "\t<none>" } else { "" };
    o.w(2, &format!("Environment:{none}\n"));
    for e in vars {
        let name = clean(&e.name);
        let Some(from) = &e.value_from else {
            for (i, line) in split_lines(e.value.as_deref().unwrap_or(""))
                .iter()
                .enumerate()
            {
                if i == 0 {
                    o.w(3, &format!("{name}:\t{line}\n"));
                } else {
                    o.w(3, &format!("\t{line}\n"));
                }
            }
            continue;
        };
        if let Some(f) = &from.field_ref {
            let value = field_value(e, pod);
            let api = opt(&f.api_version);
            o.w(
                3,
                &format!("{name}:\t{value} ({api}:{})\n", clean(&f.field_path)),
            );
        } else if let Some(r) = &from.resource_field_ref {
            let mut value = resource_value(r, c);
            if value == "0" && (r.resource == "limits.cpu" || r.resource == "limits.memory") {
                value = "node allocatable".to_string();
            }
            o.w(3, &format!("{name}:\t{value} ({})\n", clean(&r.resource)));
        } else if let Some(s) = &from.secret_key_ref {
            o.w(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' in secret '{}'>\tOptional: {}\n",
                    clean(&s.key),
                    clean(&s.name),
                    s.optional == Some(true)
                ),
            );
        } else if let Some(m) = &from.config_map_key_ref {
            o.w(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' of config map '{}'>\tOptional: {}\n",
                    clean(&m.key),
                    clean(&m.name),
                    m.optional == Some(true)
                ),
            );
        }
    }
}

/// The value kubectl resolves for a `fieldRef`: kubectl's scheme has no field-label conversion
/// for pods beyond the generic one, which accepts only `metadata.name` and
/// `metadata.namespace` (apimachinery's `DefaultMetaV1FieldSelectorConversion`); every other
/// path (`status.podIP`, `spec.nodeName`, …) resolves to the empty string, as does an
/// `apiVersion` that is no group/version (more than one `/`; an empty one parses).
fn field_value(e: &EnvVar, pod: &Pod) -> String {
    let Some(f) = e.value_from.as_ref().and_then(|v| v.field_ref.as_ref()) else {
        return String::new();
    };
    let api = f.api_version.as_deref().unwrap_or("");
    if api.split('/').count() > 2 {
        return String::new();
    }
    match f.field_path.as_str() {
        "metadata.name" => opt(&pod.metadata.name).into_owned(),
        "metadata.namespace" => opt(&pod.metadata.namespace).into_owned(),
        _ => String::new(),
    }
}

/// kubectl's `ExtractContainerResourceValue`: the container's request or limit of the named
/// resource divided by the divisor (1 when zero or absent), rounded up; CPU in millicores
/// divided by the divisor's millicores. An unknown resource is empty.
fn resource_value(r: &ResourceFieldSelector, c: &Container) -> String {
    let res = c.resources.clone().unwrap_or_default();
    let divisor = r
        .divisor
        .as_ref()
        .and_then(|d| quantity::parse(&d.0))
        .filter(|d| *d != 0.0)
        .unwrap_or(1.0);
    let (list, name) = match r.resource.split_once('.') {
        Some(("limits", n)) => (res.limits.as_ref(), n),
        Some(("requests", n)) => (res.requests.as_ref(), n),
        _ => return String::new(),
    };
    if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !name.starts_with("hugepages-") {
        return String::new();
    }
    let value = list
        .and_then(|l| l.get(name))
        .and_then(|q| quantity::parse(&q.0))
        .unwrap_or(0.0);
    let out = if name == "cpu" {
        (quantity::ceil_milli(value) / quantity::ceil_milli(divisor)).ceil()
    } else {
        (value.ceil() / divisor.ceil()).ceil()
    };
    format!("{}", out + 0.0)
}
