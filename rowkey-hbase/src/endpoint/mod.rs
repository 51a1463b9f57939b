//! How to reach a Thrift2 server: its address, the transport and protocol it speaks, how it is
//! secured, and how long to wait for it. One description, built in code ([`Endpoint::tcp`],
//! [`Endpoint::http`], [`Endpoint::https`] and their setters) or read from a connection string in
//! a configuration file ([`Endpoint::parse`]), which `Display` writes back.
//!
//! HBase's Thrift2 server speaks one transport and one protocol, set on the server:
//! `hbase.regionserver.thrift.framed` (framed transport, which HBase's reference guide advises: a
//! malformed request to the buffered server can take it down, THRIFT-601),
//! `hbase.regionserver.thrift.compact` (the compact protocol), `hbase.regionserver.thrift.http`
//! (each message POSTed over HTTP, in the binary protocol whatever `.compact` says) and
//! `hbase.thrift.ssl.enabled` (HTTP over TLS), `hbase.thrift.security.qop` (Kerberos over TCP,
//! SASL; over HTTP, Kerberos is SPNEGO). A client must speak the same; a server meeting
//! another closes the connection or answers an error at the first request, which
//! [`HBase::open`] makes, and says so.
//!
//! [`HBase::open`]: crate::HBase::open

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::{Error, ErrorKind};

mod string;

/// The transport a Thrift2 server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// Messages as they are, over TCP: the server's default
    /// (`hbase.regionserver.thrift.framed = false`).
    Buffered,
    /// Each message after its length, over TCP (`hbase.regionserver.thrift.framed = true`). The
    /// server refuses a request longer than its frame limit
    /// (`hbase.regionserver.thrift.framed.max_frame_size_in_mb`, 2 MB by default): a request over
    /// [`Endpoint::max_frame`] is refused here, before it is sent, with what to change.
    Framed,
    /// Each message POSTed over HTTP/1.1 to the server's path, its answer the response's body, on
    /// a connection kept alive between requests (`hbase.regionserver.thrift.http = true`).
    Http,
    /// HTTP over TLS (`hbase.regionserver.thrift.http` and `hbase.thrift.ssl.enabled`): the
    /// server's certificate checked against the system's roots or [`Endpoint::with_ca_file`]'s,
    /// for the host's name or [`Endpoint::with_server_name`]'s. Needs the crate's `tls`
    /// feature.
    Https,
}

impl Transport {
    /// Whether the transport is HTTP, with TLS or without.
    pub(crate) fn is_http(self) -> bool {
        matches!(self, Transport::Http | Transport::Https)
    }
}

/// The protocol a Thrift2 server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Protocol {
    /// Thrift's binary protocol: the server's default (`hbase.regionserver.thrift.compact =
    /// false`), and the one protocol of HBase's HTTP server.
    Binary,
    /// Thrift's compact protocol (`hbase.regionserver.thrift.compact = true`), over TCP: HBase's
    /// HTTP server (2.6) reads the binary protocol whatever `.compact` says.
    Compact,
}

/// The quality of protection of Kerberos over TCP (SASL), as the server's
/// `hbase.thrift.security.qop` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Qop {
    /// `auth`: who the client is, checked once; messages as they are.
    Auth,
    /// `auth-int`: and every message signed.
    AuthInt,
    /// `auth-conf`: and every message sealed (encrypted).
    AuthConf,
}

