//! Usage profiles: how much CPU and memory a simulated program uses at a moment of its run,
//! as the kubelet's stats would report it and metrics-server would serve it
//! (`docs/metrics.md` §4). A pure function of the container spec (its program, limits and
//! env), the time since it started and a jitter seed; no clock, no state.
//!
//! | program ([`super::programs`]) | CPU | memory (working set) |
//! |---|---|---|
//! | hello | 1–3m | 11.5–12.5Mi |
//! | nginx | 0.5–1.5m | 3.5–4.5Mi |
//! | sh script (busybox, alpine) | 0.05–0.25m | 400–600Ki |
//! | server and sim programs | 1–2m | 20–22Mi |
//! | sim with `SIM_OOM_AFTER` | 120–180m | from `-Xms` of a JVM option in its env (else half the limit) up to the memory limit at the OOM kill, linearly |
//! | `SIM_CPU=busy` | 99.5–100 % of the CPU limit, else one core | as its program |
//!
//! `SIM_CPU=<millicores>` and `SIM_MEMORY=<quantity>` (`64Mi`) override either number. Every
//! value stays at or below the container's limit; memory is a whole number of 4 KiB pages.

use k8s_openapi::api::core::v1::Container;

use super::programs::Program;
use podscope_model::diagnosis::facts::quantity;

/// One container's usage at one sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// CPU in nanocores (10⁻⁹ cores), averaged over the sample's window.
    pub nanocores: u64,
    /// Memory working set in bytes, a multiple of [`PAGE`].
    pub bytes: u64,
}

