//! Drawing an [`app::prompt::Prompt`](crate::app::prompt::Prompt) on one row: the label, the
//! text with the cursor `▏` where it is, scrolled sideways so the cursor stays on screen.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::width;
use crate::app::prompt::Prompt;

/// The cursor drawn between two characters.
pub const CURSOR: &str = "▏";

/// One row of at most `cols` columns: `label` in `label_style`, then the text in `style` with
/// the cursor. When the text before the cursor does not fit, its start is left out (shown as
/// `…`); the text after the cursor is cut at the edge.
#[must_use]
pub fn line(
    label: &str,
    label_style: Style,
    prompt: &Prompt,
    style: Style,
    cols: usize,
) -> Line<'static> {
    let (before, after) = prompt.split();
    let room = cols.saturating_sub(width::cells(label) + width::cells(CURSOR));
    let mut shown_before = before.to_owned();
    if width::cells(before) > room {
        // Keep the end of `before` (next to the cursor), one column for `…`.
        let start = before
            .char_indices()
            .map(|(i, _)| i)
            .find(|&i| width::cells(&before[i..]) < room)
            .unwrap_or(before.len());
        shown_before = format!("…{}", &before[start..]);
    }
    let left = room.saturating_sub(width::cells(&shown_before));
    let (end, _) = width::prefix(after, left);
    Line::from(vec![
        Span::styled(label.to_owned(), label_style),
        Span::styled(shown_before, style),
        Span::styled(CURSOR, label_style),
        Span::styled(after[..end].to_owned(), style),
    ])
}
