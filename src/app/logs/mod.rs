//! The log pane's state ([`LogPane`], `state.target.logs`) and its part of `update`: streams per
//! container with following across restarts ([`follow`]), keys and typed input ([`actions`]),
//! the previous instance and back ([`previous`]), saving ([`save`]), search and filter matching
//! ([`search`]), and which instance each view reads ([`instance`]).
//!
//! Positions: every kept line has an absolute index `evicted + i` (stable while lines are only
//! appended; rebuilt after an out-of-order merge or removal). The view list is every kept line,
//! or with a filter the absolute indices in [`LogPane::filtered`]. Scrolling anchors the first
//! visible line by absolute index ([`LogPane::top`]; `None` = following the newest line), so no
//! per-frame work ever touches more than the visible lines.

pub mod actions;
pub mod follow;
pub mod instance;
pub mod previous;
pub mod save;
pub mod search;

use std::collections::VecDeque;

use crate::app::prompt::Prompt;
use crate::model::log::Inserted;
use crate::model::{EventSummary, LineKind, LogBuffer, LogLine};
use follow::Follow;
use search::Needle;

/// What is being typed at the pane's prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// `/`: a search.
    Search,
    /// `&`: a filter.
    Filter,
}

/// The prompt's state while typing (shown as `Overlay::Prompt`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// Search or filter.
    pub kind: InputKind,
    /// The line being typed.
    pub prompt: Prompt,
}

/// Everything the log pane shows and reads.
#[derive(Debug, Clone)]
pub struct LogPane {
    /// The pane is shown (`l`).
    pub shown: bool,
    /// The pane has the focus (`Tab`); keys like ↑/↓/g/G act on it.
    pub focused: bool,
    /// The loaded lines, in time order (`--log-lines` capacity).
    pub buffer: LogBuffer,
    /// `p`: the previous instance instead of the current one.
    pub previous: bool,
    /// `a`: every container interleaved by timestamp.
    pub all: bool,
    /// `t`: timestamps shown.
    pub timestamps: bool,
    /// `w`: long lines wrapped.
    pub wrap: bool,
    /// `E`: pod events woven in.
    pub events: bool,
    /// The search (`/`), if any.
    pub search: Option<Needle>,
    /// The current match's absolute index.
    pub search_at: Option<u64>,
    /// The filter (`&`), if any: only matching lines are listed.
    pub filter: Option<Needle>,
    /// With a filter: absolute indices of the matching lines, ascending.
    pub filtered: VecDeque<u64>,
    /// Absolute index of the first visible line; `None` follows the newest line.
    pub top: Option<u64>,
    /// One reader per shown container.
    pub follows: Vec<Follow>,
    /// The next stream id to hand out.
    pub next_stream: u64,
    /// The status line (saved file, no match), cleared by the next key.
    pub status: Option<String>,
    /// Lines one page scroll moves (from the terminal height).
    pub page: usize,
    /// While `p` shows the previous instance: the current view as it was (`previous::toggle`).
    pub stash: Option<previous::Stash>,
    /// Saves asked for and not answered yet: the path and what was written to it, e.g.
    /// `12 lines (filter "disk", timestamps off)`, for the status line.
    pub saving: Vec<(String, String)>,
    /// Marker lines that outlive reloads and pod moves (`── pod … deleted; following its
    /// replacement … ──`): put back by [`LogPane::clear`], carried by
    /// [`LogPane::settings_only`].
    pub carried: Vec<LogLine>,
}

impl LogPane {
    /// A hidden pane keeping at most `capacity` lines.
    #[must_use]
    pub fn new(capacity: usize) -> LogPane {
        LogPane {
            shown: false,
            focused: false,
            buffer: LogBuffer::new(capacity),
            previous: false,
            all: false,
            timestamps: false,
            wrap: false,
            events: false,
            search: None,
            search_at: None,
            filter: None,
            filtered: VecDeque::new(),
            top: None,
            follows: Vec::new(),
            next_stream: 1,
            status: None,
            page: 10,
            stash: None,
            saving: Vec::new(),
            carried: Vec::new(),
        }
    }

    /// A pane with the same settings (shown, focus, previous, all, timestamps, wrap, events,
    /// search, filter, page, status line) and capacity, but no lines but its carried markers and
    /// no readers: the pane of a re-created pod or of a workload's replacement pod.
    #[must_use]
    pub fn settings_only(&self) -> LogPane {
        let mut pane = LogPane {
            shown: self.shown,
            focused: self.focused,
            previous: self.previous,
            all: self.all,
            timestamps: self.timestamps,
            wrap: self.wrap,
            events: self.events,
            search: self.search.clone(),
            filter: self.filter.clone(),
            status: self.status.clone(),
            page: self.page,
            carried: self.carried.clone(),
            ..LogPane::new(self.buffer.capacity())
        };
        let carried = pane.carried.clone();
        pane.insert(carried);
        pane
    }

    /// Whether the view follows the newest line.
    #[must_use]
    pub fn following(&self) -> bool {
        self.top.is_none()
    }

    /// Absolute index of the oldest kept line.
    #[must_use]
    pub fn base(&self) -> u64 {
        self.buffer.evicted()
    }

    /// Number of lines in the view list.
    #[must_use]
    pub fn view_len(&self) -> usize {
        if self.filter.is_some() {
            self.filtered.len()
        } else {
            self.buffer.len()
        }
    }

