//! Kerberos to a secured Thrift2 server, through the system's MIT krb5 (GSSAPI, by the
//! `libgssapi` crate): SASL GSSAPI over TCP (`hbase.thrift.security.qop`) and SPNEGO over HTTP(S).
//!
//! SASL is Thrift's `TSaslClientTransport`: a negotiation of frames `[status][length][bytes]`
//! (START with the mechanism, then OK until the server says COMPLETE), the GSSAPI context's
//! tokens in them, then RFC 4752's security layer: the server offers the qualities of protection
//! it takes (`auth`, `auth-int`, `auth-conf`), the client picks one. After it every message is a
//! frame `[length][bytes]`, its bytes wrapped by the context (signed for `auth-int`, sealed for
//! `auth-conf`) unless the choice was `auth`.
//!
//! SPNEGO is a token of a new context in every request's `Authorization: Negotiate` header: HBase's
//! servlet checks each request on its own.
//!
//! Tickets come from where MIT krb5 finds them: the ticket cache (`kinit`; `KRB5CCNAME`), or a
//! client keytab (`KRB5_CLIENT_KTNAME`), from which krb5 gets a new ticket by itself when the one
//! it holds has expired; `KRB5_CONFIG` names the `krb5.conf`. Without the crate's `kerberos`
//! feature, an endpoint that asks for Kerberos is refused with the feature to turn on.

#[cfg(feature = "kerberos")]
use crate::endpoint::{Endpoint, Qop};
use crate::error::{ErrorKind, Fault};

#[cfg(feature = "kerberos")]
pub(crate) use with_gssapi::{halves, negotiate, spnego_header};

#[cfg(not(feature = "kerberos"))]
pub(crate) use without::{halves, negotiate, spnego_header};

/// The two halves of a connection's bytes, as the protocols take them.
pub(crate) type Halves = (
    Box<dyn std::io::Read + Send + Sync>,
    Box<dyn std::io::Write + Send + Sync>,
);

/// The fault of an endpoint that asks for Kerberos in a build without it.
#[cfg_attr(feature = "kerberos", allow(dead_code))]
fn no_feature() -> Fault {
    Fault::kept(
        ErrorKind::Config,
        String::from(
            "Kerberos needs rowkey-hbase's `kerberos` feature (MIT krb5's libgssapi_krb5 at run time; libkrb5-dev and libclang-dev to build): rowkey-hbase = { ..., features = [\"kerberos\"] }",
        ),
    )
}

#[cfg(feature = "kerberos")]
/// The server's principal as an endpoint names it, `_HOST` made the endpoint's host (as Hadoop
/// does with `hbase.thrift.kerberos.principal`).
fn principal(endpoint: &Endpoint, principal: &str) -> String {
    principal.replace("_HOST", &endpoint.host().to_ascii_lowercase())
}

#[cfg(feature = "kerberos")]
/// The bit of a quality of protection in RFC 4752's security layer.
fn qop_bit(qop: Qop) -> u8 {
    match qop {
        Qop::Auth => 1,
        Qop::AuthInt => 2,
        Qop::AuthConf => 4,
    }
}

#[cfg(feature = "kerberos")]
mod with_gssapi {
    use std::io::{self, Read, Write};
    use std::net::TcpStream;
    use std::sync::{Arc, Mutex, PoisonError};

    use libgssapi::context::{ClientCtx, CtxFlags, SecurityContext};
    use libgssapi::name::Name;
    use libgssapi::oid::{Oid, GSS_MECH_KRB5, GSS_MECH_SPNEGO, GSS_NT_KRB5_PRINCIPAL};

    use super::{principal, qop_bit};
    use crate::endpoint::{Endpoint, Qop, MAX_ANSWER};
    use crate::error::{ErrorKind, Fault, Faults};
    use crate::socket::{MessageRead, Messages};

    const START: u8 = 1;
    const OK: u8 = 2;
    const BAD: u8 = 3;
    const ERROR: u8 = 4;
    const COMPLETE: u8 = 5;

    /// The longest negotiation message read.
    const MAX_NEGOTIATION: usize = 1 << 20;

    /// A SASL session after its negotiation: the context, and how messages are wrapped.
    pub(crate) struct Session {
        ctx: ClientCtx,
        /// None for `auth` (messages as they are), else whether they are sealed (`auth-conf`).
        seal: Option<bool>,
    }

