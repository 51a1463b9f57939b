//! A connection to a Thrift2 server in its transport and protocol: the socket (TCP, or HTTP over
//! TCP or TLS), the Thrift client on it, and what its transport saw go wrong; and the connections
//! that reads keep between them ([`Idle`]).
//!
//! A transport that knows why it failed raises a [`Fault`] into the connection's [`Faults`]
//! ([`crate::error`] says why), which [`Client::take_fault`] hands to the code that judges the
//! request's error.

use std::io;
use std::net::{SocketAddr, TcpStream};
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use thrift::protocol::{
    TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol, TInputProtocol,
    TOutputProtocol,
};
use thrift::transport::{TBufferedReadTransport, TBufferedWriteTransport};

use crate::binary::BinaryInput;
use crate::endpoint::{Endpoint, Protocol, Transport};
use crate::error::{ErrorKind, Fault, Faults};
use crate::framed::{FramedRead, FramedWrite};
use crate::hbase::THBaseServiceSyncClient;
use crate::http::{Exchange, HttpRead, HttpWrite};
use crate::kerberos;
use crate::socket::{connect_fault, tcp};

/// The Thrift client of a connection, whatever its transport and protocol.
type Thrift = THBaseServiceSyncClient<
    Box<dyn TInputProtocol + Send + Sync>,
    Box<dyn TOutputProtocol + Send + Sync>,
>;

/// A connection to a Thrift2 server: its Thrift client (the requests are its methods, through
/// `Deref`), the socket under it, and its faults.
pub(crate) struct Client {
    thrift: Thrift,
    socket: Socket,
    faults: Faults,
}

/// What a connection's deadline is set on.
enum Socket {
    /// The TCP connection the transport reads and writes.
    Tcp(TcpStream),
    /// The HTTP exchange, which connects again when the server closed an idle connection.
    Http(Arc<Mutex<Exchange>>),
}

impl Client {
    /// Each read and write of this connection bounded by `deadline` from now on.
    pub(crate) fn set_deadline(&self, deadline: Duration) -> io::Result<()> {
        match &self.socket {
            Socket::Tcp(stream) => {
                stream.set_read_timeout(Some(deadline))?;
                stream.set_write_timeout(Some(deadline))
            }
            Socket::Http(exchange) => exchange
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .set_deadline(deadline),
        }
    }

    /// The fault this connection's transport raised with its last error, if any.
    pub(crate) fn take_fault(&self) -> Option<Fault> {
        self.faults.take()
    }
}

impl Deref for Client {
    type Target = Thrift;

    fn deref(&self) -> &Thrift {
        &self.thrift
    }
}

impl DerefMut for Client {
    fn deref_mut(&mut self) -> &mut Thrift {
        &mut self.thrift
    }
}

/// Connections that finished a range cleanly, for the next range of any read of the same
/// [`HBase`](crate::HBase) to take: a read of a few rows costs no TCP connect and no new server
/// thread.
#[derive(Default)]
pub(crate) struct Idle(Mutex<Vec<(Instant, Client)>>);

impl Idle {
    /// The most connections kept.
    const MAX: usize = 32;
    /// Connections idle this long are dropped: the Thrift2 server closes those idle for 60 s
    /// (`hbase.thrift.server.socket.read.timeout`).
    const FOR: Duration = Duration::from_secs(30);

    pub(crate) fn take(&self) -> Option<Client> {
        let mut idle = self.0.lock().ok()?;
        idle.retain(|(since, _)| since.elapsed() < Idle::FOR);
        idle.pop().map(|(_, client)| client)
    }

    pub(crate) fn give(&self, client: Client) {
        if let Ok(mut idle) = self.0.lock() {
            if idle.len() < Idle::MAX {
                idle.push((Instant::now(), client));
            }
        }
    }
}

