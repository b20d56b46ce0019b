//! [`Picker`]: a filterable list of rows with one highlighted, over any [`PickerRow`]. The rows
//! change live (a list+watch may replace, add, change or remove them) and the highlight stays
//! on the same row, found again by [`PickerRow::key`].

use jiff::Timestamp;

/// A row a [`Picker`] offers: its cells under [`PickerRow::COLUMNS`], the text the filter
/// searches and the identity the highlight follows.
pub trait PickerRow {
    /// Every column header the row can fill, e.g. `["NAMESPACE", "NAME", "READY", …]`; a
    /// picker shows some of them ([`Picker::columns`]).
    const COLUMNS: &'static [&'static str];
    /// The column narrowed last when the rows are too wide (the one people read the rows by).
    const KEEP: usize;
    /// The columns narrowed first, in this order, when the rows are too wide (the ones least
    /// read).
    const NARROW_FIRST: &'static [usize];
    /// The row's cells at `now`, one per entry of [`PickerRow::COLUMNS`], raw (the view
    /// sanitises them).
    fn cells(&self, now: Timestamp) -> Vec<String>;
    /// The text typed characters are matched against (case-insensitive substring), given the
    /// columns shown (indices into [`PickerRow::COLUMNS`]): what is not on screen is not
    /// matched.
    fn haystack(&self, columns: &[usize]) -> String;
    /// What identifies the row across updates (e.g. `namespace/name`).
    fn key(&self) -> String;
    /// Whether the row's [`PickerRow::key`] is `key` (a row type may answer without building
    /// its key: the highlight is looked for among every row after each update).
    fn has_key(&self, key: &str) -> bool {
        self.key() == key
    }
}

/// A filterable list of rows with one highlighted: the state of a picker overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picker<R> {
    /// The rows offered, in display order; empty while loading.
    pub rows: Vec<R>,
    /// The columns shown, as indices into [`PickerRow::COLUMNS`], in order.
    pub columns: Vec<usize>,
    /// What was typed: only rows whose haystack contains it (ignoring case) are shown.
    pub filter: String,
    /// Index of the highlighted row among the shown ones ([`Picker::shown`]).
    pub selected: usize,
    /// Waiting for the rows.
    pub loading: bool,
}

impl<R: PickerRow> Default for Picker<R> {
    /// No rows, every column, no filter, not loading.
    fn default() -> Self {
        Picker {
            rows: Vec::new(),
            columns: (0..R::COLUMNS.len()).collect(),
            filter: String::new(),
            selected: 0,
            loading: false,
        }
    }
}

impl<R: PickerRow> Picker<R> {
    /// Whether `row` passes the filter (`needle` is the filter in lower case).
    fn matches(&self, row: &R, needle: &str) -> bool {
        needle.is_empty() || row.haystack(&self.columns).to_lowercase().contains(needle)
    }

    /// The rows the filter lets through, in order.
    #[must_use]
    pub fn shown(&self) -> Vec<&R> {
        let needle = self.filter.to_lowercase();
        self.rows
            .iter()
            .filter(|r| self.matches(r, &needle))
            .collect()
    }

    /// How many rows the filter lets through.
    #[must_use]
    pub fn shown_count(&self) -> usize {
        let needle = self.filter.to_lowercase();
        self.rows
            .iter()
            .filter(|r| self.matches(r, &needle))
            .count()
    }

    /// The highlighted row, if any is shown.
    #[must_use]
    pub fn selected_row(&self) -> Option<&R> {
        let needle = self.filter.to_lowercase();
        self.rows
            .iter()
            .filter(|r| self.matches(r, &needle))
            .nth(self.selected)
    }

    /// Highlights the next shown row (stops at the last).
    pub fn next(&mut self) {
        self.down(1);
    }

    /// Highlights the previous shown row (stops at the first).
    pub fn prev(&mut self) {
        self.selected = self.selected.saturating_sub(1);
    }

    /// Moves the highlight `n` shown rows down (stops at the last).
    pub fn down(&mut self, n: usize) {
        let last = self.shown_count().saturating_sub(1);
        self.selected = self.selected.saturating_add(n).min(last);
    }

    /// Moves the highlight `n` shown rows up (stops at the first).
    pub fn up(&mut self, n: usize) {
        self.selected = self.selected.saturating_sub(n);
    }

    /// Highlights the first shown row `is` accepts; keeps the highlight when none does.
    pub fn select_where(&mut self, is: impl Fn(&R) -> bool) {
        if let Some(i) = self.shown().iter().position(|r| is(r)) {
            self.selected = i;
        }
    }

    /// Sets the filter, keeping the highlighted row when it is still shown, else the first.
    pub fn set_filter(&mut self, filter: String) {
        let before = self.selected_row().map(PickerRow::key);
        self.filter = filter;
        self.selected = 0;
        if let Some(key) = before {
            self.select_where(|r| r.has_key(&key));
        }
    }

    /// Applies `change` to the rows, then highlights the same row again (by
    /// [`PickerRow::key`]); when it is gone, the highlight stays at its place (clamped).
    pub fn change_rows(&mut self, change: impl FnOnce(&mut Vec<R>)) {
        let before = self.selected_row().map(PickerRow::key);
        change(&mut self.rows);
        let last = self.shown_count().saturating_sub(1);
        self.selected = self.selected.min(last);
        if let Some(key) = before {
            self.select_where(|r| r.has_key(&key));
        }
    }
}
