//! The diagnosis of every real-world case in `assets/cases/`, at its snapshot time, with the
//! case's log files as the tails podscope reads: the first finding's rule, container and the
//! decisive words and values of its headline and evidence, each taken from the case's
//! expected.md ("What a good tool should present") and its pod.json / events.json.

use crate::common;
use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::Severity;

use common::diagnosis::{diagnosis, text};

/// Asserts the first finding of `case`: rule, severity, container, and that each of `words`
/// occurs in its headline, evidence or hint; `in_headline` words must be in the headline.
fn check(
    case: &str,
    rule: &str,
    severity: Severity,
    container: Option<&str>,
    in_headline: &[&str],
    words: &[&str],
) {
    let all = diagnosis(case, OwnerStatus::Gone);
    let first = all.first().unwrap_or_else(|| panic!("{case}: no finding"));
    let dump = all.iter().map(text).collect::<Vec<_>>().join("\n----\n");
    assert_eq!(first.rule, rule, "{case}: first rule\n{dump}");
    assert_eq!(first.severity, severity, "{case}: severity\n{dump}");
    assert_eq!(
        first.container.as_deref(),
        container,
        "{case}: container\n{dump}"
    );
    for w in in_headline {
        assert!(
            first.headline.contains(w),
            "{case}: headline lacks {w:?}\n{dump}"
        );
    }
    let t = text(first);
    for w in words {
        assert!(t.contains(w), "{case}: finding lacks {w:?}\n{dump}");
    }
}

#[test]
fn case_01_exit_1_with_the_data_directory_on_a_pvc() {
    check(
        "01-crashloop-exit1-db",
        "app-exit",
        Severity::Error,
        Some("db"),
        &[
            "db",
            "code 1",
            "6s",
            "No data dictionary version number found",
            "2 restarts",
            "CrashLoopBackOff",
        ],
        &[
            "Data Dictionary initialization failed",
            "metrics-db-data",
            "no Unhealthy or Killing events",
            "back-off 20s",
            "09:41:10",
        ],
    );
}

#[test]
fn case_02_exit_127_names_the_missing_program_and_the_command() {
    check(
        "02-crashloop-exit127-metrics-sidecar",
        "command-not-found",
        Severity::Error,
        Some("metrics"),
        &["metrics", "127", "command not found", "metrics_exporter"],
        &["command: /bin/bash -c", "back-off 5m0s", "14:17:45"],
    );
}

#[test]
fn case_03_start_error_is_never_started_and_a_static_pod() {
    check(
        "03-runcontainererror-starterror-exit128",
        "start-error",
        Severity::Error,
        Some("edge-agent"),
        &["edge-agnet", "$PATH", "128"],
        &["never", "static pod", "manifest"],
    );
    let all = diagnosis(
        "03-runcontainererror-starterror-exit128",
        OwnerStatus::Unknown,
    );
    assert!(!text(&all[0]).contains("55y"), "no run time of 55 years");
}

#[test]
fn case_04_oom_names_the_limit_and_the_heap_flag() {
    check(
        "04-crashloop-oomkilled-jvm",
        "oom-killed",
        Severity::Error,
        Some("coord"),
        &[
            "coord",
            "OOMKilled",
            "137",
            "512Mi",
            "-Xmx768m",
            "5 restarts",
        ],
        &["abruptly", "07:21:45"],
    );
}

#[test]
fn case_07_liveness_kills_a_slow_start() {
    check(
        "07-liveness-kills-slow-start-exit143",
        "liveness-kills-slow-start",
        Severity::Error,
        Some("db"),
        &[
            "db",
            "liveness",
            "before it finishes starting",
            "143",
            "not an application crash",
        ],
        &[
            "failed liveness probe",
            "58s",
            "initialDelaySeconds 30",
            "failureThreshold 3",
            "periodSeconds 10",
            "startupProbe",
            "from scratch",
            "08:09:48",
        ],
    );
}

#[test]
fn case_08_init_container_termination_message_is_the_diagnosis() {
    check(
        "08-init-crashloop-exit1-termination-message",
        "app-exit",
        Severity::Error,
        Some("fetch-config"),
        &[
            "init container 1/1 fetch-config",
            "code 1",
            "statusCode=403",
            "16 restarts",
        ],
        &[
            "statusCode=403",
            "-c fetch-config",
            "PodInitializing",
            "08:25:35",
        ],
    );
}

