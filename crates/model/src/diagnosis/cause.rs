//! What one terminated container instance means: the exit code, signal and reason read with the
//! spec, the events and the last log lines (`docs/diagnosis.md` "Exit codes and signals").

use std::sync::LazyLock;

use jiff::Timestamp;
use regex::Regex;

use super::facts::{self, took};
use super::kill;
use super::memory;
use super::{Inputs, ObjectRef, Severity};
use crate::pod::{ContainerState, ContainerSummary, Terminated};
use crate::signal::signal_name;

/// The meaning of one terminated instance.
#[derive(Debug, Clone, Default)]
pub struct Cause {
    /// The rule id (`app-exit`, `command-not-found`, `oom-killed`, `liveness-kill` …).
    pub rule: &'static str,
    /// The predicate of the headline after the container's name, including the exit code and
    /// how long it ran: `exits with code 1 (application error) 6s after start`.
    pub verb: String,
    /// Facts beyond the terminated state itself.
    pub evidence: Vec<String>,
    /// The next step.
    pub hint: Option<String>,
    /// Whether the dead instance's last log lines explain it (not for a process that never
    /// started, or one killed from outside).
    pub quote_logs: bool,
    /// Objects a GET could confirm (a PVC the container keeps its data on).
    pub checks: Vec<ObjectRef>,
    /// A severity other than the situation's (an expected stop is `Info`).
    pub severity: Option<Severity>,
}

/// `" 6s after start"` when the instance ran, empty when it never started (`startedAt` 1970).
#[must_use]
pub fn after(t: &Terminated) -> String {
    match (t.started_at, t.finished_at) {
        (Some(s), Some(e)) if s != Timestamp::UNIX_EPOCH => {
            let d = e.duration_since(s);
            if d.as_secs() < 1 {
                " immediately after start".to_owned()
            } else {
                format!(" {} after start", took(d))
            }
        }
        _ => String::new(),
    }
}

