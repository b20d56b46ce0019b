//! The consistency invariants (`crates/model/src/diagnosis/consistency.rs`) over every case of the
//! corpus: no finding shown contradicts the evidence on the same screen. And the pass itself:
//! findings written to break each invariant come out rewritten or dropped.

use crate::common;
use std::path::Path;

use podscope::model::deletion::OwnerStatus;
use podscope::model::diagnosis::consistency::{enforce, violations};
use podscope::model::diagnosis::{Finding, Inputs, LogTails, Related, Severity};
use podscope::model::event::sort_newest_first;

fn all_cases() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/cases");
    let mut out: Vec<String> = std::fs::read_dir(&root)
        .expect("assets/cases")
        .flatten()
        .filter(|e| e.path().join("pod.json").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

#[test]
fn no_case_breaks_an_invariant() {
    let cases = all_cases();
    assert!(cases.len() >= 26, "{} cases", cases.len());
    let mut broken = Vec::new();
    for case in &cases {
        let pod = common::cases::pod(case);
        let mut events = common::cases::events(case);
        sort_newest_first(&mut events);
        let logs = common::diagnosis::tails(case);
        let related = common::diagnosis::related(case);
        let owner = OwnerStatus::Unknown;
        let inp = Inputs::new(
            &pod,
            &events,
            &logs,
            &related,
            &owner,
            common::cases::expected(case).now,
        );
        let findings = podscope::model::diagnosis::diagnose(&inp);
        for v in violations(&inp, &findings) {
            broken.push(format!(
                "{case}: {} in {}: {}",
                v.invariant, v.rule, v.detail
            ));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The pass on findings that break the invariants, against case 17's pod (its container never
/// started: CreateContainerConfigError) and case 04's (crash-looping, no logs given here).
#[test]
fn the_pass_rewrites_what_contradicts_the_evidence() {
    let case = "17-createcontainerconfigerror-configmap";
    let pod = common::cases::pod(case);
    let events = common::cases::events(case);
    let logs = LogTails::default();
    let related = Related::new();
    let owner = OwnerStatus::Unknown;
    let inp = Inputs::new(
        &pod,
        &events,
        &logs,
        &related,
        &owner,
        common::cases::expected(case).now,
    );
    let c = pod.containers[0].name.as_str();
    let bad = vec![
        Finding::new(
            "app-exit",
            Severity::Error,
            Some(c),
            format!("container {c} FAILING: application error, the last log lines say why"),
        )
        .action(format!("kubectl logs {} -c {c} --previous", pod.name)),
        Finding::new(
            "probe-no-readiness",
            Severity::Warning,
            Some(c),
            "no readiness probe",
        ),
    ];
    let before = violations(&inp, &bad);
    let names: Vec<&str> = before.iter().map(|v| v.invariant).collect();
    for want in ["log-quoted", "never-started", "advice-last"] {
        assert!(names.contains(&want), "{want} not detected: {before:?}");
    }
    let after = enforce(&inp, bad);
    assert!(violations(&inp, &after).is_empty(), "{after:?}");
    assert_eq!(
        after.len(),
        1,
        "the probe advice is dropped beside a failure"
    );
    assert!(
        !after[0].headline.contains("FAILING"),
        "{}",
        after[0].headline
    );
    assert!(
        !after[0].headline.contains("log lines say"),
        "{}",
        after[0].headline
    );
    assert!(
        !after[0]
            .action
            .as_deref()
            .unwrap_or("")
            .contains("kubectl logs"),
        "{:?}",
        after[0].action
    );
}

#[test]
fn a_probe_action_below_the_observed_start_is_raised_to_cover_it() {
    let case = "07-liveness-kills-slow-start-exit143";
    let pod = common::cases::pod(case);
    let events = common::cases::events(case);
    let logs = LogTails::default();
    let related = Related::new();
    let owner = OwnerStatus::Unknown;
    let inp = Inputs::new(
        &pod,
        &events,
        &logs,
        &related,
        &owner,
        common::cases::expected(case).now,
    );
    let c = pod
        .containers
        .iter()
        .find(|c| c.last_state.is_some())
        .expect("a restarted container");
    let t = c.last_state.as_ref().expect("lastState");
    let ran = t
        .finished_at
        .zip(t.started_at)
        .map(|(f, s)| f.duration_since(s).as_secs())
        .expect("times");
    let bad = vec![
        Finding::new(
            "liveness-kills-slow-start",
            Severity::Error,
            Some(&c.name),
            "killed by its liveness probe",
        )
        .action("add a startupProbe with failureThreshold × periodSeconds ≥ 10s"),
    ];
    assert_eq!(violations(&inp, &bad)[0].invariant, "probe-covers-start");
    let after = enforce(&inp, bad);
    let action = after[0].action.clone().unwrap_or_default();
    assert!(
        action.contains(&format!("≥ {}", ran * 3 / 2)),
        "{action} (ran {ran}s)"
    );
    assert!(violations(&inp, &after).is_empty());
}
