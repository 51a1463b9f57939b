//! What went wrong talking to HBase, in words that say what to change: the server it happened
//! at (its connection string), HBase's own message where HBase refused a request, and the cause
//! behind [`std::error::Error::source`]. Nothing of the Thrift runtime is in its public shape,
//! so that the runtime can change without a change here.

use std::fmt;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use rowkey::EncodeError;

/// The kinds of [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A connection string or setting that is not valid.
    Config,
    /// The server could not be reached: its name does not resolve, nothing listens on its port,
    /// or it did not accept the connection within the connect timeout.
    Connect,
    /// The server did not answer within the time allowed (the connect timeout for the first
    /// request of [`HBase::open`](crate::HBase::open), the retry policy's deadline after it).
    Timeout,
    /// The server closed or reset the connection.
    Closed,
    /// The server's answer is not Thrift2 in this endpoint's transport and protocol: the server
    /// speaks another (`hbase.regionserver.thrift.framed`, `.compact`, `.http`, TLS or not), or it
    /// is not a Thrift2 server.
    Mismatch,
    /// TLS failed: the server's certificate is not trusted by the endpoint's roots or does not
    /// carry its name, or the server ended the handshake.
    Tls,
    /// The server refused who the client is, or asked for credentials it did not send: an HTTP
    /// 401 or 403, a proxy user (`doAs`) the server does not allow.
    Auth,
    /// A request longer than the server's frame limit, refused before it was sent.
    TooLarge,
    /// A request this server cannot serve as it is set up (a pre-split `createTable` over framed
    /// transport, which HBase's Thrift2 server misreads), refused before it was sent, with the
    /// way around it.
    Unsupported,
    /// HBase refused the request, with its own message (a table that does not exist, a column
    /// family that does not, a table that already does).
    HBase,
    /// A key longer than HBase's row limit, in a write, a split point or a plan.
    Key,
}

/// An error of HBase, of the connection to its Thrift2 server, or a key HBase cannot hold.
///
/// Its `Display` names the server (its connection string) and says what to change; HBase's own
/// message is in it where HBase refused the request:
///
/// ```text
/// HBase at thrift2://127.0.0.1:9090: org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family x does not exist in region ...
/// ```
pub struct Error {
    kind: ErrorKind,
    endpoint: Option<String>,
    message: String,
    retriable: bool,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Error {
    /// An error of `kind` at `endpoint` (a server's connection string, as the endpoint writes
    /// it), saying `message`.
    pub(crate) fn new(
        kind: ErrorKind,
        endpoint: Option<&dyn fmt::Display>,
        message: String,
    ) -> Error {
        Error {
            kind,
            endpoint: endpoint.map(ToString::to_string),
            message,
            retriable: false,
            source: None,
        }
    }

    pub(crate) fn with_source(
        mut self,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        self.source = Some(Box::new(source));
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The connection string of the server it happened at, when it happened at one.
    pub fn endpoint(&self) -> Option<&str> {
        self.endpoint.as_deref()
    }

    /// Whether HBase said the request may succeed if sent again (an [`ErrorKind::HBase`]
    /// error's `canRetry`); such an error was sent again under the retry policy before it came
    /// here.
    pub fn is_retriable(&self) -> bool {
        self.retriable
    }

    /// What this error says, without the server's name.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// This error, whether HBase said it may pass if sent again.
    pub(crate) fn retriable(mut self, retriable: bool) -> Error {
        self.retriable = retriable;
        self
    }

    /// This error, caused by `source` unless it has a cause already.
    pub(crate) fn or_caused_by(
        self,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        match self.source {
            Some(_) => self,
            None => self.with_source(source),
        }
    }

    /// This error, caused by what a transport's fault carried, if anything.
    pub(crate) fn caused_by_fault(mut self, fault: Fault) -> Error {
        self.source = fault.into_source();
        self
    }
}

/// Thrift's runtime turns a transport's `io::Error` into a message and a coarse kind, which
/// cannot tell a request over the frame limit from an HTTP 401 or a certificate nobody trusts.
/// So a transport that knows what went wrong raises a [`Fault`] (the error's kind, its words,
/// and whether a new connection may pass) into its connection's [`Faults`] as it fails, and the
/// code that judges the request's error ([`judge::request`](crate::judge::request), the retry loops) takes it from
/// there. A failure no transport explained (a cut, a reset, a stall) is judged from Thrift's
/// error.
///
/// What a transport knows of a failure beyond what Thrift's runtime carries: the kind of error
/// it is, its words, and whether the connection is lost (a new one may pass) or the request
/// itself is refused (it would be refused again).
#[derive(Debug)]
pub(crate) struct Fault {
    kind: ErrorKind,
    message: String,
    lost: bool,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Fault {
    /// A fault after which the connection is gone: a new one may pass.
    pub(crate) fn lost(kind: ErrorKind, message: String) -> Fault {
        Fault {
            kind,
            message,
            lost: true,
            source: None,
        }
    }

    /// A fault of the request itself, which a new connection would meet again.
    pub(crate) fn kept(kind: ErrorKind, message: String) -> Fault {
        Fault {
            kind,
            message,
            lost: false,
            source: None,
        }
    }

    /// This fault, caused by `source`.
    pub(crate) fn because(
        mut self,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Fault {
        self.source = Some(Box::new(source));
        self
    }

    pub(crate) fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// Whether the connection is lost, so that a new one may pass.
    pub(crate) fn is_lost(&self) -> bool {
        self.lost
    }

    pub(crate) fn into_source(self) -> Option<Box<dyn std::error::Error + Send + Sync>> {
        self.source
    }
}

/// The fault a connection's transport raised last, until the error is judged.
#[derive(Clone, Debug, Default)]
pub(crate) struct Faults(Arc<Mutex<Option<Fault>>>);

impl Faults {
    /// Keeps `fault` for the judge, and gives the `io::Error` to fail with, in its words.
    pub(crate) fn raise(&self, fault: Fault) -> io::Error {
        let error = io::Error::other(fault.message.clone());
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(fault);
        error
    }

    /// The fault raised since the last call, if any.
    pub(crate) fn take(&self) -> Option<Fault> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("endpoint", &self.endpoint)
            .field("message", &self.message)
            .field("retriable", &self.retriable)
            .field("source", &self.source)
            .finish()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.endpoint, self.kind) {
            (Some(endpoint), ErrorKind::HBase) => {
                write!(f, "HBase at {endpoint}: {}", self.message)
            }
            (Some(endpoint), _) => write!(f, "HBase Thrift2 server {endpoint}: {}", self.message),
            (None, _) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn std::error::Error + 'static))
    }
}

impl From<EncodeError> for Error {
    fn from(e: EncodeError) -> Error {
        Error::new(ErrorKind::Key, None, e.to_string()).with_source(e)
    }
}
