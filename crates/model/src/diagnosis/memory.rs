//! OOMKilled: the kernel's OOM killer ended the container's process because the cgroup reached
//! `resources.limits.memory` (the runtime reports reason `OOMKilled`, exit 137; with no limit,
//! the node itself ran out). Memory settings in the command line or environment above the limit
//! (`-Xmx768m` with a 512Mi limit) are the usual cause (case 04).

use std::sync::LazyLock;

use regex::Regex;

use super::Inputs;
use super::cause::{Cause, after};
use super::facts::{self, bytes_text, quantity};
use crate::pod::{ContainerSummary, Terminated};

static HEAP_FLAG: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(-Xmx(\d+)([kKmMgGtT]?)\b|--max-old-space-size=(\d+)|-XX:MaxRAMPercentage=(\d+(?:\.\d+)?))").ok()
});

/// One memory setting found in the command line or environment.
struct Flag {
    /// Where: `command` or `env JAVA_OPTS`.
    source: String,
    /// The flag as written.
    text: String,
    /// Bytes it allows, when absolute.
    bytes: Option<f64>,
}

fn jvm_unit(u: &str) -> f64 {
    match u {
        "k" | "K" => 1024.0,
        "m" | "M" => 1024.0 * 1024.0,
        "g" | "G" => 1024.0 * 1024.0 * 1024.0,
        "t" | "T" => 1024f64.powi(4),
        _ => 1.0,
    }
}

fn flags_in(text: &str, source: &str, out: &mut Vec<Flag>) {
    let Some(re) = HEAP_FLAG.as_ref() else {
        return;
    };
    for caps in re.captures_iter(text) {
        let whole = caps.get(1).map_or("", |m| m.as_str()).to_owned();
        let bytes = if let Some(n) = caps.get(2) {
            n.as_str()
                .parse::<f64>()
                .ok()
                .map(|n| n * jvm_unit(caps.get(3).map_or("", |m| m.as_str())))
        } else {
            caps.get(4)
                .and_then(|n| n.as_str().parse::<f64>().ok())
                .map(|mib| mib * 1024.0 * 1024.0)
        };
        out.push(Flag {
            source: source.to_owned(),
            text: whole,
            bytes,
        });
    }
}

/// Memory settings of `c`: heap flags in its command line and literal env values, and
/// `GOMEMLIMIT`.
fn memory_flags(inp: &Inputs<'_>, c: &ContainerSummary) -> Vec<Flag> {
    let mut out = Vec::new();
    flags_in(&c.command.join(" "), "command", &mut out);
    if let Some(spec) = facts::spec_of(inp.pod, &c.name) {
        for e in spec.env.iter().flatten() {
            // A multi-line value is text (a script, a config file), not a flag list.
            let Some(v) = e.value.as_deref().filter(|v| !v.trim_end().contains('\n')) else {
                continue;
            };
            let source = format!("env {}", e.name);
            if e.name == "GOMEMLIMIT" {
                out.push(Flag {
                    source,
                    text: format!("GOMEMLIMIT={v}"),
                    bytes: quantity(v.trim_end_matches('B')),
                });
            } else {
                flags_in(v, &source, &mut out);
            }
        }
    }
    out
}

/// The OOMKilled cause of `t`, with the limit, the request and memory settings above it.
#[must_use]
pub fn oom(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> Cause {
    let spec = facts::spec_of(inp.pod, &c.name);
    let limit = spec.and_then(|s| facts::resource(s, true, "memory"));
    let request = spec.and_then(|s| facts::resource(s, false, "memory"));
    let limit_bytes = limit.and_then(quantity);
    let mut evidence = Vec::new();
    match (limit, request) {
        (Some(l), Some(r)) => {
            evidence.push(format!("resources: limits.memory {l}, requests.memory {r}"))
        }
        (Some(l), None) => evidence.push(format!("resources: limits.memory {l}")),
        (None, _) => evidence.push(
            "no memory limit: the kernel acted because the node ran out of memory".to_owned(),
        ),
    }
    let flags = memory_flags(inp, c);
    let mut above = None;
    for f in &flags {
        let cmp = match (f.bytes, limit_bytes) {
            (Some(b), Some(l)) if b >= l => {
                above.get_or_insert(f.text.clone());
                format!(
                    " = {}, at or above the limit {}: the heap alone can outgrow the container",
                    bytes_text(b),
                    limit.unwrap_or("")
                )
            }
            (Some(b), Some(l)) if b >= 0.75 * l => format!(
                " = {}, {:.0}% of the limit: heap plus the runtime's own memory (threads, metaspace, buffers) can pass it",
                bytes_text(b),
                100.0 * b / l
            ),
            _ => String::new(),
        };
        evidence.push(format!("{}: {}{cmp}", f.source, f.text));
    }
    if let Some(seen) = super::memory_usage::last_before_kill(inp, c, t) {
        evidence.push(format!("metrics.k8s.io: {seen}"));
    }
    if t.exit_code == 0 {
        evidence.push("exit code 0 with reason OOMKilled: the kernel killed a process of the container; it is still a failure".to_owned());
    }
    evidence.push(
        "the kernel kills without warning, so the logs end abruptly: no error in them is expected"
            .to_owned(),
    );
    let verb = match (limit, &above) {
        (Some(l), Some(flag)) => format!(
            "was OOMKilled (exit {}, reason OOMKilled){}: it used more than its memory limit {l}, and {flag} lets the heap alone grow past it",
            t.exit_code,
            after(t)
        ),
        (Some(l), None) => format!(
            "was OOMKilled (exit {}, reason OOMKilled){}: it used more than its memory limit {l}",
            t.exit_code,
            after(t)
        ),
        (None, _) => format!(
            "was OOMKilled (exit {}, reason OOMKilled){} with no memory limit: the node ran out of memory",
            t.exit_code,
            after(t)
        ),
    };
    let hint = match (limit, &above) {
        (Some(l), Some(flag)) => format!(
            "make them agree: lower {flag} to about 75% of the limit {l}, or raise limits.memory above the heap plus ~25% overhead"
        ),
        (Some(l), None) => format!(
            "raise limits.memory above {l} (and requests.memory with it), or find what grows: the memory use before the kill, a leak, a cache without bound"
        ),
        (None, _) => "set requests.memory and limits.memory to what the app needs, so the scheduler places it where the memory is".to_owned(),
    };
    Cause {
        rule: "oom-killed",
        verb,
        evidence,
        hint: Some(hint),
        quote_logs: true,
        ..Cause::default()
    }
}
