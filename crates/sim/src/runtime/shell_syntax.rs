//! The shell syntax both simulated shells parse — the exec shell ([`super::exec_shell`]) and a
//! container's PID 1 `sh -c SCRIPT` ([`super::container_script`]) — and the files a script's
//! heredocs write ([`super::userland`]):
//!
//! - [`split_commands`]: a line split into commands at `;`, `&&`, `||` outside quotes;
//! - [`split_pipe`]: a command split into pipeline stages at `|` outside quotes;
//! - [`words`]: a command split into words with single/double quotes, backslash escapes, `#`
//!   comments and `$NAME`, `${NAME}`, `$?`, `$0` expanded; `>`/`>>`/`2>`/`2>&1` redirections
//!   taken out and reported (files are not written: output to a file is discarded);
//!   [`literal_words`] the same split without expansion (the `shell-words` crate);
//! - [`heredoc_delimiter`]: the delimiter of a `<<` heredoc a command starts, whose body lines
//!   the shells skip; [`heredoc_files`]: the `cat > FILE <<'EOF' … EOF` files a script writes.

use std::sync::LazyLock;

use regex::Regex;

use super::process::Action;

/// What `$` expands to: the shell's own variables, the container's environment, the last
/// status, the shell's `$0`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Vars<'a> {
    /// Shell variables that are not exported (`COLUMNS`, `LINES`), looked up first.
    pub(super) shell: &'a [(String, String)],
    /// `NAME=value` pairs.
    pub(super) env: &'a [(String, String)],
    /// `$?`.
    pub(super) status: i32,
    /// `$0`.
    pub(super) argv0: &'a str,
}

/// Splits a command into words with quote handling and `$` expansion; drops redirections and
/// reports where stdout and stderr go.
pub(super) fn words(cmd: &str, vars: &Vars<'_>) -> (Vec<String>, Redirect) {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '#') if !in_word => break,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, '\'') | (None, '"') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (_, '$') => {
                in_word = true;
                cur.push_str(&expand(&mut chars, vars));
            }
            (_, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    let mut out = Vec::new();
    let mut redirect = Redirect {
        stdout: Dest::Stdout,
        stderr: Dest::Stderr,
    };
    let mut iter = words.into_iter();
    while let Some(w) = iter.next() {
        let target = w.trim_start_matches(['1', '2']);
        if !target.starts_with('>') {
            out.push(w);
            continue;
        }
        let slot = if w.starts_with('2') {
            &mut redirect.stderr
        } else {
            &mut redirect.stdout
        };
        *slot = match target.trim_start_matches('>') {
            "&1" => Dest::Stdout,
            "&2" => Dest::Stderr,
            "" => {
                iter.next();
                Dest::Null
            }
            _ => Dest::Null,
        };
    }
    (out, redirect)
}

/// Expands the `$…` after `$` (`?`, `0`, `{NAME}`, `NAME`; a lone `$` stays).
fn expand(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, vars: &Vars<'_>) -> String {
    let mut name = String::new();
    match chars.peek() {
        Some('?') => {
            chars.next();
            return vars.status.to_string();
        }
        Some('0') => {
            chars.next();
            return vars.argv0.to_owned();
        }
        Some('{') => {
            chars.next();
            for c in chars.by_ref() {
                if c == '}' {
                    break;
                }
                name.push(c);
            }
        }
        _ => {
            while let Some(&c) = chars.peek() {
                if c.is_ascii_alphanumeric() || c == '_' {
                    name.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            if name.is_empty() {
                return "$".to_string();
            }
        }
    }
    vars.shell
        .iter()
        .chain(vars.env.iter())
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// Where a command's output stream goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dest {
    Stdout,
    Stderr,
    Null,
}

impl Dest {
    /// The action writing `bytes` there (`None`: discarded).
    pub(super) fn apply(self, bytes: Vec<u8>) -> Option<Action> {
        match self {
            Dest::Stdout => Some(Action::Stdout(bytes)),
            Dest::Stderr => Some(Action::Stderr(bytes)),
            Dest::Null => None,
        }
    }
}

/// Where a command's stdout and stderr go after its redirections.
#[derive(Debug, Clone, Copy)]
pub(super) struct Redirect {
    /// stdout's destination.
    pub(super) stdout: Dest,
    /// stderr's destination.
    pub(super) stderr: Dest,
}

/// What joins a command to the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sep {
    Start,
    Semi,
    And,
    Or,
}

/// Splits a line at `;`, `&&`, `||` outside quotes.
pub(super) fn split_commands(line: &str) -> Vec<(Sep, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut sep = Sep::Start;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, ';') => {
                out.push((sep, std::mem::take(&mut cur)));
                sep = Sep::Semi;
            }
            (None, '&') if chars.peek() == Some(&'&') => {
                chars.next();
                out.push((sep, std::mem::take(&mut cur)));
                sep = Sep::And;
            }
            (None, '|') if chars.peek() == Some(&'|') => {
                chars.next();
                out.push((sep, std::mem::take(&mut cur)));
                sep = Sep::Or;
            }
            (None, c) => cur.push(c),
        }
    }
    out.push((sep, cur));
    out.retain(|(_, c)| !c.trim().is_empty());
    out
}

