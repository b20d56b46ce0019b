//! `update` scripts for `e` on a container that is not running (waiting or terminated): no exec
//! is tried (the kubelet would refuse it, `container not found`); the status line offers `d`.

use crate::common;
use common::{applied, container, key};
use crossterm::event::KeyCode;
use podscope::app::{State, update};
use podscope::model::{ContainerKind, ContainerState, Terminated};

fn status_line(s: &State) -> String {
    s.target.logs.status.clone().unwrap_or_default()
}

#[test]
fn e_on_a_crash_looping_container_offers_a_debug_container() {
    let mut hello = container("hello", ContainerKind::Main);
    hello.state = ContainerState::Waiting {
        reason: "CrashLoopBackOff".into(),
        message: Some("back-off 5m0s restarting failed container=hello".into()),
    };
    let mut s = applied(vec![hello]);
    let cmds = update(&mut s, key(KeyCode::Char('e')));
    assert_eq!(cmds, vec![]);
    assert_eq!(
        status_line(&s),
        "container hello is not running (CrashLoopBackOff): press d for a debug container"
    );
    assert!(s.dirty);
}

#[test]
fn e_on_a_terminated_container_names_its_reason_or_state() {
    let mut done = container("render-config", ContainerKind::Init);
    done.state = ContainerState::Terminated(Terminated {
        reason: "Completed".into(),
        ..Terminated::default()
    });
    let mut bare = container("app", ContainerKind::Main);
    bare.state = ContainerState::Waiting {
        reason: String::new(),
        message: None,
    };
    let mut s = applied(vec![done, bare]);
    assert_eq!(update(&mut s, key(KeyCode::Char('e'))), vec![]);
    assert_eq!(
        status_line(&s),
        "container render-config is not running (Completed): press d for a debug container"
    );
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!(update(&mut s, key(KeyCode::Char('e'))), vec![]);
    assert_eq!(
        status_line(&s),
        "container app is not running (Waiting): press d for a debug container"
    );
}
