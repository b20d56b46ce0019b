//! `update` scripts for feeding the diagnosis: the previous log tail of a restarted container
//! read once per restart (`Cmd::ReadLogTail` → `Msg::LogTailRead` → `state.target.log_tails`), and
//! each object a finding rests on looked up once (`Cmd::Lookup` → `Msg::LookedUp` →
//! `state.target.related`).

use crate::common;
use common::{applied, container, pod, state, t0};
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::diagnosis::{Finding, LogTail, Lookup, ObjectRef, Severity};
use podscope::model::{ContainerKind, ContainerSummary, Terminated};

/// `app`, restarted `restarts` times, its last instance OOMKilled.
fn restarted(name: &str, restarts: i32) -> ContainerSummary {
    let mut c = container(name, ContainerKind::Main);
    c.restart_count = restarts;
    c.last_state = Some(Terminated {
        reason: "OOMKilled".to_owned(),
        exit_code: 137,
        signal: 0,
        message: None,
        started_at: Some(t0() - jiff::SignedDuration::from_secs(60)),
        finished_at: Some(t0() - jiff::SignedDuration::from_secs(20)),
        container_id: format!("containerd://{name}-{restarts}"),
    });
    c
}

fn tail_reads(cmds: &[Cmd]) -> Vec<(String, bool, i32)> {
    cmds.iter()
        .filter_map(|c| match c {
            Cmd::ReadLogTail {
                container,
                previous,
                restart_count,
            } => Some((container.clone(), *previous, *restart_count)),
            _ => None,
        })
        .collect()
}

fn lookups(cmds: &[Cmd]) -> Vec<ObjectRef> {
    cmds.iter()
        .filter_map(|c| match c {
            Cmd::Lookup(o) => Some(o.clone()),
            _ => None,
        })
        .collect()
}

fn apply(s: &mut State, containers: Vec<ContainerSummary>) -> Vec<Cmd> {
    update(s, Msg::PodApplied(Box::new(pod("uid-1", containers))))
}

fn tail(restart_count: i32, lines: &[&str]) -> LogTail {
    LogTail::new(
        restart_count,
        Ok(lines.iter().map(|l| (*l).to_owned()).collect()),
    )
}

#[test]
fn previous_tail_is_read_once_per_restart() {
    let mut s = state();
    let cmds = apply(
        &mut s,
        vec![
            restarted("app", 3),
            container("proxy", ContainerKind::Sidecar),
        ],
    );
    // Only the container with a lastState.terminated, once.
    assert_eq!(tail_reads(&cmds), vec![("app".to_owned(), true, 3)]);
    // In flight: the same pod again, or the clock, asks nothing more.
    let again = apply(&mut s, vec![restarted("app", 3)]);
    assert_eq!(tail_reads(&again), vec![]);
    assert_eq!(tail_reads(&update(&mut s, Msg::Tick(t0()))), vec![]);

    // The answer is stored and the diagnosis refreshed from it; nothing is re-asked.
    let cmds = update(
        &mut s,
        Msg::LogTailRead {
            container: "app".to_owned(),
            previous: true,
            tail: tail(3, &["java.lang.OutOfMemoryError: Java heap space"]),
        },
    );
    assert_eq!(tail_reads(&cmds), vec![]);
    assert_eq!(
        s.target.log_tails.previous.get("app"),
        Some(&tail(3, &["java.lang.OutOfMemoryError: Java heap space"]))
    );
    assert!(s.dirty);
    assert_eq!(
        tail_reads(&apply(&mut s, vec![restarted("app", 3)])),
        vec![]
    );

    // The next restart: one new read.
    let cmds = apply(&mut s, vec![restarted("app", 4)]);
    assert_eq!(tail_reads(&cmds), vec![("app".to_owned(), true, 4)]);
    assert_eq!(
        tail_reads(&apply(&mut s, vec![restarted("app", 4)])),
        vec![]
    );
}

