//! The log of one container instance, bounded like the kubelet's rotated log files.
//!
//! Cap: [`LOG_MAX_LINES`] lines and [`LOG_MAX_BYTES`] bytes of text per container instance; when
//! either is exceeded the oldest lines are dropped (the kubelet's `containerLogMaxSize` is 10 MiB
//! per file). Lines are numbered from the first ever appended so a follower can resume after drops.

use std::collections::VecDeque;

use super::LogLine;

/// At most this many lines are kept per container instance (oldest dropped).
pub const LOG_MAX_LINES: usize = 10_000;
/// At most this many bytes of line text are kept per container instance (oldest dropped).
pub const LOG_MAX_BYTES: usize = 10 * 1024 * 1024;

/// Lines of one container instance.
#[derive(Debug, Default, Clone)]
pub(crate) struct LogBuf {
    lines: VecDeque<LogLine>,
    bytes: usize,
    /// Number of lines dropped from the front so far.
    dropped: u64,
}

impl LogBuf {
    /// Appends a line, dropping the oldest ones beyond the caps.
    pub(crate) fn push(&mut self, line: LogLine) {
        self.bytes += line.text.len() + 1;
        self.lines.push_back(line);
        while self.lines.len() > LOG_MAX_LINES
            || (self.bytes > LOG_MAX_BYTES && self.lines.len() > 1)
        {
            if let Some(old) = self.lines.pop_front() {
                self.bytes -= old.text.len() + 1;
                self.dropped += 1;
            }
        }
    }

    /// Every kept line.
    pub(crate) fn all(&self) -> Vec<LogLine> {
        self.lines.iter().cloned().collect()
    }

    /// The number one past the last line ever appended (a follower's cursor).
    pub(crate) fn end(&self) -> u64 {
        self.dropped + self.lines.len() as u64
    }

    /// Kept lines numbered `from` and later, with the new cursor.
    pub(crate) fn since(&self, from: u64) -> (Vec<LogLine>, u64) {
        let skip = usize::try_from(from.saturating_sub(self.dropped)).unwrap_or(usize::MAX);
        (self.lines.iter().skip(skip).cloned().collect(), self.end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(i: usize) -> LogLine {
        LogLine {
            time: jiff::Timestamp::UNIX_EPOCH,
            text: format!("line {i}"),
        }
    }

    #[test]
    fn drops_oldest_beyond_the_line_cap_and_keeps_cursors() {
        let mut b = LogBuf::default();
        for i in 0..LOG_MAX_LINES + 5 {
            b.push(line(i));
        }
        let all = b.all();
        assert_eq!(all.len(), LOG_MAX_LINES);
        assert_eq!(all[0].text, "line 5");
        assert_eq!(b.end(), (LOG_MAX_LINES + 5) as u64);
        let (tail, end) = b.since(b.end() - 2);
        assert_eq!(
            tail.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
            vec![
                format!("line {}", LOG_MAX_LINES + 3),
                format!("line {}", LOG_MAX_LINES + 4)
            ]
        );
        assert_eq!(end, b.end());
        // A cursor older than the kept lines resumes at the oldest kept line.
        assert_eq!(b.since(0).0.len(), LOG_MAX_LINES);
    }

    #[test]
    fn drops_oldest_beyond_the_byte_cap() {
        let mut b = LogBuf::default();
        let big = "x".repeat(1024 * 1024);
        for i in 0..12 {
            b.push(LogLine {
                time: jiff::Timestamp::UNIX_EPOCH,
                text: format!("{i}{big}"),
            });
        }
        let all = b.all();
        assert!(all.iter().map(|l| l.text.len() + 1).sum::<usize>() <= LOG_MAX_BYTES);
        assert!(all[0].text.starts_with('3'), "{}", &all[0].text[..2]);
    }
}
