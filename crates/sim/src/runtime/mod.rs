//! The simulated container runtime: what runs inside a simulated image and what an exec,
//! attach or port-forward finds there. Pure functions of the pod spec (no store, no clock),
//! except [`serve`], which answers one forwarded connection.
//!
//! - [`image`]: the one table of the simulated images — per image, its program, userland,
//!   files and listeners; everything below asks it;
//! - [`programs`]: the container's main process as the kubelet model runs it (logs, exit,
//!   signals), with [`probe_answers`] (probes, exec hooks), [`container_script`] (a PID 1
//!   `sh -c SCRIPT`), [`sim_program`] (the `SIM_*` knobs), [`loops`] (waiting for a Service)
//!   and [`start_checks`] (a start that fails: another architecture, a read-only root, a port
//!   taken);
//! - [`userland`]: the binaries, files, environment and processes an exec sees;
//!   [`process`] starts an exec'd command, [`binaries`] are its simulated coreutils,
//!   [`exec_shell`] the interactive/`-c` shell, [`pipe`] its pipelines and filters, [`stty`]
//!   the terminal, [`shell_syntax`] the syntax both shells parse, [`tar`] archives for
//!   `kubectl cp`, [`fs`] the container's writable layer they land in;
//! - [`listeners`]: which ports of a pod answer with what; [`serve`] serves one connection;
//! - [`usage`]: how much CPU and memory each program uses over its run (metrics.k8s.io).

pub(crate) mod binaries;
pub(crate) mod container_script;
pub(crate) mod exec_shell;
pub(crate) mod fs;
pub(crate) mod image;
pub(crate) mod listeners;
pub(crate) mod loops;
pub(crate) mod pipe;
pub(crate) mod pod_refs;
pub(crate) mod probe_answers;
pub(crate) mod process;
pub(crate) mod programs;
pub(crate) mod serve;
pub(crate) mod shell_syntax;
pub(crate) mod sim_program;
pub(crate) mod start_checks;
pub(crate) mod stty;
pub(crate) mod tar;
pub(crate) mod usage;
pub(crate) mod userland;

pub use process::{Action, NotFound, Process, run_to_end, start};
pub use stty::WinSize;
pub use userland::{ContainerView, NO_SHELL_ANNOTATION, Userland};

use k8s_openapi::api::core::v1::Pod;

/// Whether `container` has a running instance (what the kubelet's `findContainer` sees).
pub(crate) fn is_running(pod: &Pod, container: &str) -> bool {
    pod.status
        .iter()
        .flat_map(|s| {
            [
                &s.init_container_statuses,
                &s.container_statuses,
                &s.ephemeral_container_statuses,
            ]
        })
        .flat_map(|l| l.iter().flatten())
        .any(|s| s.name == container && s.state.as_ref().is_some_and(|st| st.running.is_some()))
}

/// A 64-hex-digit id like containerd's exec and sandbox ids, derived from `seed`
/// (FNV-1a, repeated; stable per seed).
pub(crate) fn hex_id(seed: &str) -> String {
    let mut out = String::with_capacity(64);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for round in 0u8..4 {
        for b in seed.bytes().chain([round]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        out.push_str(&format!("{h:016x}"));
    }
    out
}
