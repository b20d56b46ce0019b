//! Pipelines for the simulated shell: `a | b | c` (stdout of each stage is the next one's
//! stdin; the stages are split by [`super::shell_syntax::split_pipe`]) and the filters that read stdin: `head -N`/`head -n N`, `grep PATTERN`, `wc -l`,
//! and `cat` without arguments. Pure functions over bytes; the shell runs the stages.

/// What a filter wrote and its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Filtered {
    /// Bytes on stdout.
    pub stdout: Vec<u8>,
    /// Bytes on stderr.
    pub stderr: Vec<u8>,
    /// Exit status (grep: 1 when nothing matched, 2 on a usage error).
    pub status: i32,
}

/// Whether `name` is one of the filters [`filter`] runs.
pub(crate) fn is_filter(name: &str) -> bool {
    matches!(name, "head" | "grep" | "wc")
}

fn ok(stdout: Vec<u8>) -> Filtered {
    Filtered {
        stdout,
        stderr: Vec::new(),
        status: 0,
    }
}

fn usage(msg: String) -> Filtered {
    Filtered {
        stdout: Vec::new(),
        stderr: msg.into_bytes(),
        status: 2,
    }
}

/// Runs filter `argv` (`head`, `grep`, `wc`, or `cat` with no file) on `input`.
/// `None` when `argv` is not such a filter.
pub(crate) fn filter(argv: &[String], input: &[u8]) -> Option<Filtered> {
    let name = argv.first()?.rsplit('/').next()?;
    let args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
    let lines = || input.split_inclusive(|b| *b == b'\n');
    Some(match (name, args.as_slice()) {
        ("cat", []) => ok(input.to_vec()),
        ("head", rest) => {
            let n = match rest {
                [] => Some(10),
                ["-n", n] => n.parse::<usize>().ok(),
                [flag] => flag.strip_prefix('-').and_then(|n| n.parse::<usize>().ok()),
                _ => None,
            };
            match n {
                Some(n) => ok(lines().take(n).flatten().copied().collect()),
                None => usage(format!(
                    "head: invalid number of lines: '{}'\n",
                    rest.join(" ")
                )),
            }
        }
        ("grep", [pattern]) => {
            let found: Vec<u8> = lines()
                .filter(|l| String::from_utf8_lossy(l).contains(pattern))
                .flatten()
                .copied()
                .collect();
            let status = i32::from(found.is_empty());
            Filtered {
                stdout: found,
                stderr: Vec::new(),
                status,
            }
        }
        ("grep", _) => usage("Usage: grep PATTERN\n".to_owned()),
        ("wc", ["-l"]) => {
            ok(format!("{}\n", input.iter().filter(|b| **b == b'\n').count()).into_bytes())
        }
        ("wc", _) => usage("wc: only -l is simulated\n".to_owned()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's `render-config` file (`sim/runtime/container_script.rs`).
    const CONF: &str =
        "server {\n  listen 8081;\n  location / { proxy_pass http://127.0.0.1:8080; }\n}\n";

    fn run(argv: &str, input: &str) -> Filtered {
        let argv: Vec<String> = argv.split_whitespace().map(str::to_owned).collect();
        filter(&argv, input.as_bytes()).expect("a filter")
    }

    #[test]
    fn head_takes_the_first_lines() {
        let three =
            "server {\n  listen 8081;\n  location / { proxy_pass http://127.0.0.1:8080; }\n";
        assert_eq!(run("head -3", CONF).stdout, three.as_bytes());
        assert_eq!(run("head -n 1", CONF).stdout, b"server {\n");
        assert_eq!(run("head", CONF).stdout, CONF.as_bytes());
        assert_eq!(run("head -x", CONF).status, 2);
    }

    #[test]
    fn grep_keeps_matching_lines_and_exits_1_without_match() {
        let g = run("grep listen", CONF);
        assert_eq!(
            (g.stdout.as_slice(), g.status),
            (&b"  listen 8081;\n"[..], 0)
        );
        let none = run("grep absent", CONF);
        assert_eq!((none.stdout.len(), none.status), (0, 1));
    }

    #[test]
    fn wc_counts_lines_and_cat_copies_stdin() {
        assert_eq!(run("wc -l", CONF).stdout, b"4\n");
        assert_eq!(run("wc -l", "").stdout, b"0\n");
        assert_eq!(run("cat", CONF).stdout, CONF.as_bytes());
        assert!(filter(&["echo".to_owned()], b"x").is_none());
        assert!(filter(&["cat".to_owned(), "/f".to_owned()], b"x").is_none());
    }
}
