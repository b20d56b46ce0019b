//! How a line of evidence in the engine's style is read (`Evidence::classify`) and how an
//! indented line continues the fact above it (`EvidenceList::push`). The lines are the ones
//! the diagnosis printed for case 84 (`84-app-crashloop-mesh-proxy-not-ready`) and case 07.

use podscope_model::diagnosis::{Evidence, EvidenceKind, EvidenceList};

#[test]
fn a_line_is_classified_by_the_words_before_its_first_colon() {
    let cases = [
        (
            "event Unhealthy (×205, last at 09:06:54): \"Readiness probe failed: HTTP probe failed with statuscode: 503\"",
            EvidenceKind::Event,
            "event Unhealthy",
        ),
        (
            "previous log, last 5 lines:",
            EvidenceKind::Log,
            "previous log, last 5 lines",
        ),
        (
            "no Unhealthy or Killing events about it: the process ended by itself, probes did not stop it",
            EvidenceKind::Absence,
            "no Unhealthy or Killing events about it",
        ),
        (
            "readinessProbe: http-get :15021/healthz/ready initialDelaySeconds 1 periodSeconds 2",
            EvidenceKind::Spec,
            "readinessProbe",
        ),
        (
            "lastState.terminated: reason Error, exitCode 2, started 09:05:20, finished 09:05:20 (ran 0s)",
            EvidenceKind::Field,
            "lastState.terminated",
        ),
        // "logs " (the logs of something) is not a log line.
        (
            "container istio-proxy never restarted: it has no previous logs (kubectl logs --previous)",
            EvidenceKind::Field,
            "container istio-proxy never restarted",
        ),
        // ASCII case is ignored.
        (
            "SecurityContext: runAsNonRoot true",
            EvidenceKind::Spec,
            "SecurityContext",
        ),
    ];
    for (text, kind, source) in cases {
        let e = Evidence::classify(text.to_owned());
        assert_eq!((e.kind, &*e.source), (kind, source), "{text}");
        assert_eq!(e.text, text);
    }
}

#[test]
fn an_indented_line_continues_the_fact_above_it() {
    let mut list = EvidenceList::default();
    list.push("previous log, last 2 lines:");
    list.extend(["  goroutine 1 [running]:", "  main.main()"]);
    list.push("CrashLoopBackOff: back-off 5m0s, next restart at 09:10:20 (in 205s)");
    let seen: Vec<(EvidenceKind, &str)> = list.iter().map(|e| (e.kind, &*e.source)).collect();
    assert_eq!(
        seen,
        [
            (EvidenceKind::Log, "previous log, last 2 lines"),
            (EvidenceKind::Log, "previous log, last 2 lines"),
            (EvidenceKind::Log, "previous log, last 2 lines"),
            (EvidenceKind::Field, "CrashLoopBackOff"),
        ]
    );
    // With nothing above it, an indented line is read on its own.
    let mut alone = EvidenceList::default();
    alone.push("  goroutine 1 [running]:");
    assert_eq!(alone[0].kind, EvidenceKind::Field);
    assert_eq!(alone[0].source, "goroutine 1 [running]");
    // Inserted after a fact, it continues that fact.
    alone.insert(
        0,
        "event BackOff (×3): \"Back-off restarting failed container\"",
    );
    alone.insert(1, "  a second line");
    assert_eq!(alone[1].kind, EvidenceKind::Event);
    assert_eq!(alone[1].source, "event BackOff");
}
