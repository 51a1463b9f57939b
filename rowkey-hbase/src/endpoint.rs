//! How to reach a Thrift2 server: its address, the transport and protocol it speaks, and how long
//! to wait for it. One description, built in code ([`Endpoint::tcp`] and its setters) or read from
//! a connection string in a configuration file ([`Endpoint::parse`]), which `Display` writes back.
//!
//! HBase's Thrift2 server speaks one transport and one protocol, set on the server:
//! `hbase.regionserver.thrift.framed` (framed transport, which HBase's reference guide advises: a
//! malformed request to the buffered server can take it down, THRIFT-601) and
//! `hbase.regionserver.thrift.compact` (the compact protocol). A client must speak the same; a
//! server meeting another closes the connection at the first request, which [`HBase::open`]
//! makes, and says so.
//!
//! [`HBase::open`]: crate::HBase::open

use std::fmt;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::str::FromStr;
use std::time::Duration;

use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol,
    TInputProtocol, TOutputProtocol,
};
use thrift::transport::{TBufferedReadTransport, TBufferedWriteTransport};

use crate::error::{Error, ErrorKind};
use crate::framed::{FramedRead, FramedWrite};
use crate::hbase::THBaseServiceSyncClient;

/// A connection to a Thrift2 server, whatever its transport and protocol.
pub(crate) type Client = THBaseServiceSyncClient<
    Box<dyn TInputProtocol + Send + Sync>,
    Box<dyn TOutputProtocol + Send + Sync>,
>;

/// The transport a Thrift2 server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// Messages as they are, over TCP: the server's default
    /// (`hbase.regionserver.thrift.framed = false`).
    Buffered,
    /// Each message after its length (`hbase.regionserver.thrift.framed = true`). The server
    /// refuses a request longer than its frame limit
    /// (`hbase.regionserver.thrift.framed.max_frame_size_in_mb`, 2 MB by default): a request
    /// over [`Endpoint::max_frame`] is refused here, before it is sent, with what to change.
    Framed,
}

/// The protocol a Thrift2 server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Protocol {
    /// Thrift's binary protocol: the server's default (`hbase.regionserver.thrift.compact =
    /// false`).
    Binary,
    /// Thrift's compact protocol (`hbase.regionserver.thrift.compact = true`).
    Compact,
}

/// How to reach a Thrift2 server: `host:port`, transport, protocol, frame limit and connect
/// timeout.
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
/// | `transport` | `buffered`, `framed` | `buffered` |
/// | `protocol` | `binary`, `compact` | `binary` |
/// | `max_frame` | the server's frame limit in bytes, with `k`, `m` (`KiB`, `MiB`): `2m` | `2m`, HBase's default |
/// | `connect_timeout` | a time, `500ms` or `10s` | `10s` |
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
    connect_timeout: Duration,
}

/// The scheme of a connection string.
const SCHEME: &str = "thrift2://";

/// HBase's frame limit by default (`hbase.regionserver.thrift.framed.max_frame_size_in_mb`).
const DEFAULT_MAX_FRAME: usize = 2 << 20;

/// The longest answer frame read: past it, the bytes are not a Thrift2 answer (an HTTP server's
/// `HTTP/1.1 ...` reads as a frame of 1.2 GB).
pub(crate) const MAX_ANSWER_FRAME: usize = 256 << 20;

const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The keys of a connection string, for messages.
const KEYS: [&str; 4] = ["transport", "protocol", "max_frame", "connect_timeout"];

impl Endpoint {
    /// The Thrift2 server at `addr` (`host:port`), with the server's defaults: buffered
    /// transport, binary protocol; a connect timeout of 10 s.
    pub fn tcp(addr: impl Into<String>) -> Endpoint {
        Endpoint {
            addr: addr.into(),
            transport: Transport::Buffered,
            protocol: Protocol::Binary,
            max_frame: DEFAULT_MAX_FRAME,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
        }
    }

