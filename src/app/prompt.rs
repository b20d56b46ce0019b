//! One line editor for every prompt (the log pane's `/` search and `&` filter, the port-forward
//! panel's `a` spec): a text and a cursor, keys in, an [`Outcome`] out. Pure.
//!
//! The keys are readline's (emacs mode) as shells and `less` know them: characters insert at the
//! cursor; ←/→ (Ctrl-B/Ctrl-F) move by a character, Home/Ctrl-A and End/Ctrl-E to the ends;
//! Backspace (Ctrl-H) and Delete (Ctrl-D) erase the character before / under the cursor; Ctrl-U
//! kills to the start, Ctrl-K to the end, Ctrl-W (Alt-Backspace) the word before the cursor
//! (readline's `unix-word-rubout`: the spaces before it, then up to the previous space); Enter
//! accepts, Esc and Ctrl-C cancel.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// A line being typed: the text and the cursor (a byte offset at a character boundary, from 0 to
/// the text's length).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompt {
    text: String,
    cursor: usize,
}

/// What a key did to a [`Prompt`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Still typing (the text or cursor may have changed, or the key meant nothing here).
    Editing,
    /// Enter: the text as typed.
    Accepted(String),
    /// Esc or Ctrl-C: the prompt is to be closed without effect.
    Cancelled,
}

impl Prompt {
    /// A prompt holding `text` with the cursor at its end (e.g. the filter being edited again).
    #[must_use]
    pub fn with_text(text: &str) -> Prompt {
        Prompt {
            text: text.to_owned(),
            cursor: text.len(),
        }
    }

    /// The text typed so far.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor as a byte offset into [`Prompt::text`] (at a character boundary).
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The text before and from the cursor.
    #[must_use]
    pub fn split(&self) -> (&str, &str) {
        self.text.split_at(self.cursor)
    }

    /// Applies one key (releases are ignored).
    pub fn key(&mut self, key: &KeyEvent) -> Outcome {
        if key.kind == KeyEventKind::Release {
            return Outcome::Editing;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Enter => return Outcome::Accepted(self.text.clone()),
            KeyCode::Esc => return Outcome::Cancelled,
            KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
                'c' => return Outcome::Cancelled,
                'a' => self.cursor = 0,
                'e' => self.cursor = self.text.len(),
                'b' => self.cursor = self.prev_boundary(),
                'f' => self.cursor = self.next_boundary(),
                'h' => self.backspace(),
                'd' => self.delete(),
                'u' => self.kill(0, self.cursor),
                'k' => self.kill(self.cursor, self.text.len()),
                'w' => self.kill(self.word_start(), self.cursor),
                _ => {}
            },
            KeyCode::Backspace if alt || ctrl => self.kill(self.word_start(), self.cursor),
            KeyCode::Char(c) if !alt && !c.is_control() => {
                self.text.insert(self.cursor, c);
                self.cursor += c.len_utf8();
            }
            KeyCode::Backspace => self.backspace(),
            KeyCode::Delete => self.delete(),
            KeyCode::Left => self.cursor = self.prev_boundary(),
            KeyCode::Right => self.cursor = self.next_boundary(),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.text.len(),
            _ => {}
        }
        Outcome::Editing
    }

    fn prev_boundary(&self) -> usize {
        self.text[..self.cursor]
            .chars()
            .next_back()
            .map_or(0, |c| self.cursor - c.len_utf8())
    }

    fn next_boundary(&self) -> usize {
        self.text[self.cursor..]
            .chars()
            .next()
            .map_or(self.cursor, |c| self.cursor + c.len_utf8())
    }

    /// Where the word before the cursor starts: spaces skipped back, then non-spaces.
    fn word_start(&self) -> usize {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end_matches(char::is_whitespace);
        trimmed.rfind(char::is_whitespace).map_or(0, |i| {
            i + trimmed[i..].chars().next().map_or(1, char::len_utf8)
        })
    }

    fn backspace(&mut self) {
        let start = self.prev_boundary();
        self.kill(start, self.cursor);
    }

    fn delete(&mut self) {
        let end = self.next_boundary();
        self.kill(self.cursor, end);
    }

    /// Removes `start..end` (character boundaries) and leaves the cursor at `start`.
    fn kill(&mut self, start: usize, end: usize) {
        self.text.replace_range(start..end, "");
        self.cursor = start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(p: &mut Prompt, code: KeyCode, modifiers: KeyModifiers) -> Outcome {
        p.key(&KeyEvent::new(code, modifiers))
    }

    #[test]
    fn word_rubout_skips_spaces_then_the_word() {
        let mut p = Prompt::with_text("pod  crash  ");
        press(&mut p, KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(p.split(), ("pod  ", ""));
        press(&mut p, KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(p.split(), ("", ""));
        // Multi-byte characters are erased whole.
        let mut p = Prompt::with_text("错误 日志");
        press(&mut p, KeyCode::Left, KeyModifiers::NONE);
        press(&mut p, KeyCode::Backspace, KeyModifiers::NONE);
        assert_eq!(p.split(), ("错误 ", "志"));
        press(&mut p, KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(p.split(), ("", "志"));
    }
}