/// Classifies `t`, an instance of `c`: never started (`StartError`, 128), OOM, signals (with
/// the kubelet's Killing events, deletion and preemption), 126, 127, 0, other codes.
#[must_use]
pub fn classify(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> Cause {
    if t.reason == "OOMKilled" {
        return memory::oom(inp, c, t);
    }
    if t.reason == "ContainerStatusUnknown" {
        return Cause {
            rule: "container-status-unknown",
            verb: format!(
                "was lost: the kubelet could not find it when the pod stopped (exit {} reported, reason ContainerStatusUnknown)",
                t.exit_code
            ),
            evidence: vec!["the exit code is the kubelet's stand-in, not the process's: its real end is unknown".to_owned()],
            hint: Some("look at the pod's status.reason and events (eviction, node restart) for what stopped it".to_owned()),
            ..Cause::default()
        };
    }
    let never_started = t.started_at == Some(Timestamp::UNIX_EPOCH)
        || t.reason == "StartError"
        || (t.exit_code == 128 && t.reason != "Error");
    if never_started {
        return start_error(inp, c, t);
    }
    if signal_name(t.exit_code).is_some() && matches!(t.exit_code, 137 | 143 | 129 | 130 | 131)
        || kill::probe_killed(inp, c, t)
    {
        return kill::by_signal(inp, c, t);
    }
    let code = t.exit_code;
    let mut cause = match code {
        0 => completed(inp, c, t),
        126 => Cause {
            rule: "not-executable",
            verb: format!("exits with code 126 (command found but not executable){}", after(t)),
            hint: Some("the entrypoint is not executable: check its permissions (chmod +x in the image), that it is a binary for the node's architecture (exec format error), or a script with a valid #! line".to_owned()),
            ..Cause::default()
        },
        127 => not_found(inp, c, t),
        139 => Cause {
            rule: "segfault",
            verb: format!("crashes with a segmentation fault: exit 139 (SIGSEGV){}", after(t)),
            hint: Some("a crash in native code: check the image is built for this node's CPU and libc, and the process's core dump or last log lines".to_owned()),
            ..Cause::default()
        },
        134 => Cause {
            rule: "abort",
            verb: format!("aborts: exit 134 (SIGABRT){}", after(t)),
            hint: Some("the process called abort(): a failed assertion, a runtime's fatal error or a memory-allocator check; its last log lines say which".to_owned()),
            ..Cause::default()
        },
        c if c > 128 && signal_name(c).is_some() => Cause {
            rule: "killed-by-signal",
            verb: format!(
                "is killed by {}: exit {code}{}",
                signal_name(c).unwrap_or("a signal"),
                after(t)
            ),
            ..Cause::default()
        },
        1 => Cause {
            rule: "app-exit",
            verb: format!("exits with code 1 (application error){}", after(t)),
            hint: Some("the application stopped itself: its last log lines and termination message say why".to_owned()),
            ..Cause::default()
        },
        2 if go_panic(inp, c) => Cause {
            rule: "go-panic",
            verb: format!("panics: exit 2 (the Go runtime's exit code after an unrecovered panic){}", after(t)),
            hint: Some("the panic line and the first frame of the goroutine that panicked name the failing code; the value it met (a nil pointer, a missing setting) usually comes from the environment: compare the env vars and files the program reads with what it expects".to_owned()),
            ..Cause::default()
        },
        2 => Cause {
            rule: "app-exit",
            verb: format!("exits with code 2 (a bad flag or argument for most programs and shells){}", after(t)),
            hint: Some("exit 2 is what most programs and shells return for a bad flag or argument: compare the command line with the program's usage".to_owned()),
            ..Cause::default()
        },
        _ => Cause {
            rule: "app-exit",
            verb: format!("exits with code {code} (set by the application){}", after(t)),
            hint: Some("the meaning of this code is the application's: see its documentation and last log lines".to_owned()),
            ..Cause::default()
        },
    };
    cause.quote_logs = true;
    if code != 0 {
        cause.evidence.extend(probes_not_involved(inp, c));
        cause.evidence.extend(command_line(c));
        let (lines, checks) = persistent_volumes(inp, c);
        cause.evidence.extend(lines);
        cause.checks.extend(checks);
    }
    cause
}

/// `command: /bin/bash -c metrics_exporter …` when the spec sets one.
fn command_line(c: &ContainerSummary) -> Option<String> {
    (!c.command.is_empty()).then(|| format!("command: {}", c.command.join(" ")))
}

/// The note that probes did not stop it: no `Unhealthy` or `Killing` events about `c`.
fn probes_not_involved(inp: &Inputs<'_>, c: &ContainerSummary) -> Option<String> {
    let any = inp
        .events_of(&c.name)
        .any(|e| e.reason == "Unhealthy" || e.reason == "Killing");
    (!any).then(|| {
        "no Unhealthy or Killing events about it: the process ended by itself, probes did not stop it".to_owned()
    })
}

/// The PersistentVolumeClaims `c` mounts: their data survive restarts and pod deletion, so a
/// crash caused by what is on them repeats (case 01).
fn persistent_volumes(inp: &Inputs<'_>, c: &ContainerSummary) -> (Vec<String>, Vec<ObjectRef>) {
    let Some(spec) = facts::spec_of(inp.pod, &c.name) else {
        return (Vec::new(), Vec::new());
    };
    let mut lines = Vec::new();
    let mut checks = Vec::new();
    for m in spec.volume_mounts.iter().flatten() {
        let claim = inp
            .pod
            .spec
            .volumes
            .iter()
            .flatten()
            .find(|v| v.name == m.name)
            .and_then(|v| v.persistent_volume_claim.as_ref());
        if let Some(pvc) = claim {
            lines.push(format!(
                "mounts PersistentVolumeClaim {} at {}: what is on it survives restarts and pod deletion, so deleting the pod will not help if the data is the problem",
                pvc.claim_name, m.mount_path
            ));
            checks.push(ObjectRef::PersistentVolumeClaim(pvc.claim_name.clone()));
        }
    }
    (lines, checks)
}

/// Exit 0: a process that finished. Under `restartPolicy: Always` the kubelet restarts it
/// anyway, which is a crash loop by design.
fn completed(inp: &Inputs<'_>, _c: &ContainerSummary, t: &Terminated) -> Cause {
    Cause {
        rule: "completed-and-restarted",
        verb: format!(
            "exits with code 0 (finished successfully){} and restartPolicy {} starts it again",
            after(t),
            inp.pod.restart_policy
        ),
        evidence: vec![
            "exit 0 is success: the process did its work and ended; the kubelet restarts every main container of a restartPolicy Always pod whatever its exit code".to_owned(),
        ],
        hint: Some(
            "a task that runs to completion belongs in a Job (restartPolicy OnFailure or Never); a server must stay in the foreground (no daemonising, no `&` at the end of the command)".to_owned(),
        ),
        ..Cause::default()
    }
}

static MISSING_COMMAND: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?:^|[\s:])([^\s:"']+): (?:command )?not found|exec: "([^"]+)": executable file not found|exec ([^\s:]+): no such file"#).ok()
});

/// The program a shell or runtime could not find, from a log line or message.
fn missing_program(text: &str) -> Option<String> {
    let re = MISSING_COMMAND.as_ref()?;
    let caps = re.captures(text)?;
    caps.iter()
        .skip(1)
        .flatten()
        .next()
        .map(|m| m.as_str().to_owned())
}

/// Exit 127: the shell could not find the program.
fn not_found(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> Cause {
    let from_log = facts::previous_tail(inp, &c.name, 5)
        .into_iter()
        .flatten()
        .chain(current_tail(inp, c))
        .rev()
        .find_map(|l| missing_program(l));
    let program = from_log.or_else(|| t.message.as_deref().and_then(missing_program));
    let what = program
        .as_ref()
        .map_or_else(String::new, |p| format!(": `{p}` is not in the image"));
    Cause {
        rule: "command-not-found",
        verb: format!("exits with code 127 (command not found{what}){}", after(t)),
        evidence: vec![format!("image: {}", c.image)],
        hint: Some(match &program {
            Some(p) => format!(
                "the image {} has no `{p}` on its PATH: fix the command, or use an image that contains it",
                c.image
            ),
            None => format!(
                "a program in the command is not in the image {}: check the command line against the image's PATH",
                c.image
            ),
        }),
        ..Cause::default()
    }
}

fn current_tail<'a>(
    inp: &Inputs<'a>,
    c: &ContainerSummary,
) -> impl DoubleEndedIterator<Item = &'a String> {
    inp.logs
        .current
        .get(&c.name)
        .and_then(|t| t.lines.as_ref().ok())
        .into_iter()
        .flatten()
}

/// The runtime could not start the process: exit 128 / `StartError` / `RunContainerError`.
fn start_error(inp: &Inputs<'_>, c: &ContainerSummary, t: &Terminated) -> Cause {
    let waiting = match &c.state {
        ContainerState::Waiting { message, .. } => message.as_deref(),
        _ => None,
    };
    let event = inp.events_of(&c.name).find(|e| {
        e.reason == "Failed" && e.message.contains("runtime") || e.message.contains("exec")
    });
    let text = t
        .message
        .as_deref()
        .or(waiting)
        .or(event.map(|e| e.message.as_str()))
        .unwrap_or("");
    let (what, hint) = if let Some(p) = missing_program(text) {
        (
            format!("executable `{p}` is not in the image's $PATH"),
            format!(
                "fix the command (a typo?) or the image: `{p}` does not exist in {}",
                c.image
            ),
        )
    } else if text.contains("permission denied") {
        ("the entrypoint is not executable (permission denied)".to_owned(), "make the entrypoint executable in the image (chmod +x) or run it through its interpreter".to_owned())
    } else if text.contains("exec format error") {
        (
            "the entrypoint is built for another CPU architecture (exec format error)".to_owned(),
            "use an image built for this node's architecture (a multi-arch image)".to_owned(),
        )
    } else if text.contains("no such file or directory") {
        (
            "a path it needs does not exist in the image (no such file or directory)".to_owned(),
            "check the command's path and the working directory against the image".to_owned(),
        )
    } else {
        (
            "the container runtime could not start the process".to_owned(),
            "read the runtime's message below; the process never ran, so there are no logs"
                .to_owned(),
        )
    };
    let mut evidence = Vec::new();
    if !text.is_empty() {
        evidence.push(format!("runtime: \"{}\"", text.trim()));
    }
    if let Some(e) = event {
        evidence.push(facts::event_line(e, inp.now));
    }
    evidence.extend(command_line(c));
    evidence.push(
        "it never ran (startedAt 1970-01-01 is the runtime's \"never\"), so it wrote no logs"
            .to_owned(),
    );
    let mut hint = hint;
    if matches!(inp.pod.config_source.as_deref(), Some("file" | "http")) {
        evidence.push(format!(
            "static pod (kubernetes.io/config.source: {}): the API object is only a mirror of the kubelet's manifest",
            inp.pod.config_source.as_deref().unwrap_or("")
        ));
        hint.push_str("; this is a static pod: edit its manifest on the node (usually /etc/kubernetes/manifests/), deleting the mirror pod will not help");
    }
    Cause {
        rule: "start-error",
        verb: format!(
            "cannot start: {what} (exit {}, reason {})",
            t.exit_code,
            if t.reason.is_empty() {
                "<none>"
            } else {
                &t.reason
            }
        ),
        evidence,
        hint: Some(hint),
        ..Cause::default()
    }
}

/// Whether the dead instance of `c` printed a Go panic (`panic: …` then `goroutine N [running]:`):
/// the Go runtime exits 2 after an unrecovered panic, so exit 2 is not a usage error then.
fn go_panic(inp: &Inputs<'_>, c: &ContainerSummary) -> bool {
    let Some(tail) = super::facts::previous_tail(inp, &c.name, 200) else {
        return false;
    };
    let panic = tail.iter().any(|l| l.trim_start().starts_with("panic: "));
    let goroutine = tail
        .iter()
        .any(|l| l.starts_with("goroutine ") && l.contains('['));
    panic && goroutine
}
