//! The local terminal side of an interactive exec/attach: raw mode, key events turned back into
//! the bytes a terminal would send, and resize events as `TerminalSize`.
//!
//! Input is read with crossterm's `poll`/`read` on a plain thread that checks a stop flag every
//! 50 ms; ending the session waits until that thread has stopped, so no reader is left on stdin
//! (the TUI gets its keys back).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use kube::api::TerminalSize;
use tokio::sync::mpsc;

/// Raw mode for the lifetime of the guard (restored on drop, also on early return). A guard
/// taken while raw mode is already on (the TUI's hand-off keeps it on) leaves it on.
#[derive(Debug)]
pub struct RawMode {
    enabled: bool,
}

impl RawMode {
    /// Enables raw mode. Errors: the terminal refused (not a tty).
    pub fn enable() -> std::io::Result<RawMode> {
        if crossterm::terminal::is_raw_mode_enabled()? {
            return Ok(RawMode { enabled: false });
        }
        crossterm::terminal::enable_raw_mode()?;
        Ok(RawMode { enabled: true })
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        if self.enabled {
            let _ = crossterm::terminal::disable_raw_mode();
        }
    }
}

/// The bytes a VT100/xterm sends for a key press; empty for keys that send nothing.
pub fn key_bytes(key: &KeyEvent) -> Vec<u8> {
    if !matches!(key.kind, KeyEventKind::Press | KeyEventKind::Repeat) {
        return Vec::new();
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    let mut out = Vec::new();
    if alt {
        out.push(0x1b);
    }
    match key.code {
        KeyCode::Char(c) if ctrl && c.is_ascii_alphabetic() => {
            out.push((c.to_ascii_lowercase() as u8) & 0x1f);
        }
        KeyCode::Char(' ') if ctrl => out.push(0),
        KeyCode::Char(c) => {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        KeyCode::Enter => out.push(b'\r'),
        KeyCode::Tab => out.push(b'\t'),
        KeyCode::BackTab => out.extend_from_slice(b"\x1b[Z"),
        KeyCode::Backspace => out.push(0x7f),
        KeyCode::Esc => out.push(0x1b),
        KeyCode::Up => out.extend_from_slice(b"\x1b[A"),
        KeyCode::Down => out.extend_from_slice(b"\x1b[B"),
        KeyCode::Right => out.extend_from_slice(b"\x1b[C"),
        KeyCode::Left => out.extend_from_slice(b"\x1b[D"),
        KeyCode::Home => out.extend_from_slice(b"\x1b[H"),
        KeyCode::End => out.extend_from_slice(b"\x1b[F"),
        KeyCode::Insert => out.extend_from_slice(b"\x1b[2~"),
        KeyCode::Delete => out.extend_from_slice(b"\x1b[3~"),
        KeyCode::PageUp => out.extend_from_slice(b"\x1b[5~"),
        KeyCode::PageDown => out.extend_from_slice(b"\x1b[6~"),
        KeyCode::F(n @ 1..=4) => out.extend_from_slice(&[0x1b, b'O', b'P' + (n - 1)]),
        _ => return Vec::new(),
    }
    out
}

/// How long dropping a [`TerminalInput`] waits for its thread to stop reading.
const STOP_DEADLINE: Duration = Duration::from_millis(500);

/// A running input thread; dropping it stops the thread and returns once the thread has stopped
/// reading (it checks the flag every 50 ms; at most [`STOP_DEADLINE`]), so the next reader of
/// the terminal (the TUI taking it back) is the only one.
#[derive(Debug)]
pub struct TerminalInput {
    stop: Arc<AtomicBool>,
    /// Disconnected when the thread has returned (it drops the sender).
    stopped: std::sync::mpsc::Receiver<()>,
}

impl Drop for TerminalInput {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.stopped.recv_timeout(STOP_DEADLINE);
    }
}

/// Starts reading terminal events: key bytes go to the first channel, sizes (the current one
/// first) to the second. Both channels close when the thread stops.
pub fn terminal_input() -> (
    TerminalInput,
    mpsc::Receiver<Vec<u8>>,
    mpsc::Receiver<TerminalSize>,
) {
    let (keys_tx, keys_rx) = mpsc::channel(256);
    let (size_tx, size_rx) = mpsc::channel(16);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let (stopped_tx, stopped) = std::sync::mpsc::channel::<()>();
    if let Ok((width, height)) = crossterm::terminal::size() {
        let _ = size_tx.try_send(TerminalSize { width, height });
    }
    std::thread::spawn(move || {
        // Dropped when this thread returns: the hand-shake `TerminalInput`'s drop waits for.
        let _stopped = stopped_tx;
        while !flag.load(Ordering::Relaxed) {
            match crossterm::event::poll(Duration::from_millis(50)) {
                Ok(false) => continue,
                Ok(true) => {}
                Err(_) => break,
            }
            match crossterm::event::read() {
                Ok(Event::Key(k)) => {
                    let bytes = key_bytes(&k);
                    if !bytes.is_empty() && keys_tx.blocking_send(bytes).is_err() {
                        break;
                    }
                }
                Ok(Event::Paste(text)) => {
                    if keys_tx.blocking_send(text.into_bytes()).is_err() {
                        break;
                    }
                }
                Ok(Event::Resize(width, height)) => {
                    let _ = size_tx.try_send(TerminalSize { width, height });
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    });
    (TerminalInput { stop, stopped }, keys_rx, size_rx)
}

/// Reads piped (non-terminal) stdin on a plain thread into a channel; EOF closes the channel.
/// The thread may stay blocked in `read` after the session (harmless for a CLI process).
pub fn piped_stdin() -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel(64);
    std::thread::spawn(move || {
        use std::io::Read;
        let mut stdin = std::io::stdin();
        let mut buf = vec![0u8; 32 * 1024];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.blocking_send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, m: KeyModifiers) -> Vec<u8> {
        key_bytes(&KeyEvent::new(code, m))
    }

    #[test]
    fn keys_become_terminal_bytes() {
        assert_eq!(press(KeyCode::Char('a'), KeyModifiers::NONE), b"a");
        assert_eq!(press(KeyCode::Char('c'), KeyModifiers::CONTROL), [3]);
        assert_eq!(press(KeyCode::Char('d'), KeyModifiers::CONTROL), [4]);
        assert_eq!(press(KeyCode::Enter, KeyModifiers::NONE), b"\r");
        assert_eq!(press(KeyCode::Backspace, KeyModifiers::NONE), [0x7f]);
        assert_eq!(press(KeyCode::Up, KeyModifiers::NONE), b"\x1b[A");
        assert_eq!(press(KeyCode::Char('b'), KeyModifiers::ALT), b"\x1bb");
        assert_eq!(
            press(KeyCode::Char('é'), KeyModifiers::NONE),
            "é".as_bytes()
        );
    }
}

/// A writer to the process' stdout or stderr that writes synchronously (small terminal writes;
/// avoids tokio's blocking-pool hand-off so output order and flushing are immediate).
#[derive(Debug, Clone, Copy)]
pub enum StdWriter {
    /// fd 1.
    Stdout,
    /// fd 2.
    Stderr,
}

impl tokio::io::AsyncWrite for StdWriter {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        use std::io::Write;
        let r = match *self {
            StdWriter::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(buf).and_then(|()| out.flush())
            }
            StdWriter::Stderr => std::io::stderr().lock().write_all(buf),
        };
        std::task::Poll::Ready(r.map(|()| buf.len()))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}
