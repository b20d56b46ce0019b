//! TLS and credentials for connections kube-rs's `Client` does not make itself (the WebSocket
//! log transport, [`super::logs_ws`]), read from the resolved [`kube::Config`].
//!
//! Supported over this path:
//! - server verification: the kubeconfig's `certificate-authority-data` / `certificate-authority`
//!   (`Config::root_cert`), the in-cluster CA file (`Config::root_cert_file`),
//!   `insecure-skip-tls-verify` (`Config::accept_invalid_certs`), `tls-server-name`;
//! - client identity: bearer `token`, `tokenFile` (read at each connection), basic auth
//!   (`username`/`password`), client certificates (`client-certificate[-data]` +
//!   `client-key[-data]`), impersonation (`as`, `as-groups`, `as-uid`) and `Config::headers`.
//!
//! Not supported (an error naming the fix, `--log-transport http`): `exec` credential plugins,
//! `auth-provider` (OIDC, GCP), `proxy-url`, and https servers without a CA in the kubeconfig
//! (kube-rs would fall back to the system roots). HTTP/1.1 is negotiated (ALPN) because
//! WebSocket upgrades are HTTP/1.1.

use std::sync::Arc;

use base64::Engine as _;
use http::{HeaderMap, HeaderName, HeaderValue, header};
use rustls::ClientConfig;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

/// Why the kubeconfig's credentials cannot be used for a WebSocket connection (one line).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct WsAuthError(pub String);

fn fail<T>(msg: impl Into<String>) -> Result<T, WsAuthError> {
    Err(WsAuthError(msg.into()))
}

/// The secrets of `auth_info` kube keeps in `SecretString`s, read through its kubeconfig
/// serializer (which writes them out in clear, as a kubeconfig file holds them).
struct Secrets {
    token: Option<String>,
    password: Option<String>,
    client_key_data: Option<String>,
}

fn secrets(auth: &kube::config::AuthInfo) -> Secrets {
    let v = serde_json::to_value(auth).unwrap_or_default();
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_owned);
    Secrets {
        token: s("token"),
        password: s("password"),
        client_key_data: s("client-key-data"),
    }
}

/// The headers every request carries: `Authorization` (bearer token, token file or basic auth),
/// impersonation, and `Config::headers`. Errors: an unreadable token file, an exec plugin or
/// auth provider without a static token.
pub fn request_headers(config: &kube::Config) -> Result<HeaderMap, WsAuthError> {
    let auth = &config.auth_info;
    let secret = secrets(auth);
    let mut h = HeaderMap::new();
    let value = |s: String| {
        HeaderValue::from_str(&s)
            .map_err(|_| WsAuthError("a credential is not a valid HTTP header value".into()))
    };
    let token = match (&secret.token, &auth.token_file) {
        (Some(t), _) => Some(t.trim().to_owned()),
        (None, Some(path)) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| WsAuthError(format!("cannot read tokenFile {path}: {e}")))?
                .trim()
                .to_owned(),
        ),
        (None, None) => None,
    };
    if let Some(t) = token {
        let mut v = value(format!("Bearer {t}"))?;
        v.set_sensitive(true);
        h.insert(header::AUTHORIZATION, v);
    } else if let (Some(user), Some(pass)) = (&auth.username, &secret.password) {
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{pass}"));
        let mut v = value(format!("Basic {basic}"))?;
        v.set_sensitive(true);
        h.insert(header::AUTHORIZATION, v);
    } else if auth.exec.is_some() || auth.auth_provider.is_some() {
        return fail(
            "--log-transport websocket supports tokens, basic auth and client certificates, not exec plugins or auth providers; use --log-transport http",
        );
    }
    if let Some(user) = &auth.impersonate {
        h.insert("impersonate-user", value(user.clone())?);
    }
    if let Some(uid) = &auth.impersonate_uid {
        h.insert("impersonate-uid", value(uid.clone())?);
    }
    for g in auth.impersonate_groups.iter().flatten() {
        h.append("impersonate-group", value(g.clone())?);
    }
    for (k, v) in &config.headers {
        h.append(HeaderName::clone(k), v.clone());
    }
    Ok(h)
}

fn read_pem(
    data: Option<&str>,
    file: Option<&str>,
    what: &str,
) -> Result<Option<Vec<u8>>, WsAuthError> {
    if let Some(d) = data {
        return base64::engine::general_purpose::STANDARD
            .decode(d.trim())
            .map(Some)
            .map_err(|e| WsAuthError(format!("{what}-data is not base64: {e}")));
    }
    match file {
        Some(path) => std::fs::read(path)
            .map(Some)
            .map_err(|e| WsAuthError(format!("cannot read {what} {path}: {e}"))),
        None => Ok(None),
    }
}