/// How to reach a Thrift2 server: `host:port`, transport, protocol, and what each transport
/// takes (the frame limit; the HTTP path, headers and proxy user; TLS's roots and server name),
/// Kerberos, and the connect timeout.
///
/// Built in code:
///
/// ```
/// use rowkey_hbase::{Endpoint, Protocol, Transport};
/// use std::time::Duration;
///
/// let endpoint = Endpoint::tcp("thrift.example.com:9090")
///     .with_transport(Transport::Framed)
///     .with_protocol(Protocol::Compact)
///     .with_connect_timeout(Duration::from_secs(5));
/// assert_eq!(
///     endpoint.to_string(),
///     "thrift2://thrift.example.com:9090?transport=framed&protocol=compact&connect_timeout=5s"
/// );
///
/// // Kerberos over TCP, every message sealed (the server's hbase.thrift.security.qop).
/// let kerberos = Endpoint::tcp("thrift.example.com:9090")
///     .with_kerberos("thrift/_HOST@EXAMPLE.COM")
///     .with_qop(rowkey_hbase::Qop::AuthConf);
/// assert_eq!(
///     kerberos.to_string(),
///     "thrift2://thrift.example.com:9090?kerberos=thrift/_HOST@EXAMPLE.COM&qop=auth-conf"
/// );
///
/// // HTTPS, the certificate checked against the cluster's own CA, acting for another user.
/// let secured = Endpoint::https("thrift.example.com:9090")
///     .with_ca_file("/etc/hbase/ca.pem")
///     .with_proxy_user("alice");
/// assert_eq!(
///     secured.to_string(),
///     "thrift2://thrift.example.com:9090?transport=https&do_as=alice&ca_file=/etc/hbase/ca.pem"
/// );
/// ```
///
/// Or read from a connection string (the form `Display` writes):
///
/// ```text
/// thrift2://HOST:PORT[?KEY=VALUE[&KEY=VALUE]...]
/// ```
///
/// | key | values | default |
/// |---|---|---|
/// | `transport` | `buffered`, `framed`, `http`, `https` | `buffered` |
/// | `protocol` | `binary`, `compact` | `binary` |
/// | `max_frame` | framed: the server's frame limit in bytes, with `k`, `m` (`KiB`, `MiB`): `2m` | `2m`, HBase's default |
/// | `path` | http(s): the path requests are POSTed to | `/` |
/// | `header` | http(s): `Name:value`, a header sent with every request; the key again for more | none |
/// | `do_as` | http(s): the user to act for (HBase's proxy user, the `doAs` header; the server needs `hbase.thrift.support.proxyuser`) | none |
/// | `ca_file` | https: a PEM file of the certificates to trust, in place of the system's | the system's roots |
/// | `server_name` | https: the name the certificate must carry, in place of HOST | HOST |
/// | `kerberos` | the server's Kerberos principal, `_HOST` for HOST: SASL GSSAPI over buffered TCP, SPNEGO over http(s) (feature `kerberos`) | none |
/// | `qop` | Kerberos over TCP: `auth`, `auth-int` or `auth-conf` (`hbase.thrift.security.qop`) | the strongest the server offers |
/// | `connect_timeout` | a time, `500ms` or `10s` | `10s` |
///
/// A value holding `&`, `=`, `%` or a space is written with `%` and two hex digits (`%26`).
///
/// ```
/// use rowkey_hbase::{Endpoint, Protocol, Transport};
///
/// let endpoint = Endpoint::parse("thrift2://10.0.0.7:9090?transport=framed&protocol=compact")?;
/// assert_eq!((endpoint.transport(), endpoint.protocol()), (Transport::Framed, Protocol::Compact));
/// // A mistake names the key and what it takes.
/// let err = Endpoint::parse("thrift2://10.0.0.7:9090?protocl=compact").unwrap_err();
/// assert!(err.to_string().contains("unknown key `protocl` (did you mean `protocol`?)"));
/// # Ok::<(), rowkey_hbase::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    addr: String,
    transport: Transport,
    protocol: Protocol,
    max_frame: usize,
    path: String,
    headers: Vec<(String, String)>,
    proxy_user: Option<String>,
    ca_file: Option<PathBuf>,
    server_name: Option<String>,
    kerberos: Option<String>,
    qop: Option<Qop>,
    connect_timeout: Duration,
}

/// HBase's frame limit by default (`hbase.regionserver.thrift.framed.max_frame_size_in_mb`).
const DEFAULT_MAX_FRAME: usize = 2 << 20;

/// The longest answer read, a frame or an HTTP body: past it, the bytes are not a Thrift2 answer
/// (an HTTP server's `HTTP/1.1 ...` reads as a frame of 1.2 GB).
pub(crate) const MAX_ANSWER: usize = 256 << 20;

const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The path HBase's HTTP server serves Thrift at (its servlet takes every path).
const DEFAULT_PATH: &str = "/";

impl Endpoint {
    /// The Thrift2 server at `addr` (`host:port`) over TCP, with the server's defaults:
    /// buffered transport, binary protocol; a connect timeout of 10 s.
    pub fn tcp(addr: impl Into<String>) -> Endpoint {
        Endpoint {
            addr: addr.into(),
            transport: Transport::Buffered,
            protocol: Protocol::Binary,
            max_frame: DEFAULT_MAX_FRAME,
            path: String::from(DEFAULT_PATH),
            headers: Vec::new(),
            proxy_user: None,
            ca_file: None,
            server_name: None,
            kerberos: None,
            qop: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
        }
    }

    /// The Thrift2 server at `addr` (`host:port`) over HTTP (`hbase.regionserver.thrift.http`),
    /// binary protocol, requests POSTed to `/`.
    pub fn http(addr: impl Into<String>) -> Endpoint {
        Endpoint::tcp(addr).with_transport(Transport::Http)
    }

    /// The Thrift2 server at `addr` (`host:port`) over HTTPS (`hbase.regionserver.thrift.http`
    /// and `hbase.thrift.ssl.enabled`), its certificate checked against the system's roots for
    /// the host's name. Needs the crate's `tls` feature.
    pub fn https(addr: impl Into<String>) -> Endpoint {
        Endpoint::tcp(addr).with_transport(Transport::Https)
    }

