//! The open picker's rows kept live from its list+watch: a (re)list replaces them, a pod added
//! or changed replaces its row, a pod deleted removes it, all in trouble order and with the
//! highlight kept on the same pod. Messages arrive only while a watched picker is open; any
//! other time (closed, or a picker of given rows) they are dropped.

use super::{PodChoice, Rows, Switcher};
use crate::app::overlay::Overlay;
use crate::app::state::State;

/// The open picker when its rows come from the list+watch.
fn watched(state: &mut State) -> Option<&mut Switcher> {
    match &mut state.overlay {
        Overlay::Switcher(sw) if matches!(sw.rows, Rows::Watched { .. }) => Some(sw),
        _ => None,
    }
}

/// `Msg::PodList`: a full (re)list; the rows become `pods`, most trouble first. On the first
/// list the current pod is highlighted.
pub fn pod_list(state: &mut State, mut pods: Vec<PodChoice>) {
    let (namespace, name) = (state.target.namespace.clone(), state.target.name.clone());
    let Some(sw) = watched(state) else {
        return;
    };
    pods.sort_by(PodChoice::order);
    let first = sw.picker.loading;
    sw.picker.change_rows(|rows| *rows = pods);
    if first {
        sw.picker.selected = 0;
        sw.picker.select_where(|p| p.is(&namespace, &name));
    }
    sw.picker.loading = false;
    sw.error = None;
    state.dirty = true;
}

/// `Msg::PodListApplied`: the pod was added or changed; its row is replaced (or added) at its
/// place in the order.
pub fn pod_applied(state: &mut State, pod: PodChoice) {
    let Some(sw) = watched(state) else {
        return;
    };
    sw.picker.change_rows(|rows| {
        rows.retain(|p| !p.is(&pod.namespace, &pod.name));
        let at = rows.partition_point(|p| PodChoice::order(p, &pod).is_lt());
        rows.insert(at, pod);
    });
    sw.error = None;
    state.dirty = true;
}

/// `Msg::PodListDeleted`: the pod is gone; its row is removed (the highlight stays in place).
pub fn pod_deleted(state: &mut State, namespace: &str, name: &str) {
    let Some(sw) = watched(state) else {
        return;
    };
    sw.picker
        .change_rows(|rows| rows.retain(|p| !p.is(namespace, name)));
    state.dirty = true;
}

/// `Msg::PodListFailed`: the list+watch failed and retries; the rows stay, the error is shown.
pub fn pod_list_failed(state: &mut State, error: String) {
    let Some(sw) = watched(state) else {
        return;
    };
    sw.error = Some(error);
    state.dirty = true;
}
