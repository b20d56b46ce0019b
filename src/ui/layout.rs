//! `Areas`: where each pane goes, as a pure function of the frame size and the content heights.
//!
//! Priorities when space is short (80×24 and below): header, footer, the diagnosis block's
//! title, first headline and its hint (up to a third of the body; 1 row below 8 rows of body),
//! containers list, the selected
//! container's detail (8 rows), events (4 rows, half the body while they have focus),
//! conditions in a one-line compact form, the rest of the diagnosis block (up to a third of the
//! body), the rest of the detail, the full conditions table, the detail's spec lists (whole,
//! else its summary line), then more events. The expanded
//! diagnosis takes the whole body ([`areas_expanded`]).

use ratatui::layout::Rect;

/// Content heights each pane would like, in rows, including its one title row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wanted {
    /// Header rows (its fixed part, plus the wrapped notice and hint).
    pub header: u16,
    /// Rows of the header's fixed part (identity with the connection text, kubectl columns,
    /// placement, each wrapped): kept up to a third of the frame even past [`header_cap`].
    pub header_fixed: u16,
    /// Footer rows: the key hints' one row, or the status line wrapped (0 counts as 1).
    pub footer: u16,
    /// Diagnosis block: title + its lines (0 without findings).
    pub diagnosis: u16,
    /// Diagnosis block's core: title + the first headline + its hint (0 without findings).
    pub diagnosis_core: u16,
    /// Container list: title + one row per container.
    pub containers: u16,
    /// Detail of the selected container: title + lines.
    pub detail: u16,
    /// The detail with the spec's one-line summary (`ui::container_spec`): served whole or
    /// not at all, after the full conditions table, when [`Wanted::detail_full`] does not fit.
    pub detail_compact: u16,
    /// The detail with the spec's full lists: served whole or not at all, after the full
    /// conditions table, before more events.
    pub detail_full: u16,
    /// Conditions: title + one row per condition.
    pub conditions: u16,
    /// Events: title + one row per event (at least title + 1), + the selected one's full text.
    pub events: u16,
    /// The events pane has focus: it gets up to half the body before the rest of the detail.
    pub events_first: bool,
}

/// The rectangles of each pane; zero-height rectangles mean "not shown".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Areas {
    /// Pod identity, connection, STATUS/READY/RESTARTS/AGE.
    pub header: Rect,
    /// The diagnosis: its first findings, or all of them when expanded.
    pub diagnosis: Rect,
    /// One line per container.
    pub containers: Rect,
    /// The selected container in full.
    pub detail: Rect,
    /// Pod conditions (possibly the 2-row compact form).
    pub conditions: Rect,
    /// Events, newest first.
    pub events: Rect,
    /// Key hints.
    pub footer: Rect,
}

/// Rows of the smallest useful detail pane before events get space.
const DETAIL_MIN: u16 = 8;
/// Rows of the smallest useful events pane.
const EVENTS_MIN: u16 = 4;
/// Rows of the diagnosis block first served: its title and the first headline.
const DIAGNOSIS_MIN: u16 = 2;

/// The diagnosis block's first rows in a body of `body` rows: its core (title, first headline,
/// hint) up to a third of the body, at least the title and the headline; only the headline below 8
/// rows; the title and the headline only while the events pane has focus (it takes half the
/// body). Never more than the block wants.
fn diagnosis_floor(body: u16, wanted: Wanted) -> u16 {
    let floor = if wanted.events_first && body >= 8 {
        DIAGNOSIS_MIN
    } else if body >= 8 {
        wanted.diagnosis_core.min(body / 3).max(DIAGNOSIS_MIN)
    } else {
        1
    };
    wanted.diagnosis.min(floor)
}

/// The most rows the header may take of a frame `h` rows high: its two essential lines when
/// short, room for a notice from 16 rows, for wrapped notes and a hint from 30.
fn header_cap(h: u16) -> u16 {
    match h {
        0..16 => 2,
        16..30 => 4,
        30..36 => 6,
        _ => 7,
    }
}

