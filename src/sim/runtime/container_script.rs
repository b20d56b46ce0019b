//! A container's PID 1 `sh -c SCRIPT` (busybox), run symbolically by the kubelet model: what it
//! prints when, and when it exits. Good enough for init containers and demo programs; its syntax
//! is [`super::shell_syntax`]'s.
//!
//! Understood (one command per line, or separated by `;`, `&&`, `||`, each run in turn):
//! `echo ARGS` (printed unless redirected with `>`), `sleep N` (seconds, decimals allowed;
//! `sleep infinity` runs forever), `exit N`, `false` (status 1), heredocs (`cat > f <<'EOF' … EOF`,
//! skipped), `while …`/`tail -f` (run forever), and the usual no-output file commands (`cat`,
//! `touch`, `mkdir`, `cp`, `mv`, `rm`, `ls`, `cd`, `export`, `set`, `true`, `:`, `test`, `[`,
//! `chmod`, `date`, `printf` to a file). Anything else prints `sh: CMD: not found` and sets status 127.
//! The script exits with the status of its last command, like `sh`.

use jiff::SignedDuration;

use super::shell_syntax::{heredoc_delimiter, literal_words, split_commands};

/// What a script does over time, computed once at start.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScriptRun {
    /// Output lines with their offset from the start.
    pub lines: Vec<(SignedDuration, String)>,
    /// `Some((offset, exit code))`, or `None` when it never ends on its own.
    pub exit: Option<(SignedDuration, i32)>,
}

const NO_OUTPUT: &[&str] = &[
    "cat", "touch", "mkdir", "cp", "mv", "rm", "ls", "cd", "export", "set", "true", ":", "test",
    "[", "chmod", "chown", "date", "printf", "ln", "env", "wait", "trap", "umask",
];

/// Runs `script` symbolically.
pub(crate) fn run(script: &str) -> ScriptRun {
    let mut t = SignedDuration::ZERO;
    let mut lines = Vec::new();
    let mut status = 0;
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
        for (_, cmd) in split_commands(raw) {
            let words = literal_words(&cmd);
            let Some(first) = words.first() else { continue };
            match first.as_str() {
                "echo" => {
                    status = 0;
                    let redirected = cmd.contains('>');
                    if !redirected {
                        lines.push((t, words[1..].join(" ")));
                    }
                }
                "sleep" => {
                    let arg = words.get(1).map_or("0", String::as_str);
                    if arg == "infinity" {
                        return ScriptRun { lines, exit: None };
                    }
                    let secs: f64 = arg.trim_end_matches('s').parse().unwrap_or(0.0);
                    t += SignedDuration::try_from_secs_f64(secs).unwrap_or(SignedDuration::ZERO);
                    status = 0;
                }
                "exit" => {
                    let code = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(status);
                    return ScriptRun {
                        lines,
                        exit: Some((t, code)),
                    };
                }
                "while" | "until" => return ScriptRun { lines, exit: None },
                "tail" if words.iter().any(|w| w == "-f") => {
                    return ScriptRun { lines, exit: None };
                }
                "false" => status = 1,
                w if NO_OUTPUT.contains(&w) => status = 0,
                other => {
                    lines.push((t, format!("sh: {other}: not found")));
                    status = 127;
                }
            }
        }
    }
    ScriptRun {
        lines,
        exit: Some((t, status)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: i64) -> SignedDuration {
        SignedDuration::from_secs(secs)
    }

    #[test]
    fn seed_render_config_writes_a_file_and_exits_0() {
        // The seed's init container: a heredoc into /etc/nginx/conf.d/default.conf.
        let script = "cat > /etc/nginx/conf.d/default.conf <<'EOF'\nserver {\n  listen 8081;\n  location / { proxy_pass http://127.0.0.1:8080; }\n}\nEOF\n";
        assert_eq!(
            run(script),
            ScriptRun {
                lines: vec![],
                exit: Some((SignedDuration::ZERO, 0))
            }
        );
    }

    #[test]
    fn echo_sleep_exit() {
        let r = run("echo starting; sleep 3 && echo 'about to fail'\nexit 2");
        assert_eq!(
            r.lines,
            vec![(s(0), "starting".into()), (s(3), "about to fail".into())]
        );
        assert_eq!(r.exit, Some((s(3), 2)));
    }

    #[test]
    fn unknown_command_is_127_and_forever_loops() {
        assert_eq!(
            run("git clone https://example/repo /data"),
            ScriptRun {
                lines: vec![(s(0), "sh: git: not found".into())],
                exit: Some((s(0), 127))
            }
        );
        assert_eq!(run("echo up; sleep infinity").exit, None);
        assert_eq!(run("while true; do sleep 1; done").exit, None);
    }
}