    /// The endpoint a connection string names (its form is in the type's docs).
    pub fn parse(text: &str) -> Result<Endpoint, Error> {
        string::parse(text)
    }

    /// This endpoint with transport `transport`.
    #[must_use]
    pub fn with_transport(self, transport: Transport) -> Endpoint {
        Endpoint { transport, ..self }
    }

    /// This endpoint with protocol `protocol`.
    #[must_use]
    pub fn with_protocol(self, protocol: Protocol) -> Endpoint {
        Endpoint { protocol, ..self }
    }

    /// This endpoint with the server's frame limit, in bytes (framed transport only): a request
    /// longer than it is refused before it is sent.
    #[must_use]
    pub fn with_max_frame(self, bytes: usize) -> Endpoint {
        Endpoint {
            max_frame: bytes.max(1),
            ..self
        }
    }

    /// This endpoint with requests POSTed to `path` (HTTP and HTTPS only; `/` by default, which
    /// HBase's server serves, as it does every path: a gateway in front of it may want another).
    #[must_use]
    pub fn with_path(self, path: impl Into<String>) -> Endpoint {
        Endpoint {
            path: path.into(),
            ..self
        }
    }

    /// This endpoint with the header `name: value` sent with every request (HTTP and HTTPS only),
    /// after the headers set before it.
    #[must_use]
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Endpoint {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// This endpoint acting for `user`: HBase's proxy user, sent as the `doAs` header (HTTP and
    /// HTTPS only). The server must allow it (`hbase.thrift.support.proxyuser`, and its own user
    /// allowed to act for `user` by `hadoop.proxyuser.*`); one that does not refuses every
    /// request, and [`HBase::open`](crate::HBase::open) says so.
    #[must_use]
    pub fn with_proxy_user(self, user: impl Into<String>) -> Endpoint {
        Endpoint {
            proxy_user: Some(user.into()),
            ..self
        }
    }

    /// This endpoint trusting the certificates of the PEM file at `path` (a cluster's own CA), in
    /// place of the system's roots (HTTPS only).
    #[must_use]
    pub fn with_ca_file(self, path: impl Into<PathBuf>) -> Endpoint {
        Endpoint {
            ca_file: Some(path.into()),
            ..self
        }
    }

    /// This endpoint checking that the server's certificate carries `name`, in place of the
    /// host of its address (HTTPS only): for a server reached by an address its certificate
    /// does not name.
    #[must_use]
    pub fn with_server_name(self, name: impl Into<String>) -> Endpoint {
        Endpoint {
            server_name: Some(name.into()),
            ..self
        }
    }

    /// This endpoint authenticating with Kerberos to the server whose principal is `principal`
    /// (`_HOST` in it is the address's host, as Hadoop reads `hbase.thrift.kerberos.principal`):
    /// SASL GSSAPI over buffered TCP, SPNEGO over HTTP and HTTPS (where the principal is the
    /// server's `hbase.thrift.spnego.principal`, often `HTTP/_HOST@REALM`). The ticket is MIT
    /// krb5's: the ticket cache (`kinit`, `KRB5CCNAME`), or a client keytab
    /// (`KRB5_CLIENT_KTNAME`), from which krb5 gets a new ticket when the one it holds expires.
    /// Needs the crate's `kerberos` feature.
    #[must_use]
    pub fn with_kerberos(self, principal: impl Into<String>) -> Endpoint {
        Endpoint {
            kerberos: Some(principal.into()),
            ..self
        }
    }

    /// This endpoint asking for the quality of protection `qop` over SASL (TCP with Kerberos
    /// only); without it, the strongest the server offers is taken.
    #[must_use]
    pub fn with_qop(self, qop: Qop) -> Endpoint {
        Endpoint {
            qop: Some(qop),
            ..self
        }
    }

    /// This endpoint with `timeout` for connecting and for the server's first answer.
    #[must_use]
    pub fn with_connect_timeout(self, timeout: Duration) -> Endpoint {
        Endpoint {
            connect_timeout: timeout,
            ..self
        }
    }

    /// The server's `host:port`.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// The transport.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// The protocol.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The server's frame limit, in bytes.
    pub fn max_frame(&self) -> usize {
        self.max_frame
    }

    /// The path HTTP requests are POSTed to.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The headers sent with every HTTP request, `(name, value)` each.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The user this endpoint acts for (HBase's proxy user), if any.
    pub fn proxy_user(&self) -> Option<&str> {
        self.proxy_user.as_deref()
    }

    /// The PEM file of the certificates trusted in place of the system's roots, if any.
    pub fn ca_file(&self) -> Option<&Path> {
        self.ca_file.as_deref()
    }

    /// The name the server's certificate must carry: [`with_server_name`](Self::with_server_name)'s,
    /// else the host of the address.
    pub fn server_name(&self) -> &str {
        self.server_name.as_deref().unwrap_or_else(|| self.host())
    }

    /// The server's Kerberos principal, as set (with `_HOST` in it), if Kerberos is on.
    pub fn kerberos(&self) -> Option<&str> {
        self.kerberos.as_deref()
    }

    /// The quality of protection asked for over SASL, if one is.
    pub fn qop(&self) -> Option<Qop> {
        self.qop
    }

    /// The time allowed to connect and for the server's first answer.
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
    }

