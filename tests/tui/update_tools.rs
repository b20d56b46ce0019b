//! `update` scripts for the port-forward panel `f`, plus snapshots of the panel at 120×40 (the
//! pod picker's are in `update_picker.rs`).

use crate::common;
use common::{applied, key, proxy_and_app, render};
use crossterm::event::KeyCode;
use jiff::SignedDuration;
use podscope::app::msg::ForwardMsg;
use podscope::app::{Cmd, Msg, State, update};
use podscope::model::forward::PortSpec;
use podscope::model::forward_status::{ForwardState, ForwardStatus};

/// `default/web` with proxy and app, not dirty.
fn two_containers() -> State {
    applied(proxy_and_app())
}

fn status_line(s: &State) -> String {
    s.target.logs.status.clone().unwrap_or_default()
}
fn spec(s: &str) -> PortSpec {
    s.parse().expect("valid spec")
}

fn typed(s: &mut State, text: &str) -> Vec<Cmd> {
    for c in text.chars() {
        update(s, key(KeyCode::Char(c)));
    }
    update(s, key(KeyCode::Enter))
}

#[test]
fn forward_panel_adds_removes_and_tracks_status() {
    let mut s = two_containers();
    update(&mut s, key(KeyCode::Char('f')));
    assert!(s.overlay.forwards_shown());
    update(&mut s, key(KeyCode::Char('a')));
    let cmds = typed(&mut s, "8080:80");
    assert_eq!(
        cmds,
        vec![Cmd::AddForward {
            id: 0,
            spec: spec("8080:80")
        }]
    );
    assert_eq!(s.target.forwards.entries[0].state_word(), "starting");
    update(&mut s, key(KeyCode::Char('a')));
    assert!(typed(&mut s, "80:80:80").is_empty());
    assert!(
        s.target
            .forwards
            .status
            .as_deref()
            .is_some_and(|t| t.starts_with("bad forward \"80:80:80\"")),
        "{:?}",
        s.target.forwards.status
    );
    // A port name no main container or native sidecar declares is refused before anything
    // binds, with kubectl's words; a declared one is added.
    update(&mut s, key(KeyCode::Char('a')));
    assert!(typed(&mut s, "9090:metrics").is_empty());
    assert_eq!(
        s.target.forwards.status.as_deref(),
        Some("Pod 'web' does not have a named port 'metrics'")
    );
    if let Some(app) = s
        .target
        .pod
        .as_mut()
        .and_then(|p| p.containers.iter_mut().find(|c| c.name == "app"))
    {
        app.ports
            .push((Some("metrics".to_owned()), 9100, "TCP".to_owned()));
    }
    update(&mut s, key(KeyCode::Char('a')));
    typed(&mut s, "9090:metrics");
    let mut st = ForwardStatus::new(spec("8080:80"));
    st.locals = vec![
        "127.0.0.1:8080".parse().expect("addr"),
        "[::1]:8080".parse().expect("addr"),
    ];
    st.local = st.locals.first().copied();
    st.state = ForwardState::Active;
    st.open_connections = 1;
    st.total_connections = 2;
    st.bytes_in = 2048;
    st.bytes_out = 77;
    update(
        &mut s,
        Msg::Forward(ForwardMsg::Status { id: 0, status: st }),
    );
    // Only 127.0.0.1 could be bound for the named port (no IPv6 on the host).
    let mut st = ForwardStatus::new(spec("9090:metrics"));
    st.local = Some("127.0.0.1:9090".parse().expect("addr"));
    st.locals = vec!["127.0.0.1:9090".parse().expect("addr")];
    st.unbound = vec![(
        "[::1]:9090".parse().expect("addr"),
        "address not available on this host".into(),
    )];
    update(
        &mut s,
        Msg::Forward(ForwardMsg::Status { id: 1, status: st }),
    );
    let screen = common::text(&render(&s, 120, 40));
    assert!(
        screen.contains(
            "LOCAL                  REMOTE          STATE      OPEN  TOTAL   FROM POD     TO POD"
        ),
        "the byte columns say their direction: {screen}"
    );
    assert!(
        screen.contains(
            "localhost:8080         80              active        1      2    2.0 KiB       77 B"
        ),
        "{screen}"
    );
    // The name with the number the pod declares for it.
    assert!(
        screen.contains("127.0.0.1:9090         metrics (9100)  listening"),
        "{screen}"
    );
    assert!(
        screen.contains("    not listening on [::1]:9090: address not available on this host"),
        "{screen}"
    );
    insta::assert_snapshot!("forward_panel@120x40", render(&s, 120, 40));
    // A forward that cannot listen is not listed (as in k9s): its reason is on the status line.
    update(&mut s, key(KeyCode::Char('a')));
    typed(&mut s, "8080:80");
    assert_eq!(s.target.forwards.entries.len(), 3);
    update(
        &mut s,
        Msg::Forward(ForwardMsg::Failed {
            id: 2,
            error: "unable to listen on 127.0.0.1:8080 and [::1]:8080: address already in use"
                .into(),
        }),
    );
    assert_eq!(
        s.target
            .forwards
            .entries
            .iter()
            .map(|e| e.id)
            .collect::<Vec<_>>(),
        vec![0, 1]
    );
    let failed = "forward 8080:80 failed: unable to listen on 127.0.0.1:8080 and [::1]:8080: address already in use";
    assert_eq!(s.target.forwards.status.as_deref(), Some(failed));
    let screen = common::text(&render(&s, 120, 40));
    assert!(screen.contains(failed), "{screen}");
    assert!(!screen.contains("failed   "), "no failed row: {screen}");
    insta::assert_snapshot!("forward_panel_start_failed@120x40", render(&s, 120, 40));
    // The selection is on the last row left; x removes it, Delete the other.
    assert_eq!(
        update(&mut s, key(KeyCode::Char('x'))),
        vec![Cmd::StopForward { id: 1 }]
    );
    assert_eq!(
        s.target.forwards.status, None,
        "the next panel key clears the status line"
    );
    assert_eq!(
        update(&mut s, key(KeyCode::Delete)),
        vec![Cmd::StopForward { id: 0 }]
    );
    assert!(s.target.forwards.entries.is_empty());
    assert!(update(&mut s, key(KeyCode::Delete)).is_empty());
    update(&mut s, key(KeyCode::Esc));
    assert!(!s.overlay.forwards_shown());
    // With the panel hidden (a `--forward` that cannot listen) the footer says it.
    for cmd in podscope::app::forwards::add(&mut s, spec("8080:80")) {
        assert!(matches!(cmd, Cmd::AddForward { id: 3, .. }), "{cmd:?}");
    }
    update(
        &mut s,
        Msg::Forward(ForwardMsg::Failed {
            id: 3,
            error: "unable to listen on 127.0.0.1:8080: address already in use".into(),
        }),
    );
    assert!(s.target.forwards.entries.is_empty());
    assert_eq!(
        status_line(&s),
        "forward 8080:80 failed: unable to listen on 127.0.0.1:8080: address already in use"
    );
}