/// The client certificate chain and key, if the kubeconfig names them.
fn identity(
    config: &kube::Config,
) -> Result<Option<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)>, WsAuthError> {
    let auth = &config.auth_info;
    let secret = secrets(auth);
    let cert = read_pem(
        auth.client_certificate_data.as_deref(),
        auth.client_certificate.as_deref(),
        "client-certificate",
    )?;
    let key = read_pem(
        secret.client_key_data.as_deref(),
        auth.client_key.as_deref(),
        "client-key",
    )?;
    let (Some(cert), Some(key)) = (cert, key) else {
        return Ok(None);
    };
    let chain = CertificateDer::pem_slice_iter(&cert)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| WsAuthError(format!("client-certificate: {e}")))?;
    let key =
        PrivateKeyDer::from_pem_slice(&key).map_err(|e| WsAuthError(format!("client-key: {e}")))?;
    Ok(Some((chain, key)))
}

/// A rustls client configuration for `config`'s server (ring provider, TLS 1.2/1.3, ALPN
/// `http/1.1`) and the name to verify, from `tls-server-name` or the URL's host. Errors: no CA
/// to verify with, an unreadable or invalid CA / client certificate / key.
pub fn tls_config(
    config: &kube::Config,
    host: &str,
) -> Result<(Arc<ClientConfig>, ServerName<'static>), WsAuthError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    let mut ders: Vec<CertificateDer<'static>> = Vec::new();
    if let Some(path) = &config.root_cert_file {
        let pem = std::fs::read(path)
            .map_err(|e| WsAuthError(format!("cannot read {}: {e}", path.display())))?;
        ders = CertificateDer::pem_slice_iter(&pem)
            .collect::<Result<_, _>>()
            .map_err(|e| WsAuthError(format!("{}: {e}", path.display())))?;
    } else if let Some(certs) = &config.root_cert {
        ders = certs
            .iter()
            .map(|c| CertificateDer::from(c.clone()))
            .collect();
    }
    for der in ders {
        roots
            .add(der)
            .map_err(|e| WsAuthError(format!("certificate-authority: {e}")))?;
    }
    if roots.is_empty() && !config.accept_invalid_certs {
        return fail(
            "--log-transport websocket needs the cluster's certificate-authority(-data) or insecure-skip-tls-verify in the kubeconfig; use --log-transport http",
        );
    }
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| WsAuthError(e.to_string()))?
        .with_root_certificates(roots);
    let mut tls = match identity(config)? {
        Some((chain, key)) => builder
            .with_client_auth_cert(chain, key)
            .map_err(|e| WsAuthError(format!("client certificate: {e}")))?,
        None => builder.with_no_client_auth(),
    };
    if config.accept_invalid_certs {
        tls.dangerous()
            .set_certificate_verifier(Arc::new(AcceptAnyServerCert(provider)));
    }
    tls.alpn_protocols = vec![b"http/1.1".to_vec()];
    let name = config.tls_server_name.as_deref().unwrap_or(host);
    let name = ServerName::try_from(name.trim_start_matches('[').trim_end_matches(']'))
        .map_err(|e| WsAuthError(format!("server name {name:?}: {e}")))?
        .to_owned();
    Ok((Arc::new(tls), name))
}

/// `insecure-skip-tls-verify: true`: any server certificate chain and name is accepted, as Go's
/// `InsecureSkipVerify`; the handshake signatures are still checked.
#[derive(Debug)]
struct AcceptAnyServerCert(Arc<CryptoProvider>);

impl ServerCertVerifier for AcceptAnyServerCert {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn config(user: &str, cluster_extra: &str) -> kube::Config {
        let yaml = format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    server: https://127.0.0.1:6443\n{cluster_extra}contexts:\n- name: c\n  context: {{cluster: k, user: u}}\nusers:\n- name: u\n  user:\n{user}"
        );
        let kc = kube::config::Kubeconfig::from_yaml(&yaml).expect("kubeconfig");
        kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
            .await
            .expect("config")
    }

    #[tokio::test]
    async fn bearer_basic_and_impersonation_headers() {
        let c = config(
            "    token: abc123\n    as: jane\n    as-groups: [dev, ops]\n",
            "",
        )
        .await;
        let h = request_headers(&c).expect("headers");
        assert_eq!(h["authorization"], "Bearer abc123");
        assert_eq!(h["impersonate-user"], "jane");
        let groups: Vec<_> = h.get_all("impersonate-group").iter().collect();
        assert_eq!(groups, ["dev", "ops"]);

        let c = config("    username: admin\n    password: s3cret\n", "").await;
        let h = request_headers(&c).expect("headers");
        // base64("admin:s3cret")
        assert_eq!(h["authorization"], "Basic YWRtaW46czNjcmV0");
    }

    #[tokio::test]
    async fn exec_plugins_and_missing_ca_are_refused_with_the_fix() {
        let c = config("    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: get-token\n", "").await;
        let e = request_headers(&c).expect_err("exec is not supported");
        assert!(e.0.ends_with("use --log-transport http"), "{e}");

        let c = config("    token: abc\n", "").await;
        let e = tls_config(&c, "127.0.0.1").expect_err("no CA");
        assert!(e.0.contains("certificate-authority"), "{e}");

        let c = config("    token: abc\n", "    insecure-skip-tls-verify: true\n").await;
        let (tls, name) = tls_config(&c, "127.0.0.1").expect("insecure is allowed");
        assert_eq!(tls.alpn_protocols, [b"http/1.1".to_vec()]);
        assert_eq!(name.to_str(), "127.0.0.1");
    }
}
