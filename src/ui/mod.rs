//! The pure view: `view(frame, &state)` draws the whole screen from `State` and never mutates it.
//!
//! Panes (one file each): [`header`], [`diagnosis`] (expanded: [`diagnosis_full`]),
//! [`containers`], [`detail`] (with [`detail_findings`] and [`container_spec`]),
//! [`conditions`], [`events`], [`logs`],
//! [`footer`], [`help`]; placement in [`layout`]; styles in [`theme`].

pub mod clock;
pub mod conditions;
pub mod container_spec;
pub mod containers;
pub mod countdown;
pub mod detail;
pub mod detail_findings;
pub mod diagnosis;
pub mod diagnosis_full;
pub mod events;
pub mod exit_hint;
pub mod footer;
pub mod forwards;
pub mod header;
pub mod help;
pub mod layout;
pub mod logs;
pub mod node;
pub mod prompt;
pub mod sgr;
pub mod switcher;
pub mod text_view;
pub mod usage;
/// The styles live outside `ui` ([`crate::theme`]) so the core can hold them as data; this
/// re-export keeps the `ui::theme` path.
pub use crate::theme;
pub mod width;
pub mod workload;

use ratatui::Frame;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

use crate::app::State;
use theme::Theme;

/// What the view keeps between frames so an unchanged part is not formatted again: the events
/// pane's rows. Owned by the loop (`tui::run`) and passed to [`view_cached`]; it holds only what
/// can be rebuilt from `State`, so a fresh one draws the same frame.
#[derive(Debug, Default)]
pub struct ViewCache {
    events: events::Cache,
}

impl ViewCache {
    /// The events pane's part (how often it was formatted, and how many rows).
    #[must_use]
    pub fn events(&self) -> &events::Cache {
        &self.events
    }
}

/// Draws the whole screen for `state` into `frame`. Any size works (down to 0×0).
pub fn view(frame: &mut Frame, state: &State) {
    view_cached(frame, state, &mut ViewCache::default());
}

/// [`view`], reusing what `cache` kept from the last frame where it still holds.
pub fn view_cached(frame: &mut Frame, state: &State, cache: &mut ViewCache) {
    let area = frame.area();
    // A YAML or describe view (`y`, `D`) is the whole screen.
    if let Some(text) = crate::app::views::open_view(state) {
        text_view::render(frame, area, state, text);
        return;
    }
    // A bare `podscope`: no pod yet, the picker is the whole screen.
    if state.overlay.switcher().is_some_and(|sw| sw.standalone) {
        switcher::render(frame, area, state);
        return;
    }
    let detail_forms = detail::wanted_forms(state, area.width);
    let wanted = layout::Wanted {
        header: header::wanted(state, area.width),
        header_fixed: header::fixed_rows(state, area.width),
        footer: footer::wanted(state, area.width),
        diagnosis: diagnosis::wanted(state, area.width),
        diagnosis_core: diagnosis::core(state, area.width),
        containers: containers::wanted(state),
        detail: detail_forms[0],
        detail_compact: detail_forms[1],
        detail_full: detail_forms[2],
        conditions: conditions::wanted(state),
        events: events::wanted(state, area.width),
        events_first: state.key_mode().events_focus,
    };
    let expanded = state.overlay.diagnosis_scroll().is_some();
    let (areas, logs_area) = if expanded {
        (
            layout::areas_expanded(area, wanted),
            ratatui::layout::Rect::default(),
        )
    } else if state.target.logs.shown {
        layout::areas_with_logs(area, wanted)
    } else {
        (
            layout::areas(area, wanted),
            ratatui::layout::Rect::default(),
        )
    };
    header::render(frame, areas.header, state);
    if expanded {
        diagnosis_full::render(frame, areas.diagnosis, state);
    } else {
        diagnosis::render(frame, areas.diagnosis, state);
        containers::render(frame, areas.containers, state);
        detail::render(frame, areas.detail, state);
    }
    if areas.conditions.height > 0 {
        conditions::render(frame, areas.conditions, state);
    }
    if areas.events.height > 0 {
        events::render_cached(frame, areas.events, state, &mut cache.events);
    }
    if logs_area.height > 0 {
        logs::render(frame, logs_area, state);
    }
    footer::render(frame, areas.footer, state);
    if state.overlay.forwards_shown() {
        forwards::render(frame, area, state);
    }
    if state.overlay.switcher().is_some() {
        switcher::render(frame, area, state);
    }
    if state.overlay.help_scroll().is_some() {
        help::render(frame, area, state);
    }
}

/// The scroll limits of help and the expanded diagnosis on a `cols × rows` terminal, for the
/// core (`Msg::Measured`): the loop measures them after each draw. The expanded diagnosis is
/// measured only while it is shown (wrapping every finding is not free, and the draw path is
/// hot); otherwise its last measure is kept.
#[must_use]
pub fn extents(state: &State, cols: u16, rows: u16) -> crate::app::overlay::Extents {
    let diagnosis_shown = state.overlay.diagnosis_scroll().is_some();
    crate::app::overlay::Extents {
        help_max_scroll: help::max_scroll(cols, rows),
        diagnosis_max_scroll: if diagnosis_shown {
            diagnosis_full::max_scroll(state, cols, rows)
        } else {
            state.extents.diagnosis_max_scroll
        },
        diagnosis_page: if diagnosis_shown {
            diagnosis_full::page(state, cols, rows)
        } else {
            state.extents.diagnosis_page
        },
    }
}

/// A pane's block: a top rule carrying the title.
fn section<'a>(title: &str, theme: &Theme) -> Block<'a> {
    Block::new()
        .borders(Borders::TOP)
        .border_style(theme.dim)
        .title(Span::styled(format!(" {title} "), theme.title))
}
