//! Keeping a [`LogBuffer`] in time order when lines arrive from several streams (all containers
//! interleaved, the tail of a dead instance fetched after the next one started, restart markers,
//! pod events woven in): insertion by timestamp, and removal of inserted lines.

use std::collections::VecDeque;

use jiff::Timestamp;

use super::{LogBuffer, LogLine};

/// What an insertion did to the lines already kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inserted {
    /// The lines went after every kept line: kept lines only moved by eviction.
    Appended,
    /// Some lines went between kept ones: positions from `from` on changed.
    Merged {
        /// First position (before eviction) whose line changed.
        from: usize,
    },
}

/// The sort key of each line in order: its timestamp, or for a line without one the key of the
/// line before it (lines without a timestamp stay where they arrived).
fn keys<'a>(lines: impl Iterator<Item = &'a LogLine>) -> impl Iterator<Item = Option<Timestamp>> {
    let mut last = None;
    lines.map(move |l| {
        if l.ts.is_some() {
            last = l.ts;
        }
        last
    })
}

impl LogBuffer {
    /// The line at position `i` (0 = oldest kept), if any.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&LogLine> {
        self.lines.get(i)
    }

    /// Inserts `lines` (in time order among themselves, as one stream sends them) so that the
    /// buffer stays in time order: a line goes after every kept line with the same or an earlier
    /// timestamp. The common case, lines newer than the last kept one, is a plain append; else
    /// only the kept lines newer than the first new one are moved. Evicts the oldest lines when
    /// full (counted in [`LogBuffer::evicted`]).
    pub fn insert_by_time(&mut self, lines: Vec<LogLine>) -> Inserted {
        let first = keys(lines.iter()).flatten().next();
        let last = self.lines.back().and_then(|l| l.ts);
        let (Some(first), Some(last)) = (first, last) else {
            self.extend(lines);
            return Inserted::Appended;
        };
        if first >= last {
            self.extend(lines);
            return Inserted::Appended;
        }
        let from = self
            .lines
            .partition_point(|l| l.ts.is_none_or(|t| t <= first));
        let tail: Vec<LogLine> = self.lines.drain(from..).collect();
        let tail_keys: Vec<Option<Timestamp>> = keys(tail.iter()).collect();
        let new_keys: Vec<Option<Timestamp>> = keys(lines.iter()).collect();
        let mut old = tail.into_iter().zip(tail_keys).peekable();
        let mut new = lines.into_iter().zip(new_keys).peekable();
        let mut merged = VecDeque::new();
        loop {
            let take_old = match (old.peek(), new.peek()) {
                (Some((_, ko)), Some((_, kn))) => match (ko, kn) {
                    (Some(a), Some(b)) => a <= b,
                    _ => true,
                },
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let next = if take_old { old.next() } else { new.next() };
            if let Some((l, _)) = next {
                merged.push_back(l);
            }
        }
        self.extend(merged);
        Inserted::Merged { from }
    }

    /// Keeps only the lines for which `keep` is true (e.g. drops the woven-in events). Removed
    /// lines are not counted as evicted. Returns how many were removed.
    pub fn retain(&mut self, keep: impl FnMut(&LogLine) -> bool) -> usize {
        let before = self.lines.len();
        self.lines.retain(keep);
        before - self.lines.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::LineKind;

    fn line(text: &str, secs: i64) -> LogLine {
        LogLine {
            container: "c".to_owned(),
            instance: 0,
            ts: Timestamp::from_second(secs).ok(),
            text: text.to_owned(),
            sgr: Vec::new(),
            kind: LineKind::Log,
        }
    }

    fn texts(b: &LogBuffer) -> Vec<String> {
        b.lines().iter().map(|l| l.text.clone()).collect()
    }

    #[test]
    fn newer_lines_append_older_ones_merge_stably() {
        let mut b = LogBuffer::new(10);
        assert_eq!(
            b.insert_by_time(vec![line("a1", 1), line("a3", 3), line("a5", 5)]),
            Inserted::Appended
        );
        assert_eq!(
            b.insert_by_time(vec![line("b3", 3), line("b4", 4), line("b9", 9)]),
            Inserted::Merged { from: 2 }
        );
        assert_eq!(texts(&b), ["a1", "a3", "b3", "b4", "a5", "b9"]);
        assert_eq!(b.insert_by_time(vec![line("c9", 9)]), Inserted::Appended);
        assert_eq!(texts(&b).last().map(String::as_str), Some("c9"));
    }

    #[test]
    fn merging_into_a_full_buffer_evicts_the_oldest() {
        let mut b = LogBuffer::new(3);
        b.insert_by_time(vec![line("a1", 1), line("a2", 2), line("a5", 5)]);
        b.insert_by_time(vec![line("b3", 3)]);
        assert_eq!(texts(&b), ["a2", "b3", "a5"]);
        assert_eq!(b.evicted(), 1);
        assert_eq!(b.retain(|l| l.text != "b3"), 1);
        assert_eq!(b.evicted(), 1, "removal is not eviction");
    }
}