    /// The endpoint a connection string names (its form is in the type's docs).
    pub fn parse(text: &str) -> Result<Endpoint, Error> {
        let bad = |why: String| Error::new(ErrorKind::Config, None, format!("{text:?}: {why}"));
        let rest = text.strip_prefix(SCHEME).ok_or_else(|| {
            bad(format!(
                "a connection string starts with `{SCHEME}` (thrift2://HOST:PORT?transport=framed&protocol=compact)"
            ))
        })?;
        let (addr, query) = rest.split_once('?').unwrap_or((rest, ""));
        if addr.is_empty() || !addr.contains(':') {
            return Err(bad(String::from(
                "the server's HOST:PORT follows thrift2:// (thrift2://10.0.0.7:9090)",
            )));
        }
        let mut endpoint = Endpoint::tcp(addr);
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| bad(format!("`{pair}` is not KEY=VALUE")))?;
            let wrong = |takes: &str| bad(format!("`{key}={value}`: {key} takes {takes}"));
            match key {
                "transport" => {
                    endpoint.transport = match value {
                        "buffered" => Transport::Buffered,
                        "framed" => Transport::Framed,
                        _ => return Err(wrong("`buffered` or `framed`")),
                    }
                }
                "protocol" => {
                    endpoint.protocol = match value {
                        "binary" => Protocol::Binary,
                        "compact" => Protocol::Compact,
                        _ => return Err(wrong("`binary` or `compact`")),
                    }
                }
                "max_frame" => {
                    endpoint.max_frame = parse_size(value)
                        .filter(|&n| n > 0)
                        .ok_or_else(|| wrong("a size in bytes, with k or m: `2m`"))?;
                }
                "connect_timeout" => {
                    endpoint.connect_timeout = parse_duration(value)
                        .filter(|d| !d.is_zero())
                        .ok_or_else(|| wrong("a time, `500ms` or `10s`"))?;
                }
                _ => {
                    let hint = closest_key(key)
                        .map(|k| format!(" (did you mean `{k}`?)"))
                        .unwrap_or_default();
                    return Err(bad(format!(
                        "unknown key `{key}`{hint}; the keys are {}",
                        KEYS.join(", ")
                    )));
                }
            }
        }
        Ok(endpoint)
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

    /// The time allowed to connect and for the server's first answer.
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
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

    /// A new connection to the server at `addr` (this endpoint's, resolved), each read and
    /// write bounded by `deadline`, the connect by the connect timeout; and its socket, whose
    /// timeouts its owner may change.
    pub(crate) fn open(
        &self,
        addr: SocketAddr,
        deadline: Duration,
    ) -> std::io::Result<(Client, TcpStream)> {
        let stream = TcpStream::connect_timeout(&addr, self.connect_timeout)?;
        stream.set_read_timeout(Some(deadline))?;
        stream.set_write_timeout(Some(deadline))?;
        stream.set_nodelay(true)?;
        let (read, write) = (stream.try_clone()?, stream.try_clone()?);
        let (input, output): (
            Box<dyn TInputProtocol + Send + Sync>,
            Box<dyn TOutputProtocol + Send + Sync>,
        ) = match (self.transport, self.protocol) {
            (Transport::Buffered, Protocol::Binary) => (
                Box::new(TBinaryInputProtocol::new(
                    TBufferedReadTransport::new(read),
                    true,
                )),
                Box::new(TBinaryOutputProtocol::new(
                    TBufferedWriteTransport::new(write),
                    true,
                )),
            ),
            (Transport::Buffered, Protocol::Compact) => (
                Box::new(TCompactInputProtocol::new(TBufferedReadTransport::new(
                    read,
                ))),
                Box::new(TCompactOutputProtocol::new(TBufferedWriteTransport::new(
                    write,
                ))),
            ),
            (Transport::Framed, Protocol::Binary) => (
                Box::new(TBinaryInputProtocol::new(FramedRead::new(read), true)),
                Box::new(TBinaryOutputProtocol::new(
                    FramedWrite::new(write, self.max_frame),
                    true,
                )),
            ),
            (Transport::Framed, Protocol::Compact) => (
                Box::new(TCompactInputProtocol::new(FramedRead::new(read))),
                Box::new(TCompactOutputProtocol::new(FramedWrite::new(
                    write,
                    self.max_frame,
                ))),
            ),
        };
        Ok((THBaseServiceSyncClient::new(input, output), stream))
    }

    /// The words of the transport and protocol, as the connection string names them.
    pub(crate) fn mode(&self) -> String {
        format!(
            "transport={}, protocol={}",
            transport_name(self.transport),
            protocol_name(self.protocol)
        )
    }
}

impl FromStr for Endpoint {
    type Err = Error;

    fn from_str(text: &str) -> Result<Endpoint, Error> {
        Endpoint::parse(text)
    }
}

/// The connection string of the endpoint, with the keys that differ from their defaults.
impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{SCHEME}{}", self.addr)?;
        let mut sep = '?';
        let mut key = |f: &mut fmt::Formatter<'_>, k: &str, v: &dyn fmt::Display| {
            let r = write!(f, "{sep}{k}={v}");
            sep = '&';
            r
        };
        if self.transport != Transport::Buffered {
            key(f, "transport", &transport_name(self.transport))?;
        }
        if self.protocol != Protocol::Binary {
            key(f, "protocol", &protocol_name(self.protocol))?;
        }
        if self.max_frame != DEFAULT_MAX_FRAME {
            key(f, "max_frame", &self.max_frame)?;
        }
        if self.connect_timeout != DEFAULT_CONNECT_TIMEOUT {
            key(f, "connect_timeout", &DurationText(self.connect_timeout))?;
        }
        Ok(())
    }
}

