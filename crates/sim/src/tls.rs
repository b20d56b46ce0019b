//! HTTPS for the simulator: a throw-away certificate authority and serving certificate made at
//! start with rcgen, and the accept loop that serves the axum router over TLS (or plain TCP).
//!
//! The CA (`CN=podscope-sim-ca`, basicConstraints CA, keyCertSign) signs one serving certificate
//! for `localhost`, `127.0.0.1` and `::1` (extendedKeyUsage serverAuth). Both use rcgen's default
//! validity (1975 → 4096), so nothing here reads the clock. The kubeconfig carries the CA as
//! `certificate-authority-data`; kubectl (Go crypto/x509) and kube-rs (rustls-webpki) verify
//! the chain like a real cluster's.
//!
//! Connections are served with hyper's HTTP/1.1 server `with_upgrades()`, so WebSocket upgrades
//! (exec, port-forward) work over TLS as over plain TCP. ALPN offers only `http/1.1`.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;

/// How long a client may take to finish the TLS handshake before the connection is dropped.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The names the serving certificate is valid for (DNS name and IP SANs).
pub const SERVING_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// A freshly generated CA and serving certificate, ready to serve.
#[derive(Clone)]
pub struct ServingCert {
    /// The CA certificate, PEM (`-----BEGIN CERTIFICATE-----…`); clients trust this.
    pub ca_pem: String,
    /// The serving certificate, PEM (signed by the CA; SANs [`SERVING_NAMES`]).
    pub cert_pem: String,
    /// The TLS acceptor holding the serving certificate and its private key.
    pub acceptor: TlsAcceptor,
}

impl std::fmt::Debug for ServingCert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServingCert")
            .field("ca_pem", &self.ca_pem)
            .finish_non_exhaustive()
    }
}

/// Why certificate generation failed (key generation, signing or rustls refusing the key).
#[derive(Debug, thiserror::Error)]
#[error("generating the simulator's TLS certificate: {0}")]
pub struct TlsError(String);

fn err(e: impl std::fmt::Display) -> TlsError {
    TlsError(e.to_string())
}

/// Generates a new ECDSA P-256 CA and a serving certificate for [`SERVING_NAMES`], and a rustls
/// server configuration (ring provider, TLS 1.2 and 1.3, ALPN `http/1.1`).
///
/// # Errors
/// [`TlsError`] when rcgen or rustls fail (not expected with the fixed parameters used here).
pub fn generate() -> Result<ServingCert, TlsError> {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(err)?;
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "podscope-sim-ca");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
    ];
    let ca_key = KeyPair::generate().map_err(err)?;
    let ca_cert = ca_params.self_signed(&ca_key).map_err(err)?;
    let issuer = Issuer::new(ca_params, ca_key);

    let names: Vec<String> = SERVING_NAMES.iter().map(|s| (*s).to_string()).collect();
    let mut params = CertificateParams::new(names).map_err(err)?;
    params
        .distinguished_name
        .push(DnType::CommonName, "podscope-sim");
    params.use_authority_key_identifier_extension = true;
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let key = KeyPair::generate().map_err(err)?;
    let cert = params.signed_by(&key, &issuer).map_err(err)?;

    let chain: Vec<CertificateDer<'static>> = vec![cert.der().clone()];
    let key_der = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(err)?
        .with_no_client_auth()
        .with_single_cert(chain, key_der)
        .map_err(err)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(ServingCert {
        ca_pem: ca_cert.pem(),
        cert_pem: cert.pem(),
        acceptor: TlsAcceptor::from(Arc::new(config)),
    })
}

/// Serves `app` on `listener` until `shutdown` fires (or its sender is dropped): TLS through
/// `acceptor` when given, plain HTTP/1.1 otherwise. Each connection runs in its own task; a
/// failed handshake or a broken connection only ends that connection. On shutdown the listener
/// closes and open connections are dropped.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    acceptor: Option<TlsAcceptor>,
    mut shutdown: oneshot::Receiver<()>,
) {
    let mut conns = JoinSet::new();
    loop {
        let accepted = tokio::select! {
            _ = &mut shutdown => break,
            Some(_) = conns.join_next(), if !conns.is_empty() => continue,
            a = listener.accept() => a,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // EMFILE and friends: back off briefly instead of spinning.
                tracing::warn!("simulator accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let app = app.clone();
        let acceptor = acceptor.clone();
        conns.spawn(async move {
            match acceptor {
                Some(acceptor) => {
                    match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                        Ok(Ok(tls)) => serve_connection(tls, app).await,
                        Ok(Err(e)) => tracing::debug!("TLS handshake with {peer} failed: {e}"),
                        Err(_) => tracing::debug!("TLS handshake with {peer} timed out"),
                    }
                }
                None => serve_connection(tcp, app).await,
            }
        });
    }
    conns.shutdown().await;
}

async fn serve_connection<S>(io: S, app: Router)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service = TowerToHyperService::new(app);
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(Duration::from_secs(30))
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    if let Err(e) = conn.await {
        tracing::debug!("simulator connection ended: {e}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn generates_a_ca_and_a_serving_certificate() {
        let c = super::generate().expect("generates");
        assert!(c.ca_pem.starts_with("-----BEGIN CERTIFICATE-----"));
        assert!(c.cert_pem.starts_with("-----BEGIN CERTIFICATE-----"));
        assert_ne!(c.ca_pem, c.cert_pem);
    }
}