/// Splits one command at `|` outside quotes (`||` was already split off by
/// [`split_commands`]). `"cat f | head -3"` → `["cat f ", " head -3"]`.
pub(crate) fn split_pipe(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, '|') => out.push(std::mem::take(&mut cur)),
            (None, c) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Splits a command into words with quotes and backslash escapes, without `$` expansion
/// (`shell_words::split`); a command with an unterminated quote falls back to whitespace.
pub(crate) fn literal_words(cmd: &str) -> Vec<String> {
    shell_words::split(cmd).unwrap_or_else(|_| cmd.split_whitespace().map(str::to_owned).collect())
}

/// The delimiter of the heredoc that `cmd` starts (`<<EOF`, `<<-EOF`, `<< 'EOF'`, `<<"EOF"`),
/// quotes removed; `None` without `<<` or delimiter. The body lines up to the one that is the
/// delimiter (trimmed) belong to the heredoc, not to the script.
pub(crate) fn heredoc_delimiter(cmd: &str) -> Option<String> {
    let pos = cmd.find("<<")?;
    let delim = cmd[pos + 2..]
        .trim_start_matches('-')
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c| c == '\'' || c == '"');
    (!delim.is_empty()).then(|| delim.to_string())
}

static CAT_HEREDOC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"cat\s*>\s*(\S+)\s*<<-?\s*['"]?(\w+)['"]?[^\n]*\n"#).expect("valid regex")
});

/// The files `script` writes with `cat > FILE <<'EOF' … EOF` heredocs, as (path, content), in
/// script order; each body line keeps its `\n`.
pub(crate) fn heredoc_files(script: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for cap in CAT_HEREDOC.captures_iter(script) {
        let (Some(all), Some(path), Some(delim)) = (cap.get(0), cap.get(1), cap.get(2)) else {
            continue;
        };
        let mut body = String::new();
        for line in script[all.end()..].lines() {
            if line.trim() == delim.as_str() {
                break;
            }
            body.push_str(line);
            body.push('\n');
        }
        out.push((path.as_str().to_string(), body));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(env: &[(String, String)]) -> Vars<'_> {
        Vars {
            shell: &[],
            env,
            status: 3,
            argv0: "/bin/sh",
        }
    }

    #[test]
    fn quotes_expansion_and_redirections() {
        let env = [("HOME".to_owned(), "/root".to_owned())];
        let (w, r) = words(
            r#"echo 'a $HOME' "b $HOME" ${HOME}x $? $0 \$ # gone"#,
            &vars(&env),
        );
        assert_eq!(
            w,
            ["echo", "a $HOME", "b /root", "/rootx", "3", "/bin/sh", "$"]
        );
        assert_eq!((r.stdout, r.stderr), (Dest::Stdout, Dest::Stderr));
        let (w, r) = words("ls /nope >/dev/null 2>&1", &vars(&env));
        assert_eq!(w, ["ls", "/nope"]);
        assert_eq!((r.stdout, r.stderr), (Dest::Null, Dest::Stdout));
        let (_, r) = words("x > out.txt", &vars(&env));
        assert_eq!(r.stdout, Dest::Null);
    }

    #[test]
    fn lines_split_at_separators_outside_quotes() {
        let parts = split_commands("a; b && 'c;d' || e");
        let seps: Vec<Sep> = parts.iter().map(|(s, _)| *s).collect();
        assert_eq!(seps, [Sep::Start, Sep::Semi, Sep::And, Sep::Or]);
        assert_eq!(parts[2].1.trim(), "'c;d'");
    }

    #[test]
    fn pipes_split_outside_quotes() {
        assert_eq!(
            split_pipe("cat /etc/nginx/conf.d/default.conf | head -3"),
            ["cat /etc/nginx/conf.d/default.conf ", " head -3"]
        );
        assert_eq!(split_pipe("echo 'a|b' | wc -l"), ["echo 'a|b' ", " wc -l"]);
        assert_eq!(split_pipe("echo hi"), ["echo hi"]);
    }

    #[test]
    fn literal_words_keep_dollars_and_join_quotes() {
        assert_eq!(
            literal_words(r#"echo 'about to fail' "$HOME" a\ b ''"#),
            ["echo", "about to fail", "$HOME", "a b", ""]
        );
        assert_eq!(
            literal_words("echo 'unterminated"),
            ["echo", "'unterminated"]
        );
    }

    #[test]
    fn heredocs_the_seed_writes() {
        // The seed's `render-config` init container.
        let script = "cat > /etc/nginx/conf.d/default.conf <<'EOF'\nserver {\n  listen 8081;\n}\nEOF\necho done\n";
        assert_eq!(
            heredoc_delimiter("cat > /etc/nginx/conf.d/default.conf <<'EOF'"),
            Some("EOF".into())
        );
        assert_eq!(heredoc_delimiter("cat <<- \"END\" > f"), Some("END".into()));
        assert_eq!(heredoc_delimiter("echo a << "), None);
        assert_eq!(
            heredoc_files(script),
            [(
                "/etc/nginx/conf.d/default.conf".to_string(),
                "server {\n  listen 8081;\n}\n".to_string()
            )]
        );
    }
}
