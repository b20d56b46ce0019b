//! The kubeconfig the simulator writes so kubectl and kube-rs can reach it.
//!
//! One cluster `podscope-sim`, one user and a context `podscope-sim` selecting the first
//! scenario's namespace, else the first fixture's. Over HTTPS ([`render_tls`]) the cluster carries the simulator's CA as
//! `certificate-authority-data` (base64 of the PEM) and the user the bearer token the server
//! requires. Over plain http ([`render`]) the user has a dummy token (kubectl sends no
//! credentials over http, see `docs/protocols.md` top; the simulator then requires none).

use std::path::Path;

use super::SimError;

/// The kubeconfig YAML text for `server` (e.g. `http://127.0.0.1:41234`) and `namespace`.
pub fn render(server: &str, namespace: &str) -> String {
    render_with(server, namespace, None, "podscope-sim-token")
}

/// The kubeconfig YAML text for an HTTPS `server` (e.g. `https://127.0.0.1:41234`): the cluster
/// trusts `ca_pem` (written base64-encoded as `certificate-authority-data`) and the user
/// authenticates with `token`.
pub fn render_tls(server: &str, namespace: &str, ca_pem: &str, token: &str) -> String {
    render_with(server, namespace, Some(ca_pem), token)
}

fn render_with(server: &str, namespace: &str, ca_pem: Option<&str>, token: &str) -> String {
    use base64::Engine as _;
    let ca = ca_pem
        .map(|pem| {
            format!(
                "    certificate-authority-data: {}\n",
                base64::engine::general_purpose::STANDARD.encode(pem)
            )
        })
        .unwrap_or_default();
    format!(
        "apiVersion: v1
kind: Config
clusters:
- name: podscope-sim
  cluster:
{ca}    server: {server}
users:
- name: podscope-sim
  user:
    token: {token}
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

/// Writes kubeconfig `text` (from [`render`] or [`render_tls`]) to `path`.
/// Errors: `SimError::Io` with the path.
/// The file is created with mode 0600 on Unix (it holds the bearer token).
pub fn write_text(path: &Path, text: &str) -> Result<(), SimError> {
    use std::io::Write as _;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|source| SimError::Io {
            path: path.to_path_buf(),
            source,
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_as_yaml_with_server() {
        let text = super::render("http://127.0.0.1:1234", "shop");
        let v: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).expect("valid yaml");
        assert_eq!(
            v["clusters"][0]["cluster"]["server"].as_str(),
            Some("http://127.0.0.1:1234")
        );
        assert_eq!(
            v["contexts"][0]["context"]["namespace"].as_str(),
            Some("shop")
        );
    }

    #[test]
    fn tls_config_carries_the_ca_and_token() {
        use base64::Engine as _;
        let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        let text = super::render_tls("https://127.0.0.1:1234", "shop", pem, "tok");
        let v: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).expect("valid yaml");
        let ca = v["clusters"][0]["cluster"]["certificate-authority-data"]
            .as_str()
            .expect("ca data");
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(ca)
            .expect("base64");
        assert_eq!(decoded, pem.as_bytes());
        assert_eq!(v["users"][0]["user"]["token"].as_str(), Some("tok"));
        assert_eq!(
            v["clusters"][0]["cluster"]["server"].as_str(),
            Some("https://127.0.0.1:1234")
        );
    }
}
