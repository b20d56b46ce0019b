//! A container's PID 1 `sh -c SCRIPT` (busybox), run symbolically by the kubelet model: what it
//! prints when, and when it exits. Good enough for init containers, demo programs and exec
//! lifecycle hooks; its syntax is [`super::shell_syntax`]'s.
//!
//! Understood (one command per line, or separated by `;`, `&&`, `||`, each run in turn):
//! `echo ARGS` (printed on stdout, on stderr with `>&2`, not at all when redirected to a
//! file), `sleep N` (seconds, decimals allowed; `sleep infinity` runs forever), `exit N`,
//! `false` (status 1), heredocs (`cat > f <<'EOF' … EOF`, skipped), `until nslookup NAME; do
//! BODY; done` (and `while ! nslookup NAME; …`): a loop the kubelet model runs against the
//! cluster's Services ([`super::loops`]; BODY's `echo`s and `sleep`s make each iteration), other
//! `while …`/`until …` loops and `tail -f` (run forever), and the usual no-output file commands
//! (`cat`, `touch`, `mkdir`, `cp`, `mv`, `rm`, `ls`, `cd`, `export`, `set`, `true`, `:`,
//! `test`, `[`, `chmod`, `date`, `printf` to a file). Anything else prints `sh: CMD: not found`
//! on stderr and sets status 127. The script exits with the status of its last command, like
//! `sh`.

use jiff::SignedDuration;

use super::image::SimImage;
use super::loops::{Loop, Until};
use super::programs::{LogLine, Plan, exit};
use super::shell_syntax::{Dest, Vars, heredoc_delimiter, literal_words, split_commands, words};

/// One line a script wrote.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScriptLine {
    /// When, from the script's start.
    pub at: SignedDuration,
    /// The text, without the newline.
    pub text: String,
    /// Written on stderr (else stdout).
    pub stderr: bool,
}

/// What a script does over time, computed once at start.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScriptRun {
    /// Output lines in order.
    pub lines: Vec<ScriptLine>,
    /// `Some((offset, exit code))`, or `None` when it never ends on its own (or loops).
    pub exit: Option<(SignedDuration, i32)>,
    /// A loop waiting for the cluster, from its first check on (then `exit` is `None`).
    pub looping: Option<Loop>,
}

impl ScriptRun {
    /// The run as a program's [`Plan`] (stdout and stderr as one log, as the runtime keeps it).
    pub(crate) fn plan(self) -> Plan {
        Plan {
            logs: self
                .lines
                .into_iter()
                .map(|l| LogLine {
                    offset: l.at,
                    text: l.text,
                    stamped: false,
                })
                .collect(),
            exit: self.exit.and_then(|(t, code)| exit(t, code)),
            looping: self.looping,
        }
    }

    /// What went to stdout and to stderr, each line with its newline (an exec's two streams).
    pub(crate) fn streams(&self) -> (String, String) {
        let (mut out, mut err) = (String::new(), String::new());
        for l in &self.lines {
            let s = if l.stderr { &mut err } else { &mut out };
            s.push_str(&l.text);
            s.push('\n');
        }
        (out, err)
    }
}

const NO_OUTPUT: &[&str] = &[
    "cat", "touch", "mkdir", "cp", "mv", "rm", "ls", "cd", "export", "set", "true", ":", "test",
    "[", "chmod", "chown", "date", "printf", "ln", "env", "wait", "trap", "umask",
];

/// The script's commands in order, heredoc bodies left out.
fn commands(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut heredoc: Option<String> = None;
    for raw in script.lines() {
        if let Some(end) = &heredoc {
            if raw.trim() == end {
                heredoc = None;
            }
            continue;
        }
        if let Some(delim) = heredoc_delimiter(raw) {
            heredoc = Some(delim);
        }
        out.extend(
            split_commands(raw)
                .into_iter()
                .map(|(_, c)| c.trim().to_string()),
        );
    }
    out
}

/// What `echo` prints: its words as written (no expansion: the script's environment is not
/// known here), redirections left out.
fn echo_text(cmd: &str) -> String {
    let mut out = Vec::new();
    let mut skip_next = false;
    for w in literal_words(cmd).into_iter().skip(1) {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        let target = w.trim_start_matches(['1', '2']);
        if let Some(rest) = target.strip_prefix('>') {
            skip_next = rest.trim_start_matches('>').is_empty();
            continue;
        }
        out.push(w);
    }
    out.join(" ")
}

/// The name of an `nslookup NAME` condition (`until nslookup NAME`, `while ! nslookup NAME`).
fn nslookup_name(cond: &str, until: bool) -> Option<String> {
    let w = literal_words(cond);
    match (until, w.as_slice()) {
        (true, [cmd, name, ..]) | (false, [_, cmd, name, ..]) if cmd == "nslookup" => {
            (until || w[0] == "!").then(|| name.clone())
        }
        _ => None,
    }
}

/// Runs `script` symbolically; `image` (the container's) decides the busybox version of
/// `nslookup`'s output.
pub(crate) fn run_in(script: &str, image: &str) -> ScriptRun {
    let old_busybox = {
        let img = SimImage::of(image);
        let mut v = img
            .tag
            .split(['.', '-'])
            .filter_map(|p| p.parse::<u32>().ok());
        matches!((v.next(), v.next()), (Some(1), Some(m)) if m <= 28)
    };
    interpret(&commands(script), old_busybox)
}

/// Runs `script` symbolically (busybox 1.36's `nslookup`).
#[cfg(test)]
pub(crate) fn run(script: &str) -> ScriptRun {
    run_in(script, "busybox:1.36")
}

