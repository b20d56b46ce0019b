//! The shell an exec session starts (`kubectl exec -- sh -c SCRIPT`, interactive `sh`/`bash`):
//! a small POSIX-ish interpreter over the container's [`ContainerView`].
//!
//! Understood: commands separated by newlines, `;`, `&&`, `||`; quotes, `$` expansion (`$0` is
//! the shell as invoked), `#` comments and redirections as [`super::shell_syntax`] parses them;
//! `|` pipelines ([`super::pipe`]); heredoc bodies (skipped). Builtins: `exit [N]`, `cd`, `export`, `:`; other
//! words run through [`super::process`], except `stty` and `tput`, which read the session's
//! terminal size ([`Shell::resize`], [`super::stty`]). Unknown commands print the flavour's "not found" text
//! and set status 127. With a tty the shell prints its prompt and echoes input (the pty's echo),
//! turning `\r` into a newline; Ctrl-C drops the line, Ctrl-D on an empty line exits.

use super::binaries::{has_binary, run_binary};
use super::process::Action;
use super::shell_syntax::{
    Redirect, Sep, Vars, heredoc_delimiter, split_commands, split_pipe, words,
};
use super::stty::{WinSize, stty, tput};
use super::userland::ContainerView;

/// Which shell, for prompts and error wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// busybox ash: prompt `/ # `, `sh: foo: not found`.
    Ash,
    /// Debian dash: prompt `# `, `sh: 1: foo: not found`.
    Dash,
    /// bash: prompt `root@HOST:/# `, `bash: foo: command not found`.
    Bash,
}

/// An interactive (or `-c`) shell session.
#[derive(Debug, Clone)]
pub struct Shell {
    view: ContainerView,
    flavour: Flavour,
    /// `$0`: the shell as invoked (`sh`, `/bin/bash`).
    argv0: String,
    tty: bool,
    /// The terminal's size from the last resize message (`0 0` before any, as a fresh pty).
    size: WinSize,
    /// Reads commands from stdin (not `-c`).
    interactive: bool,
    /// Shell variables that are not in the environment (bash's `COLUMNS`, `LINES`).
    shell_vars: Vec<(String, String)>,
    line: Vec<u8>,
    status: i32,
    lineno: u32,
    heredoc: Option<String>,
}

impl Shell {
    /// A shell in `view`; `tty` turns on prompt and echo.
    pub fn new(view: ContainerView, flavour: Flavour, tty: bool) -> Self {
        let argv0 = match flavour {
            Flavour::Bash => "bash",
            Flavour::Ash | Flavour::Dash => "sh",
        };
        Shell {
            view,
            flavour,
            argv0: argv0.to_owned(),
            tty,
            size: WinSize::default(),
            interactive: false,
            shell_vars: Vec::new(),
            line: Vec::new(),
            status: 0,
            lineno: 0,
            heredoc: None,
        }
    }

    /// The same shell invoked as `argv0` (what `$0` expands to).
    #[must_use]
    pub fn invoked_as(mut self, argv0: &str) -> Self {
        argv0.clone_into(&mut self.argv0);
        self
    }

    /// The same shell on a terminal of `size` (what the client sent before it started).
    #[must_use]
    pub fn sized(mut self, size: WinSize) -> Self {
        self.resize(size);
        self
    }

    /// The same shell reading commands from stdin (not `-c`): an interactive bash on a tty
    /// sets `$COLUMNS` and `$LINES` (its `checkwinsize`), as shell variables `env` does not
    /// list.
    #[must_use]
    pub fn interactive(mut self) -> Self {
        self.interactive = true;
        let size = self.size;
        self.resize(size);
        self
    }

    /// The client resized the terminal.
    pub fn resize(&mut self, size: WinSize) {
        self.size = size;
        self.shell_vars.clear();
        if self.interactive && self.tty && self.flavour == Flavour::Bash {
            self.shell_vars = vec![
                ("COLUMNS".to_owned(), size.cols.to_string()),
                ("LINES".to_owned(), size.rows.to_string()),
            ];
        }
    }

    /// Runs `stty` or `tput` on the terminal `tty`.
    fn terminal_tool(
        &self,
        base: &str,
        args: &[String],
        tty: Option<WinSize>,
    ) -> (Vec<Action>, i32) {
        if base == "tput" {
            tput(args, tty, &self.view)
        } else {
            stty(args, tty, self.view.userland)
        }
    }

