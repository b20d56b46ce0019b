//! The rollout findings, given the pod's Deployment: the new ReplicaSet's pods crash while the
//! old ones are healthy, and `ProgressDeadlineExceeded`.

use crate::workload_support;
use jiff::Timestamp;
use podscope_model::deletion::OwnerStatus;
use podscope_model::diagnosis::{Inputs, LogTails, Related, diagnose};
use podscope_model::workload::summary::from_deployment;
use serde_json::json;
use workload_support::{deployment, pod, replica_set, running};

fn now() -> Timestamp {
    "2024-06-03T07:30:00Z".parse().expect("time")
}

fn crash_loop() -> serde_json::Value {
    json!({"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 40s restarting failed container"}})
}

#[test]
fn the_new_replica_sets_crashing_pod_names_the_change_and_the_undo() {
    let status = json!({
        "replicas": 5, "readyReplicas": 3, "updatedReplicas": 2,
        "conditions": [{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
                        "message": "ReplicaSet \"web-6c8f9\" has timed out progressing."}]
    });
    let sets = [
        replica_set("7d9f8", 2, "1.0", "8080", 3, 3),
        replica_set("6c8f9", 3, "1.1", "abc", 2, 0),
    ];
    // Only PORT changes in this rollout.
    let mut sets = sets;
    sets[0] = {
        let mut rs = sets[0].clone();
        if let Some(t) = rs.spec.template.as_mut()
            && let Some(spec) = t.spec.as_mut()
        {
            spec.containers[0].image = Some("ghcr.io/example/hello:1.1".into());
        }
        rs
    };
    let summary = from_deployment(&deployment(status), &sets);
    let mut p = pod(
        "web-6c8f9-abcde",
        "6c8f9",
        20,
        "Running",
        crash_loop(),
        false,
    );
    if let Some(c) = p.pod.containers.first_mut() {
        c.last_state = Some(podscope_model::Terminated {
            reason: "Error".into(),
            exit_code: 1,
            ..Default::default()
        });
    }
    let (events, logs, related) = (Vec::new(), LogTails::default(), Related::new());
    let inputs = Inputs::new(
        &p.pod,
        &events,
        &logs,
        &related,
        &OwnerStatus::Unknown,
        now(),
    )
    .with_workload(Some(&summary));
    let findings = diagnose(&inputs);
    let f = &findings[0];
    assert_eq!(f.rule, "rollout-new-pods-fail");
    assert_eq!(
        f.headline,
        "the new ReplicaSet's pods crash with exit 1 since PORT changed to \"abc\"; the old \
         ReplicaSet's pods are healthy"
    );
    assert_eq!(
        f.evidence
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>(),
        [
            "ReplicaSet web-6c8f9 (new, revision 3): 0/2 ready",
            "ReplicaSet web-7d9f8 (old, revision 2): 3/3 ready",
            "template change: hello: env PORT 8080 → abc",
        ]
    );
    assert!(
        f.action
            .as_deref()
            .is_some_and(|h| h.contains("kubectl rollout undo deploy/web"))
    );
    let deadline = findings
        .iter()
        .find(|f| f.rule == "rollout-deadline-exceeded")
        .expect("deadline finding");
    assert_eq!(
        deadline.headline,
        "the rollout of deploy/web exceeded its progress deadline: ReplicaSet \"web-6c8f9\" has \
         timed out progressing."
    );
    // Without the workload, neither rule speaks.
    let alone = diagnose(&Inputs::new(
        &p.pod,
        &events,
        &logs,
        &related,
        &OwnerStatus::Unknown,
        now(),
    ));
    assert!(
        alone.iter().all(|f| !f.rule.starts_with("rollout-")),
        "{alone:?}"
    );
}

#[test]
fn the_change_the_crash_names_is_the_suspect() {
    let sets = [
        replica_set("7d9f8", 2, "1.0", "8080", 3, 3),
        replica_set("6c8f9", 3, "1.1", "abc", 1, 0),
    ];
    let summary = from_deployment(&deployment(json!({})), &sets);
    let p = pod("web-6c8f9-a", "6c8f9", 20, "Running", crash_loop(), false);
    let mut logs = LogTails::default();
    logs.previous.insert(
        "hello".into(),
        podscope_model::diagnosis::LogTail::new(
            3,
            Ok(vec![
                "listen: listen tcp: lookup tcp/abc: unknown port".into(),
            ]),
        ),
    );
    let (events, related) = (Vec::new(), Related::new());
    let inputs = Inputs::new(
        &p.pod,
        &events,
        &logs,
        &related,
        &OwnerStatus::Unknown,
        now(),
    )
    .with_workload(Some(&summary));
    let f = diagnose(&inputs).remove(0);
    assert_eq!(
        f.headline,
        "the new ReplicaSet's pods fail (CrashLoopBackOff) since PORT changed to \"abc\" (and 1 \
         more change); the old ReplicaSet's pods are healthy"
    );
    // Without a log naming it, two changes are just "the template".
    let bare = LogTails::default();
    let inputs = Inputs::new(
        &p.pod,
        &events,
        &bare,
        &related,
        &OwnerStatus::Unknown,
        now(),
    )
    .with_workload(Some(&summary));
    assert!(
        diagnose(&inputs)[0]
            .headline
            .contains("since the template changed;")
    );
}

