//! `update` scripts for the YAML (`y`) and describe (`D`) views: opening, `m` managedFields,
//! `/` search and `n`, `s` saving, scrolling, closing, and a new pod object while open (the
//! scroll kept, the resourceVersion change recorded).

use crate::common;
use crate::views_support;
use common::key;
use crossterm::event::KeyCode;
use podscope::app::state::Overlay;
use podscope::app::views::{TextView, ViewKind, open_view};
use podscope::app::{Cmd, Msg, State, update};
use podscope::theme::Theme;
use views_support::{deliver, hello_pod, hello_state};

fn view(s: &State) -> &TextView {
    open_view(s).expect("a view is open")
}

fn typed(s: &mut State, text: &str) {
    for c in text.chars() {
        update(s, key(KeyCode::Char(c)));
    }
}

/// The fixture with managedFields, as a server returns them.
fn with_managed_fields() -> k8s_openapi::api::core::v1::Pod {
    let mut pod = hello_pod();
    pod.metadata.resource_version = Some("1234".into());
    pod.metadata.managed_fields = Some(vec![
        k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry {
            manager: Some("kubectl-client-side-apply".into()),
            operation: Some("Update".into()),
            api_version: Some("v1".into()),
            ..Default::default()
        },
    ]);
    pod
}

#[test]
fn y_opens_the_pod_as_yaml_and_m_toggles_managed_fields() {
    let mut s = hello_state(Theme::colored());
    deliver(&mut s, with_managed_fields());
    update(&mut s, key(KeyCode::Char('y')));
    assert!(s.dirty);
    let v = view(&s);
    assert_eq!(v.kind, ViewKind::Yaml);
    assert_eq!(&v.lines[..2], ["apiVersion: v1", "kind: Pod"]);
    assert_eq!(v.resource_version, "1234");
    assert!(!v.text.contains("managedFields"));
    update(&mut s, key(KeyCode::Char('m')));
    assert!(
        view(&s)
            .text
            .contains("  managedFields:\n  - apiVersion: v1\n")
    );
    assert!(view(&s).text.contains("manager: kubectl-client-side-apply"));
    update(&mut s, key(KeyCode::Char('m')));
    assert!(!view(&s).text.contains("managedFields"));
}

#[test]
fn search_moves_to_the_match_and_n_to_the_next() {
    let mut s = hello_state(Theme::colored());
    update(&mut s, key(KeyCode::Char('y')));
    update(&mut s, key(KeyCode::Char('/')));
    assert!(s.overlay.view_input().is_some(), "typing the search");
    // While typing, `q` and `n` are text, not keys.
    typed(&mut s, "readinessprobe");
    assert!(open_view(&s).is_some());
    update(&mut s, key(KeyCode::Enter));
    let v = view(&s);
    let wanted: Vec<usize> = v
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == "readinessProbe:")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(v.matches, wanted, "case-insensitive, every line");
    assert!(wanted.len() >= 2, "proxy and hello both have one");
    assert_eq!(v.current, Some(0));
    assert_eq!(v.scroll, wanted[0]);
    update(&mut s, key(KeyCode::Char('n')));
    assert_eq!(view(&s).current, Some(1));
    assert_eq!(
        view(&s).scroll,
        wanted[1].min(view(&s).max_scroll(22)),
        "scrolled to it (clamped to the last page)"
    );
    update(&mut s, key(KeyCode::Char('N')));
    assert_eq!(view(&s).scroll, wanted[0]);
    // A search without a match says so and stays.
    update(&mut s, key(KeyCode::Char('/')));
    typed(&mut s, "nowhere-to-be-found");
    update(&mut s, key(KeyCode::Enter));
    assert_eq!(view(&s).scroll, wanted[0]);
    assert_eq!(
        s.target.logs.status.as_deref(),
        Some("no match for \"nowhere-to-be-found\"")
    );
}

#[test]
fn s_saves_the_yaml_text_to_pod_yaml() {
    let mut s = hello_state(Theme::colored());
    update(&mut s, key(KeyCode::Char('y')));
    let cmds = update(&mut s, key(KeyCode::Char('s')));
    let text = view(&s).text.clone();
    assert_eq!(
        cmds,
        vec![Cmd::SaveLogs {
            path: "hello.yaml".into(),
            contents: text.clone(),
        }]
    );
    let back: serde_json::Value = serde_yaml_ng::from_str(&text).expect("YAML");
    let want = serde_json::to_value(s.target.object.as_deref().expect("object")).expect("JSON");
    assert_eq!(back, want, "the object itself, not the sanitised lines");
    update(
        &mut s,
        Msg::LogsSaved {
            path: "hello.yaml".into(),
            result: Ok(text.len()),
        },
    );
    assert_eq!(
        s.target.logs.status,
        Some(format!("saved {} bytes to hello.yaml", text.len()))
    );
}