#[test]
fn case_09_init_step_1_of_2_misses_git() {
    check(
        "09-init-error-exit127-tool-missing",
        "command-not-found",
        Severity::Error,
        Some("clone-repo"),
        &["init container 1/2 clone-repo", "127", "git"],
        &[
            "2/2 wait-db not started",
            "site not started",
            "registry.example/busybox:1.36",
        ],
    );
}

#[test]
fn case_10_init_failure_under_restart_policy_never_is_terminal() {
    check(
        "10-init-error-restartpolicy-never-failed",
        "app-exit",
        Severity::Error,
        Some("check-schema"),
        &["check-schema", "code 1", "will not be restarted", "Never"],
        &["nothing will retry it", "recreate the pod"],
    );
    let all = diagnosis(
        "10-init-error-restartpolicy-never-failed",
        OwnerStatus::Unknown,
    );
    assert!(
        !all.iter().any(|f| text(f).contains("CrashLoopBackOff:")),
        "no countdown"
    );
}

#[test]
fn case_12_job_with_a_native_sidecar_completed() {
    check(
        "12-native-sidecar-job-completed",
        "completed",
        Severity::Info,
        Some("export"),
        &["Job", "completed successfully", "export exited 0 after 91s"],
        &["sidecar log-shipper exit 137", "expected"],
    );
}

#[test]
fn case_19_running_but_not_ready_connection_refused() {
    check(
        "19-readiness-failing-running-0of1",
        "readiness-failing",
        Severity::Warning,
        Some("profiler"),
        &["profiler", "not ready", "connection refused", "4040"],
        &[
            "never restarts",
            "127.0.0.1",
            "0.0.0.0",
            "kills it between 09:04:34 and 09:04:44",
        ],
    );
}

#[test]
fn case_20_the_classic_sidecar_is_not_ready_the_app_is() {
    check(
        "20-readiness-sidecar-not-ready-1of2",
        "readiness-failing",
        Severity::Warning,
        Some("mesh-proxy"),
        &["mesh-proxy", "not ready", "503", "echo is ready"],
        &[
            "log mesh-proxy (current)",
            "failed to fetch workload certificate from the CA",
        ],
    );
}

#[test]
fn case_26_job_pod_completed_after_4m57s() {
    check(
        "26-job-pod-completed",
        "completed",
        Severity::Info,
        Some("trainer"),
        &[
            "completed successfully",
            "trainer exited 0 after 4m57s",
            "READY 0/1 is normal",
        ],
        &["Completed"],
    );
}

#[test]
fn case_29_a_restarting_container_beside_one_without_previous_logs() {
    check(
        "29-logs-previous-not-found-one-container",
        "app-exit",
        Severity::Warning,
        Some("flaky"),
        &["flaky", "restarted 3 times", "code 1"],
        &["10:09:41", "steady never restarted", "no previous logs"],
    );
}

#[test]
fn healthy_cases_say_running_and_ready() {
    for case in [
        "30-exec-distroless-no-shell",
        "31-portforward-nothing-listening",
        "32-portforward-pod-does-not-exist-wrong-node-ip",
    ] {
        check(
            case,
            "healthy",
            Severity::Info,
            None,
            &["running and ready: 1/1 containers, no restarts"],
            &[],
        );
    }
}

#[test]
fn every_case_is_diagnosed_with_sanitised_bounded_text() {
    for dir in common::cluster::case_dirs() {
        let case = common::cluster::case_name(&dir);
        let all = diagnosis(&case, OwnerStatus::Unknown);
        assert!(!all.is_empty(), "{case}: no finding");
        for f in &all {
            for s in std::iter::once(f.headline.as_str())
                .chain(f.evidence.iter().map(|e| e.text.as_str()))
                .chain(f.action.as_deref())
            {
                assert!(
                    !s.chars().any(|c| c.is_control()),
                    "{case}: control character in {s:?}"
                );
                assert!(s.len() <= 4096 + 32, "{case}: unbounded text");
            }
        }
    }
}
