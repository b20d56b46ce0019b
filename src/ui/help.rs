//! The help overlay (`?`): every keymap row plus what the countdown marks mean.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::keymap;
use crate::app::state::State;

/// Meaning of the marks the view uses.
const LEGEND: &[&str] = &[
    "restart in 1m30s  kubelet's next restart: lastState finishedAt + back-off",
    "≈                 back-off estimated from restartCount (no kubelet message)",
    "restarting…       due; the kubelet restarts it at its next sync (≤ ~15 s)",
    "overdue           due for longer than the kubelet's sync slack",
];

/// Draws the overlay centred in `area` (clipped to it on small terminals).
pub fn render(frame: &mut Frame, area: Rect, state: &State) {
    let t = &state.theme;
    let mut lines = Vec::new();
    for (keys, description) in keymap::grouped(false) {
        lines.push(Line::from(vec![
            Span::styled(format!("{:<14}", keys.join(" / ")), t.key),
            Span::raw(description),
        ]));
    }
    lines.push(Line::from(""));
    for l in LEGEND {
        lines.push(Line::from(Span::styled(*l, t.dim)));
    }
    let width = area.width.min(80);
    let height = area.height.min(
        u16::try_from(lines.len())
            .unwrap_or(u16::MAX)
            .saturating_add(2),
    );
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .title(Span::styled(" help — ? or Esc to close ", t.title));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        popup,
    );
}