    /// A new GSSAPI context to the server `endpoint` names, for `mech`.
    fn context(endpoint: &Endpoint, mech: &'static Oid) -> Result<ClientCtx, Fault> {
        let wanted = endpoint.kerberos().unwrap_or("");
        let target = principal(endpoint, wanted);
        let name = Name::new(target.as_bytes(), Some(&GSS_NT_KRB5_PRINCIPAL)).map_err(|e| {
            Fault::kept(
                ErrorKind::Config,
                format!("kerberos={wanted:?} is not a Kerberos principal ({e}): thrift/_HOST@EXAMPLE.COM"),
            )
        })?;
        let flags = CtxFlags::GSS_C_MUTUAL_FLAG
            | CtxFlags::GSS_C_INTEG_FLAG
            | CtxFlags::GSS_C_CONF_FLAG
            | CtxFlags::GSS_C_SEQUENCE_FLAG;
        Ok(ClientCtx::new(None, name, flags, Some(mech)))
    }

    /// The fault of a GSSAPI step that failed with `e`: no ticket, an expired one, a server the
    /// KDC does not know, each with what to do.
    fn gss_fault(endpoint: &Endpoint, e: libgssapi::error::Error) -> Fault {
        let said = e.to_string();
        let lower = said.to_ascii_lowercase();
        let server = principal(endpoint, endpoint.kerberos().unwrap_or(""));
        let what = if lower.contains("no kerberos credentials") || lower.contains("no credentials")
        {
            "no Kerberos ticket: run kinit, or set KRB5_CLIENT_KTNAME to a keytab (krb5 then gets tickets from it, and new ones when they expire)".to_string()
        } else if lower.contains("expired") {
            "the Kerberos ticket has expired: run kinit again, or set KRB5_CLIENT_KTNAME to a keytab, from which krb5 gets a new ticket by itself".to_string()
        } else if lower.contains("krbtgt/") {
            format!("the KDC of your ticket's realm has no way to the realm of {server} (a realm misspelled, or no trust between the two): check the realm in kerberos=")
        } else if lower.contains("not found in kerberos database")
            || lower.contains("server not found")
        {
            format!("the KDC knows no principal {server}: set kerberos= to the server's principal (its hbase.thrift.kerberos.principal, or hbase.thrift.spnego.principal over HTTP)")
        } else if lower.contains("realm")
            || lower.contains("cannot find kdc")
            || lower.contains("cannot contact")
        {
            format!(
                "no KDC for the realm of {server}: check the realm, and krb5.conf (KRB5_CONFIG)"
            )
        } else {
            format!("Kerberos to {server} failed")
        };
        Fault::kept(ErrorKind::Auth, format!("{what} ({})", said.trim())).because(e)
    }

    /// SASL GSSAPI over `stream`: the negotiation, then the security layer the endpoint asks
    /// for (or the strongest the server offers).
    pub(crate) fn negotiate(endpoint: &Endpoint, stream: &mut TcpStream) -> Result<Session, Fault> {
        let mut ctx = context(endpoint, &GSS_MECH_KRB5)?;
        let first = ctx
            .step(None, None)
            .map_err(|e| gss_fault(endpoint, e))?
            .map(|b| b.to_vec())
            .unwrap_or_default();
        let mut hello = message(START, b"GSSAPI");
        hello.extend(message(OK, &first));
        stream.write_all(&hello).map_err(|e| lost(endpoint, e))?;
        loop {
            let (status, payload) = receive(endpoint, stream)?;
            if !ctx.is_complete() {
                let reply = ctx
                    .step(Some(&payload), None)
                    .map_err(|e| gss_fault(endpoint, e))?
                    .map(|b| b.to_vec())
                    .unwrap_or_default();
                send(endpoint, stream, OK, &reply)?;
                continue;
            }
            if status == COMPLETE && payload.is_empty() {
                return Err(Fault::kept(
                    ErrorKind::Auth,
                    String::from("the server ended SASL before it offered a quality of protection"),
                ));
            }
            // The server's offer: [the qualities it takes][its largest message, 3 bytes].
            let offer = ctx.unwrap(&payload).map_err(|e| gss_fault(endpoint, e))?;
            let &[offered, ..] = &offer[..] else {
                return Err(not_sasl("an empty security-layer offer"));
            };
            let chosen = choose(endpoint.qop(), offered)?;
            let reply = [qop_bit(chosen), 0x00, 0xff, 0xff];
            let reply = ctx
                .wrap(false, &reply)
                .map_err(|e| gss_fault(endpoint, e))?;
            send(endpoint, stream, COMPLETE, &reply)?;
            let (status, _) = receive(endpoint, stream)?;
            if status != COMPLETE {
                return Err(not_sasl("no COMPLETE after the security layer"));
            }
            let seal = match chosen {
                Qop::Auth => None,
                Qop::AuthInt => Some(false),
                Qop::AuthConf => Some(true),
            };
            return Ok(Session { ctx, seal });
        }
    }

