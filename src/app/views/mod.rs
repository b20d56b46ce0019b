//! The full-screen text views over the pod (`docs/views.md`): `y` the pod object as YAML
//! ([`crate::model::yaml`]), `D` the pod as `kubectl describe pod` prints it
//! ([`crate::model::describe`]). One [`TextView`] state serves both: the text, its lines for the
//! terminal, the scroll, the search and the `resourceVersion` shown. Live: each new object from
//! the pod watch (and, for describe, each events change and tick) rebuilds the text at the same
//! scroll, and a new `resourceVersion` is recorded with when it arrived for the title to say
//! (`updated 3s ago (resourceVersion 1234 → 1240)`, for [`UPDATED_FOR`]).
//!
//! Files: this one (the state and how it is rebuilt), [`keys`] (what the keys do).

pub mod keys;

use std::ops::Range;

use jiff::{SignedDuration, Timestamp};

use crate::app::prompt::Prompt;
use crate::app::state::{Overlay, State};
use crate::model::yaml::syntax::Part;

/// How long the title says the object changed.
pub const UPDATED_FOR: SignedDuration = SignedDuration::from_secs(30);

/// Which text a view shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// The pod object as YAML (`y`).
    Yaml,
    /// `kubectl describe pod` (`D`).
    Describe,
    /// The pod's timeline as a table (`T`, `docs/timeline.md`).
    Timeline,
}

impl ViewKind {
    /// The view's name in its title.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ViewKind::Yaml => "YAML",
            ViewKind::Describe => "describe",
            ViewKind::Timeline => "timeline",
        }
    }
}

/// The object changed under the view: from which `resourceVersion` to which, and when (the
/// clock's `now` when the new object arrived).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The `resourceVersion` shown before.
    pub from: String,
    /// The one shown now.
    pub to: String,
    /// When it arrived.
    pub at: Timestamp,
}

/// One open text view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextView {
    /// YAML or describe.
    pub kind: ViewKind,
    /// The real text (what `s` saves; not for the terminal).
    pub text: String,
    /// The text's lines, sanitised for the terminal.
    pub lines: Vec<String>,
    /// YAML: each line's parts for colouring ([`crate::model::yaml::syntax::classify`]); empty
    /// for describe.
    pub parts: Vec<Vec<(Part, Range<usize>)>>,
    /// First line in view.
    pub scroll: usize,
    /// YAML: `metadata.managedFields` shown (`m`).
    pub managed_fields: bool,
    /// The search text after `/` + Enter (matched case-insensitively), if any.
    pub query: Option<String>,
    /// Lines containing the query, in order.
    pub matches: Vec<usize>,
    /// Index into `matches` of the current match.
    pub current: Option<usize>,
    /// The search being typed after `/` (reads raw keys while `Some`).
    pub input: Option<Prompt>,
    /// `metadata.resourceVersion` of the object shown (empty before the first object).
    pub resource_version: String,
    /// The last change of the object while the view was open.
    pub changed: Option<Change>,
}

impl TextView {
    /// A view of `kind` built from `state` at the top.
    #[must_use]
    pub fn open(kind: ViewKind, state: &State) -> TextView {
        let mut view = TextView {
            kind,
            text: String::new(),
            lines: Vec::new(),
            parts: Vec::new(),
            scroll: 0,
            managed_fields: false,
            query: None,
            matches: Vec::new(),
            current: None,
            input: None,
            resource_version: String::new(),
            changed: None,
        };
        view.rebuild(state);
        view
    }

