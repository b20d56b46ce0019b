//! The seed's `hello` pod (tests/stream_support/hello) in a `State` as the pod watch delivers it:
//! `Msg::PodObject` then `Msg::PodApplied`, and its events, at a fixed `now`.

use std::sync::Arc;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;
use podscope::app::{Msg, State, update};
use podscope::model::{EventSummary, PodSummary};
use podscope::theme::Theme;

/// The fixture's folder.
pub fn hello_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stream_support/hello")
}

/// The fixture's pod.
pub fn hello_pod() -> Pod {
    podscope::sim::load_fixture(&hello_dir())
        .expect("hello fixture")
        .pod
}

/// When the snapshots are taken: ten minutes after the pod was created.
pub fn now() -> Timestamp {
    let created = hello_pod()
        .metadata
        .creation_timestamp
        .expect("creationTimestamp")
        .0;
    created + jiff::SignedDuration::from_mins(10)
}

/// The pod watch's two messages for `pod`.
pub fn deliver(state: &mut State, pod: Pod) {
    let summary = PodSummary::from_pod(&pod);
    update(state, Msg::PodObject(Arc::new(pod)));
    update(state, Msg::PodApplied(Box::new(summary)));
}

/// `default/hello` with its pod (at resourceVersion 1234) and events applied, at [`now`] on a 80×24 screen, not dirty.
pub fn hello_state(theme: Theme) -> State {
    let mut state = State::new("default", "hello", now(), theme);
    update(&mut state, Msg::Resize(80, 24));
    let mut fx = podscope::sim::load_fixture(&hello_dir()).expect("hello fixture");
    // As the simulator's store numbers it.
    fx.pod.metadata.resource_version = Some("1234".into());
    deliver(&mut state, fx.pod);
    let events = fx.events.iter().map(EventSummary::from_event).collect();
    update(&mut state, Msg::EventsReset(events));
    state.dirty = false;
    state
}