fn transport_name(t: Transport) -> &'static str {
    match t {
        Transport::Buffered => "buffered",
        Transport::Framed => "framed",
    }
}

fn protocol_name(p: Protocol) -> &'static str {
    match p {
        Protocol::Binary => "binary",
        Protocol::Compact => "compact",
    }
}

/// A duration as a connection string writes it: whole seconds as `10s`, else milliseconds.
struct DurationText(Duration);

impl fmt::Display for DurationText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.subsec_nanos() == 0 {
            write!(f, "{}s", self.0.as_secs())
        } else {
            write!(f, "{}ms", self.0.as_millis())
        }
    }
}

/// `2m`, `512k`, `1048576`: a size in bytes (`k` and `m` are KiB and MiB).
fn parse_size(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    let (digits, scale) = match lower.trim_end_matches("ib").trim_end_matches('b') {
        s if s.ends_with('k') => (&s[..s.len() - 1], 1 << 10),
        s if s.ends_with('m') => (&s[..s.len() - 1], 1 << 20),
        s => (s, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(scale)
}

/// `500ms`, `10s`: a duration.
fn parse_duration(text: &str) -> Option<Duration> {
    if let Some(ms) = text.strip_suffix("ms") {
        return ms.parse().ok().map(Duration::from_millis);
    }
    let secs = text.strip_suffix('s')?;
    secs.parse().ok().map(Duration::from_secs)
}

/// The key of a connection string nearest a misspelled one.
fn closest_key(key: &str) -> Option<&'static str> {
    KEYS.iter()
        .copied()
        .filter(|k| edit_distance(key, k) <= 2 || k.starts_with(key) || key.starts_with(k))
        .min_by_key(|k| edit_distance(key, k))
}

/// Levenshtein's distance, for the few short keys above.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_string_reads_back_as_display_writes_it() {
        let cases = [
            ("thrift2://h:9090", Endpoint::tcp("h:9090")),
            (
                "thrift2://h:9090?transport=framed&protocol=compact",
                Endpoint::tcp("h:9090")
                    .with_transport(Transport::Framed)
                    .with_protocol(Protocol::Compact),
            ),
            (
                "thrift2://[::1]:9090?transport=framed&max_frame=1048576&connect_timeout=500ms",
                Endpoint::tcp("[::1]:9090")
                    .with_transport(Transport::Framed)
                    .with_max_frame(1 << 20)
                    .with_connect_timeout(Duration::from_millis(500)),
            ),
        ];
        for (text, endpoint) in cases {
            assert_eq!(Endpoint::parse(text).unwrap(), endpoint, "{text}");
            assert_eq!(endpoint.to_string(), text);
        }
        // Sizes in KiB and MiB, and keys in any order.
        let e =
            Endpoint::parse("thrift2://h:1?max_frame=2m&protocol=compact&max_frame=512k").unwrap();
        assert_eq!(
            (e.max_frame(), e.protocol()),
            (512 << 10, Protocol::Compact)
        );
        assert_eq!(
            Endpoint::parse("thrift2://h:1?max_frame=16MiB")
                .unwrap()
                .max_frame(),
            16 << 20
        );
    }

    #[test]
    fn a_bad_connection_string_says_what_to_write() {
        let cases = [
            ("h:9090", "starts with `thrift2://`"),
            ("thrift2://", "HOST:PORT follows thrift2://"),
            ("thrift2://h", "HOST:PORT follows thrift2://"),
            (
                "thrift2://h:1?transport=http",
                "transport takes `buffered` or `framed`",
            ),
            (
                "thrift2://h:1?protocol=json",
                "protocol takes `binary` or `compact`",
            ),
            ("thrift2://h:1?max_frame=0", "a size in bytes"),
            ("thrift2://h:1?max_frame=lots", "a size in bytes"),
            (
                "thrift2://h:1?connect_timeout=10",
                "a time, `500ms` or `10s`",
            ),
            ("thrift2://h:1?framed", "`framed` is not KEY=VALUE"),
            (
                "thrift2://h:1?transprt=framed",
                "unknown key `transprt` (did you mean `transport`?)",
            ),
            (
                "thrift2://h:1?zzz=1",
                "unknown key `zzz`; the keys are transport, protocol",
            ),
        ];
        for (text, says) in cases {
            let err = Endpoint::parse(text).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Config, "{text}");
            assert!(err.to_string().contains(says), "{text}: {err}");
        }
    }
}
