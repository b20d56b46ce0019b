//! Exit-code and signal rules on built pods: each code the runtime reports, with and without the
//! kubelet's Killing events, deletion and preemption, and the heap flag above a memory limit.

use crate::common;
use common::built::{crashlooping, diagnose, diagnose_with, event, first, pod, said};
use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::Severity;
use serde_json::json;

#[test]
fn exit_codes_name_their_meaning() {
    for (code, rule, words) in [
        (1, "app-exit", "code 1 (application error)"),
        (2, "app-exit", "code 2 (a bad flag or argument"),
        (3, "app-exit", "code 3 (set by the application)"),
        (
            126,
            "not-executable",
            "126 (command found but not executable)",
        ),
        (127, "command-not-found", "127 (command not found"),
        (134, "abort", "134 (SIGABRT)"),
        (139, "segfault", "139 (SIGSEGV)"),
        (130, "killed-by-signal", "SIGINT"),
    ] {
        let all = diagnose(&crashlooping("Error", code, 4), &[]);
        let f = first(&all);
        assert_eq!(
            (f.rule, f.severity),
            (rule, Severity::Error),
            "{code}: {}",
            said(f)
        );
        assert!(f.headline.contains(words), "{code}: {}", f.headline);
        assert!(
            f.headline
                .contains("4 restarts so far, in CrashLoopBackOff"),
            "{}",
            f.headline
        );
        assert!(f.headline.contains("60s after start"), "{}", f.headline);
        assert!(
            said(f).contains("back-off 40s, restart due since 11:59:40"),
            "{}",
            said(f)
        );
    }
}

#[test]
fn exit_1_quotes_the_termination_message_and_the_last_log_lines() {
    let mut p = crashlooping("Error", 1, 2);
    p["status"]["containerStatuses"][0]["lastState"]["terminated"]["message"] =
        json!("config.yaml: no such key \"port\"");
    let all = diagnose_with(
        &p,
        &[],
        Some(&["starting", "loading config", "fatal: missing port"]),
        OwnerStatus::Unknown,
    );
    let s = said(first(&all));
    assert!(
        s.contains("termination message): \"config.yaml: no such key \"port\"\""),
        "{s}"
    );
    assert!(
        s.contains("previous log, last 3 lines:") && s.contains("  fatal: missing port"),
        "{s}"
    );
    assert!(s.contains("no Unhealthy or Killing events"), "{s}");
}

#[test]
fn exit_127_takes_the_missing_program_from_the_log() {
    let mut p = crashlooping("Error", 127, 1);
    p["spec"]["containers"][0]["command"] = json!(["sh", "-c", "exec jq . /cfg"]);
    let all = diagnose_with(&p, &[], Some(&["sh: jq: not found"]), OwnerStatus::Unknown);
    let f = first(&all);
    assert!(
        f.headline.contains("`jq` is not in the image"),
        "{}",
        f.headline
    );
    assert!(
        said(f).contains("command: sh -c exec jq . /cfg"),
        "{}",
        said(f)
    );
}

#[test]
fn start_error_is_never_started_never_55_years() {
    let mut p = crashlooping("StartError", 128, 2);
    let t = &mut p["status"]["containerStatuses"][0]["lastState"]["terminated"];
    t["startedAt"] = json!("1970-01-01T00:00:00Z");
    t["message"] = json!("exec: \"serve\": executable file not found in $PATH: unknown");
    p["status"]["containerStatuses"][0]["state"] =
        json!({"waiting": {"reason": "RunContainerError"}});
    let all = diagnose(&p, &[]);
    let f = first(&all);
    assert_eq!(f.rule, "start-error");
    assert!(
        f.headline.contains("`serve` is not in the image's $PATH"),
        "{}",
        f.headline
    );
    assert!(
        !said(f).contains("55y") && said(f).contains("never"),
        "{}",
        said(f)
    );
}

