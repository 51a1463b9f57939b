//! A failed request judged: what its transport raised (a [`Fault`]) or, failing that, the Thrift
//! runtime's error, turned into an [`Error`] that says what to change, and whether a new
//! connection may pass. It stands above both the endpoint (whose transport and protocol a
//! mismatch names) and the error, so that the error knows nothing of endpoints.

use std::fmt;
use std::time::Duration;

use crate::endpoint::Endpoint;
use crate::error::{Error, ErrorKind, Fault};
use crate::hbase::{TIOError, TIllegalArgument};

/// The error of `fault` at `endpoint`, as its transport raised it; a mismatch names the
/// server settings that decide the transport and protocol.
pub(crate) fn from_fault(endpoint: &Endpoint, fault: Fault) -> Error {
    let mut message = fault.message().to_string();
    if fault.kind() == ErrorKind::Mismatch {
        message = format!("{message}; {}", other_mode(endpoint));
    }
    Error::new(fault.kind(), Some(endpoint), message).caused_by_fault(fault)
}

/// The request failed with `e` at `endpoint`, its transport having raised `fault` (which
/// says more than `e`, when there is one): `first` for the first request of a connection,
/// whose failure says most about a server of another transport or protocol; `waited` the
/// time it was allowed.
pub(crate) fn request(
    e: thrift::Error,
    fault: Option<Fault>,
    endpoint: &Endpoint,
    first: bool,
    waited: Duration,
) -> Error {
    let other_mode = || other_mode(endpoint);
    if let Some(fault) = fault {
        return from_fault(endpoint, fault).or_caused_by(Cause(e));
    }
    let (kind, message, retriable) = match &e {
        thrift::Error::Transport(t) => {
            let text = t.message.as_str();
            if matches!(t.kind, thrift::TransportErrorKind::TimedOut)
                || text.contains("os error 11")
                || text.contains("timed out")
            {
                let why = if first {
                    format!("; a server that is not Thrift2, or {}", other_mode())
                } else {
                    String::new()
                };
                (
                    ErrorKind::Timeout,
                    format!("no answer within {waited:?}{why}"),
                    false,
                )
            } else if first {
                (
                    ErrorKind::Mismatch,
                    format!(
                        "the server closed the connection at the first request ({text}): {}",
                        other_mode()
                    ),
                    false,
                )
            } else {
                (
                    ErrorKind::Closed,
                    format!("the connection was lost: {text}"),
                    false,
                )
            }
        }
        thrift::Error::Protocol(p) => (
            ErrorKind::Mismatch,
            format!(
                "an answer that is not Thrift2 in {} ({}): is it HBase's Thrift2 server? {}",
                endpoint.mode(),
                p.message,
                other_mode()
            ),
            false,
        ),
        thrift::Error::User(user) => {
            if let Some(io) = user.downcast_ref::<TIOError>() {
                (
                    ErrorKind::HBase,
                    hbase_message(io.message.as_deref()),
                    io.can_retry.unwrap_or(false),
                )
            } else if let Some(arg) = user.downcast_ref::<TIllegalArgument>() {
                (
                    ErrorKind::HBase,
                    hbase_message(arg.message.as_deref()),
                    false,
                )
            } else {
                (ErrorKind::HBase, user.to_string(), false)
            }
        }
        thrift::Error::Application(a) => (
            ErrorKind::HBase,
            format!(
                "{} (the Thrift2 server's own error; its log has the cause)",
                a.message
            ),
            false,
        ),
    };
    Error::new(kind, Some(endpoint), message)
        .with_source(Cause(e))
        .retriable(retriable)
}

/// What a server of another transport or protocol than `endpoint`'s does, and the server's
/// settings that say which it speaks.
fn other_mode(endpoint: &Endpoint) -> String {
    format!(
        "a Thrift2 server of another transport or protocol than this endpoint's ({}) does this: set them as the server's hbase.regionserver.thrift.framed, .compact and .http (and hbase.thrift.ssl.enabled; hbase.thrift.security.qop for Kerberos) say",
        endpoint.mode()
    )
}

/// Whether the connection that failed with `e` (its transport having raised `fault`) is lost
/// (cut, reset, refused, stalled past the deadline, or speaking garbage), so that a new one may
/// pass; a request its transport refused (over the frame limit, an HTTP 401) is not: it would be
/// refused again.
pub(crate) fn is_connection_lost(e: &thrift::Error, fault: Option<&Fault>) -> bool {
    if let Some(fault) = fault {
        return fault.is_lost();
    }
    matches!(e, thrift::Error::Transport(_) | thrift::Error::Protocol(_))
}

/// HBase's message, with the Java stack trace some exceptions carry cut at its first line.
fn hbase_message(message: Option<&str>) -> String {
    let message = message.unwrap_or("an error without a message");
    message.lines().next().unwrap_or(message).trim().to_string()
}

/// The Thrift runtime's error, kept as the source without naming its type in the public API.
struct Cause(thrift::Error);

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Cause {}
