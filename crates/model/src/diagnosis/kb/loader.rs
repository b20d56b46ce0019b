//! The Linux loader and `execve(2)` as the OCI runtime reports them when it cannot start the
//! container's process. runc (≥ 1.1) looks the command up before it reports the container
//! started (`exec.LookPath`: a missing or non-executable file fails there, at create, as
//! `exec: "<path>": …` in a `StartError`); what only `execve` itself can find out — a binary for
//! another CPU architecture (`ENOEXEC`), a missing `#!` interpreter or ELF loader (`ENOENT` for
//! a file that exists), a file open for writing (`ETXTBSY`), an environment too large (`E2BIG`)
//! — fails after the start and reaches the container's stderr as `exec <path>: <errno text>`,
//! with exit code 1 (runc 1.1) or 255 (runc ≥ 1.2). Older runc said `standard_init_linux.go:NNN:
//! exec user process caused: <errno text>`. Read from the container's waiting or terminated
//! message, the kubelet's `Failed` event and the first log line of the failed instance.
//!
//! The runtime's own wording (`executable file not found in $PATH`, mounts, cgroups) is in
//! [`super::runtime`]; these rows come first because the errno is the more specific layer.

use super::{Entry, Fix, On};
use crate::diagnosis::Severity;

/// Where an exec failure shows: the runtime's message (waiting/terminated, the Failed event) or
/// the line runc writes to the container's stderr after the start.
const START: &[On] = &[
    On::Waiting(""),
    On::Terminated(""),
    On::Event("Failed"),
    On::Log,
];