#[test]
fn refusals_are_answers_and_stale_answers_are_dropped() {
    let mut s = applied(vec![restarted("app", 1)]);
    assert_eq!(
        s.target.evidence.previous.get("app").map(|(n, _)| *n),
        Some(1)
    );
    // It restarted again before the first answer came: that answer is for an old instance.
    let cmds = apply(&mut s, vec![restarted("app", 2)]);
    assert_eq!(tail_reads(&cmds), vec![("app".to_owned(), true, 2)]);
    update(
        &mut s,
        Msg::LogTailRead {
            container: "app".to_owned(),
            previous: true,
            tail: tail(1, &["old"]),
        },
    );
    assert!(s.target.log_tails.previous.is_empty());
    // A refusal is stored as the answer for that restart: not asked again.
    let refused = LogTail::new(
        2,
        Err(r#"previous terminated container "app" in pod "web" not found"#.to_owned()),
    );
    update(
        &mut s,
        Msg::LogTailRead {
            container: "app".to_owned(),
            previous: true,
            tail: refused.clone(),
        },
    );
    assert_eq!(s.target.log_tails.previous.get("app"), Some(&refused));
    assert_eq!(
        tail_reads(&apply(&mut s, vec![restarted("app", 2)])),
        vec![]
    );
}

#[test]
fn a_recreated_pod_starts_over() {
    let mut s = applied(vec![restarted("app", 2)]);
    update(
        &mut s,
        Msg::LogTailRead {
            container: "app".to_owned(),
            previous: true,
            tail: tail(2, &["bye"]),
        },
    );
    assert!(s.target.log_tails.previous.contains_key("app"));
    // Same name, new UID, same restart count by chance: its own dead instance is read.
    let cmds = update(
        &mut s,
        Msg::PodApplied(Box::new(pod("uid-2", vec![restarted("app", 2)]))),
    );
    assert_eq!(tail_reads(&cmds), vec![("app".to_owned(), true, 2)]);
    assert!(s.target.log_tails.previous.is_empty());
    assert!(s.target.related.is_empty());
}

#[test]
fn a_deleted_pod_reads_nothing() {
    let mut s = state();
    let p = pod("uid-1", vec![restarted("app", 2)]);
    let cmds = update(&mut s, Msg::PodDeleted(Box::new(p)));
    assert_eq!(tail_reads(&cmds), vec![]);
}

/// A finding resting on `checks`, as a rule would make it.
fn finding(checks: Vec<ObjectRef>) -> Finding {
    let mut f = Finding::new(
        "test-rule",
        Severity::Error,
        Some("app"),
        "app cannot start",
    );
    f.checks = checks;
    f
}

#[test]
fn each_object_is_looked_up_once() {
    let mut s = applied(vec![container("app", ContainerKind::Main)]);
    let secret = ObjectRef::Secret("db-creds".to_owned());
    let config = ObjectRef::ConfigMap("app-config".to_owned());
    let node = ObjectRef::Node("node-1".to_owned());
    s.target.diagnosis = vec![
        finding(vec![secret.clone(), config.clone()]),
        finding(vec![secret.clone(), node.clone()]),
    ];
    let cmds = podscope::app::evidence::wanted(&mut s);
    assert_eq!(
        lookups(&cmds),
        vec![secret.clone(), config.clone(), node.clone()]
    );
    // In flight: not asked again.
    assert_eq!(lookups(&podscope::app::evidence::wanted(&mut s)), vec![]);

    // Answers (a refusal among them) are stored; nothing is re-asked after the refresh.
    let answers = [
        (secret.clone(), Lookup::Absent),
        (
            config.clone(),
            Lookup::Forbidden(
                r#"configmaps "app-config" is forbidden: User "dev" cannot get resource "configmaps""#
                    .to_owned(),
            ),
        ),
        (
            node.clone(),
            Lookup::Found {
                keys: vec![],
                phase: None,
                conditions: vec!["Ready=False (KubeletNotReady)".to_owned()],
            },
        ),
    ];
    for (object, lookup) in answers.clone() {
        let cmds = update(&mut s, Msg::LookedUp { object, lookup });
        assert_eq!(lookups(&cmds), vec![]);
    }
    for (object, lookup) in &answers {
        assert_eq!(s.target.related.get(object), Some(lookup));
    }
    // Findings that keep resting on the same objects ask nothing more.
    s.target.diagnosis = vec![finding(vec![secret, config, node])];
    assert_eq!(lookups(&podscope::app::evidence::wanted(&mut s)), vec![]);

    // An answer nobody asked for is ignored.
    let stray = ObjectRef::PersistentVolumeClaim("data".to_owned());
    update(
        &mut s,
        Msg::LookedUp {
            object: stray.clone(),
            lookup: Lookup::Absent,
        },
    );
    assert!(!s.target.related.contains_key(&stray));
}

#[test]
fn lookups_follow_the_engine_through_update() {
    // Whatever the rules want confirmed for the cases with a missing ConfigMap or Secret is
    // asked once each, exactly what `wanted_lookups` names, and never again.
    for case in [
        "17-createcontainerconfigerror-configmap",
        "18-init-createcontainerconfigerror-secret",
    ] {
        let pod = common::cases::pod(case);
        let now = common::cases::expected(case).now;
        let mut s = State::new(
            &pod.namespace,
            &pod.name,
            now,
            podscope::ui::theme::Theme::monochrome(),
        );
        update(&mut s, Msg::Tick(now));
        let mut asked = lookups(&update(&mut s, Msg::PodApplied(Box::new(pod.clone()))));
        asked.extend(lookups(&update(
            &mut s,
            Msg::EventsReset(common::cases::events(case)),
        )));
        let unique: std::collections::BTreeSet<_> = asked.iter().cloned().collect();
        assert_eq!(asked.len(), unique.len(), "{case}: each object once");
        assert_eq!(unique, s.target.evidence.lookups, "{case}: remembered");
        let again = update(&mut s, Msg::PodApplied(Box::new(pod)));
        assert_eq!(lookups(&again), vec![], "{case}: nothing re-asked");
        for o in asked {
            update(
                &mut s,
                Msg::LookedUp {
                    object: o.clone(),
                    lookup: Lookup::Absent,
                },
            );
            assert_eq!(s.target.related.get(&o), Some(&Lookup::Absent), "{case}");
        }
        let after =
            podscope::model::diagnosis::wanted_lookups(&s.target.diagnosis, &s.target.related);
        for o in &after {
            assert!(s.target.evidence.lookups.contains(o), "{case}: {o:?} asked");
        }
    }
}

/// An instance that dies leaves `restartCount` as it was (it counts starts): the new
/// `lastState` alone says there is a new dead instance whose last words to read.
#[test]
fn a_new_dead_instance_at_the_same_restart_count_is_read_again() {
    let mut s = state();
    let cmds = apply(&mut s, vec![restarted("app", 2)]);
    assert_eq!(tail_reads(&cmds), vec![("app".to_owned(), true, 2)]);
    let mut died_again = restarted("app", 2);
    if let Some(last) = died_again.last_state.as_mut() {
        last.container_id = "containerd://app-2-second".to_owned();
    }
    let cmds = apply(&mut s, vec![died_again.clone()]);
    assert_eq!(tail_reads(&cmds), vec![("app".to_owned(), true, 2)]);
    assert_eq!(tail_reads(&apply(&mut s, vec![died_again])), vec![]);
}

#[test]
fn a_container_that_ended_without_restarting_gets_its_current_tail_read_once() {
    // A Job's pod under restartPolicy Never: terminated, no lastState; its dead instance is
    // the current one.
    let mut c = container("migrate", ContainerKind::Main);
    c.state = podscope::model::ContainerState::Terminated(Terminated {
        reason: "Error".to_owned(),
        exit_code: 1,
        signal: 0,
        message: None,
        started_at: Some(t0() - jiff::SignedDuration::from_secs(60)),
        finished_at: Some(t0() - jiff::SignedDuration::from_secs(59)),
        container_id: "containerd://migrate-0".to_owned(),
    });
    let never = |c: &ContainerSummary| {
        let mut p = pod("uid-1", vec![c.clone()]);
        p.restart_policy = "Never".to_owned();
        Msg::PodApplied(Box::new(p))
    };
    let mut s = state();
    // Under restartPolicy Always the same container is about to restart: nothing is read yet.
    assert_eq!(tail_reads(&apply(&mut s, vec![c.clone()])), vec![]);
    let cmds = update(&mut s, never(&c));
    assert_eq!(tail_reads(&cmds), vec![("migrate".to_owned(), false, 0)]);
    assert_eq!(tail_reads(&update(&mut s, never(&c))), vec![]);
    update(
        &mut s,
        Msg::LogTailRead {
            container: "migrate".to_owned(),
            previous: false,
            tail: tail(0, &["listen: listen tcp: lookup tcp/abc: unknown port"]),
        },
    );
    assert!(
        s.target.diagnosis.iter().any(|f| f
            .headline
            .contains("listen tcp: lookup tcp/abc: unknown port")),
        "{:?}",
        s.target.diagnosis
    );
}