impl Usage {
    /// The sum of two usages (a pod's containers, a node's pods).
    #[must_use]
    pub fn plus(&self, other: &Usage) -> Usage {
        Usage {
            nanocores: self.nanocores.saturating_add(other.nanocores),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }
}

/// The env variables that set only the usage: they do not make a container a sim program.
pub const KNOBS: [&str; 2] = ["SIM_CPU", "SIM_MEMORY"];

/// The page size memory is counted in.
pub const PAGE: u64 = 4096;

const MI: f64 = 1024.0 * 1024.0;
const CORE: f64 = 1e9;

/// The usage of container `c` `elapsed` seconds after its instance started; `seed` varies the
/// jitter (the caller derives it from the pod, container and sample instant, so every reader
/// of one sample gets the same numbers).
#[must_use]
pub fn usage(c: &Container, elapsed: f64, seed: u64) -> Usage {
    let program = Program::for_container(c);
    let env = |name: &str| -> Option<String> {
        c.env
            .iter()
            .flatten()
            .find(|e| e.name == name)
            .and_then(|e| e.value.clone())
    };
    let (j1, j2) = (unit(seed), unit(seed.rotate_left(29) ^ 0x9e37_79b9));
    let cpu_limit = limit(c, "cpu").map(|cores| cores * CORE);
    let mem_limit = limit(c, "memory");
    let (mut cpu, mut mem) = match &program {
        Program::Hello { .. } => (1e6 + 2e6 * j1, (11.5 + j2) * MI),
        Program::Nginx(_) => (0.5e6 + 1e6 * j1, (3.5 + j2) * MI),
        Program::Script(_) => (0.05e6 + 0.2e6 * j1, (400.0 + 200.0 * j2) * 1024.0),
        Program::Server(_) => (1e6 + 1e6 * j1, (20.0 + 2.0 * j2) * MI),
        Program::Sim(spec, _) => match spec.oom_after {
            Some(after) => {
                let top = mem_limit.unwrap_or(512.0 * MI);
                let start = jvm_xms(c).unwrap_or(top / 2.0).min(top);
                let share = if after > 0.0 {
                    (elapsed / after).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                (120e6 + 60e6 * j1, start + (top - start) * share)
            }
            None => (1e6 + 1e6 * j1, (20.0 + 2.0 * j2) * MI),
        },
    };
    match env("SIM_CPU").as_deref().map(str::trim) {
        Some("busy") => cpu = cpu_limit.unwrap_or(CORE) * (0.995 + 0.005 * j1),
        Some(m) => {
            if let Ok(milli) = m.parse::<f64>() {
                cpu = milli * 1e6;
            }
        }
        None => {}
    }
    if let Some(bytes) = env("SIM_MEMORY").as_deref().and_then(quantity) {
        mem = bytes;
    }
    if let Some(l) = cpu_limit {
        cpu = cpu.min(l);
    }
    if let Some(l) = mem_limit {
        mem = mem.min(l);
    }
    Usage {
        nanocores: to_u64(cpu),
        bytes: to_u64(mem) / PAGE * PAGE,
    }
}

/// The container's `resources.limits[name]` in base units (cores, bytes).
fn limit(c: &Container, name: &str) -> Option<f64> {
    c.resources
        .as_ref()?
        .limits
        .as_ref()?
        .get(name)
        .and_then(|q| quantity(&q.0))
}

/// The initial heap of a JVM option (`-Xms384m`, `-Xms1g`) in any of the container's env
/// values or arguments, in bytes.
fn jvm_xms(c: &Container) -> Option<f64> {
    let env = c.env.iter().flatten().filter_map(|e| e.value.as_deref());
    let args = c
        .command
        .iter()
        .chain(c.args.iter())
        .flatten()
        .map(String::as_str);
    env.chain(args)
        .flat_map(str::split_whitespace)
        .find_map(|w| w.strip_prefix("-Xms"))
        .and_then(|v| {
            let (num, unit) =
                v.split_at(v.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(v.len()));
            let n: f64 = num.parse().ok()?;
            let factor = match unit.to_ascii_lowercase().as_str() {
                "" => 1.0,
                "k" => 1024.0,
                "m" => MI,
                "g" => 1024.0 * MI,
                _ => return None,
            };
            Some(n * factor)
        })
}

/// A number in [0, 1) from `seed` (splitmix64's finaliser).
fn unit(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    #[allow(clippy::cast_precision_loss, reason = "53 bits of a hash are plenty")]
    let f = (z >> 11) as f64 / (1u64 << 53) as f64;
    f
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "usage values are small, non-negative and finite"
)]
fn to_u64(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        v as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn container(yaml: &str) -> Container {
        serde_yaml_ng::from_str(yaml).expect("container")
    }

    #[test]
    fn hello_is_small_and_steady() {
        let c = container("name: hello\nimage: ghcr.io/podscope/hello:1.0");
        for seed in 0..50 {
            let u = usage(&c, 100.0, seed);
            assert!((1_000_000..=3_000_000).contains(&u.nanocores), "{u:?}");
            assert!(
                u.bytes >= 11 * 1024 * 1024 && u.bytes <= 13 * 1024 * 1024,
                "{u:?}"
            );
            assert_eq!(u.bytes % PAGE, 0);
        }
    }

    #[test]
    fn oom_program_grows_from_xms_to_the_limit() {
        let c = container(
            "name: coord\nimage: registry.example/coordinator:3.8.4\n\
             env:\n- {name: JVM_HEAP_OPTS, value: '-Xms384m -Xmx768m'}\n- {name: SIM_OOM_AFTER, value: '45'}\n\
             resources: {limits: {cpu: 500m, memory: 512Mi}}",
        );
        assert_eq!(usage(&c, 0.0, 1).bytes, 384 * 1024 * 1024);
        assert_eq!(usage(&c, 45.0, 1).bytes, 512 * 1024 * 1024);
        let mid = usage(&c, 22.5, 1).bytes;
        assert_eq!(mid, 448 * 1024 * 1024);
        assert!(usage(&c, 30.0, 1).bytes > mid);
    }

    #[test]
    fn busy_loop_uses_its_cpu_limit_or_a_core() {
        let limited = container(
            "name: spin\nimage: busybox\nenv: [{name: SIM_CPU, value: busy}]\n\
             resources: {limits: {cpu: 250m}}",
        );
        let u = usage(&limited, 10.0, 7);
        assert!(
            u.nanocores <= 250_000_000 && u.nanocores > 248_000_000,
            "{u:?}"
        );
        let free = container("name: spin\nimage: busybox\nenv: [{name: SIM_CPU, value: busy}]");
        assert!(usage(&free, 10.0, 7).nanocores > 990_000_000);
    }

    #[test]
    fn env_overrides() {
        let c = container(
            "name: x\nimage: nginx\nenv: [{name: SIM_CPU, value: '40'}, {name: SIM_MEMORY, value: 64Mi}]",
        );
        assert_eq!(
            usage(&c, 1.0, 3),
            Usage {
                nanocores: 40_000_000,
                bytes: 64 * 1024 * 1024
            }
        );
    }
}
