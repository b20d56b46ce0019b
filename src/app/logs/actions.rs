//! The log pane's part of `update`: keys, the typed prompt, stream messages and pod updates.
//! Pure: every effect is a returned [`Cmd`].

use crossterm::event::{KeyEvent, KeyEventKind};

use super::follow::{Follow, Reopen, Role, Step};
use super::search::Needle;
use super::{Input, InputKind, LogPane};
use crate::app::Cmd;
use crate::app::keymap::Action;
use crate::app::overlay::Overlay;
use crate::app::prompt::{Outcome, Prompt};
use crate::app::state::State;
use crate::model::LogLine;

pub use super::save::saved;

/// Stops every stream and starts reading what the pane shows now: the selected container (or
/// all with `a`), current instance (or previous with `p`). Nothing while hidden or without a pod.
/// A current view kept while `p` shows the previous instance is dropped.
pub fn reload(state: &mut State) -> Vec<Cmd> {
    state.target.logs.stash = None;
    restart(state)
}

/// [`reload`] keeping [`LogPane::stash`].
pub(super) fn restart(state: &mut State) -> Vec<Cmd> {
    let mut cmds: Vec<Cmd> = state
        .target
        .logs
        .follows
        .iter()
        .filter_map(Follow::stream)
        .map(|stream| Cmd::StopLogs { stream })
        .collect();
    state.target.logs.clear();
    state.dirty = true;
    let Some(pod) = state
        .target
        .pod
        .as_ref()
        .filter(|_| state.target.logs.shown)
    else {
        return cmds;
    };
    let targets: Vec<_> = if state.target.logs.all {
        pod.containers.iter().collect()
    } else {
        pod.containers
            .get(state.target.selected)
            .into_iter()
            .collect()
    };
    let mut started = Vec::new();
    for c in targets {
        let (f, step) = Follow::start(&c.name, Some(c), state.target.logs.previous);
        started.push((f, step));
    }
    for (f, step) in started {
        state.target.logs.follows.push(f);
        let idx = state.target.logs.follows.len() - 1;
        cmds.extend(run_steps(&mut state.target.logs, idx, vec![step]));
    }
    let events = state.target.events.clone();
    state.target.logs.weave_events(&events);
    cmds
}

/// Carries out `steps` for reader `idx`: opens streams (new ids) and inserts markers.
pub(super) fn run_steps(pane: &mut LogPane, idx: usize, steps: Vec<Step>) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    for step in steps {
        match step {
            Step::Open {
                role,
                previous,
                since,
            } => {
                let stream = pane.next_stream;
                pane.next_stream += 1;
                let Some(f) = pane.follows.get_mut(idx) else {
                    continue;
                };
                f.opened(stream, role);
                let first_read = since.is_none() && role != Role::Tail;
                cmds.push(Cmd::FollowLogs {
                    stream,
                    container: f.container().to_owned(),
                    previous,
                    since,
                    tail_lines: first_read
                        .then(|| i64::try_from(pane.buffer.capacity()).unwrap_or(i64::MAX)),
                });
            }
            Step::Marker(line) => pane.insert(vec![line]),
            // The pane keeps showing what was read; nothing more will come.
            Step::Done => {}
        }
    }
    cmds
}

/// `Msg::LogLines`: lines of a current stream are kept (duplicates of a resumed read dropped);
/// a stale stream id changes nothing.
pub fn lines(state: &mut State, stream: u64, lines: Vec<LogLine>) -> Vec<Cmd> {
    let pane = &mut state.target.logs;
    let Some(f) = pane.follows.iter_mut().find(|f| f.stream() == Some(stream)) else {
        return Vec::new();
    };
    let kept = f.accept(lines);
    if !kept.is_empty() {
        pane.insert(kept);
        state.dirty = true;
    }
    Vec::new()
}

/// `Msg::LogStreamEnded`: records why (shown when nothing was read) and moves the reader on.
pub fn ended(state: &mut State, stream: u64, reason: Option<&str>) -> Vec<Cmd> {
    let pane = &mut state.target.logs;
    let Some(idx) = pane.follows.iter().position(|f| f.stream() == Some(stream)) else {
        return Vec::new();
    };
    pane.follows[idx].ended(reason);
    state.dirty = true;
    let Some(pod) = state.target.pod.as_ref() else {
        return Vec::new();
    };
    let steps = state.target.logs.follows[idx].advance(pod, Reopen::Never);
    run_steps(&mut state.target.logs, idx, steps)
}

/// After `Msg::PodApplied`: reloads when the shown containers changed (`reload_needed`, or the
/// selection moved to another container), else lets each reader react to the new status.
pub fn pod_changed(state: &mut State, reload_needed: bool) -> Vec<Cmd> {
    if !state.target.logs.shown {
        return Vec::new();
    }
    let Some(wanted) = wanted_containers(state) else {
        return Vec::new();
    };
    let have: Vec<&str> = state
        .target
        .logs
        .follows
        .iter()
        .map(Follow::container)
        .collect();
    if reload_needed || wanted != have {
        return reload(state);
    }
    let mut cmds = Vec::new();
    for idx in 0..state.target.logs.follows.len() {
        let Some(pod) = state.target.pod.as_ref() else {
            continue;
        };
        let steps = state.target.logs.follows[idx].advance(pod, Reopen::OnError);
        if !steps.is_empty() {
            state.dirty = true;
        }
        cmds.extend(run_steps(&mut state.target.logs, idx, steps));
    }
    cmds
}

/// After the events changed: re-weaves them when shown inline.
pub fn events_changed(state: &mut State) {
    if state.target.logs.shown && state.target.logs.events {
        let events = state.target.events.clone();
        state.target.logs.weave_events(&events);
        state.dirty = true;
    }
}