/// The rows, specific first.
pub const ENTRIES: &[Entry] = &[
    Entry {
        id: "loader-exec-format",
        on: START,
        pattern: r#"(?:^|[\s:"(])exec:? \\?"?(?P<path>\.{0,2}/[^\s"\\]+?)\\?"?: exec format error"#,
        meaning: "the kernel refused to execute {path} (exec format error, ENOEXEC): it is not a program for node {node}'s CPU architecture — typically an image built for another architecture (amd64 vs arm64) — or a script without a #! line; the application never ran",
        action: "run an image built for the node's architecture (publish a multi-arch image with docker buildx build --platform linux/amd64,linux/arm64), or keep the pod on nodes of the image's architecture with nodeSelector kubernetes.io/arch",
        fix: Fix::Image,
        severity: Severity::Error,
        source: "execve(2) ENOEXEC; runc libcontainer/standard_init_linux.go and system/linux.go (`exec <path>: <errno>` after the start)",
    },
    Entry {
        id: "loader-exec-format-legacy",
        on: START,
        pattern: r"exec user process caused:? \\?.?exec format error|cannot execute binary file: exec format error",
        meaning: "the program of container {container} could not be executed (exec format error, ENOEXEC): it is not a program for node {node}'s CPU architecture — typically an image built for another architecture — or a script without a #! line",
        action: "run an image built for the node's architecture (a multi-arch image from docker buildx build --platform), or keep the pod on nodes of the image's architecture with nodeSelector kubernetes.io/arch",
        fix: Fix::Image,
        severity: Severity::Error,
        source: "runc < 1.1 standard_init_linux.go (`exec user process caused: exec format error`); bash execute_cmd.c (`cannot execute binary file`)",
    },
    Entry {
        id: "loader-entrypoint-missing",
        on: START,
        pattern: r#"exec: \\?"(?P<path>[^"\\]+)\\?": stat (?P<stat>[^:\s]+): no such file or directory"#,
        meaning: "the command {path} of container {container} does not exist in the container's filesystem (the image, or a volume mounted over its directory): the runtime's lookup before the start failed, so the process never ran",
        action: "correct command/args in the pod spec (or the image's ENTRYPOINT) to a path that exists in the image; list the directory from an ephemeral debug container or with docker run --entrypoint ls <image> <dir>",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "runc standard_init_linux.go (exec.LookPath before the start); Go os/exec lp_unix.go (`exec: \"<name>\": stat <name>: no such file or directory`)",
    },
    Entry {
        id: "loader-interpreter-missing",
        on: START,
        pattern: r#"(?:^|[\s:"(])exec (?P<path>\.{0,2}/[^\s"\\]+?): no such file or directory"#,
        meaning: "{path} exists (the runtime found it before the start) but execve answered no such file or directory: the interpreter on its #! line or its ELF loader is missing from the image — typically a script saved with CRLF line endings (#!/bin/sh\\r), #!/bin/bash in an image without bash, or a glibc binary in a musl (Alpine) image",
        action: "check the first line and format of {path} in the image (from a debug copy: head -1 {path} | od -c, file {path}) and rebuild with LF line endings (.gitattributes *.sh text eol=lf), the named interpreter installed, or a binary built for the image's libc",
        fix: Fix::Image,
        severity: Severity::Error,
        source: "execve(2) ENOENT for a missing interpreter or ELF interpreter; runc standard_init_linux.go (LookPath before the start, system.Exec after it)",
    },
    Entry {
        id: "loader-interpreter-missing-legacy",
        on: START,
        pattern: r"exec user process caused:? \\?.?no such file or directory",
        meaning: "the entrypoint of container {container} could not be executed (no such file or directory): the program named by command/ENTRYPOINT is missing, or — more often — the interpreter on its #! line or its dynamic loader is not in the image (CRLF line endings, bash not installed, a glibc binary on Alpine)",
        action: "check the entrypoint's path and first line in the image; rebuild with LF line endings and the interpreter or C library it needs",
        fix: Fix::Image,
        severity: Severity::Error,
        source: "runc < 1.1 standard_init_linux.go (`exec user process caused: no such file or directory`); execve(2) ENOENT",
    },
    Entry {
        id: "loader-permission-denied",
        on: START,
        pattern: r#"(?:^|[\s:"(])(?:exec:? \\?"?|eaccess )(?P<path>\.{0,2}/[^\s"\\]+?)\\?"?: permission denied"#,
        meaning: "the runtime may not execute {path} for container {container} (permission denied): the file lacks the execute bit for the container's user, lies on a filesystem mounted noexec, or is a directory; the program never ran",
        action: "make {path} executable in the image (RUN chmod +x {path}, or COPY --chmod=0755), or start it through its interpreter in command (e.g. [\"/bin/sh\", \"{path}\"]); if it lives on a volume, mount that volume without noexec",
        fix: Fix::Image,
        severity: Severity::Error,
        source: "execve(2) EACCES; Go os/exec lp_unix.go (`exec: \"<path>\": permission denied`); runc standard_init_linux.go (LookPath and the eaccess check before the start)",
    },
    Entry {
        id: "loader-text-file-busy",
        on: START,
        pattern: r#"(?:^|[\s:"(])exec:? \\?"?(?P<path>\.{0,2}/[^\s"\\]+?)\\?"?: text file busy"#,
        meaning: "the kernel refused to execute {path} because the file is still open for writing (text file busy, ETXTBSY) — typically another container or process is copying it into a shared volume while this one starts",
        action: "finish writing the program before it is started: copy it in an init container, or write it under a temporary name and rename it into place",
        fix: Fix::Spec,
        severity: Severity::Warning,
        source: "execve(2) ETXTBSY",
    },
    Entry {
        id: "loader-arg-list-too-long",
        on: START,
        pattern: r#"(?:^|[\s:"(])exec:? \\?"?(?P<path>\.{0,2}/[^\s"\\]+?)\\?"?: argument list too long"#,
        meaning: "execve of {path} failed with argument list too long (E2BIG): the command line plus the environment exceed the kernel's limit — often thousands of Service link variables (enableServiceLinks) or one huge env value",
        action: "shrink the environment: set enableServiceLinks: false in the pod spec, or move large values from env into a mounted file",
        fix: Fix::Spec,
        severity: Severity::Error,
        source: "execve(2) E2BIG; Kubernetes enableServiceLinks (Service environment variables)",
    },
];