/// Splits `area` into panes. Never panics, whatever the size (0×0 included).
#[must_use]
pub fn areas(area: Rect, wanted: Wanted) -> Areas {
    let h = area.height;
    let (header_h, footer_h) = header_footer(h, wanted);
    let mut rest = h - footer_h - header_h;
    let body = rest;

    let third = (rest / 3).max(2);
    let diagnosis_min = take(&mut rest, diagnosis_floor(body, wanted));
    let containers = take(&mut rest, wanted.containers.min(third));
    let detail_min = take(&mut rest, wanted.detail.min(DETAIL_MIN));
    let events_floor = if wanted.events_first {
        EVENTS_MIN.max(body / 2)
    } else {
        EVENTS_MIN
    };
    let events_min = take(&mut rest, wanted.events.min(events_floor));
    // The compact form whole or not at all: a title without its line says nothing.
    let compact_want = wanted.conditions.min(2);
    let compact = if rest >= compact_want {
        take(&mut rest, compact_want)
    } else {
        0
    };
    let diagnosis_cap = (body / 3).max(diagnosis_min);
    let diagnosis_extra = take(
        &mut rest,
        wanted
            .diagnosis
            .min(diagnosis_cap)
            .saturating_sub(diagnosis_min),
    );
    let detail_extra = take(&mut rest, wanted.detail.saturating_sub(detail_min));
    let full_extra = wanted.conditions.saturating_sub(compact);
    let conditions = compact
        + if rest >= full_extra {
            take(&mut rest, full_extra)
        } else {
            0
        };
    // The spec's full lists, else its summary line, whole or not at all, once the detail has
    // all its other lines.
    let mut detail_full = 0;
    if detail_min + detail_extra == wanted.detail {
        for form in [wanted.detail_full, wanted.detail_compact] {
            let more = form.saturating_sub(wanted.detail);
            if rest >= more {
                detail_full = take(&mut rest, more);
                break;
            }
        }
    }
    let events_h = events_min + rest;

    let mut y = area.y;
    let mut next = |height: u16| {
        let r = Rect::new(area.x, y, area.width, height);
        y += height;
        r
    };
    Areas {
        header: next(header_h),
        diagnosis: next(diagnosis_min + diagnosis_extra),
        containers: next(containers),
        detail: next(detail_min + detail_extra + detail_full),
        conditions: next(conditions),
        events: next(events_h),
        footer: next(footer_h),
    }
}

/// Rows of the smallest detail pane next to the log pane.
const DETAIL_MIN_WITH_LOGS: u16 = 6;
/// Rows the log pane keeps whatever the size: one, to say when it is too small to show lines.
const LOGS_FLOOR: u16 = 1;
/// Rows the log pane keeps, before the diagnosis and the detail, in a body of at least
/// [`LOGS_ROOM_FROM`] rows: its title and a few lines.
const LOGS_ROOM: u16 = 4;
/// Rows of body from which the log pane keeps [`LOGS_ROOM`] rows.
const LOGS_ROOM_FROM: u16 = 12;

/// Splits `area` when the log pane is shown: header, the diagnosis block's title, first
/// headline and hint (up to a third of the body), containers, the detail (up to a third of the room, at least
/// [`DETAIL_MIN_WITH_LOGS`] rows when it wants them), the log pane with the rest (at least
/// [`LOGS_ROOM`] rows from a body of [`LOGS_ROOM_FROM`], [`LOGS_FLOOR`] row while the body has
/// two), footer. Conditions and events are not shown
/// (events can be woven into the log).
/// Returns the areas (conditions and events empty) and the log pane's rectangle.
#[must_use]
pub fn areas_with_logs(area: Rect, wanted: Wanted) -> (Areas, Rect) {
    let h = area.height;
    let (header_h, footer_h) = header_footer(h, wanted);
    let mut rest = h - footer_h - header_h;
    let floor = diagnosis_floor(rest, wanted);
    // The diagnosis headline first when the body is a single row.
    let logs_floor = if rest >= LOGS_ROOM_FROM {
        take(&mut rest, LOGS_ROOM)
    } else if rest >= 2 {
        take(&mut rest, LOGS_FLOOR)
    } else {
        0
    };
    let third = (rest / 3).max(2);
    let diagnosis = take(&mut rest, floor);
    let containers = take(&mut rest, wanted.containers.min(third));
    let detail_cap = (rest / 3).max(DETAIL_MIN_WITH_LOGS);
    let detail = take(&mut rest, wanted.detail.min(detail_cap));
    let logs_h = logs_floor + rest;
    let mut y = area.y;
    let mut next = |height: u16| {
        let r = Rect::new(area.x, y, area.width, height);
        y += height;
        r
    };
    let header = next(header_h);
    let diagnosis = next(diagnosis);
    let containers = next(containers);
    let detail = next(detail);
    let logs = next(logs_h);
    let footer = next(footer_h);
    let empty = Rect::new(area.x, logs.y, area.width, 0);
    (
        Areas {
            header,
            diagnosis,
            containers,
            detail,
            conditions: empty,
            events: empty,
            footer,
        },
        logs,
    )
}