#[test]
fn oom_with_a_heap_flag_above_the_limit() {
    let mut p = crashlooping("OOMKilled", 137, 3);
    p["spec"]["containers"][0]["resources"] =
        json!({"limits": {"memory": "1Gi"}, "requests": {"memory": "1Gi"}});
    p["spec"]["containers"][0]["env"] =
        json!([{"name": "JAVA_TOOL_OPTIONS", "value": "-Xms1g -Xmx2g"}]);
    let f = first(&diagnose(&p, &[])).clone();
    assert_eq!(f.rule, "oom-killed");
    assert!(
        f.headline.contains("memory limit 1Gi") && f.headline.contains("-Xmx2g"),
        "{}",
        f.headline
    );
    assert!(
        said(&f).contains("env JAVA_TOOL_OPTIONS: -Xmx2g = 2Gi"),
        "{}",
        said(&f)
    );
    // Without a limit the node ran out of memory.
    let p = crashlooping("OOMKilled", 137, 3);
    let f = first(&diagnose(&p, &[])).clone();
    assert!(f.headline.contains("no memory limit"), "{}", f.headline);
}

#[test]
fn an_init_container_oomkilled_with_exit_0_is_still_a_failure() {
    let mut p = pod();
    p["spec"]["initContainers"] =
        json!([{"name": "migrate", "image": "registry.example/migrate:1"}]);
    p["status"]["phase"] = json!("Pending");
    p["status"]["initContainerStatuses"] = json!([{
        "name": "migrate", "image": "registry.example/migrate:1", "imageID": "", "ready": false, "restartCount": 2,
        "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 20s restarting failed container=migrate pod=web_default(u-1)"}},
        "lastState": {"terminated": {"reason": "OOMKilled", "exitCode": 0, "startedAt": "2025-03-01T11:58:00Z", "finishedAt": "2025-03-01T11:58:30Z"}}
    }]);
    p["status"]["containerStatuses"][0]["state"] =
        json!({"waiting": {"reason": "PodInitializing"}});
    let f = first(&diagnose(&p, &[])).clone();
    assert_eq!(
        (f.rule, f.container.as_deref()),
        ("oom-killed", Some("migrate"))
    );
    assert!(
        f.headline.starts_with("init container 1/1 migrate"),
        "{}",
        f.headline
    );
    assert!(said(&f).contains("it is still a failure"), "{}", said(&f));
}

#[test]
fn sigkill_after_a_liveness_kill_and_the_grace_period() {
    let p = crashlooping("Error", 137, 5);
    let killing = event(
        "Killing",
        Some("app"),
        "Container app failed liveness probe, will be restarted",
        5,
        "2025-03-01T11:58:30Z",
    );
    let f = first(&diagnose(&p, &[killing])).clone();
    assert!(f.rule.starts_with("liveness"), "{}", f.rule);
    assert!(said(&f).contains("Killing 11:58:30 + 30s: it ignored SIGTERM and was SIGKILLed after terminationGracePeriodSeconds 30"), "{}", said(&f));
}