    /// The host of the address, without its port (and an IPv6 address without its brackets).
    pub(crate) fn host(&self) -> &str {
        let host = self
            .addr
            .rsplit_once(':')
            .map_or(self.addr.as_str(), |(host, _)| host);
        host.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host)
    }

    /// Whether the settings go together: each transport's own settings only on it, headers that
    /// HTTP can carry. A setting left on a transport that ignores it would read as applied.
    pub(crate) fn check(&self) -> Result<(), Error> {
        let bad = |why: String| Err(Error::new(ErrorKind::Config, Some(self), why));
        let http_only = [
            ("path", self.path != DEFAULT_PATH),
            ("header", !self.headers.is_empty()),
            ("do_as", self.proxy_user.is_some()),
        ];
        let https_only = [
            ("ca_file", self.ca_file.is_some()),
            ("server_name", self.server_name.is_some()),
        ];
        for (key, set) in http_only {
            if set && !self.transport.is_http() {
                return bad(format!(
                    "`{key}` is a setting of transport=http or https, not of {}",
                    string::transport_name(self.transport)
                ));
            }
        }
        for (key, set) in https_only {
            if set && self.transport != Transport::Https {
                return bad(format!(
                    "`{key}` is a setting of transport=https, not of {}",
                    string::transport_name(self.transport)
                ));
            }
        }
        if self.kerberos.is_some() && self.transport == Transport::Framed {
            return bad(String::from(
                "HBase's Thrift2 server speaks Kerberos (SASL) over buffered transport alone (it refuses SASL with framed): use transport=buffered",
            ));
        }
        if self.qop.is_some() && (self.kerberos.is_none() || self.transport.is_http()) {
            return bad(String::from(
                "`qop` is a setting of Kerberos over TCP (SASL): set kerberos= too; over HTTP, Kerberos is SPNEGO, and TLS (transport=https) protects the messages",
            ));
        }
        if self.transport.is_http() && self.protocol == Protocol::Compact {
            return bad(String::from(
                "HBase's HTTP Thrift2 server speaks the binary protocol alone (it reads every request as binary, whatever hbase.regionserver.thrift.compact says): use protocol=binary",
            ));
        }
        if !self.path.starts_with('/') || self.path.bytes().any(|b| b <= b' ' || b == 0x7f) {
            return bad(format!(
                "path {:?}: a path starts with `/` and has no spaces or control characters",
                self.path
            ));
        }
        for (name, value) in &self.headers {
            if name.is_empty() || !name.bytes().all(is_token) {
                return bad(format!(
                    "header name {name:?}: letters, digits and !#$%&'*+-.^_`|~ only"
                ));
            }
            if value.bytes().any(|b| b < b' ' && b != b'\t' || b == 0x7f) {
                return bad(format!(
                    "header {name}: its value has a line break or control character"
                ));
            }
        }
        if let Some(user) = &self.proxy_user {
            if user.is_empty() || user.bytes().any(|b| b < b' ' || b == 0x7f) {
                return bad(format!(
                    "do_as {user:?}: a user name, without control characters"
                ));
            }
        }
        Ok(())
    }

    /// The first address `addr` resolves to.
    pub(crate) fn resolve(&self) -> Result<SocketAddr, Error> {
        let unresolved = |why: String| {
            Error::new(
                ErrorKind::Connect,
                Some(self),
                format!("cannot resolve {}: {why}", self.addr),
            )
        };
        self.addr
            .to_socket_addrs()
            .map_err(|e| unresolved(e.to_string()))?
            .next()
            .ok_or_else(|| unresolved(String::from("no address")))
    }

    /// The words of the transport and protocol, as the connection string names them.
    pub(crate) fn mode(&self) -> String {
        format!(
            "transport={}, protocol={}",
            string::transport_name(self.transport),
            string::protocol_name(self.protocol)
        )
    }
}

/// A byte of an HTTP token (RFC 9110 §5.6.2): a header's name.
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}
