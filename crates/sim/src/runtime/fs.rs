//! The writable layer of a simulated container: the files and directories exec'd processes
//! wrote (`tar x` from `kubectl cp`), on top of what the image and the pod spec put there
//! ([`super::userland`]). As on a real node, the layer belongs to one container instance: a
//! restarted container (a new `containerID`) starts from the image again, and other containers
//! of the pod do not see it (`docs/protocols.md` §3.5).
//!
//! [`Layers`] holds every instance's layer for the simulator (the store keeps one); exec
//! sessions read a [`Layer`] snapshot into their [`super::ContainerView`] when they start and
//! apply the [`FsChange`]s their process makes as it makes them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

/// One container instance: namespace, pod name, container name and `containerID` (empty when
/// the status has none).
pub type LayerKey = (String, String, String, String);

/// What one container instance wrote: absolute paths without a trailing `/`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layer {
    /// Regular files and their bytes.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Directories created (also implied by every file's parents).
    pub dirs: BTreeSet<String>,
}

/// One write a process makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FsChange {
    /// A regular file with this content, replacing any earlier one.
    File {
        /// Absolute path.
        path: String,
        /// Content.
        data: Vec<u8>,
    },
    /// A directory (and its parents).
    Dir(String),
}

impl Layer {
    /// Applies `change`: the file replaces what was at `path`, every parent becomes a directory.
    pub fn apply(&mut self, change: FsChange) {
        let path = match &change {
            FsChange::File { path, .. } | FsChange::Dir(path) => normalize(path),
        };
        let mut parent = path.as_str();
        while let Some(cut) = parent.rfind('/') {
            parent = &parent[..cut];
            if !parent.is_empty() {
                self.dirs.insert(parent.to_owned());
            }
        }
        match change {
            FsChange::File { data, .. } => {
                self.dirs.remove(&path);
                self.files.insert(path, data);
            }
            FsChange::Dir(_) => {
                if !path.is_empty() {
                    self.dirs.insert(path);
                }
            }
        }
    }
}

/// `path` made absolute, with `.`/empty components removed and `..` applied (never above `/`),
/// without a trailing `/`; `""` is the root.
#[must_use]
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    parts.iter().map(|c| format!("/{c}")).collect()
}

/// Every container instance's layer (one per simulator; cheap to query, copied on read).
#[derive(Debug, Default)]
pub struct Layers {
    inner: Mutex<HashMap<LayerKey, Layer>>,
}

impl Layers {
    /// A copy of the layer of `key` (empty when it never wrote).
    pub fn snapshot(&self, key: &LayerKey) -> Layer {
        self.inner
            .lock()
            .map(|m| m.get(key).cloned().unwrap_or_default())
            .unwrap_or_default()
    }

    /// Applies `change` to the layer of `key`.
    pub fn apply(&self, key: &LayerKey, change: FsChange) {
        if let Ok(mut m) = self.inner.lock() {
            m.entry(key.clone()).or_default().apply(change);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalized_and_parents_become_directories() {
        assert_eq!(normalize("tmp//a/./b/../c/"), "/tmp/a/c");
        assert_eq!(normalize("/../.."), "");
        let mut l = Layer::default();
        l.apply(FsChange::File {
            path: "/tmp/x/file".into(),
            data: b"1".to_vec(),
        });
        l.apply(FsChange::Dir("/srv/empty/".into()));
        assert_eq!(l.files.get("/tmp/x/file"), Some(&b"1".to_vec()));
        let dirs: Vec<&str> = l.dirs.iter().map(String::as_str).collect();
        assert_eq!(dirs, ["/srv", "/srv/empty", "/tmp", "/tmp/x"]);
    }
}
