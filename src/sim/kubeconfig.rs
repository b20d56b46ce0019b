//! The kubeconfig the simulator writes so kubectl and kube-rs can reach it.
//!
//! One cluster `podscope-sim` (`server: http://127.0.0.1:PORT`), one user with a dummy token (kubectl
//! sends no credentials over http, see `notes/protocols.md` top; the simulator requires none), and
//! a context `podscope-sim` selecting the first fixture's namespace.

use std::path::Path;

use super::SimError;

/// The kubeconfig YAML text for `server` (e.g. `http://127.0.0.1:41234`) and `namespace`.
pub fn render(server: &str, namespace: &str) -> String {
    format!(
        "apiVersion: v1
kind: Config
clusters:
- name: podscope-sim
  cluster:
    server: {server}
users:
- name: podscope-sim
  user:
    token: podscope-sim-token
contexts:
- name: podscope-sim
  context:
    cluster: podscope-sim
    user: podscope-sim
    namespace: {namespace}
current-context: podscope-sim
preferences: {{}}
"
    )
}

/// Writes the kubeconfig to `path`. Errors: `SimError::Io` with the path.
pub fn write(path: &Path, server: &str, namespace: &str) -> Result<(), SimError> {
    std::fs::write(path, render(server, namespace)).map_err(|source| SimError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_as_yaml_with_server() {
        let text = super::render("http://127.0.0.1:1234", "shop");
        let v: serde_yaml::Value = serde_yaml::from_str(&text).expect("valid yaml");
        assert_eq!(
            v["clusters"][0]["cluster"]["server"].as_str(),
            Some("http://127.0.0.1:1234")
        );
        assert_eq!(
            v["contexts"][0]["context"]["namespace"].as_str(),
            Some("shop")
        );
    }
}