#[test]
fn a_liveness_kill_long_after_start_is_not_a_slow_start() {
    let mut p = crashlooping("Error", 143, 1);
    p["status"]["containerStatuses"][0]["lastState"]["terminated"]["startedAt"] =
        json!("2025-03-01T09:00:00Z");
    p["spec"]["containers"][0]["livenessProbe"] = json!({"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10, "failureThreshold": 3});
    let killing = event(
        "Killing",
        Some("app"),
        "Container app failed liveness probe, will be restarted",
        1,
        "2025-03-01T11:58:50Z",
    );
    let f = first(&diagnose(&p, &[killing])).clone();
    assert_eq!(f.rule, "liveness-kill", "{}", said(&f));
    assert!(
        f.action
            .as_deref()
            .unwrap_or("")
            .contains("stopped answering"),
        "{:?}",
        f.action
    );
}

#[test]
fn unexplained_signals_list_their_candidates() {
    let f = first(&diagnose(&crashlooping("Error", 137, 2), &[])).clone();
    assert_eq!(f.rule, "sigkill");
    assert!(
        f.action.as_deref().unwrap_or("").contains("candidates"),
        "{:?}",
        f.action
    );
    let f = first(&diagnose(&crashlooping("Error", 143, 2), &[])).clone();
    assert_eq!(f.rule, "sigterm");
    assert!(said(&f).contains("no Killing event"), "{}", said(&f));
}

#[test]
fn sigterm_from_deletion_or_preemption() {
    let mut p = crashlooping("Error", 143, 0);
    p["metadata"]["deletionTimestamp"] = json!("2025-03-01T12:00:20Z");
    let all = diagnose(&p, &[]);
    assert!(
        all.iter()
            .any(|f| f.rule == "stopped-by-deletion" && f.severity == Severity::Info),
        "{all:?}"
    );
    let mut p = crashlooping("Error", 143, 1);
    p["status"]["conditions"] = json!([{"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler", "message": "preempted by pod batch/big", "lastTransitionTime": "2025-03-01T11:58:59Z"}]);
    let f = first(&diagnose(&p, &[])).clone();
    assert_eq!(f.rule, "preempted");
    assert!(
        said(&f).contains("preempted by pod batch/big"),
        "{}",
        said(&f)
    );
}

#[test]
fn exit_0_under_restart_policy_always_is_a_restart_by_design() {
    let f = first(&diagnose(&crashlooping("Completed", 0, 6), &[])).clone();
    assert_eq!(f.rule, "completed-and-restarted");
    assert!(
        f.action.as_deref().unwrap_or("").contains("Job"),
        "{:?}",
        f.action
    );
}

#[test]
fn a_container_that_restarted_and_runs_again_is_a_warning() {
    let mut p = crashlooping("Error", 1, 3);
    p["status"]["containerStatuses"][0]["state"] =
        json!({"running": {"startedAt": "2025-03-01T11:59:10Z"}});
    p["status"]["containerStatuses"][0]["ready"] = json!(true);
    let f = first(&diagnose(&p, &[])).clone();
    assert_eq!((f.rule, f.severity), ("app-exit", Severity::Warning));
    assert!(
        f.headline.contains("restarted 3 times and runs again"),
        "{}",
        f.headline
    );
}

#[test]
fn a_healthy_pod_says_so_and_a_failed_one_never_restarts() {
    let f = first(&diagnose(&pod(), &[])).clone();
    assert_eq!((f.rule, f.severity), ("healthy", Severity::Info));
    assert_eq!(
        f.headline,
        "running and ready: 1/1 containers, no restarts in 60m"
    );
    let mut p = pod();
    p["spec"]["restartPolicy"] = json!("Never");
    p["status"]["phase"] = json!("Failed");
    p["status"]["containerStatuses"][0]["state"] = json!({"terminated": {"reason": "Error", "exitCode": 2, "startedAt": "2025-03-01T11:00:05Z", "finishedAt": "2025-03-01T11:00:07Z"}});
    p["status"]["containerStatuses"][0]["ready"] = json!(false);
    let f = first(&diagnose(&p, &[])).clone();
    assert!(
        f.headline
            .contains("will not be restarted (pod phase Failed, restartPolicy Never)"),
        "{}",
        f.headline
    );
    assert!(
        f.action
            .as_deref()
            .unwrap_or("")
            .contains("recreate the pod"),
        "{:?}",
        f.action
    );
}

#[test]
fn an_application_exit_quotes_its_last_words_and_the_env_value_they_name() {
    let mut p = crashlooping("Error", 1, 2);
    p["spec"]["containers"][0]["env"] = json!([{"name": "PORT", "value": "abc"}]);
    let log = ["2024/06/01 10:00:00 listen: listen tcp: lookup tcp/abc: unknown port"];
    let all = diagnose_with(&p, &[], Some(&log), OwnerStatus::Unknown);
    let f = first(&all);
    assert!(
        f.headline
            .contains(": \"listen: listen tcp: lookup tcp/abc: unknown port\""),
        "{}",
        f.headline
    );
    assert!(
        said(f).contains("the error names \"abc\": the value of env PORT"),
        "{}",
        said(f)
    );
    assert!(
        f.action
            .as_deref()
            .unwrap_or("")
            .starts_with("check env PORT=abc"),
        "{:?}",
        f.action
    );
    // The first line of the last run of errors, not the program giving up after it.
    let log = [
        "starting",
        "ERROR bad schema version 3",
        "ERROR Aborting",
        "shutdown complete",
    ];
    let f = first(&diagnose_with(
        &crashlooping("Error", 1, 1),
        &[],
        Some(&log),
        OwnerStatus::Unknown,
    ))
    .clone();
    assert!(
        f.headline.contains("\"ERROR bad schema version 3\""),
        "{}",
        f.headline
    );
    // A refusal in the termination message gives the access hint.
    let mut p = crashlooping("Error", 1, 1);
    p["status"]["containerStatuses"][0]["lastState"]["terminated"]["message"] =
        json!("GET /config: 403 Forbidden");
    let f = first(&diagnose(&p, &[])).clone();
    assert!(
        f.action.as_deref().unwrap_or("").contains("refused access"),
        "{:?}",
        f.action
    );
}