    /// The terminal stty sees: the session's when it has a tty and stdin is not a pipe.
    fn terminal(&self, piped: bool) -> Option<WinSize> {
        (self.tty && !piped).then_some(self.size)
    }

    fn prompt(&self) -> Vec<Action> {
        if !self.tty {
            return Vec::new();
        }
        let p = match self.flavour {
            Flavour::Ash => "/ # ".to_string(),
            Flavour::Dash => "# ".to_string(),
            Flavour::Bash => format!("root@{}:/# ", self.view.hostname),
        };
        vec![Action::Stdout(p.into_bytes())]
    }

    /// The first prompt (tty only).
    pub fn begin(&mut self) -> Vec<Action> {
        self.prompt()
    }

    /// Feeds input bytes; runs each complete line.
    pub fn input(&mut self, bytes: &[u8]) -> Vec<Action> {
        let mut actions = Vec::new();
        for &b in bytes {
            match b {
                b'\r' | b'\n' => {
                    if self.tty {
                        actions.push(Action::Stdout(b"\n".to_vec()));
                    }
                    let line =
                        String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned();
                    let (acts, exit) = self.run_line(&line);
                    actions.extend(acts);
                    if let Some(code) = exit {
                        actions.push(Action::Exit(code));
                        return actions;
                    }
                    actions.extend(self.prompt());
                }
                0x03 if self.tty => {
                    self.line.clear();
                    actions.push(Action::Stdout(b"^C\n".to_vec()));
                    actions.extend(self.prompt());
                }
                0x04 if self.tty && self.line.is_empty() => {
                    if self.flavour == Flavour::Bash {
                        actions.push(Action::Stdout(b"exit\n".to_vec()));
                    }
                    actions.push(Action::Exit(self.status));
                    return actions;
                }
                0x7f | 0x08 if self.tty => {
                    if self.line.pop().is_some() {
                        actions.push(Action::Stdout(b"\x08 \x08".to_vec()));
                    }
                }
                _ => {
                    if self.tty {
                        actions.push(Action::Stdout(vec![b]));
                    }
                    self.line.push(b);
                }
            }
        }
        actions
    }

    /// stdin ended: run a partial last line, then exit with the last status.
    pub fn eof(&mut self) -> Vec<Action> {
        let mut actions = Vec::new();
        if !self.line.is_empty() {
            let line = String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned();
            let (acts, exit) = self.run_line(&line);
            actions.extend(acts);
            if let Some(code) = exit {
                actions.push(Action::Exit(code));
                return actions;
            }
        }
        actions.push(Action::Exit(self.status));
        actions
    }

    /// Runs a whole `-c` script; the actions end with its exit status.
    pub fn run_script(&mut self, script: &str) -> Vec<Action> {
        let mut actions = Vec::new();
        for line in script.lines() {
            let (acts, exit) = self.run_line(line);
            actions.extend(acts);
            if let Some(code) = exit {
                actions.push(Action::Exit(code));
                return actions;
            }
        }
        actions.push(Action::Exit(self.status));
        actions
    }