    /// The quality of protection to take of the server's `offered` bits: the endpoint's, which the
    /// server must offer, or the strongest offered.
    fn choose(wanted: Option<Qop>, offered: u8) -> Result<Qop, Fault> {
        let names = [
            (Qop::AuthConf, "auth-conf"),
            (Qop::AuthInt, "auth-int"),
            (Qop::Auth, "auth"),
        ];
        let offers: Vec<&str> = names
            .iter()
            .filter(|(q, _)| offered & qop_bit(*q) != 0)
            .map(|(_, n)| *n)
            .collect();
        match wanted {
            Some(q) if offered & qop_bit(q) != 0 => Ok(q),
            Some(q) => Err(Fault::kept(
                ErrorKind::Config,
                format!(
                    "the server takes qop {} (hbase.thrift.security.qop), not {}: set qop= to it",
                    offers.join(", "),
                    names.iter().find(|(n, _)| *n == q).map_or("", |(_, s)| s)
                ),
            )),
            None => names
                .iter()
                .map(|(q, _)| *q)
                .find(|q| offered & qop_bit(*q) != 0)
                .ok_or_else(|| not_sasl("a security-layer offer of no quality of protection")),
        }
    }

    fn message(status: u8, payload: &[u8]) -> Vec<u8> {
        let mut m = Vec::with_capacity(5 + payload.len());
        m.push(status);
        m.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        m.extend_from_slice(payload);
        m
    }

    fn send(
        endpoint: &Endpoint,
        stream: &mut TcpStream,
        status: u8,
        payload: &[u8],
    ) -> Result<(), Fault> {
        stream
            .write_all(&message(status, payload))
            .map_err(|e| lost(endpoint, e))
    }

    /// A negotiation message; BAD or ERROR, the server's refusal in its words.
    fn receive(endpoint: &Endpoint, stream: &mut TcpStream) -> Result<(u8, Vec<u8>), Fault> {
        let mut head = [0u8; 5];
        stream
            .read_exact(&mut head)
            .map_err(|e| lost(endpoint, e))?;
        let len = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
        if !(1..=5).contains(&head[0]) || len > MAX_NEGOTIATION {
            return Err(not_sasl("an answer that is not a SASL negotiation message"));
        }
        let mut payload = vec![0u8; len];
        stream
            .read_exact(&mut payload)
            .map_err(|e| lost(endpoint, e))?;
        match head[0] {
            BAD | ERROR => Err(Fault::kept(
                ErrorKind::Auth,
                format!(
                    "the server refused the Kerberos authentication: {}",
                    String::from_utf8_lossy(&payload)
                ),
            )),
            OK | COMPLETE => Ok((head[0], payload)),
            _ => Err(not_sasl("a START from the server")),
        }
    }

    fn lost(endpoint: &Endpoint, e: io::Error) -> Fault {
        let kind = match e.kind() {
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => ErrorKind::Timeout,
            _ => ErrorKind::Mismatch,
        };
        Fault::lost(
            kind,
            format!(
                "the SASL negotiation with {} failed ({e}): does the server speak Kerberos over TCP (hbase.thrift.security.qop, buffered transport)?",
                endpoint.addr()
            ),
        )
        .because(e)
    }

    fn not_sasl(what: &str) -> Fault {
        Fault::lost(
            ErrorKind::Mismatch,
            format!("{what}: the server does not speak SASL (hbase.thrift.security.qop)"),
        )
    }

    /// The `Authorization` header of one HTTP request: a new SPNEGO context's first token.
    pub(crate) fn spnego_header(endpoint: &Endpoint) -> Result<String, Fault> {
        let mut ctx = context(endpoint, &GSS_MECH_SPNEGO)?;
        let token = ctx
            .step(None, None)
            .map_err(|e| gss_fault(endpoint, e))?
            .map(|b| b.to_vec())
            .unwrap_or_default();
        Ok(format!("Negotiate {}", base64(&token)))
    }

    /// Standard base64 with padding (RFC 4648), for the header's token.
    fn base64(bytes: &[u8]) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
        for chunk in bytes.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    /// The halves of a connection over SASL after `session`'s negotiation: `read` and `write`,
    /// clones of one socket.
    pub(crate) fn halves(
        read: TcpStream,
        write: TcpStream,
        session: Session,
        faults: &Faults,
    ) -> super::Halves {
        let session = Arc::new(Mutex::new(session));
        (
            Box::new(MessageRead::new(SaslFrames {
                stream: read,
                session: session.clone(),
                faults: faults.clone(),
            })),
            Box::new(SaslWrite::new(write, session, faults.clone())),
        )
    }