    /// Rebuilds the text from `state` (the raw pod, its events, `now`), keeping the scroll
    /// (clamped) and the query (its matches found again); a new `resourceVersion` is recorded
    /// as a [`Change`] at `state.now`.
    pub fn rebuild(&mut self, state: &State) {
        let object = state.target.object.as_deref();
        // The timeline reads the pod summary and its events, not the raw object.
        let shown = match self.kind {
            ViewKind::Timeline => state.target.pod.is_some(),
            ViewKind::Yaml | ViewKind::Describe => object.is_some(),
        };
        self.text = match (object, self.kind) {
            (_, ViewKind::Timeline) => timeline_text(state),
            (None, _) => String::new(),
            (Some(pod), ViewKind::Yaml) => crate::model::yaml::to_yaml(
                &crate::model::yaml::pod_value(pod),
                self.managed_fields,
            ),
            (Some(pod), ViewKind::Describe) => {
                crate::model::describe::describe_pod(pod, &state.target.events, state.now)
            }
        };
        self.lines = if !shown {
            vec!["no pod object yet: waiting for the pod watch".to_owned()]
        } else {
            crate::model::yaml::display_lines(&self.text)
        };
        self.parts = match self.kind {
            ViewKind::Yaml if object.is_some() => crate::model::yaml::syntax::classify(&self.lines),
            _ => Vec::new(),
        };
        let rv = object
            .and_then(|p| p.metadata.resource_version.clone())
            .unwrap_or_default();
        if !self.resource_version.is_empty() && rv != self.resource_version {
            self.changed = Some(Change {
                from: self.resource_version.clone(),
                to: rv.clone(),
                at: state.now,
            });
        }
        self.resource_version = rv;
        self.find_matches();
        self.scroll = self.scroll.min(self.max_scroll(page(state)));
    }

    /// How far the view scrolls with `page` lines in view.
    #[must_use]
    pub fn max_scroll(&self, page: usize) -> usize {
        self.lines.len().saturating_sub(page)
    }

    /// The lines containing the query, case-insensitively; the current match kept when it is
    /// still one, else the first at or after the scroll.
    fn find_matches(&mut self) {
        let Some(q) = self.query.as_ref().map(|q| q.to_lowercase()) else {
            self.matches.clear();
            self.current = None;
            return;
        };
        let was = self.current.and_then(|i| self.matches.get(i)).copied();
        self.matches = self
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.to_lowercase().contains(&q))
            .map(|(i, _)| i)
            .collect();
        self.current = was
            .and_then(|line| self.matches.iter().position(|&m| m == line))
            .or_else(|| self.matches.iter().position(|&m| m >= self.scroll))
            .or(if self.matches.is_empty() {
                None
            } else {
                Some(0)
            });
    }

    /// The change to mention in the title at `now` (within [`UPDATED_FOR`] of it).
    #[must_use]
    pub fn recent_change(&self, now: Timestamp) -> Option<&Change> {
        self.changed
            .as_ref()
            .filter(|c| now.duration_since(c.at) < UPDATED_FOR)
    }
}

/// Lines of text in view: the screen's rows less the title and the footer line (10 before the
/// first `Msg::Resize`).
#[must_use]
pub fn page(state: &State) -> usize {
    state
        .screen
        .map_or(10, |(_, rows)| usize::from(rows).saturating_sub(2))
        .max(1)
}

/// The timeline of the target (`docs/timeline.md`): what the pod and its events reconstruct,
/// merged with what the watch saw since attach, as a table.
fn timeline_text(state: &State) -> String {
    use crate::model::timeline;
    let t = &state.target;
    let Some(pod) = &t.pod else {
        return String::new();
    };
    let entries = timeline::merged(timeline::reconstruct(pod, &t.events), &t.history);
    timeline::to_text(&entries, t.history.dropped(), state.now)
}

/// The open view, if any.
#[must_use]
pub fn open_view(state: &State) -> Option<&TextView> {
    match &state.overlay {
        Overlay::View(v) => Some(v),
        _ => None,
    }
}

/// After the events, the pod summary or the clock changed: the open describe or timeline view
/// rebuilt (its event ages and list, the history, its clock times), see [`refresh`]; a YAML
/// view reads none of them (it follows `Msg::PodObject`).
pub fn refresh_derived(state: &mut State) {
    if open_view(state).is_some_and(|v| matches!(v.kind, ViewKind::Describe | ViewKind::Timeline)) {
        refresh(state);
    }
}

/// After the pod object, its events or the clock changed: the open view rebuilt (dirty when
/// its text or title changed).
pub fn refresh(state: &mut State) {
    let Overlay::View(view) = &state.overlay else {
        return;
    };
    let mut view = view.clone();
    view.rebuild(state);
    if Some(&*view) != open_view(state) {
        state.dirty = true;
        state.overlay = Overlay::View(view);
    }
}
