//! The impure loop: terminal, input, the 1 Hz clock ([`super::clock::Clock`]), signals, the
//! message channel, drawing (`ui::view`, and `ui::extents` to measure the scroll limits it
//! reports as `Msg::Measured`), and the hand-off of the terminal to exec/attach
//! (`docs/architecture.md` §5).

use std::time::Duration;

use color_eyre::eyre::WrapErr;
use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc::Receiver;

use super::clock::Clock;
use crate::app::{Cmd, Msg, State, update};
use crate::cluster::Session;

/// How often the clock ticks (ages, "x ago" and countdowns move once a second).
pub const TICK_INTERVAL: Duration = Duration::from_secs(1);
/// Most queued messages applied before one draw (bounds latency under a burst).
pub const DRAIN_MAX: usize = 64;

/// Runs the TUI until `q`/Ctrl-C, SIGTERM/SIGHUP, or the input stream ends. The clock starts at
/// `state.now` (the `--now` time, or the wall clock) and runs at the wall clock's pace.
///
/// Call after `color_eyre::install()`; `ratatui::init` chains its panic hook after it, and
/// `ratatui::restore` runs on every return path here.
///
/// # Errors
/// Drawing to the terminal or installing the signal handlers failed.
pub async fn run(
    mut state: State,
    mut rx: Receiver<Msg>,
    mut session: Session,
) -> color_eyre::Result<()> {
    #[allow(
        clippy::disallowed_methods,
        reason = "the loop owns the clock: its start"
    )]
    let clock = Clock::starting_at(state.now, jiff::Timestamp::now());
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, &mut state, &mut rx, &mut session, clock).await;
    ratatui::restore();
    result
}

/// What the terminal is handed to.
enum Handoff {
    /// An interactive shell: the first of these command lines that exists in the image.
    Shell(Vec<String>),
    /// An attach to the container's process (the debug container).
    Attach,
}

/// Hands the terminal to a shell or an attach in `container`, the kdash way: the input stream
/// is dropped and the alternate screen left (raw mode stays on), the process runs with resize,
/// then the TUI takes the terminal back with a fresh input stream.
///
/// The old stream is dropped *before* anything else, and no new one is made until the process
/// has ended: crossterm's `EventStream::new` takes the global event-reader lock, which the old
/// stream's waker thread holds while blocked in `poll(None)`; only dropping the old stream
/// wakes that thread. Creating the new stream first blocked the hand-off until the first key
/// typed after `d`/`e`, which that thread then read. The watches keep running meanwhile (their messages queue in the channel); how
/// it ended is returned as `Msg::ShellExited` (not sent: the channel may be full by then).
async fn handoff(
    terminal: &mut ratatui::DefaultTerminal,
    input: &mut Option<EventStream>,
    session: &Session,
    container: String,
    what: Handoff,
) -> Msg {
    use crate::cluster::exec::{ExecRequest, ShellOutcome, run_on_terminal, run_shell};
    use crate::cluster::shell::shell_end;
    *input = None;
    {
        // The alternate screen is left but raw mode stays on for the whole hand-off: with the
        // terminal cooked, a Ctrl-C typed while the exec connects would be SIGINT to podscope.
        // Typed early, it waits in the terminal's input and reaches the shell.
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = crossterm::execute!(
            out,
            crossterm::terminal::LeaveAlternateScreen,
            crossterm::cursor::Show,
            crossterm::terminal::Clear(crossterm::terminal::ClearType::All),
            crossterm::cursor::MoveTo(0, 0)
        );
        // The way back first; then, since attaching shows nothing until the process writes,
        // kubectl's hint.
        let attach = matches!(what, Handoff::Attach);
        let _ = write!(out, "{}\r\n", crate::app::shell::handoff_banner(attach));
        if attach {
            let _ = write!(
                out,
                "If you don't see a command prompt, try pressing enter.\r\n"
            );
        }
        let _ = out.flush();
    }
    let target = session.target();
    let result = match what {
        Handoff::Shell(shells) => {
            run_shell(
                target.client.clone(),
                &target.namespace,
                &target.pod,
                &container,
                &shells,
            )
            .await
        }
        Handoff::Attach => {
            let api = kube::Api::namespaced(target.client.clone(), &target.namespace);
            let req = ExecRequest {
                container: Some(container.clone()),
                command: Vec::new(),
                stdin: true,
                tty: true,
            };
            run_on_terminal(&api, &target.pod, &req)
                .await
                .map(|exit_code| ShellOutcome {
                    shell: String::new(),
                    exit_code,
                })
        }
    };
    // The shell's input thread has stopped reading by now (dropping its `TerminalInput` waits
    // for that), so the new input stream is the terminal's only reader.
    *terminal = ratatui::init();
    *input = Some(EventStream::new());
    Msg::ShellExited {
        container,
        result: shell_end(result),
    }
}

async fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    state: &mut State,
    rx: &mut Receiver<Msg>,
    session: &mut Session,
    clock: Clock,
) -> color_eyre::Result<()> {
    let mut input = Some(EventStream::new());
    let mut tick = tokio::time::interval(TICK_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut sigterm = signal(SignalKind::terminate()).wrap_err("installing SIGTERM handler")?;
    let mut sighup = signal(SignalKind::hangup()).wrap_err("installing SIGHUP handler")?;
    let mut channel_open = true;
    let mut view_cache = crate::ui::ViewCache::default();
    loop {
        if state.dirty {
            let mut size = (0, 0);
            terminal
                .draw(|frame| {
                    crate::ui::view_cached(frame, state, &mut view_cache);
                    size = (frame.area().width, frame.area().height);
                })
                .wrap_err("drawing the screen")?;
            state.dirty = false;
            // The terminal's size is known at the first draw; no resize event says it.
            if state.screen != Some(size) {
                let _ = update(state, Msg::Resize(size.0, size.1));
            }
            let extents = crate::ui::extents(state, size.0, size.1);
            if extents != state.extents {
                // Only clamps scrolls: no effects.
                let _ = update(state, Msg::Measured(extents));
            }
        }
        let first = tokio::select! {
            biased;
            event = input.get_or_insert_with(EventStream::new).next() => match event {
                Some(Ok(Event::Key(key))) => Msg::Key(key),
                Some(Ok(Event::Resize(w, h))) => Msg::Resize(w, h),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e).wrap_err("reading terminal input"),
                None => return Ok(()),
            },
            _ = sigterm.recv() => Msg::Quit,
            _ = sighup.recv() => Msg::Quit,
            _ = tick.tick() => Msg::Tick(clock.now()),
            msg = rx.recv(), if channel_open => match msg {
                Some(msg) => msg,
                None => {
                    channel_open = false;
                    continue;
                }
            },
        };
        let mut batch = std::collections::VecDeque::from([first]);
        while batch.len() < DRAIN_MAX {
            match rx.try_recv() {
                Ok(msg) => batch.push_back(msg),
                Err(_) => break,
            }
        }
        while let Some(msg) = batch.pop_front() {
            for cmd in update(state, msg) {
                match cmd {
                    Cmd::Quit => return Ok(()),
                    Cmd::OpenShell { .. } | Cmd::AttachDebug { .. } => {
                        let (container, what) = match cmd {
                            Cmd::OpenShell { container, shells } => {
                                (container, Handoff::Shell(shells))
                            }
                            Cmd::AttachDebug { container } => (container, Handoff::Attach),
                            _ => continue,
                        };
                        // SIGTERM/SIGHUP (the terminal closed) also end a hand-off: the shell
                        // is dropped with its connection, and podscope quits.
                        tokio::select! {
                            ended = handoff(terminal, &mut input, session, container, what) => {
                                batch.push_back(ended);
                            }
                            _ = sigterm.recv() => return Ok(()),
                            _ = sighup.recv() => return Ok(()),
                        }
                        state.dirty = true;
                    }
                    Cmd::Copy { text } => {
                        // Between frames, straight to the terminal: ratatui has flushed its
                        // frame, and the sequence draws nothing.
                        let copied = crate::tui::clipboard::copy(&mut std::io::stdout(), &text);
                        if let Err(e) = copied {
                            tracing::warn!("copy to the clipboard: {e}");
                        }
                    }
                    other => session.execute(&other),
                }
            }
        }
    }
}