    /// The reading half's SASL frames: each frame's bytes, unwrapped as the session says.
    pub(crate) struct SaslFrames {
        stream: TcpStream,
        session: Arc<Mutex<Session>>,
        faults: Faults,
    }

    impl Messages for SaslFrames {
        fn next_message(&mut self, into: &mut Vec<u8>) -> io::Result<()> {
            let mut len = [0u8; 4];
            self.stream.read_exact(&mut len)?;
            let len = u32::from_be_bytes(len) as usize;
            if len > MAX_ANSWER {
                return Err(self.faults.raise(not_sasl("a SASL frame past 256 MiB")));
            }
            into.resize(len, 0);
            self.stream.read_exact(into)?;
            let mut session = self.session.lock().unwrap_or_else(PoisonError::into_inner);
            if session.seal.is_some() {
                match session.ctx.unwrap(into) {
                    Ok(plain) => *into = plain.to_vec(),
                    Err(e) => {
                        return Err(self.faults.raise(Fault::lost(
                            ErrorKind::Auth,
                            format!("a message the Kerberos context cannot unwrap: {e}"),
                        )))
                    }
                }
            }
            Ok(())
        }
    }

    /// The writing half: a message's bytes gathered, wrapped and sent as one frame when flushed.
    pub(crate) struct SaslWrite {
        stream: TcpStream,
        session: Arc<Mutex<Session>>,
        message: Vec<u8>,
        faults: Faults,
    }

    impl SaslWrite {
        pub(crate) fn new(stream: TcpStream, session: Arc<Mutex<Session>>, faults: Faults) -> Self {
            SaslWrite {
                stream,
                session,
                message: Vec::new(),
                faults,
            }
        }
    }

    impl Write for SaslWrite {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.message.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            let message = std::mem::take(&mut self.message);
            let mut session = self.session.lock().unwrap_or_else(PoisonError::into_inner);
            let body = match session.seal {
                None => message,
                Some(seal) => match session.ctx.wrap(seal, &message) {
                    Ok(wrapped) => wrapped.to_vec(),
                    Err(e) => {
                        return Err(self.faults.raise(Fault::lost(
                            ErrorKind::Auth,
                            format!("the Kerberos context cannot wrap a message: {e}"),
                        )))
                    }
                },
            };
            drop(session);
            let mut frame = Vec::with_capacity(4 + body.len());
            frame.extend_from_slice(&(body.len() as u32).to_be_bytes());
            frame.extend_from_slice(&body);
            self.stream.write_all(&frame)?;
            self.stream.flush()
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn base64_is_rfc_4648s() {
            // RFC 4648 §10's vectors.
            let cases = [
                ("", ""),
                ("f", "Zg=="),
                ("fo", "Zm8="),
                ("foo", "Zm9v"),
                ("foob", "Zm9vYg=="),
                ("fooba", "Zm9vYmE="),
                ("foobar", "Zm9vYmFy"),
            ];
            for (plain, encoded) in cases {
                assert_eq!(base64(plain.as_bytes()), encoded);
            }
        }

        #[test]
        fn the_quality_of_protection_is_the_asked_one_or_the_strongest_offered() {
            assert_eq!(choose(None, 1 | 2 | 4).ok(), Some(Qop::AuthConf));
            assert_eq!(choose(None, 1 | 2).ok(), Some(Qop::AuthInt));
            assert_eq!(choose(Some(Qop::Auth), 1 | 4).ok(), Some(Qop::Auth));
            let refused = choose(Some(Qop::AuthInt), 4).unwrap_err();
            assert!(
                refused.message().contains(
                    "the server takes qop auth-conf (hbase.thrift.security.qop), not auth-int"
                ),
                "{}",
                refused.message()
            );
        }
    }
}

#[cfg(not(feature = "kerberos"))]
mod without {
    use std::net::TcpStream;

    use super::no_feature;
    use crate::endpoint::Endpoint;
    use crate::error::{Fault, Faults};

    /// No Kerberos in this build: no session exists.
    pub(crate) enum Session {}

    pub(crate) fn negotiate(_: &Endpoint, _: &mut TcpStream) -> Result<Session, Fault> {
        Err(no_feature())
    }

    pub(crate) fn spnego_header(_: &Endpoint) -> Result<String, Fault> {
        Err(no_feature())
    }

    pub(crate) fn halves(
        _: TcpStream,
        _: TcpStream,
        session: Session,
        _: &Faults,
    ) -> super::Halves {
        match session {}
    }
}
