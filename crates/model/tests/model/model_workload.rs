//! `TargetRef::parse` (kubectl's spellings and errors) and label selectors (the API server's
//! grammar and messages, `spec.selector` rendered back to text).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use podscope_model::workload::selector::{self, Requirement};
use podscope_model::workload::{TargetRef, WorkloadKind, WorkloadRef};
use serde_json::json;

fn workload(kind: WorkloadKind, name: &str) -> TargetRef {
    TargetRef::Workload(WorkloadRef {
        kind,
        name: name.to_owned(),
    })
}

#[test]
fn pods_and_every_workload_spelling_parse() {
    for arg in ["web-1", "pod/web-1", "pods/web-1", "po/web-1", "Pod/web-1"] {
        assert_eq!(
            TargetRef::parse(arg),
            Ok(TargetRef::Pod("web-1".into())),
            "{arg}"
        );
    }
    let cases = [
        (
            WorkloadKind::Deployment,
            &[
                "deploy",
                "deployment",
                "deployments",
                "deployment.apps",
                "deployments.apps",
                "Deployment",
            ][..],
        ),
        (
            WorkloadKind::ReplicaSet,
            &["rs", "replicaset", "replicasets", "replicaset.apps"],
        ),
        (
            WorkloadKind::StatefulSet,
            &["sts", "statefulset", "statefulsets", "statefulset.apps"],
        ),
        (
            WorkloadKind::DaemonSet,
            &["ds", "daemonset", "daemonsets", "daemonset.apps"],
        ),
        (WorkloadKind::Job, &["job", "jobs", "job.batch"]),
        (
            WorkloadKind::CronJob,
            &["cj", "cronjob", "cronjobs", "cronjob.batch"],
        ),
    ];
    for (kind, words) in cases {
        for w in words {
            assert_eq!(
                TargetRef::parse(&format!("{w}/web")),
                Ok(workload(kind, "web")),
                "{w}"
            );
        }
    }
}

#[test]
fn unknown_kinds_get_kubectls_errors() {
    assert_eq!(
        TargetRef::parse("deploymnet/web"),
        Err("error: the server doesn't have a resource type \"deploymnet\"".into())
    );
    assert_eq!(
        TargetRef::parse("deploy/"),
        Err("error: arguments in resource/name form must have a single resource and name".into())
    );
    assert_eq!(
        TargetRef::parse("deploy/web/x"),
        Err("error: arguments in resource/name form may not have more than one slash".into())
    );
    let svc = TargetRef::parse("svc/web").expect_err("not a workload");
    assert!(
        svc.contains("not \"svc\"") && svc.contains("deploy/NAME"),
        "{svc}"
    );
    // Escape sequences in the typed kind are neutralised before they are echoed.
    let esc = TargetRef::parse("\u{1b}[2J/web").expect_err("unknown");
    assert!(!esc.contains('\u{1b}'), "{esc}");
}

#[test]
fn names_and_not_found_read_as_kubectl() {
    let w = WorkloadRef {
        kind: WorkloadKind::Deployment,
        name: "web".into(),
    };
    assert_eq!(w.display(), "deploy/web");
    assert_eq!(
        w.not_found(),
        "Error from server (NotFound): deployments.apps \"web\" not found"
    );
    assert_eq!(WorkloadKind::CronJob.group_resource(), "cronjobs.batch");
    assert_eq!(
        TargetRef::from_args(None, Some("app=web")),
        Ok(Some(TargetRef::Selector("app=web".into())))
    );
    assert_eq!(TargetRef::from_args(None, None), Ok(None));
}

#[test]
fn selectors_parse_in_kubectls_grammar() {
    let s = selector::parse("a=b, c==d,e!=f, g in (x, y), h notin (z), i, !j").expect("parses");
    assert_eq!(
        s.0,
        vec![
            Requirement::In("a".into(), vec!["b".into()]),
            Requirement::In("c".into(), vec!["d".into()]),
            Requirement::NotIn("e".into(), vec!["f".into()]),
            Requirement::In("g".into(), vec!["x".into(), "y".into()]),
            Requirement::NotIn("h".into(), vec!["z".into()]),
            Requirement::Exists("i".into()),
            Requirement::DoesNotExist("j".into()),
        ]
    );
    let labels = [("a", "b"), ("c", "d"), ("g", "y"), ("i", "")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    assert!(s.matches(&labels));
    let mut with_j = labels.clone();
    with_j.insert("j".into(), "1".into());
    assert!(!s.matches(&with_j));
    assert!(selector::parse("app.kubernetes.io/name=web").is_ok());
}

#[test]
fn bad_selectors_get_the_servers_words() {
    let cases = [
        (
            "a in x",
            "unable to parse requirement: found 'x' expected: '('",
        ),
        (
            "a b",
            "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
        ),
        ("a,", "found '', expected: identifier after ','"),
        (
            ",a",
            "found ',', expected: !, identifier, or 'end of string'",
        ),
        (
            "a in (b",
            "unable to parse requirement: found '', expected: ',' or ')'",
        ),
        ("a=b c", "found 'c', expected: ',' or 'end of string'"),
        (
            "a>x",
            "unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer: \"x\"",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(
            selector::parse(text).map(|_| ()),
            Err(want.to_owned()),
            "{text}"
        );
    }
    let bad_key = selector::parse("-a=b").expect_err("bad key");
    assert!(
        bad_key.starts_with("unable to parse requirement: invalid label key \"-a\""),
        "{bad_key}"
    );
    assert_eq!(
        TargetRef::selector("a in x"),
        Err("error: unable to parse requirement: found 'x' expected: '('".into())
    );
    assert!(
        TargetRef::selector(" ").is_err(),
        "an empty selector selects every pod"
    );
}

#[test]
fn spec_selector_renders_sorted_by_key() {
    let sel: LabelSelector = serde_json::from_value(json!({
        "matchLabels": {"tier": "front", "app": "web"},
        "matchExpressions": [
            {"key": "env", "operator": "In", "values": ["prod", "canary"]},
            {"key": "zone", "operator": "NotIn", "values": ["b"]},
            {"key": "beta", "operator": "Exists"},
            {"key": "old", "operator": "DoesNotExist"}
        ]
    }))
    .expect("selector");
    let text = selector::render(&sel);
    assert_eq!(
        text,
        "app=web,beta,env in (canary,prod),!old,tier=front,zone notin (b)"
    );
    // What is rendered parses back.
    assert_eq!(selector::parse(&text).expect("parses").0.len(), 6);
}