    /// The line at view position `pos` with its absolute index.
    #[must_use]
    pub fn view_line(&self, pos: usize) -> Option<(u64, &LogLine)> {
        let abs = if self.filter.is_some() {
            *self.filtered.get(pos)?
        } else {
            self.base() + pos as u64
        };
        let i = usize::try_from(abs.checked_sub(self.base())?).ok()?;
        self.buffer.get(i).map(|l| (abs, l))
    }

    /// View position of absolute index `abs` (the first listed line at or after it).
    #[must_use]
    pub fn pos_of(&self, abs: u64) -> usize {
        if self.filter.is_some() {
            self.filtered.partition_point(|&a| a < abs)
        } else {
            usize::try_from(abs.saturating_sub(self.base())).unwrap_or(usize::MAX)
        }
        .min(self.view_len().saturating_sub(1))
    }

    /// Absolute index of view position `pos` (clamped to the list).
    #[must_use]
    pub fn abs_of(&self, pos: usize) -> Option<u64> {
        let last = self.view_len().checked_sub(1)?;
        self.view_line(pos.min(last)).map(|(a, _)| a)
    }

    /// View position of the first visible line (at the bottom: one page from the end).
    #[must_use]
    pub fn top_pos(&self) -> usize {
        match self.top {
            Some(abs) => self.pos_of(abs),
            None => self.view_len().saturating_sub(self.page),
        }
    }

    /// Whether `line` passes the filter.
    fn passes(&self, line: &LogLine) -> bool {
        self.filter.as_ref().is_none_or(|f| f.is_in(&line.text))
    }

    /// Inserts lines (in time order among themselves) and keeps the filter index current:
    /// appended lines are indexed one by one, a merge rebuilds it.
    pub fn insert(&mut self, lines: Vec<LogLine>) {
        if lines.is_empty() {
            return;
        }
        let n = lines.len();
        match self.buffer.insert_by_time(lines) {
            Inserted::Appended => {
                if self.filter.is_some() {
                    let len = self.buffer.len();
                    let start = len.saturating_sub(n);
                    for i in start..len {
                        if let Some(l) = self.buffer.get(i)
                            && self.passes(l)
                        {
                            self.filtered.push_back(self.base() + i as u64);
                        }
                    }
                }
            }
            Inserted::Merged { .. } => self.reindex(),
        }
        let base = self.base();
        while self.filtered.front().is_some_and(|&a| a < base) {
            self.filtered.pop_front();
        }
        if let Some(t) = self.top
            && t < base
        {
            self.top = Some(base);
        }
    }

    /// Rebuilds the filter index from every kept line (after a merge, a removal, a new filter).
    pub fn reindex(&mut self) {
        self.filtered.clear();
        if self.filter.is_none() {
            return;
        }
        let base = self.base();
        let matching: VecDeque<u64> = self
            .buffer
            .lines()
            .iter()
            .enumerate()
            .filter(|(_, l)| self.passes(l))
            .map(|(i, _)| base + i as u64)
            .collect();
        self.filtered = matching;
    }

    /// Drops every line and reader state (before loading another container or instance); the
    /// [`LogPane::carried`] markers are put back.
    pub fn clear(&mut self) {
        self.buffer.clear();
        self.filtered.clear();
        self.top = None;
        self.search_at = None;
        self.follows.clear();
        let carried = self.carried.clone();
        self.insert(carried);
    }

    /// Adds `marker` to the pane now and to the markers kept over reloads.
    pub fn carry(&mut self, marker: LogLine) {
        self.carried.push(marker.clone());
        self.insert(vec![marker]);
    }

    /// The containers whose lines are shown.
    fn shows(&self, container: &str) -> bool {
        self.follows.iter().any(|f| f.container() == container)
    }

    /// Replaces the woven-in event lines with `events` about the shown containers (and the pod
    /// itself), placed by their last timestamp; removes them all when events are off.
    pub fn weave_events(&mut self, events: &[EventSummary]) {
        if self.buffer.retain(|l| l.kind != LineKind::Event) > 0 {
            self.reindex();
        }
        if !self.events {
            return;
        }
        let mut lines: Vec<LogLine> = events
            .iter()
            .filter_map(|e| {
                let container = event_container(&e.field_path);
                if !container.is_empty() && !self.shows(container) {
                    return None;
                }
                let count = if e.count > 1 {
                    format!(" (x{})", e.count)
                } else {
                    String::new()
                };
                let text = format!("◆ {} {}: {}{count}", e.type_, e.reason, e.message);
                let ts = e.last_timestamp.or(e.first_timestamp);
                Some(LogLine::note(container, 0, ts, LineKind::Event, &text))
            })
            .collect();
        lines.sort_by_key(|l| l.ts);
        self.insert(lines);
    }
}

/// The container an event's `involvedObject.fieldPath` names (`spec.containers{app}` → `app`),
/// or `""` for the pod itself.
#[must_use]
pub fn event_container(field_path: &str) -> &str {
    field_path
        .split_once('{')
        .and_then(|(_, rest)| rest.strip_suffix('}'))
        .unwrap_or("")
}

/// `12345` → `12,345` (for the dropped-lines count in the title).
#[must_use]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
