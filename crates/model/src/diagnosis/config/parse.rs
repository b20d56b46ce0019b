//! Reading the object names out of the kubelet's configuration errors.
//!
//! The kubelet builds a container's environment and volumes from Secrets and ConfigMaps
//! (`pkg/kubelet/kubelet_pods.go` `makeEnvironmentVariables`, `pkg/volume/secret`,
//! `pkg/volume/configmap`). A missing object comes back as the API's NotFound text,
//! `WORD "NAME" not found`, where WORD is the resource: singular from the kubelet's object cache
//! (`secret`, `configmap`), plural from older kubelets and the API server (`secrets`,
//! `configmaps`, `persistentvolumeclaims`). A missing key is the kubelet's own
//! `couldn't find key K in Secret NS/NAME` (or `ConfigMap`); a volume's missing item key is
//! `references non-existent secret key: K` / `configmap references non-existent config key: K`.

use super::super::ObjectRef;

/// The kind of object an error names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A Secret.
    Secret,
    /// A ConfigMap.
    ConfigMap,
    /// A PersistentVolumeClaim.
    Pvc,
}

impl Kind {
    /// The kind for the resource word of an API error (`secret`, `secrets`, `configmap`,
    /// `ConfigMap`, `configmaps`, `persistentvolumeclaim(s)`).
    pub(crate) fn from_word(word: &str) -> Option<Kind> {
        match word.to_ascii_lowercase().as_str() {
            "secret" | "secrets" => Some(Kind::Secret),
            "configmap" | "configmaps" => Some(Kind::ConfigMap),
            "persistentvolumeclaim" | "persistentvolumeclaims" | "pvc" => Some(Kind::Pvc),
            _ => None,
        }
    }

    /// `Secret`, `ConfigMap`, `PersistentVolumeClaim`.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Kind::Secret => "Secret",
            Kind::ConfigMap => "ConfigMap",
            Kind::Pvc => "PersistentVolumeClaim",
        }
    }

    /// The reference a GET of `name` would confirm.
    pub(crate) fn object(self, name: &str) -> ObjectRef {
        match self {
            Kind::Secret => ObjectRef::Secret(name.to_owned()),
            Kind::ConfigMap => ObjectRef::ConfigMap(name.to_owned()),
            Kind::Pvc => ObjectRef::PersistentVolumeClaim(name.to_owned()),
        }
    }
}

/// Every `WORD "NAME" not found` in `msg` whose WORD names a Secret, ConfigMap or PVC, in
/// order, each once: `secret "x" not found`, `secrets "x" not found`, `configmap "x" not
/// found`, `persistentvolumeclaim "data" not found`.
pub(crate) fn not_found(msg: &str) -> Vec<(Kind, String)> {
    const NEEDLE: &str = "\" not found";
    let mut out: Vec<(Kind, String)> = Vec::new();
    let mut from = 0;
    while let Some(i) = msg.get(from..).and_then(|s| s.find(NEEDLE)) {
        let close = from + i;
        let before = &msg[..close];
        if let Some(open) = before.rfind('"') {
            let name = &before[open + 1..];
            let word = before[..open]
                .trim_end()
                .rsplit(|c: char| c.is_whitespace() || matches!(c, ':' | '(' | ',' | '['))
                .next()
                .unwrap_or("");
            if let Some(kind) = Kind::from_word(word)
                && !name.is_empty()
                && !out.iter().any(|(k, n)| *k == kind && n == name)
            {
                out.push((kind, name.to_owned()));
            }
        }
        from = close + NEEDLE.len();
    }
    out
}

/// A key the kubelet did not find in an object that exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MissingKey {
    /// Secret or ConfigMap.
    pub kind: Kind,
    /// The namespace the kubelet looked in (empty when the message did not say).
    pub namespace: String,
    /// The object's name (empty when the message did not say).
    pub name: String,
    /// The key.
    pub key: String,
}

/// `couldn't find key K in Secret NS/NAME` / `… in ConfigMap NS/NAME` (env `*KeyRef`).
pub(crate) fn missing_key(msg: &str) -> Option<MissingKey> {
    const NEEDLE: &str = "couldn't find key ";
    let i = msg.find(NEEDLE)?;
    let rest = &msg[i + NEEDLE.len()..];
    let (key, rest) = rest.split_once(" in ")?;
    let (word, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let kind = Kind::from_word(word)?;
    let target = rest
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches(['.', ',', ';', ')', ':']);
    let (namespace, name) = target.split_once('/').unwrap_or(("", target));
    Some(MissingKey {
        kind,
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        key: key.trim().to_owned(),
    })
}

/// A volume item's missing key: `references non-existent secret key: K` (`Some(Secret)`),
/// `configmap references non-existent config key: K` (`Some(ConfigMap)`).
pub(crate) fn missing_item_key(msg: &str) -> Option<(Option<Kind>, String)> {
    const NEEDLE: &str = "references non-existent ";
    let i = msg.find(NEEDLE)?;
    let rest = &msg[i + NEEDLE.len()..];
    let (what, key) = rest.split_once("key:")?;
    let kind = if what.contains("secret") {
        Some(Kind::Secret)
    } else if what.contains("config") {
        Some(Kind::ConfigMap)
    } else {
        None
    };
    let key = key.split_whitespace().next()?.trim_end_matches(['.', ',']);
    Some((kind, key.to_owned()))
}

/// The text between the first `open` and the next `close` after it: `for volume "` … `"`.
pub(crate) fn between<'a>(msg: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = msg.find(open)? + open.len();
    let len = msg[start..].find(close)?;
    Some(&msg[start..start + len])
}

/// The names of a bracketed, space-separated list after `label`: `unmounted volumes=[a b]`.
pub(crate) fn bracket_list(msg: &str, label: &str) -> Vec<String> {
    between(msg, label, "]")
        .map(|s| {
            s.split([' ', ','])
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}
