//! The TCP connection under every transport: made within the endpoint's connect timeout, its
//! reads and writes bounded by a deadline, and the fault that says why one could not be made;
//! and the byte stream over it, TCP or TLS.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use crate::endpoint::Endpoint;
use crate::error::{ErrorKind, Fault};

/// The fault of a connection that could not be made to `endpoint` (`addr`, its address): refused,
/// timed out, or (over TLS) a handshake that failed, which says why.
pub(crate) fn connect_fault(endpoint: &Endpoint, e: io::Error) -> Fault {
    use std::io::ErrorKind as Io;
    let message = match e.kind() {
        Io::ConnectionRefused => format!(
            "nothing listens at {} (connection refused): is the Thrift2 server running, on this port?",
            endpoint.addr()
        ),
        Io::TimedOut | Io::WouldBlock => format!(
            "no connection to {} within {:?} (connect_timeout): a firewall, or a host that is down",
            endpoint.addr(),
            endpoint.connect_timeout()
        ),
        _ => format!("cannot connect to {}: {e}", endpoint.addr()),
    };
    Fault::lost(ErrorKind::Connect, message).because(e)
}

/// A TCP connection to `addr` within the endpoint's connect timeout, its reads and writes bounded
/// by `deadline`, without Nagle's delay (a request is one write).
pub(crate) fn tcp(
    endpoint: &Endpoint,
    addr: SocketAddr,
    deadline: Duration,
) -> io::Result<TcpStream> {
    let stream = TcpStream::connect_timeout(&addr, endpoint.connect_timeout())?;
    stream.set_read_timeout(Some(deadline))?;
    stream.set_write_timeout(Some(deadline))?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// A byte stream of a connection: TCP, or TLS over TCP.
pub(crate) trait Stream: Read + Write + Send {}

impl<S: Read + Write + Send> Stream for S {}

/// Where the reading half of a message transport (framed, HTTP, SASL) gets its messages: each
/// call fills `into` (emptied first) with the next whole message.
pub(crate) trait Messages {
    fn next_message(&mut self, into: &mut Vec<u8>) -> io::Result<()>;
}

/// The reading half of a message transport: each message read whole from its source, then
/// handed out as the protocol reads it, field by field.
pub(crate) struct MessageRead<M> {
    source: M,
    message: Vec<u8>,
    at: usize,
}

impl<M: Messages> MessageRead<M> {
    pub(crate) fn new(source: M) -> Self {
        MessageRead {
            source,
            message: Vec::new(),
            at: 0,
        }
    }
}

impl<M: Messages> Read for MessageRead<M> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.message.len() {
            self.message.clear();
            self.at = 0;
            self.source.next_message(&mut self.message)?;
        }
        let n = out.len().min(self.message.len() - self.at);
        out[..n].copy_from_slice(&self.message[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
