//! Template hashes: `pod-template-hash` (Deployments) and `controller-revision-hash`
//! (StatefulSets, DaemonSets).
//!
//! As `pkg/controller/controller_utils.go`'s `ComputeHash`: a 32-bit FNV-1a over the pod template
//! (here its JSON; kube feeds a printed form of the Go struct, so the values differ but the
//! shape is the same), then the collision count's 4 little-endian bytes when there is one, and
//! the decimal value rendered through `rand.SafeEncodeString` (each digit mapped into
//! [`NAME_ALPHABET`](super::pods::NAME_ALPHABET)): 1–10 characters, usually 9 or 10.

use k8s_openapi::api::core::v1::PodTemplateSpec;

use super::pods::NAME_ALPHABET;

/// The label a Deployment adds to its ReplicaSets, their selectors and pod templates.
pub const POD_TEMPLATE_HASH: &str = "pod-template-hash";

/// 32-bit FNV-1a of `bytes`.
pub fn fnv32a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

/// `rand.SafeEncodeString`: every byte of `s` replaced by `NAME_ALPHABET[byte % 27]`.
pub fn safe_encode(s: &str) -> String {
    s.bytes()
        .map(|b| char::from(NAME_ALPHABET[usize::from(b) % NAME_ALPHABET.len()]))
        .collect()
}

/// The hash of `template` (its `pod-template-hash` label left out) and `collision_count`.
pub fn template_hash(template: &PodTemplateSpec, collision_count: Option<i32>) -> String {
    let mut t = template.clone();
    if let Some(labels) = t.metadata.as_mut().and_then(|m| m.labels.as_mut()) {
        labels.remove(POD_TEMPLATE_HASH);
    }
    let mut bytes = serde_json::to_vec(&t).unwrap_or_default();
    if let Some(c) = collision_count {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    safe_encode(&fnv32a(&bytes).to_string())
}

/// Whether two templates are equal once their `pod-template-hash` labels are left out (how a
/// Deployment finds the ReplicaSet of its current template, `EqualIgnoreHash`).
pub fn equal_ignore_hash(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    let strip = |t: &PodTemplateSpec| {
        let mut t = t.clone();
        if let Some(m) = t.metadata.as_mut()
            && let Some(l) = m.labels.as_mut()
        {
            l.remove(POD_TEMPLATE_HASH);
            if l.is_empty() {
                m.labels = None;
            }
        }
        t
    };
    strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_and_encoding_match_the_reference_values() {
        // FNV-1a 32 test vectors: "" and "a".
        assert_eq!(fnv32a(b""), 0x811c_9dc5);
        assert_eq!(fnv32a(b"a"), 0xe40c_292c);
        // '0' is byte 48, 48 % 27 = 21 → '4'; '9' is 57 % 27 = 3 → 'f' (digits map to 4–9, b,
        // c, d, f).
        assert_eq!(safe_encode("09"), "4f");
    }

    #[test]
    fn hash_shape_and_collision_count() {
        let t: PodTemplateSpec = serde_json::from_value(serde_json::json!({
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "c", "image": "i"}]}
        }))
        .expect("template");
        let h = template_hash(&t, None);
        assert!((1..=10).contains(&h.len()), "{h}");
        assert!(h.bytes().all(|b| NAME_ALPHABET.contains(&b)), "{h}");
        assert_ne!(h, template_hash(&t, Some(1)));
        let mut labelled = t.clone();
        if let Some(l) = labelled.metadata.as_mut().and_then(|m| m.labels.as_mut()) {
            l.insert(POD_TEMPLATE_HASH.into(), h.clone());
        }
        assert_eq!(template_hash(&labelled, None), h);
        assert!(equal_ignore_hash(&t, &labelled));
    }
}
