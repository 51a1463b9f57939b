//! The connection string: `thrift2://HOST:PORT?KEY=VALUE&...`, read by [`parse`] and written by
//! `Display`, which writes the keys whose values differ from their defaults, so that a string
//! read and written again is the same string.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::DEFAULT_PATH;
use super::{Endpoint, Protocol, Qop, Transport, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_FRAME};
use crate::error::{Error, ErrorKind};

/// The scheme of a connection string.
const SCHEME: &str = "thrift2://";

/// The keys of a connection string, for messages, in the order `Display` writes them.
const KEYS: [&str; 12] = [
    "transport",
    "protocol",
    "max_frame",
    "path",
    "header",
    "do_as",
    "ca_file",
    "server_name",
    "kerberos",
    "qop",
    "connect_timeout",
    // Not a key of its own: the name a user may look for, answered with where it went.
    "tls",
];

/// The endpoint `text` names.
pub(super) fn parse(text: &str) -> Result<Endpoint, Error> {
    let bad = |why: String| Error::new(ErrorKind::Config, None, format!("{text:?}: {why}"));
    let rest = text.strip_prefix(SCHEME).ok_or_else(|| {
        bad(format!(
            "a connection string starts with `{SCHEME}` (thrift2://HOST:PORT?transport=framed&protocol=compact)"
        ))
    })?;
    let (addr, query) = rest.split_once('?').unwrap_or((rest, ""));
    if addr.is_empty() || !addr.contains(':') || addr.contains('/') {
        return Err(bad(String::from(
            "the server's HOST:PORT follows thrift2:// (thrift2://10.0.0.7:9090), with its path as `path=`",
        )));
    }
    let mut endpoint = Endpoint::tcp(addr);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = pair
            .split_once('=')
            .ok_or_else(|| bad(format!("`{pair}` is not KEY=VALUE")))?;
        let wrong = |takes: &str| bad(format!("`{key}={raw}`: {key} takes {takes}"));
        let value = percent_decode(raw)
            .ok_or_else(|| wrong("text, with `%` and two hex digits for `&`, `=`, `%`"))?;
        match key {
            "transport" => {
                endpoint.transport = match value.as_str() {
                    "buffered" => Transport::Buffered,
                    "framed" => Transport::Framed,
                    "http" => Transport::Http,
                    "https" => Transport::Https,
                    _ => return Err(wrong("`buffered`, `framed`, `http` or `https`")),
                }
            }
            "protocol" => {
                endpoint.protocol = match value.as_str() {
                    "binary" => Protocol::Binary,
                    "compact" => Protocol::Compact,
                    _ => return Err(wrong("`binary` or `compact`")),
                }
            }
            "max_frame" => {
                endpoint.max_frame = parse_size(&value)
                    .filter(|&n| n > 0)
                    .ok_or_else(|| wrong("a size in bytes, with k or m: `2m`"))?;
            }
            "path" => endpoint.path = value,
            "header" => {
                let (name, value) = value
                    .split_once(':')
                    .ok_or_else(|| wrong("`Name:value`"))?;
                endpoint
                    .headers
                    .push((name.trim().to_string(), value.trim().to_string()));
            }
            "do_as" => endpoint.proxy_user = Some(value),
            "ca_file" => endpoint.ca_file = Some(value.into()),
            "server_name" => endpoint.server_name = Some(value),
            "kerberos" => endpoint.kerberos = Some(value),
            "qop" => {
                endpoint.qop = Some(match value.as_str() {
                    "auth" => Qop::Auth,
                    "auth-int" => Qop::AuthInt,
                    "auth-conf" => Qop::AuthConf,
                    _ => return Err(wrong("`auth`, `auth-int` or `auth-conf`")),
                })
            }
            "connect_timeout" => {
                endpoint.connect_timeout = parse_duration(&value)
                    .filter(|d| !d.is_zero())
                    .ok_or_else(|| wrong("a time, `500ms` or `10s`"))?;
            }
            "tls" | "ssl" => {
                return Err(bad(format!(
                    "`{key}` is not a key: TLS is transport=https (HBase's Thrift2 server offers TLS over HTTP alone)"
                )))
            }
            _ => {
                let hint = closest_key(key)
                    .map(|k| format!(" (did you mean `{k}`?)"))
                    .unwrap_or_default();
                return Err(bad(format!(
                    "unknown key `{key}`{hint}; the keys are {}",
                    KEYS[..KEYS.len() - 1].join(", ")
                )));
            }
        }
    }
    endpoint.check().map_err(|e| bad(e.message().to_string()))?;
    Ok(endpoint)
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
        if self.path != DEFAULT_PATH {
            key(f, "path", &Encoded(&self.path))?;
        }
        for (name, value) in &self.headers {
            key(f, "header", &Encoded(&format!("{name}:{value}")))?;
        }
        if let Some(user) = &self.proxy_user {
            key(f, "do_as", &Encoded(user))?;
        }
        if let Some(file) = &self.ca_file {
            key(f, "ca_file", &Encoded(&file.to_string_lossy()))?;
        }
        if let Some(name) = &self.server_name {
            key(f, "server_name", &Encoded(name))?;
        }
        if let Some(principal) = &self.kerberos {
            key(f, "kerberos", &Encoded(principal))?;
        }
        if let Some(qop) = self.qop {
            key(f, "qop", &qop_name(qop))?;
        }
        if self.connect_timeout != DEFAULT_CONNECT_TIMEOUT {
            key(f, "connect_timeout", &DurationText(self.connect_timeout))?;
        }
        Ok(())
    }
}

