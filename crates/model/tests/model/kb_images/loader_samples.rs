//! Messages of the dynamic loader and `exec` as the runtime relays them, each with the loader
//! row it must meet.

use podscope_model::diagnosis::kb::On;

use super::{Case, FAILED};

pub(super) const MESSAGES: &[Case] = &[
    (
        On::Log,
        "exec /manager: exec format error",
        "loader-exec-format",
        &[("path", "/manager")],
    ),
    (
        On::Log,
        "exec /usr/local/bin/docker-entrypoint.sh: exec format error",
        "loader-exec-format",
        &[("path", "/usr/local/bin/docker-entrypoint.sh")],
    ),
    (
        On::Log,
        "standard_init_linux.go:211: exec user process caused \"exec format error\"",
        "loader-exec-format-legacy",
        &[],
    ),
    (
        On::Log,
        "standard_init_linux.go:228: exec user process caused: exec format error",
        "loader-exec-format-legacy",
        &[],
    ),
    (
        On::Log,
        "/docker-entrypoint.sh: line 12: /app/server: cannot execute binary file: Exec format error",
        "loader-exec-format-legacy",
        &[],
    ),
    (
        On::Waiting("RunContainerError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "./user": stat ./user: no such file or directory: unknown"#,
        "loader-entrypoint-missing",
        &[("path", "./user"), ("stat", "./user")],
    ),
    (
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "/manager": stat /manager: no such file or directory: unknown"#,
        "loader-entrypoint-missing",
        &[("path", "/manager")],
    ),
    (
        On::Log,
        "exec /docker-entrypoint.sh: no such file or directory",
        "loader-interpreter-missing",
        &[("path", "/docker-entrypoint.sh")],
    ),
    (
        On::Log,
        "standard_init_linux.go:228: exec user process caused: no such file or directory",
        "loader-interpreter-missing-legacy",
        &[],
    ),
    (
        On::Log,
        r#"standard_init_linux.go:195: exec user process caused "no such file or directory""#,
        "loader-interpreter-missing-legacy",
        &[],
    ),
    (
        FAILED,
        r#"Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "/opt/bridge/run.sh": permission denied: unknown"#,
        "loader-permission-denied",
        &[("path", "/opt/bridge/run.sh")],
    ),
    (
        On::Terminated("ContainerCannotRun"),
        r#"OCI runtime create failed: container_linux.go:349: starting container process caused "exec: \"/usr/bin/docker-entrypoint.sh\": permission denied": unknown"#,
        "loader-permission-denied",
        &[("path", "/usr/bin/docker-entrypoint.sh")],
    ),
    (
        On::Terminated("StartError"),
        r#"OCI runtime create failed: runc create failed: unable to start container process: exec: "./run.sh": permission denied: unknown"#,
        "loader-permission-denied",
        &[("path", "./run.sh")],
    ),
    (
        On::Log,
        "exec /shared/bin/agent: text file busy",
        "loader-text-file-busy",
        &[("path", "/shared/bin/agent")],
    ),
    (
        On::Log,
        "exec /usr/local/bin/java: argument list too long",
        "loader-arg-list-too-long",
        &[("path", "/usr/local/bin/java")],
    ),
];
