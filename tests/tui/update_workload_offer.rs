//! `update` scripts of a pod attached by name whose ReplicaSet replaces it: once the pod watch
//! sees it deleted, its siblings are watched by its labels (less `pod-template-hash`), the
//! header offers the replacement, and `R` follows it as a workload's pod is followed.

use crate::common;
use crate::workload_tui_support;
use common::{key, log_texts, render, text};
use crossterm::event::KeyCode;
use podscope::app::generation::Generation;
use podscope::app::{Cmd, Config, Msg, State, update};
use podscope::ui::theme::Theme;
use workload_tui_support::{Health, deleted, from, summary_of, t0, wpod};

/// `podscope web-7d9f8c6b5-x2k9q`, the pod seen live.
fn attached() -> State {
    let config = Config::new(Theme::monochrome());
    let mut s = State::with_config(config, "default", "web-7d9f8c6b5-x2k9q", t0());
    let cmds = update(
        &mut s,
        from(1, summary_of("7d9f8c6b5", "x2k9q", 600, Health::Ready)),
    );
    assert!(
        !cmds.iter().any(|c| matches!(c, Cmd::WatchWorkload { .. })),
        "nothing more is watched while the pod lives"
    );
    s
}

#[test]
fn a_deleted_replica_set_pod_offers_its_replacement_and_r_follows_it() {
    let mut s = attached();
    let cmds = update(
        &mut s,
        from(1, deleted("7d9f8c6b5", "x2k9q", 600, Health::Ready)),
    );
    assert_eq!(
        cmds,
        [Cmd::WatchWorkload {
            stamp: Generation(2),
            namespace: "default".into(),
            workload: None,
            selector: "app=web".into(),
        }]
    );
    update(
        &mut s,
        Msg::ForWorkload(
            Generation(2),
            Box::new(Msg::WorkloadPodsListed(vec![wpod(
                "7d9f8c6b5",
                "q8m4t",
                3,
                Health::Ready,
            )])),
        ),
    );
    assert_eq!(s.target.name, "web-7d9f8c6b5-x2k9q", "only offered");
    let screen = text(&render(&s, 80, 24));
    assert!(
        screen.contains("replaced by web-7d9f8c6b5-q8m4t — press R to follow"),
        "{screen}"
    );
    assert!(
        screen.contains("R follow replacement"),
        "the footer lists R\n{screen}"
    );
    assert!(
        !screen.contains("pods "),
        "no workload block for a pod attached by name"
    );
    let cmds = update(&mut s, key(KeyCode::Char('R')));
    assert_eq!(
        cmds,
        [Cmd::FollowPod {
            namespace: "default".into(),
            name: "web-7d9f8c6b5-q8m4t".into(),
            generation: Generation(3),
        }]
    );
    assert_eq!(
        log_texts(&s),
        [
            "── pod web-7d9f8c6b5-x2k9q deleted; following its replacement \
          web-7d9f8c6b5-q8m4t (ReplicaSet web-7d9f8c6b5) ──"
        ]
    );
    assert!(s.workload.as_ref().is_some_and(|w| w.offer.is_none()));
}

#[test]
fn a_pod_without_a_controller_offers_nothing() {
    let config = Config::new(Theme::monochrome());
    let mut s = State::with_config(config, "default", "web", t0());
    let mut pod = podscope::model::PodSummary::from_pod(&workload_tui_support::api_pod(
        "7d9f8c6b5",
        "x2k9q",
        600,
        Health::Ready,
    ));
    pod.name = "web".into();
    pod.owner = None;
    update(&mut s, from(1, Msg::PodApplied(Box::new(pod.clone()))));
    pod.deletion_timestamp = Some(t0());
    let cmds = update(&mut s, from(1, Msg::PodDeleted(Box::new(pod))));
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(s.workload.is_none());
}