/// Splits `area` while the diagnosis is expanded: header, the diagnosis over the whole body,
/// footer; the other panes are empty.
#[must_use]
pub fn areas_expanded(area: Rect, wanted: Wanted) -> Areas {
    let h = area.height;
    let (header_h, footer_h) = header_footer(h, wanted);
    let body = h - footer_h - header_h;
    let header = Rect::new(area.x, area.y, area.width, header_h);
    let diagnosis = Rect::new(area.x, area.y + header_h, area.width, body);
    let empty = Rect::new(area.x, area.y + header_h + body, area.width, 0);
    Areas {
        header,
        diagnosis,
        containers: empty,
        detail: empty,
        conditions: empty,
        events: empty,
        footer: Rect::new(area.x, area.y + header_h + body, area.width, footer_h),
    }
}

/// The header's and the footer's rows in a frame `h` rows high: the header up to
/// [`header_cap`], or its fixed part (plus one row for a notice from 30 rows, so a tall fixed
/// part — a workload's block and the node line — does not hide it) up to a third of the frame
/// if that is more; the footer one
/// row from 4 rows, its wrapped status line up to a quarter of the frame.
fn header_footer(h: u16, wanted: Wanted) -> (u16, u16) {
    let footer_h = if h >= 4 {
        wanted.footer.clamp(1, (h / 4).max(1))
    } else {
        0
    };
    let fixed = if h >= 30 {
        wanted.header_fixed.saturating_add(1)
    } else {
        wanted.header_fixed
    };
    let cap = header_cap(h).max(fixed.min(h / 3));
    let header_h = wanted.header.min(cap).min(h - footer_h);
    (header_h, footer_h)
}

/// Takes up to `want` rows from `rest`.
fn take(rest: &mut u16, want: u16) -> u16 {
    let got = want.min(*rest);
    *rest -= got;
    got
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted(events_first: bool) -> Wanted {
        Wanted {
            header: 3,
            header_fixed: 3,
            footer: 1,
            diagnosis: 12,
            diagnosis_core: 5,
            containers: 3,
            detail: 14,
            detail_compact: 15,
            detail_full: 20,
            conditions: 5,
            events: 9,
            events_first,
        }
    }

    /// Every split fills the frame exactly, top to bottom, whatever its height.
    #[test]
    fn panes_tile_the_frame_and_the_diagnosis_keeps_its_headline() {
        for h in 0..=60 {
            let area = Rect::new(0, 0, 80, h);
            for focus in [false, true] {
                let a = areas(area, wanted(focus));
                let (l, _) = areas_with_logs(area, wanted(focus));
                let e = areas_expanded(area, wanted(focus));
                for (name, set) in [("areas", a), ("with logs", l), ("expanded", e)] {
                    let rows = [
                        set.header,
                        set.diagnosis,
                        set.containers,
                        set.detail,
                        set.conditions,
                        set.events,
                    ];
                    let total: u16 = rows.iter().map(|r| r.height).sum::<u16>() + set.footer.height;
                    if name != "with logs" {
                        assert_eq!(total, h, "{name} at 80×{h}");
                    }
                    let body = h.saturating_sub(set.header.height + set.footer.height);
                    if body >= 8 {
                        assert!(set.diagnosis.height >= 2, "{name} at 80×{h}: {set:?}");
                    } else if body >= 1 {
                        assert!(set.diagnosis.height >= 1, "{name} at 80×{h}: {set:?}");
                    }
                }
            }
        }
        // 80×24: title + headline at least, up to a third of the body.
        let a = areas(Rect::new(0, 0, 80, 24), wanted(false));
        assert!((2..=6).contains(&a.diagnosis.height), "{a:?}");
        assert_eq!(a.diagnosis.y, 3);
        // The focused events pane gets half the body.
        let f = areas(Rect::new(0, 0, 120, 40), wanted(true));
        assert!(f.events.height >= 9, "{f:?}");
    }
}
