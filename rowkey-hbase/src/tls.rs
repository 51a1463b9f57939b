//! TLS for HTTPS (`hbase.thrift.ssl.enabled`), by rustls: the server's certificate checked
//! against the system's roots or a CA file of the endpoint's, for the name the endpoint gives;
//! the handshake done as the connection is made, so that a certificate refused, or a server that
//! does not speak TLS, is a connect error that says what to change. Without the crate's `tls`
//! feature, an HTTPS endpoint is refused with the feature to turn on.

use crate::endpoint::Endpoint;
use crate::error::ErrorKind;
use crate::error::Fault;
use crate::socket::Stream;

#[cfg(feature = "tls")]
pub(crate) use with_rustls::Config;

#[cfg(not(feature = "tls"))]
pub(crate) use without::Config;

#[cfg(feature = "tls")]
mod with_rustls {
    use std::io;
    use std::net::TcpStream;
    use std::sync::Arc;

    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, ServerName};
    use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

    use super::{Endpoint, ErrorKind, Fault, Stream};

    /// The TLS settings of an endpoint: the roots it trusts and the name it checks.
    pub(crate) struct Config {
        config: Arc<ClientConfig>,
        name: ServerName<'static>,
    }

    impl Config {
        /// The TLS settings of `endpoint`: its CA file's certificates or the system's roots.
        pub(crate) fn new(endpoint: &Endpoint) -> Result<Config, Fault> {
            let config = |why: String| Fault::kept(ErrorKind::Config, why);
            let mut roots = RootCertStore::empty();
            match endpoint.ca_file() {
                Some(file) => {
                    let certs = CertificateDer::pem_file_iter(file)
                        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                        .map_err(|e| {
                            config(format!("cannot read ca_file {}: {e}", file.display()))
                        })?;
                    if certs.is_empty() {
                        return Err(config(format!(
                            "ca_file {} holds no certificate (a PEM file, -----BEGIN CERTIFICATE-----)",
                            file.display()
                        )));
                    }
                    for cert in certs {
                        roots.add(cert).map_err(|e| {
                            config(format!(
                                "ca_file {}: a certificate rustls cannot use: {e}",
                                file.display()
                            ))
                        })?;
                    }
                }
                None => {
                    let found = rustls_native_certs::load_native_certs();
                    roots.add_parsable_certificates(found.certs);
                    if roots.is_empty() {
                        return Err(config(String::from(
                            "this system has no root certificates (ca-certificates): set ca_file to the CA that signed the server's certificate",
                        )));
                    }
                }
            }
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let config = ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .map_err(|e| Fault::kept(ErrorKind::Config, format!("TLS: {e}")))?
                .with_root_certificates(roots)
                .with_no_client_auth();
            let name = ServerName::try_from(endpoint.server_name().to_string()).map_err(|_| {
                Fault::kept(
                    ErrorKind::Config,
                    format!(
                        "{:?} is not a name a certificate can carry: set server_name",
                        endpoint.server_name()
                    ),
                )
            })?;
            Ok(Config {
                config: Arc::new(config),
                name,
            })
        }

        /// TLS over `tcp`, its handshake done.
        pub(crate) fn connect(
            &self,
            endpoint: &Endpoint,
            mut tcp: TcpStream,
        ) -> Result<Box<dyn Stream>, Fault> {
            let mut conn = ClientConnection::new(self.config.clone(), self.name.clone())
                .map_err(|e| Fault::kept(ErrorKind::Config, format!("TLS: {e}")))?;
            while conn.is_handshaking() {
                if let Err(e) = conn.complete_io(&mut tcp) {
                    return Err(handshake_fault(endpoint, e));
                }
            }
            Ok(Box::new(StreamOwned::new(conn, tcp)))
        }
    }

    /// The fault of a handshake that failed with `e`.
    fn handshake_fault(endpoint: &Endpoint, e: io::Error) -> Fault {
        let name = endpoint.server_name();
        let tls = e
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            .cloned();
        let fault = match tls {
            Some(rustls::Error::InvalidCertificate(why)) => Fault::kept(
                ErrorKind::Tls,
                format!(
                    "the server's certificate is refused ({why:?}) for the name {name:?}: set ca_file to the CA that signed it (a cluster's own CA is not among the system's roots), or server_name to a name it carries"
                ),
            ),
            Some(
                rustls::Error::InvalidMessage(_)
                | rustls::Error::InappropriateMessage { .. }
                | rustls::Error::InappropriateHandshakeMessage { .. },
            ) => Fault::kept(
                ErrorKind::Mismatch,
                String::from(
                    "the server does not speak TLS (its answer to the TLS handshake is not TLS): use transport=http, or turn on hbase.thrift.ssl.enabled on the server",
                ),
            ),
            Some(rustls::Error::AlertReceived(alert)) => Fault::kept(
                ErrorKind::Tls,
                format!("the server ended the TLS handshake ({alert:?}): it may want a client certificate, or TLS versions this client does not speak (1.2, 1.3)"),
            ),
            Some(other) => Fault::kept(ErrorKind::Tls, format!("TLS handshake: {other}")),
            None => match e.kind() {
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => Fault::lost(
                    ErrorKind::Timeout,
                    format!(
                        "no TLS handshake within {:?}: the server does not speak TLS, or is stalled",
                        endpoint.connect_timeout()
                    ),
                ),
                _ => Fault::lost(
                    ErrorKind::Mismatch,
                    format!(
                        "the server closed the connection during the TLS handshake ({e}): does it speak TLS? transport=https needs hbase.regionserver.thrift.http and hbase.thrift.ssl.enabled on the server"
                    ),
                ),
            },
        };
        fault.because(e)
    }
}

#[cfg(not(feature = "tls"))]
mod without {
    use std::net::TcpStream;

    use super::{Endpoint, ErrorKind, Fault, Stream};

    /// No TLS in this build: an HTTPS endpoint is refused, and no `Config` exists.
    pub(crate) enum Config {}

    impl Config {
        pub(crate) fn new(_: &Endpoint) -> Result<Config, Fault> {
            Err(Fault::kept(
                ErrorKind::Config,
                String::from(
                    "transport=https needs rowkey-hbase's `tls` feature: rowkey-hbase = { ..., features = [\"tls\"] }",
                ),
            ))
        }

        pub(crate) fn connect(&self, _: &Endpoint, _: TcpStream) -> Result<Box<dyn Stream>, Fault> {
            match *self {}
        }
    }
}