pub(crate) fn transport_name(t: Transport) -> &'static str {
    match t {
        Transport::Buffered => "buffered",
        Transport::Framed => "framed",
        Transport::Http => "http",
        Transport::Https => "https",
    }
}

pub(crate) fn protocol_name(p: Protocol) -> &'static str {
    match p {
        Protocol::Binary => "binary",
        Protocol::Compact => "compact",
    }
}

fn qop_name(q: Qop) -> &'static str {
    match q {
        Qop::Auth => "auth",
        Qop::AuthInt => "auth-int",
        Qop::AuthConf => "auth-conf",
    }
}

/// A value as a connection string writes it: `&`, `=`, `%`, `#`, spaces and control characters
/// as `%` and two hex digits, so that it reads back whole.
struct Encoded<'a>(&'a str);

impl fmt::Display for Encoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if matches!(c, '&' | '=' | '%' | '#' | ' ') || c.is_control() {
                let mut bytes = [0u8; 4];
                for b in c.encode_utf8(&mut bytes).bytes() {
                    write!(f, "%{b:02X}")?;
                }
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// `text` with each `%XX` as its byte; None for a `%` without two hex digits or bytes that are
/// not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex = [bytes.next()?, bytes.next()?];
            out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
        } else {
            out.push(b);
        }
    }
    String::from_utf8(out).ok()
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
            (
                "thrift2://h:9090?transport=http&path=/thrift&header=X-Team:a%26b&header=X-Trace:1&do_as=alice",
                Endpoint::http("h:9090")
                    .with_path("/thrift")
                    .with_header("X-Team", "a&b")
                    .with_header("X-Trace", "1")
                    .with_proxy_user("alice"),
            ),
            (
                "thrift2://10.0.0.7:9090?transport=https&ca_file=/etc/my%20ca.pem&server_name=thrift.example.com",
                Endpoint::https("10.0.0.7:9090")
                    .with_ca_file("/etc/my ca.pem")
                    .with_server_name("thrift.example.com"),
            ),
            (
                "thrift2://h:9090?kerberos=thrift/_HOST@EXAMPLE.COM&qop=auth-int",
                Endpoint::tcp("h:9090")
                    .with_kerberos("thrift/_HOST@EXAMPLE.COM")
                    .with_qop(Qop::AuthInt),
            ),
            (
                "thrift2://h:9090?transport=https&kerberos=HTTP/_HOST@EXAMPLE.COM",
                Endpoint::https("h:9090").with_kerberos("HTTP/_HOST@EXAMPLE.COM"),
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
        // The name a certificate must carry: the host's, unless set.
        assert_eq!(Endpoint::https("[::1]:9090").server_name(), "::1");
        assert_eq!(
            Endpoint::https("db.example.com:9090").server_name(),
            "db.example.com"
        );
    }

    #[test]
    fn a_bad_connection_string_says_what_to_write() {
        let cases = [
            ("h:9090", "starts with `thrift2://`"),
            ("thrift2://", "HOST:PORT follows thrift2://"),
            ("thrift2://h", "HOST:PORT follows thrift2://"),
            ("thrift2://h:1/thrift", "with its path as `path=`"),
            (
                "thrift2://h:1?transport=udp",
                "transport takes `buffered`, `framed`, `http` or `https`",
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
            ("thrift2://h:1?tls=true", "TLS is transport=https"),
            (
                "thrift2://h:1?do_as=alice",
                "`do_as` is a setting of transport=http or https, not of buffered",
            ),
            (
                "thrift2://h:1?transport=http&ca_file=/ca.pem",
                "`ca_file` is a setting of transport=https, not of http",
            ),
            (
                "thrift2://h:1?transport=http&protocol=compact",
                "speaks the binary protocol alone",
            ),
            (
                "thrift2://h:1?transport=http&path=thrift",
                "starts with `/`",
            ),
            (
                "thrift2://h:1?transport=http&header=X-A",
                "header takes `Name:value`",
            ),
            (
                "thrift2://h:1?transport=http&header=X%20A:1",
                "header name \"X A\"",
            ),
            (
                "thrift2://h:1?transport=http&header=X-A:a%0D%0AHost:evil",
                "line break",
            ),
            (
                "thrift2://h:1?transport=http&do_as=%zz",
                "with `%` and two hex digits",
            ),
            (
                "thrift2://h:1?transport=framed&kerberos=thrift/_HOST@R",
                "over buffered transport alone",
            ),
            (
                "thrift2://h:1?qop=auth-conf",
                "`qop` is a setting of Kerberos over TCP",
            ),
            (
                "thrift2://h:1?transport=http&kerberos=HTTP/h@R&qop=auth",
                "over HTTP, Kerberos is SPNEGO",
            ),
            (
                "thrift2://h:1?kerberos=t/h@R&qop=privacy",
                "qop takes `auth`, `auth-int` or `auth-conf`",
            ),
        ];
        for (text, says) in cases {
            let err = Endpoint::parse(text).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Config, "{text}");
            assert!(err.to_string().contains(says), "{text}: {err}");
        }
    }
}