/// A key while the prompt is open, edited by [`Prompt::key`]: Enter applies the search or
/// filter, Esc or Ctrl-C cancel.
pub fn input_key(state: &mut State, key: &KeyEvent) -> Vec<Cmd> {
    let Overlay::Prompt(input) = &mut state.overlay else {
        return Vec::new();
    };
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    state.dirty = true;
    match input.prompt.key(key) {
        Outcome::Editing => {}
        Outcome::Cancelled => state.overlay = Overlay::None,
        Outcome::Accepted(text) => {
            let kind = input.kind;
            state.overlay = Overlay::None;
            match kind {
                InputKind::Search => search(&mut state.target.logs, &text),
                InputKind::Filter => set_filter(&mut state.target.logs, &text),
            }
        }
    }
    Vec::new()
}

/// Applies a log-pane action (see [`crate::app::keymap::KEYMAP`]).
pub fn apply(state: &mut State, action: Action) -> Vec<Cmd> {
    state.dirty = true;
    state.target.logs.status = None;
    let pane = &mut state.target.logs;
    match action {
        Action::ToggleLogs => {
            pane.shown = !pane.shown;
            pane.focused = pane.shown;
            return reload(state);
        }
        Action::SwitchFocus => pane.focused = !pane.focused,
        Action::LogPrevious => return super::previous::toggle(state),
        Action::LogAll => {
            pane.all = !pane.all;
            return reload(state);
        }
        Action::LogFollow => {
            pane.top = match pane.top {
                None => pane.abs_of(pane.top_pos()),
                Some(_) => None,
            };
        }
        Action::LogTimestamps => pane.timestamps = !pane.timestamps,
        Action::LogWrap => {
            pane.wrap = !pane.wrap;
            pane.status = Some(if pane.wrap { "wrap on" } else { "wrap off" }.to_owned());
        }
        Action::LogEvents => {
            pane.events = !pane.events;
            let events = state.target.events.clone();
            state.target.logs.weave_events(&events);
        }
        Action::LogSearch | Action::LogFilter => {
            let kind = if action == Action::LogSearch {
                InputKind::Search
            } else {
                InputKind::Filter
            };
            let text = match kind {
                InputKind::Filter => pane.filter.as_ref().map(|n| n.text.clone()),
                InputKind::Search => None,
            };
            state.overlay = Overlay::Prompt(Input {
                kind,
                prompt: Prompt::with_text(&text.unwrap_or_default()),
            });
        }
        Action::LogNextMatch => step_match(pane, true),
        Action::LogPrevMatch => step_match(pane, false),
        Action::LogSave => return super::save::save(state),
        Action::LogUp => scroll_up(pane, 1),
        Action::LogPageUp => scroll_up(pane, pane.page),
        Action::LogDown => scroll_down(pane, 1),
        Action::LogPageDown => scroll_down(pane, pane.page),
        Action::LogTop => pane.top = pane.abs_of(0),
        Action::LogBottom => pane.top = None,
        _ => {}
    }
    Vec::new()
}

fn scroll_up(pane: &mut LogPane, n: usize) {
    let pos = pane.top_pos().saturating_sub(n);
    pane.top = pane.abs_of(pos);
}

fn scroll_down(pane: &mut LogPane, n: usize) {
    if pane.top.is_none() {
        return;
    }
    let pos = pane.top_pos() + n;
    pane.top = if pos + pane.page >= pane.view_len() {
        None
    } else {
        pane.abs_of(pos)
    };
}

/// Starts a search for `text` from the first visible line (wrapping around).
fn search(pane: &mut LogPane, text: &str) {
    pane.search = Needle::new(text);
    pane.search_at = None;
    if pane.search.is_some() {
        let from = pane.top_pos();
        find_from(pane, from, true, true);
    }
}

/// `n` / `N`: the next / previous match after the current one.
fn step_match(pane: &mut LogPane, forward: bool) {
    if pane.search.is_none() {
        pane.status = Some("no search: type / first".to_owned());
        return;
    }
    let from = match pane.search_at {
        Some(abs) => pane.pos_of(abs),
        None => pane.top_pos(),
    };
    find_from(pane, from, forward, pane.search_at.is_none());
}

/// Finds the next match from view position `from` (`inclusive` of it) in `forward` direction,
/// wrapping around once; scrolls it to the top of the pane.
fn find_from(pane: &mut LogPane, from: usize, forward: bool, inclusive: bool) {
    let Some(needle) = pane.search.clone() else {
        return;
    };
    let len = pane.view_len();
    if len == 0 {
        pane.status = Some(format!("no match for {}", needle.text));
        return;
    }
    let from = from.min(len - 1);
    let start = if inclusive { 0 } else { 1 };
    for k in start..=len {
        let pos = if forward {
            (from + k) % len
        } else {
            (from + len - k % len) % len
        };
        if let Some((abs, line)) = pane.view_line(pos)
            && needle.is_in(&line.text)
        {
            pane.search_at = Some(abs);
            pane.top = Some(abs);
            return;
        }
    }
    pane.status = Some(format!("no match for {}", needle.text));
}

fn set_filter(pane: &mut LogPane, text: &str) {
    pane.filter = Needle::new(text);
    pane.reindex();
    pane.top = None;
}

/// The containers the pane should read now: every container with `a`, else the selected one;
/// `None` without a pod.
pub(super) fn wanted_containers(state: &State) -> Option<Vec<&str>> {
    let pod = state.target.pod.as_ref()?;
    Some(if state.target.logs.all {
        pod.containers.iter().map(|c| c.name.as_str()).collect()
    } else {
        pod.containers
            .get(state.target.selected)
            .map(|c| c.name.as_str())
            .into_iter()
            .collect()
    })
}