    /// Runs one line; `Some(code)` when it ran `exit`.
    fn run_line(&mut self, line: &str) -> (Vec<Action>, Option<i32>) {
        self.lineno += 1;
        let mut actions = Vec::new();
        if let Some(delim) = &self.heredoc {
            if line.trim() == delim {
                self.heredoc = None;
            }
            return (actions, None);
        }
        let mut skip_next = false;
        for (sep, cmd) in split_commands(line) {
            let run = match sep {
                Sep::Start | Sep::Semi => true,
                Sep::And => self.status == 0,
                Sep::Or => self.status != 0,
            };
            if !run || std::mem::take(&mut skip_next) {
                continue;
            }
            if cmd.contains("<<") {
                if let Some(delim) = heredoc_delimiter(&cmd) {
                    self.heredoc = Some(delim);
                }
                self.status = 0;
                continue;
            }
            let stages = split_pipe(&cmd);
            let (last, upstream) = stages.split_last().unwrap_or((&cmd, &[]));
            // Stages before the last: their stdout is the next stage's stdin; stderr passes.
            let mut piped: Option<Vec<u8>> = None;
            for stage in upstream {
                let (stage_words, _) = self.words(stage);
                let mut stage_acts = Vec::new();
                self.run_words(&stage_words, piped.take(), &mut stage_acts);
                let mut out = Vec::new();
                for a in stage_acts {
                    match a {
                        Action::Stdout(b) => out.extend(b),
                        Action::Exit(_) | Action::Sleep(_) => {}
                        other => actions.push(other),
                    }
                }
                piped = Some(out);
            }
            let (words, redirect) = self.words(last);
            let Some(first) = words.first() else { continue };
            let mut acts = Vec::new();
            if let Some(input) = piped.take() {
                self.run_words(&words, Some(input), &mut acts);
            } else {
                match first.as_str() {
                    "exit" => {
                        let code = words
                            .get(1)
                            .and_then(|w| w.parse::<i32>().ok())
                            .unwrap_or(self.status);
                        return (actions, Some(code & 0xff));
                    }
                    "cd" | "export" | ":" => self.status = 0,
                    _ if matches!(first.rsplit('/').next(), Some("stty" | "tput"))
                        && has_binary(&self.view, first) =>
                    {
                        let base = first.rsplit('/').next().unwrap_or(first);
                        let (a, code) = self.terminal_tool(base, &words[1..], self.terminal(false));
                        acts.extend(a);
                        self.status = code;
                    }
                    _ if has_binary(&self.view, first)
                        && !matches!(first.as_str(), "sh" | "bash") =>
                    {
                        self.status = run_binary(&self.view, &words, &mut acts);
                    }
                    "sh" | "bash"
                        if has_binary(&self.view, first)
                            && words.get(1).is_some_and(|w| w == "-c") =>
                    {
                        let mut sub =
                            Shell::new(self.view.clone(), self.flavour, false).invoked_as(first);
                        let sub_actions = sub.run_script(words.get(2).map_or("", String::as_str));
                        for a in sub_actions {
                            match a {
                                Action::Exit(c) => self.status = c,
                                other => acts.push(other),
                            }
                        }
                    }
                    other => {
                        let msg = match self.flavour {
                            Flavour::Ash => format!("sh: {other}: not found\n"),
                            Flavour::Dash => format!("sh: {}: {other}: not found\n", self.lineno),
                            Flavour::Bash => format!("bash: {other}: command not found\n"),
                        };
                        acts.push(Action::Stderr(msg.into_bytes()));
                        self.status = 127;
                    }
                }
            }
            actions.extend(acts.into_iter().filter_map(|a| match a {
                Action::Stdout(b) => redirect.stdout.apply(b),
                Action::Stderr(b) => redirect.stderr.apply(b),
                other => Some(other),
            }));
        }
        (actions, None)
    }

    /// Runs one pipeline stage: a filter (`head`, `grep`, `wc`, `cat` without a file) on
    /// `stdin` (a filter given a file reads the file), else the binary (which ignores stdin);
    /// sets `self.status`.
    fn run_words(&mut self, words: &[String], stdin: Option<Vec<u8>>, acts: &mut Vec<Action>) {
        let Some(first) = words.first() else { return };
        let base = first.rsplit('/').next().unwrap_or(first);
        if matches!(base, "stty" | "tput") && has_binary(&self.view, first) {
            let tty = self.terminal(stdin.is_some());
            let (a, code) = self.terminal_tool(base, &words[1..], tty);
            acts.extend(a);
            self.status = code;
            return;
        }
        let is_filter = super::pipe::is_filter(base) || (base == "cat" && words.len() == 1);
        if is_filter && self.view.userland != super::userland::Userland::None {
            let file_input = match (base, words) {
                ("grep", [_, _, file]) | ("head" | "wc", [_, _, file]) => self.view.read(file),
                _ => None,
            };
            let argv = if file_input.is_some() {
                &words[..2]
            } else {
                words
            };
            let input = file_input.or(stdin).unwrap_or_default();
            if let Some(f) = super::pipe::filter(argv, &input) {
                acts.push(Action::Stdout(f.stdout));
                if !f.stderr.is_empty() {
                    acts.push(Action::Stderr(f.stderr));
                }
                self.status = f.status;
                return;
            }
        }
        if has_binary(&self.view, first) {
            self.status = run_binary(&self.view, words, acts);
        } else {
            acts.push(Action::Stderr(
                format!("sh: {first}: not found\n").into_bytes(),
            ));
            self.status = 127;
        }
    }

    /// What `$` expands to in this shell.
    fn vars(&self) -> Vars<'_> {
        Vars {
            shell: &self.shell_vars,
            env: &self.view.env,
            status: self.status,
            argv0: &self.argv0,
        }
    }

    /// [`words`] with this shell's variables.
    fn words(&self, cmd: &str) -> (Vec<String>, Redirect) {
        words(cmd, &self.vars())
    }
}