/// The panel dates a breakage from the status's `broken_since` and a recovery from its
/// `last_gap`, both at the view's `now` (moved by `Tick`).
#[test]
fn forward_panel_shows_how_long_it_is_broken_and_the_gap_it_recovered_from() {
    let mut s = two_containers();
    let t0 = s.now;
    update(&mut s, key(KeyCode::Char('f')));
    update(&mut s, key(KeyCode::Char('a')));
    typed(&mut s, "8080:8080");
    let kubelet = "error forwarding port 8080 to pod 0f3c, uid : failed to execute portforward in network namespace \"/var/run/netns/cni-1\": failed to connect to localhost:8080 inside namespace \"0f3c\", IPv4: dial tcp4 127.0.0.1:8080: connect: connection refused";
    let mut st = ForwardStatus::new(spec("8080:8080"));
    st.local = Some("127.0.0.1:8080".parse().expect("addr"));
    st.state = ForwardState::Broken;
    st.total_connections = 3;
    st.last_failed_connection = 3;
    st.last_error = Some(kubelet.into());
    st.broken_since = Some(t0 - SignedDuration::from_secs(12));
    update(
        &mut s,
        Msg::Forward(ForwardMsg::Status {
            id: 0,
            status: st.clone(),
        }),
    );
    let screen = common::text(&render(&s, 120, 40));
    assert!(
        screen.contains("127.0.0.1:8080         8080    broken"),
        "{screen}"
    );
    assert!(
        screen.contains("broken for 12s: error forwarding port 8080 to pod 0f3c"),
        "{screen}"
    );
    s.dirty = false;
    update(&mut s, Msg::Tick(t0 + SignedDuration::from_secs(5)));
    assert!(s.dirty, "a tick redraws the panel's clock");
    let screen = common::text(&render(&s, 120, 40));
    assert!(
        screen.contains("broken for 17s: error forwarding"),
        "{screen}"
    );
    // A connection accepted after the failure worked 5 s later: recovered.
    st.connection_opened();
    st.connection_worked(4, t0 + SignedDuration::from_secs(5));
    st.connection_closed();
    assert_eq!(st.state, ForwardState::Listening);
    update(
        &mut s,
        Msg::Forward(ForwardMsg::Status { id: 0, status: st }),
    );
    update(&mut s, Msg::Tick(t0 + SignedDuration::from_secs(185)));
    let screen = common::text(&render(&s, 120, 40));
    assert!(screen.contains("8080    listening"), "{screen}");
    assert!(
        screen.contains("    recovered after a 17s gap (3m ago)"),
        "{screen}"
    );
    assert!(
        screen.contains("    last error: error forwarding port 8080 to pod 0f3c"),
        "{screen}"
    );
    assert!(!screen.contains("broken for"), "{screen}");
    insta::assert_snapshot!("forward_panel_recovered@120x40", render(&s, 120, 40));
}
