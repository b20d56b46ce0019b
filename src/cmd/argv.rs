//! kubectl's argument order: the connection flags (`--kubeconfig`, `--context`, `-n`) and
//! `--log-file` may come before the subcommand (`podscope --kubeconfig K logs POD`), which clap
//! alone refuses because the bare `podscope POD` form flattens `attach`'s flags into the top
//! level. [`hoist_connection_flags`] moves them after the subcommand's name, the same meaning.

use std::ffi::OsString;

use clap::CommandFactory;

use super::cli::Cli;

/// The flags that select the cluster (and `--log-file`) that may come before a subcommand, each
/// followed by its value (or joined by `=`; `-nNS` too).
const CONNECTION_FLAGS: [&str; 5] = [
    "--kubeconfig",
    "--context",
    "--namespace",
    "-n",
    "--log-file",
];

/// `argv` (program name first) with the [`CONNECTION_FLAGS`] that precede a subcommand's name
/// moved right after it: `podscope -n shop --context c logs web` becomes `podscope logs -n shop
/// --context c web`, the same meaning. Anything else (the bare `podscope [FLAGS] POD`, no leading
/// flags, a value missing) is returned unchanged for clap to accept or refuse.
#[must_use]
pub fn hoist_connection_flags(argv: Vec<OsString>) -> Vec<OsString> {
    let mut i = 1;
    while let Some(arg) = argv.get(i).and_then(|a| a.to_str()) {
        if CONNECTION_FLAGS.contains(&arg) {
            i += 2;
        } else if CONNECTION_FLAGS
            .iter()
            .any(|f| arg.strip_prefix(f).is_some_and(|v| v.starts_with('=')))
            || (arg.starts_with("-n") && arg.len() > 2)
        {
            i += 1;
        } else {
            break;
        }
    }
    let is_subcommand = |name: &str| {
        Cli::command()
            .get_subcommands()
            .any(|c| c.get_name() == name || c.get_all_aliases().any(|a| a == name))
    };
    match argv.get(i).and_then(|a| a.to_str()) {
        Some(name) if i > 1 && is_subcommand(name) => {
            let mut out = Vec::with_capacity(argv.len());
            out.push(argv[0].clone());
            out.push(argv[i].clone());
            out.extend_from_slice(&argv[1..i]);
            out.extend_from_slice(&argv[i + 1..]);
            out
        }
        _ => argv,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::cli::{Cli, Command};

    #[test]
    fn connection_flags_before_a_subcommand_mean_the_same_after_it() {
        let cli = Cli::try_parse_args([
            "podscope",
            "--kubeconfig",
            "/tmp/k",
            "logs",
            "crash",
            "-c",
            "nope",
        ])
        .expect("parses");
        let Some(Command::Logs(l)) = cli.command else {
            panic!("expected logs")
        };
        assert_eq!(
            (l.pod.as_str(), l.container.as_deref()),
            ("crash", Some("nope"))
        );
        assert_eq!(l.cluster.kubeconfig, Some(PathBuf::from("/tmp/k")));

        let cli = Cli::try_parse_args([
            "podscope",
            "-n",
            "default",
            "--context=c1",
            "exec",
            "crash",
            "--",
            "true",
        ])
        .expect("parses");
        let Some(Command::Exec(e)) = cli.command else {
            panic!("expected exec")
        };
        assert_eq!(e.pod, "crash");
        assert_eq!(e.cluster.namespace.as_deref(), Some("default"));
        assert_eq!(e.cluster.context.as_deref(), Some("c1"));

        let cli = Cli::try_parse_args([
            "podscope",
            "--context",
            "X",
            "--log-file",
            "/tmp/l",
            "port-forward",
            "web",
            "8080:80",
        ])
        .expect("parses");
        assert_eq!(cli.log_file, Some(PathBuf::from("/tmp/l")));
        let Some(Command::PortForward(p)) = cli.command else {
            panic!("expected port-forward")
        };
        assert_eq!(p.cluster.context.as_deref(), Some("X"));

        let cli = Cli::try_parse_args(["podscope", "-nshop", "attach", "web"]).expect("parses");
        let Some(Command::Attach(a)) = cli.command else {
            panic!("expected attach")
        };
        assert_eq!(
            (a.target.as_deref(), a.namespace.as_deref()),
            (Some("web"), Some("shop"))
        );
    }

    #[test]
    fn connection_flags_before_a_bare_pod_stay_the_implied_attach() {
        let cli = Cli::try_parse_args(["podscope", "--kubeconfig", "/tmp/k", "-n", "shop", "web"])
            .expect("parses");
        assert!(cli.command.is_none());
        let a = cli.attach.expect("attach");
        assert_eq!(
            (a.target.as_deref(), a.namespace.as_deref()),
            (Some("web"), Some("shop"))
        );
        assert_eq!(a.kubeconfig, Some(PathBuf::from("/tmp/k")));
        let cli = Cli::try_parse_args(["podscope", "demo"]).expect("parses");
        assert!(matches!(cli.command, Some(Command::Demo(_))));
    }
}
