//! The column alignment kubectl's describers get from Go's `text/tabwriter`, configured as
//! `tabbedString` does (minwidth 0, tabwidth 8, padding 2, pad with spaces, no flags).
//!
//! The rules, in our words (`docs/describe.md` §2): the text is cut into lines at `\n` and each
//! line into cells at `\t`; a cell followed by a tab belongs to a column, the last cell of a
//! line does not. A column *block* is a run of consecutive lines that all have a tab-terminated
//! cell in that column; a line without one (a section title such as `Containers:`) ends every
//! block that spans it. Inside a block each cell is padded with spaces to the widest cell of
//! the block plus 2, widths counted in characters (Go counts runes). Blocks of the next column
//! are found within the lines of the current block only, so they nest. The last cell of a line
//! is written as it is, never padded, and an empty last cell after a tab leaves the padding
//! of the cell before it as trailing spaces (`IP:` + spaces for a pod without an IP).

/// One line: its cells, the last one not tab-terminated.
struct Line<'a> {
    cells: Vec<&'a str>,
}

impl Line<'_> {
    /// How many cells are tab-terminated (belong to a column).
    fn columns(&self) -> usize {
        self.cells.len().saturating_sub(1)
    }
}

/// Aligns `text` (lines ending in `\n`, cells separated by `\t`) as Go's tabwriter does with
/// kubectl's settings. Text after the last `\n` is kept as a final unterminated line.
pub(crate) fn align(text: &str) -> String {
    let mut raw: Vec<&str> = text.split('\n').collect();
    // `split` yields a final "" after the last '\n': that is no line.
    let ends_with_newline = raw.last().is_some_and(|l| l.is_empty());
    if ends_with_newline {
        raw.pop();
    }
    let lines: Vec<Line<'_>> = raw
        .iter()
        .map(|l| Line {
            cells: l.split('\t').collect(),
        })
        .collect();
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    let mut widths = Vec::new();
    format(&lines, &mut widths, 0, lines.len(), &mut out);
    if !ends_with_newline && out.ends_with('\n') {
        out.pop();
    }
    out
}

/// Lays out `lines[line0..line1]` given the widths of the columns to the left (`widths`).
fn format(
    lines: &[Line<'_>],
    widths: &mut Vec<usize>,
    line0: usize,
    line1: usize,
    out: &mut String,
) {
    let column = widths.len();
    let mut start = line0;
    let mut this = line0;
    while this < line1 {
        if column >= lines[this].columns() {
            this += 1;
            continue;
        }
        // A block of this column starts here: write the lines before it.
        write_lines(lines, widths, start, this, out);
        start = this;
        let mut width = 0;
        while this < line1 && column < lines[this].columns() {
            let cell = lines[this].cells[column].chars().count();
            width = width.max(cell + PADDING);
            this += 1;
        }
        widths.push(width);
        format(lines, widths, start, this, out);
        widths.pop();
        start = this;
    }
    write_lines(lines, widths, start, line1, out);
}

/// Spaces added to the widest cell of a column block (kubectl's `padding` 2).
const PADDING: usize = 2;

fn write_lines(lines: &[Line<'_>], widths: &[usize], from: usize, to: usize, out: &mut String) {
    for line in &lines[from..to] {
        for (j, cell) in line.cells.iter().enumerate() {
            out.push_str(cell);
            if let Some(&w) = widths.get(j) {
                let used = cell.chars().count();
                out.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::align;

    #[test]
    fn a_title_line_ends_the_block() {
        let got = align("Name:\thello\nNamespace:\tdefault\nIPs:\n  IP:\t10.0.0.1\n");
        assert_eq!(
            got,
            "Name:       hello\nNamespace:  default\nIPs:\n  IP:  10.0.0.1\n"
        );
    }

    #[test]
    fn an_empty_last_cell_leaves_the_padding() {
        assert_eq!(align("IP:\t\nNode:\tx\n"), "IP:    \nNode:  x\n");
    }

    #[test]
    fn nested_columns_align_within_their_block() {
        let got = align("  Type\tStatus\n  Ready \tTrue \n  PodScheduled \tTrue \n");
        assert_eq!(
            got,
            "  Type           Status\n  Ready          True \n  PodScheduled   True \n"
        );
    }

    #[test]
    fn continuation_lines_with_an_empty_first_cell_stay_in_the_block() {
        let got = align("Labels:\ta=1\n\tb=2\nAnnotations:\t<none>\n");
        assert_eq!(
            got,
            "Labels:       a=1\n              b=2\nAnnotations:  <none>\n"
        );
    }

    #[test]
    fn widths_count_characters() {
        assert_eq!(align("é:\tx\nab:\ty\n"), "é:   x\nab:  y\n");
    }
}