#[test]
fn an_old_pod_or_unhealthy_old_replica_set_is_not_blamed_on_the_rollout() {
    let sets = [
        replica_set("7d9f8", 2, "1.0", "8080", 3, 2),
        replica_set("6c8f9", 3, "1.1", "abc", 2, 0),
    ];
    let summary = from_deployment(&deployment(json!({})), &sets);
    let (events, logs, related) = (Vec::new(), LogTails::default(), Related::new());
    let new_pod = pod("web-6c8f9-a", "6c8f9", 20, "Running", crash_loop(), false);
    let old_pod = pod("web-7d9f8-a", "7d9f8", 20, "Running", running(), true);
    for p in [&new_pod, &old_pod] {
        let inputs = Inputs::new(
            &p.pod,
            &events,
            &logs,
            &related,
            &OwnerStatus::Unknown,
            now(),
        )
        .with_workload(Some(&summary));
        assert!(
            diagnose(&inputs)
                .iter()
                .all(|f| f.rule != "rollout-new-pods-fail")
        );
    }
}

/// The findings for a crash-looping pod of `sets`' new ReplicaSet `hash`.
fn rollout_findings(
    sets: &[k8s_openapi::api::apps::v1::ReplicaSet],
    hash: &str,
    status: serde_json::Value,
) -> Vec<podscope_model::diagnosis::Finding> {
    let summary = from_deployment(&deployment(status), sets);
    let p = pod(
        &format!("web-{hash}-a"),
        hash,
        20,
        "Running",
        crash_loop(),
        false,
    );
    let (events, logs, related) = (Vec::new(), LogTails::default(), Related::new());
    let inputs = Inputs::new(
        &p.pod,
        &events,
        &logs,
        &related,
        &OwnerStatus::Unknown,
        now(),
    )
    .with_workload(Some(&summary));
    diagnose(&inputs)
}

#[test]
fn the_undo_skips_a_broken_previous_revision_for_the_last_healthy_one() {
    // Revision 4 runs 3/3 ready; 5 was broken and scaled down; 6 is new and broken too. A bare
    // `kubectl rollout undo` would go to 5.
    let sets = [
        replica_set("4aaaa", 4, "1.0", "8080", 3, 3),
        replica_set("5bbbb", 5, "1.1", "xyz", 0, 0),
        replica_set("6cccc", 6, "1.1", "abc", 1, 0),
    ];
    let findings = rollout_findings(&sets, "6cccc", json!({}));
    let f = findings
        .iter()
        .find(|f| f.rule == "rollout-new-pods-fail")
        .expect("rollout finding");
    let hint = f.action.as_deref().unwrap_or("");
    assert!(
        hint.contains("kubectl rollout undo deploy/web --to-revision=4"),
        "{hint}"
    );
    assert!(hint.contains("ReplicaSet web-4aaaa, revision 4"), "{hint}");
}

#[test]
fn no_undo_is_offered_when_no_earlier_revision_is_known_healthy() {
    // Revision 4 has pods but not all ready; 5 is new and broken: the deadline finding must not
    // send the user back to 4.
    let sets = [
        replica_set("4aaaa", 4, "1.0", "8080", 3, 1),
        replica_set("5bbbb", 5, "1.1", "abc", 1, 0),
    ];
    let status = json!({"conditions": [{"type": "Progressing", "status": "False",
        "reason": "ProgressDeadlineExceeded", "message": "ReplicaSet \"web-5bbbb\" has timed out progressing."}]});
    let findings = rollout_findings(&sets, "5bbbb", status);
    let f = findings
        .iter()
        .find(|f| f.rule == "rollout-deadline-exceeded")
        .expect("deadline finding");
    let hint = f.action.as_deref().unwrap_or("");
    assert!(!hint.contains("kubectl rollout undo deploy"), "{hint}");
    assert!(
        hint.contains("no earlier revision of deploy/web is known healthy"),
        "{hint}"
    );
    // With the previous revision healthy, the bare undo is what goes there.
    let sets = [
        replica_set("4aaaa", 4, "1.0", "8080", 3, 3),
        replica_set("5bbbb", 5, "1.1", "abc", 1, 0),
    ];
    let findings = rollout_findings(&sets, "5bbbb", json!({}));
    let hint = findings[0].action.as_deref().unwrap_or("");
    assert!(
        hint.ends_with("kubectl rollout undo deploy/web (or fix the change and apply it again)"),
        "{hint}"
    );
}

#[test]
fn a_deployment_scaled_to_zero_says_so_in_its_line_and_a_finding() {
    let mut d = deployment(json!({}));
    d.spec.replicas = Some(0);
    let s = from_deployment(&d, &[]);
    let line = podscope_model::workload::header::workload_line(&s);
    assert_eq!(line, "deploy/web  0/0 ready  updated 0/0  scaled to 0");
    assert_eq!(
        podscope_model::workload::header::no_pods(&s),
        "deployment web is scaled to 0 (spec.replicas: 0): no pods run"
    );
    let f = podscope_model::diagnosis::rollout::workload_findings(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].rule, "workload-scaled-to-zero");
    assert_eq!(
        f[0].action.as_deref(),
        Some("to run pods again: kubectl scale deploy/web --replicas=N")
    );
    // Four replicas wanted: nothing to say.
    let s = from_deployment(&deployment(json!({})), &[]);
    assert!(podscope_model::diagnosis::rollout::workload_findings(&s).is_empty());
}