impl Endpoint {
    /// A new connection to the server at `addr` (this endpoint's, resolved), each read and write
    /// bounded by `deadline`, the connect by the connect timeout.
    pub(crate) fn open(&self, addr: SocketAddr, deadline: Duration) -> Result<Client, Fault> {
        self.check()
            .map_err(|e| Fault::kept(ErrorKind::Config, e.message().to_string()))?;
        let faults = Faults::default();
        type Halves = (
            Box<dyn TInputProtocol + Send + Sync>,
            Box<dyn TOutputProtocol + Send + Sync>,
        );
        let (socket, (input, output)): (Socket, Halves) = if self.transport().is_http() {
            let exchange = Exchange::open(self, addr, deadline, faults.clone())?;
            let exchange = Arc::new(Mutex::new(exchange));
            let halves: Halves = (
                Box::new(BinaryInput::new(HttpRead::answers(exchange.clone()))),
                Box::new(TBinaryOutputProtocol::new(
                    HttpWrite::new(exchange.clone()),
                    true,
                )),
            );
            (Socket::Http(exchange), halves)
        } else {
            let mut stream = tcp(self, addr, deadline).map_err(|e| connect_fault(self, e))?;
            let clone = |stream: &TcpStream| stream.try_clone().map_err(|e| connect_fault(self, e));
            let (read, write) = (clone(&stream)?, clone(&stream)?);
            let sasl = match self.kerberos() {
                Some(_) => Some(kerberos::negotiate(self, &mut stream)?),
                None => None,
            };
            let halves: Halves = match (sasl, self.transport(), self.protocol()) {
                (Some(session), _, protocol) => {
                    let (read, write) = kerberos::halves(read, write, session, &faults);
                    match protocol {
                        Protocol::Binary => (
                            Box::new(BinaryInput::new(read)),
                            Box::new(TBinaryOutputProtocol::new(write, true)),
                        ),
                        _ => (
                            Box::new(TCompactInputProtocol::new(read)),
                            Box::new(TCompactOutputProtocol::new(write)),
                        ),
                    }
                }
                (None, Transport::Framed, Protocol::Binary) => (
                    Box::new(BinaryInput::new(FramedRead::framed(read, faults.clone()))),
                    Box::new(TBinaryOutputProtocol::new(
                        FramedWrite::new(write, self.max_frame(), faults.clone()),
                        true,
                    )),
                ),
                (None, Transport::Framed, Protocol::Compact) => (
                    Box::new(TCompactInputProtocol::new(FramedRead::framed(
                        read,
                        faults.clone(),
                    ))),
                    Box::new(TCompactOutputProtocol::new(FramedWrite::new(
                        write,
                        self.max_frame(),
                        faults.clone(),
                    ))),
                ),
                (None, _, Protocol::Binary) => (
                    Box::new(BinaryInput::new(read)),
                    Box::new(TBinaryOutputProtocol::new(
                        TBufferedWriteTransport::new(write),
                        true,
                    )),
                ),
                (None, _, Protocol::Compact) => (
                    Box::new(TCompactInputProtocol::new(TBufferedReadTransport::new(
                        read,
                    ))),
                    Box::new(TCompactOutputProtocol::new(TBufferedWriteTransport::new(
                        write,
                    ))),
                ),
            };
            (Socket::Tcp(stream), halves)
        };
        Ok(Client {
            thrift: THBaseServiceSyncClient::new(input, output),
            socket,
            faults,
        })
    }
}

/// Built only where a feature is off (`cargo test -p rowkey-hbase --lib`): with every feature
/// on, there is nothing to refuse.
#[cfg(all(test, not(all(feature = "tls", feature = "kerberos"))))]
mod tests {
    use super::*;

    /// An endpoint that needs a feature this build lacks is refused before anything is sent,
    /// naming the feature.
    #[test]
    fn an_endpoint_whose_feature_is_off_is_refused_naming_the_feature() {
        if cfg!(not(feature = "tls")) {
            let addr: SocketAddr = "127.0.0.1:1".parse().unwrap();
            let fault = match Endpoint::https("127.0.0.1:1").open(addr, Duration::from_secs(1)) {
                Err(fault) => fault,
                Ok(_) => panic!("an HTTPS endpoint opened without TLS"),
            };
            assert_eq!(fault.kind(), ErrorKind::Config, "{}", fault.message());
            assert!(
                fault.message().contains("rowkey-hbase's `tls` feature"),
                "{}",
                fault.message()
            );
        }
        if cfg!(not(feature = "kerberos")) {
            let endpoint = Endpoint::http("h:1").with_kerberos("HTTP/_HOST@R");
            let fault = crate::kerberos::spnego_header(&endpoint).expect_err("no Kerberos here");
            assert_eq!(fault.kind(), ErrorKind::Config, "{}", fault.message());
            assert!(
                fault
                    .message()
                    .contains("rowkey-hbase's `kerberos` feature"),
                "{}",
                fault.message()
            );
        }
    }
}
