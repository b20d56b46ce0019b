//! The port-forward panel (`f`): one row per forward with its state (listening / active /
//! broken), open connections, bytes each way and the last error; `a` types a new spec.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::forwards::ForwardEntry;
use crate::app::state::State;
use crate::model::sanitize::sanitize;

/// `1234` → `1.2 KiB` (binary units, one decimal from KiB up; plain bytes below).
#[must_use]
pub fn bytes(n: u64) -> String {
    const UNITS: &[&str] = &["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    #[allow(clippy::cast_precision_loss)] // display only
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

fn row(e: &ForwardEntry) -> String {
    let local = e
        .status
        .as_ref()
        .and_then(|s| s.local)
        .map_or_else(|| e.spec.bind_addr().to_string(), |a| a.to_string());
    let (open, total, din, dout) = e.status.as_ref().map_or((0, 0, 0, 0), |s| {
        (
            s.open_connections,
            s.total_connections,
            s.bytes_in,
            s.bytes_out,
        )
    });
    format!(
        "{:<22} {:<7} {:<10} {:>4} {:>6} {:>10} {:>10}",
        local,
        e.spec.remote.to_string(),
        e.state_word(),
        open,
        total,
        bytes(din),
        bytes(dout)
    )
}

/// Draws the panel centred in `area`.
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.theme;
    let p = &state.forwards;
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "  {:<22} {:<7} {:<10} {:>4} {:>6} {:>10} {:>10}",
            "LOCAL", "REMOTE", "STATE", "OPEN", "TOTAL", "IN", "OUT"
        ),
        t.title,
    ))];
    if p.entries.is_empty() {
        lines.push(Line::from(Span::styled(
            "no forwards — press a to add one (e.g. 8080:80)",
            t.dim,
        )));
    }
    for (i, e) in p.entries.iter().enumerate() {
        let text = row(e);
        let marker = if i == p.selected { "▶ " } else { "  " };
        let style = if i == p.selected {
            t.key
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(text, style),
        ]));
        if let Some(err) = e.last_error() {
            let inner = usize::from(area.width.min(POPUP_MAX_WIDTH).saturating_sub(2));
            for l in wrap_error(&sanitize(err), inner) {
                lines.push(Line::from(Span::styled(l, t.dim)));
            }
        }
    }
    lines.push(Line::from(""));
    if let Some(text) = &p.input {
        lines.push(Line::from(vec![
            Span::styled("forward [ADDR:]LOCAL:REMOTE: ", t.key),
            Span::raw(format!("{text}▏")),
        ]));
    } else if let Some(status) = &p.status {
        lines.push(Line::from(Span::styled(status.clone(), t.notice)));
    } else {
        lines.push(Line::from(Span::styled(
            "a add  x/Delete remove  ↑/↓ select  f/Esc close",
            t.dim,
        )));
    }
    popup(frame, area, " port-forwards ", lines, t);
}

/// The widest a popup gets, columns (borders included).
const POPUP_MAX_WIDTH: u16 = 100;

/// `    last error: TEXT` wrapped at spaces into lines of at most `width` characters (a word
/// longer than a line is cut), continuation lines aligned under the text, so a long error (an
/// RBAC refusal naming verb, resource and namespace) is shown whole.
#[must_use]
pub fn wrap_error(text: &str, width: usize) -> Vec<String> {
    const LEAD: &str = "    last error: ";
    let indent = LEAD.chars().count();
    let room = width.saturating_sub(indent).max(10);
    let mut rows: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = cur.chars().count();
            let gap = usize::from(used > 0);
            if used + gap + word.len() <= room {
                if gap == 1 {
                    cur.push(' ');
                }
                cur.extend(word);
                break;
            }
            if used > 0 {
                rows.push(std::mem::take(&mut cur));
                continue;
            }
            let rest = word.split_off(room);
            rows.push(word.into_iter().collect());
            word = rest;
        }
    }
    rows.push(cur);
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            let lead = if i == 0 { LEAD } else { "" };
            format!("{lead:indent$}{r}")
        })
        .collect()
}

/// Draws `lines` in a bordered, cleared box centred in `area` (at most 100 columns wide).
pub fn popup(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    lines: Vec<Line<'_>>,
    t: &crate::ui::theme::Theme,
) {
    let width = area.width.min(POPUP_MAX_WIDTH);
    let height = area.height.min(
        u16::try_from(lines.len())
            .unwrap_or(u16::MAX)
            .saturating_add(2),
    );
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .title(Span::styled(title.to_owned(), t.title));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

#[cfg(test)]
mod tests {
    use super::wrap_error;

    #[test]
    fn long_errors_wrap_under_the_text() {
        assert_eq!(wrap_error("refused", 98), ["    last error: refused"]);
        let pad = " ".repeat(16);
        assert_eq!(
            wrap_error("pods \"hello\" is forbidden: cannot create", 40),
            [
                "    last error: pods \"hello\" is".to_owned(),
                format!("{pad}forbidden: cannot create"),
            ]
        );
        let long = wrap_error(&format!("x {}", "a".repeat(50)), 40);
        assert_eq!(
            long,
            [
                "    last error: x".to_owned(),
                format!("{pad}{}", "a".repeat(24)),
                format!("{pad}{}", "a".repeat(24)),
                format!("{pad}aa"),
            ]
        );
        assert!(long.iter().all(|l| l.chars().count() <= 40));
    }
}
