//! Deterministic identifiers and instants: container IDs, digests, `t + d`.

use jiff::{SignedDuration, Timestamp};

/// The `containerID` the kubelet gives instance `restart_count` of `container` in the pod with
/// `uid` (`containerd://` + 64 hex digits, deterministic); [`super::Change::Log`] lines belong to it.
pub fn container_id(uid: &str, container: &str, restart_count: i32) -> String {
    format!(
        "containerd://{}",
        hex256(&[uid, container, &restart_count.to_string()])
    )
}

/// `t + d`.
pub(crate) fn after(t: Timestamp, d: SignedDuration) -> Timestamp {
    t.checked_add(d).unwrap_or(t)
}

/// Deterministic 64-bit FNV-1a over `parts`, seeded.
pub(crate) fn hash64(seed: u64, parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for part in parts {
        for b in part.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// 64 hex digits (a container ID or sha256-looking digest) derived from `parts`.
pub(crate) fn hex256(parts: &[&str]) -> String {
    (0..4)
        .map(|i| format!("{:016x}", hash64(i, parts)))
        .collect()
}