#[test]
fn a_new_object_keeps_the_scroll_and_records_the_resource_version() {
    let mut s = hello_state(Theme::colored());
    deliver(&mut s, with_managed_fields());
    update(&mut s, key(KeyCode::Char('y')));
    for _ in 0..5 {
        update(&mut s, key(KeyCode::Char('j')));
    }
    assert_eq!(view(&s).scroll, 5);
    let mut next = with_managed_fields();
    next.metadata.resource_version = Some("1240".into());
    next.metadata
        .labels
        .get_or_insert_default()
        .insert("tier".into(), "web".into());
    s.dirty = false;
    deliver(&mut s, next);
    assert!(s.dirty);
    let v = view(&s);
    assert_eq!(v.scroll, 5, "the scroll is kept");
    assert_eq!(v.resource_version, "1240");
    let change = v.changed.as_ref().expect("the change is recorded");
    assert_eq!((change.from.as_str(), change.to.as_str()), ("1234", "1240"));
    assert_eq!(change.at, s.now);
    assert!(v.text.contains("    tier: web\n"));
    // Said for 30 s, then no longer.
    let later = s.now + jiff::SignedDuration::from_secs(31);
    update(&mut s, Msg::Tick(later));
    assert!(view(&s).recent_change(later).is_none());
}

#[test]
fn scrolling_stays_within_the_text_and_esc_or_q_close() {
    let mut s = hello_state(Theme::colored());
    update(&mut s, key(KeyCode::Char('y')));
    let max = view(&s).max_scroll(22);
    assert!(max > 0);
    update(&mut s, key(KeyCode::Char('G')));
    assert_eq!(view(&s).scroll, max);
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!(view(&s).scroll, max);
    update(&mut s, key(KeyCode::PageUp));
    assert_eq!(view(&s).scroll, max.saturating_sub(22));
    update(&mut s, key(KeyCode::Char('g')));
    assert_eq!(view(&s).scroll, 0);
    // The pod view's keys do nothing under the view.
    let cmds = update(&mut s, key(KeyCode::Char('e')));
    assert!(cmds.is_empty());
    update(&mut s, key(KeyCode::Esc));
    assert_eq!(s.overlay, Overlay::None);
    update(&mut s, key(KeyCode::Char('D')));
    let cmds = update(&mut s, key(KeyCode::Char('q')));
    assert!(
        !cmds.contains(&Cmd::Quit),
        "q closes the view, it does not quit"
    );
    assert_eq!(s.overlay, Overlay::None);
}

#[test]
fn d_opens_the_describe_view_of_the_pod_and_its_events() {
    let mut s = hello_state(Theme::colored());
    update(&mut s, key(KeyCode::Char('D')));
    let v = view(&s);
    assert_eq!(v.kind, ViewKind::Describe);
    assert_eq!(
        v.lines[0].split_whitespace().collect::<Vec<_>>(),
        ["Name:", "hello"]
    );
    assert!(v.lines.iter().any(|l| l.starts_with("Namespace:")));
    assert!(v.lines.iter().any(|l| l.starts_with("Containers:")));
    assert!(v.lines.iter().any(|l| l.starts_with("Events:")));
    let expected = podscope::model::describe::describe_pod(
        s.target.object.as_deref().expect("object"),
        &s.target.events,
        s.now,
    );
    assert_eq!(v.text, expected);
    let cmds = update(&mut s, key(KeyCode::Char('s')));
    assert!(matches!(&cmds[..], [Cmd::SaveLogs { path, .. }] if path == "hello.describe.txt"));
}

#[test]
fn a_view_before_the_first_object_waits_for_it() {
    let mut s = State::new("default", "hello", views_support::now(), Theme::colored());
    update(&mut s, key(KeyCode::Char('y')));
    assert_eq!(
        view(&s).lines,
        ["no pod object yet: waiting for the pod watch"]
    );
    deliver(&mut s, hello_pod());
    assert_eq!(view(&s).lines[0], "apiVersion: v1");
    assert!(view(&s).changed.is_none(), "the first object is no change");
}

#[test]
fn a_recreated_pod_brings_its_object_into_the_new_target() {
    let mut s = hello_state(Theme::colored());
    update(&mut s, key(KeyCode::Char('y')));
    let mut again = hello_pod();
    again.metadata.uid = Some("a-new-uid".into());
    again.metadata.resource_version = Some("2000".into());
    deliver(&mut s, again);
    let object = s.target.object.as_deref().expect("the new object is kept");
    assert_eq!(object.metadata.uid.as_deref(), Some("a-new-uid"));
    let v = view(&s);
    assert!(
        v.text.contains("uid: a-new-uid"),
        "the view shows the new instance"
    );
    assert_eq!(v.resource_version, "2000");
}
