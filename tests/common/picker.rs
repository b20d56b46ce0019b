//! Pod picker helpers: pods in each trouble level as the list+watch would send them, the
//! picker's rows, and messages stamped as the session stamps them.

use podscope::app::Msg;
use podscope::app::State;
use podscope::app::switcher::PodChoice;
use podscope::model::{ContainerKind, ContainerState, PodSummary, Terminated};

use super::{applied, container, pod, proxy_and_app};

/// `default/web` (running, ready) with switching on, as the TUI starts it.
pub fn attached() -> State {
    let mut s = applied(proxy_and_app());
    s.config.can_switch = true;
    s
}

/// A pod `namespace/name` (as [`super::pod`]: running, created 10 minutes before `t0`) whose one
/// container is in `state`, `ready` or not.
pub fn summary(namespace: &str, name: &str, state: ContainerState, ready: bool) -> PodSummary {
    let mut c = container("app", ContainerKind::Main);
    c.ready = ready;
    c.state = state;
    let mut p = pod(&format!("uid-{name}"), vec![c]);
    p.namespace = namespace.to_owned();
    p.name = name.to_owned();
    p.print.ready = u32::from(ready);
    p
}

/// A pod running and ready.
pub fn running(namespace: &str, name: &str) -> PodChoice {
    PodChoice::from_summary(&summary(
        namespace,
        name,
        ContainerState::Running { started_at: None },
        true,
    ))
}

/// A pod whose container waits in `CrashLoopBackOff` after 5 restarts.
pub fn crash_looping(namespace: &str, name: &str) -> PodChoice {
    let mut p = summary(
        namespace,
        name,
        ContainerState::Waiting {
            reason: "CrashLoopBackOff".into(),
            message: None,
        },
        false,
    );
    p.print.status = "CrashLoopBackOff".into();
    p.print.restarts = 5;
    PodChoice::from_summary(&p)
}

/// A `Pending` pod whose container is being created.
pub fn pending(namespace: &str, name: &str) -> PodChoice {
    let mut p = summary(
        namespace,
        name,
        ContainerState::Waiting {
            reason: "ContainerCreating".into(),
            message: None,
        },
        false,
    );
    p.phase = "Pending".into();
    p.print.status = "ContainerCreating".into();
    PodChoice::from_summary(&p)
}

/// A pod running but not ready.
pub fn not_ready(namespace: &str, name: &str) -> PodChoice {
    PodChoice::from_summary(&summary(
        namespace,
        name,
        ContainerState::Running { started_at: None },
        false,
    ))
}

/// A `Failed` pod whose container exited 1.
pub fn failed(namespace: &str, name: &str) -> PodChoice {
    let mut p = summary(
        namespace,
        name,
        ContainerState::Terminated(Terminated {
            reason: "Error".into(),
            exit_code: 1,
            ..Terminated::default()
        }),
        false,
    );
    p.phase = "Failed".into();
    PodChoice::from_summary(&p)
}

/// The picker's rows as `name` (in order) and the highlighted one.
pub fn picked(s: &State) -> (Vec<String>, Option<String>) {
    let sw = s.overlay.switcher().expect("the picker is open");
    let names = sw.picker.shown().iter().map(|p| p.name.clone()).collect();
    let selected = sw.picker.selected_row().map(|p| p.name.clone());
    (names, selected)
}

/// A message of the list+watch, stamped with the target's generation as the session stamps it.
pub fn stamped(s: &State, msg: Msg) -> Msg {
    Msg::for_target(s.target.generation, msg)
}