fn interpret(cmds: &[String], old_busybox: bool) -> ScriptRun {
    let mut t = SignedDuration::ZERO;
    let mut lines = Vec::new();
    let mut status = 0;
    let vars = Vars {
        shell: &[],
        env: &[],
        status: 0,
        argv0: "sh",
    };
    let mut i = 0;
    while i < cmds.len() {
        let cmd = &cmds[i];
        let first = literal_words(cmd).into_iter().next().unwrap_or_default();
        match first.as_str() {
            "echo" => {
                status = 0;
                let (_, redirect) = words(cmd, &vars);
                if redirect.stdout != Dest::Null {
                    lines.push(ScriptLine {
                        at: t,
                        text: echo_text(cmd),
                        stderr: redirect.stdout == Dest::Stderr,
                    });
                }
            }
            "sleep" => {
                let w = literal_words(cmd);
                let arg = w.get(1).map_or("0", String::as_str);
                if arg == "infinity" {
                    return ScriptRun {
                        lines,
                        exit: None,
                        looping: None,
                    };
                }
                let secs: f64 = arg.trim_end_matches('s').parse().unwrap_or(0.0);
                t += SignedDuration::try_from_secs_f64(secs).unwrap_or(SignedDuration::ZERO);
                status = 0;
            }
            "exit" => {
                let w = literal_words(cmd);
                let code = w.get(1).and_then(|w| w.parse().ok()).unwrap_or(status);
                return ScriptRun {
                    lines,
                    exit: Some((t, code)),
                    looping: None,
                };
            }
            "while" | "until" => {
                let cond = cmd[first.len()..].trim();
                let done = (i..cmds.len()).find(|&j| cmds[j] == "done");
                let Some((name, done)) = nslookup_name(cond, first == "until").zip(done) else {
                    return ScriptRun {
                        lines,
                        exit: None,
                        looping: None,
                    };
                };
                let body: Vec<String> = cmds[i + 1..done]
                    .iter()
                    .map(|c| c.strip_prefix("do ").unwrap_or(c).trim().to_string())
                    .filter(|c| c != "do")
                    .collect();
                let round = interpret(&body, old_busybox);
                let rest = interpret(&cmds[done + 1..], old_busybox);
                let looping = Loop {
                    at: t,
                    every: round
                        .exit
                        .map_or(SignedDuration::ZERO, |(d, _)| d)
                        .max(SignedDuration::from_millis(10)),
                    until: Until::Resolves { name, old_busybox },
                    body: round.lines.into_iter().map(|l| l.text).collect(),
                    stamped: false,
                    gates_readiness: false,
                    then: Box::new(rest.plan()),
                };
                return ScriptRun {
                    lines,
                    exit: None,
                    looping: Some(looping),
                };
            }
            "tail" if cmd.split_whitespace().any(|w| w == "-f") => {
                return ScriptRun {
                    lines,
                    exit: None,
                    looping: None,
                };
            }
            "false" => status = 1,
            w if NO_OUTPUT.contains(&w) => status = 0,
            other => {
                lines.push(ScriptLine {
                    at: t,
                    text: format!("sh: {other}: not found"),
                    stderr: true,
                });
                status = 127;
            }
        }
        i += 1;
    }
    ScriptRun {
        lines,
        exit: Some((t, status)),
        looping: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: i64) -> SignedDuration {
        SignedDuration::from_secs(secs)
    }

    fn texts(r: &ScriptRun) -> Vec<(SignedDuration, &str)> {
        r.lines.iter().map(|l| (l.at, l.text.as_str())).collect()
    }

    #[test]
    fn seed_render_config_writes_a_file_and_exits_0() {
        // The seed's init container: a heredoc into /etc/nginx/conf.d/default.conf.
        let script = "cat > /etc/nginx/conf.d/default.conf <<'EOF'\nserver {\n  listen 8081;\n  location / { proxy_pass http://127.0.0.1:8080; }\n}\nEOF\n";
        let r = run(script);
        assert!(r.lines.is_empty());
        assert_eq!(r.exit, Some((SignedDuration::ZERO, 0)));
    }

    #[test]
    fn echo_sleep_exit() {
        let r = run("echo starting; sleep 3 && echo 'about to fail' >&2\nexit 2");
        assert_eq!(texts(&r), vec![(s(0), "starting"), (s(3), "about to fail")]);
        assert_eq!(r.exit, Some((s(3), 2)));
        assert_eq!(
            r.streams(),
            ("starting\n".to_string(), "about to fail\n".to_string())
        );
        assert!(run("echo quiet > /tmp/x").lines.is_empty());
    }

    #[test]
    fn unknown_command_is_127_and_forever_loops() {
        let r = run("git clone https://example/repo /data");
        assert_eq!(texts(&r), vec![(s(0), "sh: git: not found")]);
        assert_eq!(r.exit, Some((s(0), 127)));
        assert_eq!(run("echo up; sleep infinity").exit, None);
        assert_eq!(run("while true; do sleep 1; done").exit, None);
    }

    #[test]
    fn an_nslookup_loop_waits_for_the_cluster() {
        let r = run_in(
            "until nslookup db; do echo waiting for db; sleep 2; done; echo db is up",
            "busybox:1.28",
        );
        assert_eq!(r.exit, None);
        let l = r.looping.expect("a loop");
        assert_eq!(
            l.until,
            Until::Resolves {
                name: "db".into(),
                old_busybox: true
            }
        );
        assert_eq!(
            (l.every, l.body.as_slice()),
            (s(2), &["waiting for db".to_string()][..])
        );
        assert_eq!(l.then.logs[0].text, "db is up");
        assert_eq!(l.then.exit.map(|e| e.code), Some(0));
        let w = run("while ! nslookup cache; do sleep 1; done").looping;
        assert!(
            matches!(w.map(|l| l.until), Some(Until::Resolves { name, old_busybox: false }) if name == "cache")
        );
    }
}
