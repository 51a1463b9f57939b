//! Thrift over HTTP(S), as HBase's Thrift2 server offers it (`hbase.regionserver.thrift.http`):
//! each message POSTed to the server's path, its answer the response's body (the exchange of
//! Thrift's `THttpClient`), on one connection kept alive from request to request.
//!
//! A small HTTP/1.1 client of its own, for what this exchange needs and a general client would
//! hide: one request at a time, the whole body before the next; the connection's deadline on
//! every read and write; a connection the server closed while idle (Jetty closes one after
//! 30 s) found before a request is sent on it, so that a request is never sent on a dead
//! connection and then sent again (a page of a scanner asked for twice would be lost); and
//! each refusal of the server (401, 403, 404, 5xx) said as a [`Fault`] of its own kind.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::endpoint::{Endpoint, Transport, MAX_ANSWER};
use crate::error::{ErrorKind, Fault, Faults};
use crate::kerberos;
use crate::socket::{connect_fault, tcp, MessageRead, Messages, Stream};
use crate::tls;

/// The longest status line or header line read, and the most header bytes of one response.
const MAX_HEAD: usize = 64 << 10;

/// One connection: its TCP socket (for the deadline and the idle check) and the stream read and
/// written, TLS or not.
struct Conn {
    tcp: TcpStream,
    io: BufReader<Box<dyn Stream>>,
    /// Whether a request was sent on it already (so the server may have closed it since).
    used: bool,
}

impl Conn {
    /// Whether the server closed this kept-alive connection while it was idle: the socket is
    /// readable between requests, at its end (or with TLS's closing alert waiting).
    fn closed_while_idle(&self) -> bool {
        if self.tcp.set_nonblocking(true).is_err() {
            return true;
        }
        let closed = !matches!(
            self.tcp.peek(&mut [0u8; 1]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock
        );
        closed || self.tcp.set_nonblocking(false).is_err()
    }
}

/// The HTTP side of a connection to a Thrift2 server: the request being written, the answer
/// read, and the connection itself, made again when the server closed it while idle.
pub(crate) struct Exchange {
    endpoint: Endpoint,
    addr: SocketAddr,
    deadline: Duration,
    /// Every request's head up to its `Content-Length`.
    head: Vec<u8>,
    tls: Option<tls::Config>,
    conn: Option<Conn>,
    request: Vec<u8>,
    answer: Vec<u8>,
    faults: Faults,
}

impl Exchange {
    /// Connects to `endpoint`'s server at `addr` (with TLS for HTTPS, its handshake done here so
    /// that a certificate refused or a server without TLS is an error of the connect).
    pub(crate) fn open(
        endpoint: &Endpoint,
        addr: SocketAddr,
        deadline: Duration,
        faults: Faults,
    ) -> Result<Exchange, Fault> {
        let tls = match endpoint.transport() {
            Transport::Https => Some(tls::Config::new(endpoint)?),
            _ => None,
        };
        let mut exchange = Exchange {
            endpoint: endpoint.clone(),
            addr,
            deadline,
            head: request_head(endpoint),
            tls,
            conn: None,
            request: Vec::new(),
            answer: Vec::new(),
            faults,
        };
        exchange.conn = Some(exchange.dial()?);
        Ok(exchange)
    }

    /// Every read and write bounded by `deadline`, from the next one on.
    pub(crate) fn set_deadline(&mut self, deadline: Duration) -> io::Result<()> {
        self.deadline = deadline;
        if let Some(conn) = &self.conn {
            conn.tcp.set_read_timeout(Some(deadline))?;
            conn.tcp.set_write_timeout(Some(deadline))?;
        }
        Ok(())
    }

    /// A new connection to the server.
    fn dial(&self) -> Result<Conn, Fault> {
        let stream = tcp(&self.endpoint, self.addr, self.deadline)
            .map_err(|e| connect_fault(&self.endpoint, e))?;
        let raw = stream
            .try_clone()
            .map_err(|e| connect_fault(&self.endpoint, e))?;
        let io: Box<dyn Stream> = match &self.tls {
            Some(config) => config.connect(&self.endpoint, stream)?,
            None => Box::new(stream),
        };
        Ok(Conn {
            tcp: raw,
            io: BufReader::new(io),
            used: false,
        })
    }

    /// Sends the request written so far and reads its answer.
    fn send(&mut self) -> io::Result<()> {
        let body = std::mem::take(&mut self.request);
        self.answer.clear();
        if self
            .conn
            .as_ref()
            .is_some_and(|c| c.used && c.closed_while_idle())
        {
            self.conn = None;
        }
        let conn = match &mut self.conn {
            Some(conn) => conn,
            None => match self.dial() {
                Ok(conn) => self.conn.insert(conn),
                Err(fault) => return Err(self.faults.raise(fault)),
            },
        };
        conn.used = true;
        let mut request = Vec::with_capacity(self.head.len() + 32 + body.len());
        request.extend_from_slice(&self.head);
        if self.endpoint.kerberos().is_some() {
            // A token of its own for each request: HBase's servlet checks each on its own.
            match kerberos::spnego_header(&self.endpoint) {
                Ok(header) => {
                    request.extend_from_slice(format!("Authorization: {header}\r\n").as_bytes())
                }
                Err(fault) => return Err(self.faults.raise(fault)),
            }
        }
        request.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        request.extend_from_slice(&body);
        let sent = conn
            .io
            .get_mut()
            .write_all(&request)
            .and_then(|()| conn.io.get_mut().flush());
        let answered = sent
            .map_err(Failed::Io)
            .and_then(|()| read_response(&mut conn.io, &mut self.answer));
        match answered {
            Ok(response) => {
                if response.close {
                    self.conn = None;
                }
                match refusal(&self.endpoint, &response, &self.answer) {
                    None => Ok(()),
                    Some(fault) => {
                        self.answer.clear();
                        Err(self.faults.raise(fault))
                    }
                }
            }
            Err(Failed::Io(e)) => {
                self.conn = None;
                Err(e)
            }
            Err(Failed::Fault(fault)) => {
                self.conn = None;
                Err(self.faults.raise(fault))
            }
        }
    }
}

/// The start of every request: the request line and the headers but `Content-Length`. It
/// accepts text after Thrift: Jetty, which HBase's server runs on, writes no words into an error
/// response that a client does not accept.
fn request_head(endpoint: &Endpoint) -> Vec<u8> {
    let mut head = format!(
        "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-thrift\r\nAccept: application/x-thrift, text/plain;q=0.1\r\nUser-Agent: rowkey-hbase/{}\r\n",
        endpoint.path(),
        endpoint.addr(),
        env!("CARGO_PKG_VERSION")
    );
    for (name, value) in endpoint.headers() {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(user) = endpoint.proxy_user() {
        head.push_str(&format!("doAs: {user}\r\n"));
    }
    head.into_bytes()
}

/// What a response said besides its body.
#[derive(Debug)]
struct Response {
    status: u16,
    /// Whether the server closes the connection after it.
    close: bool,
    /// `WWW-Authenticate`'s value, if any.
    authenticate: Option<String>,
}

/// A response that could not be read: the connection failed, or what came is not HTTP.
enum Failed {
    Io(io::Error),
    Fault(Fault),
}

impl From<io::Error> for Failed {
    fn from(e: io::Error) -> Failed {
        Failed::Io(e)
    }
}

/// Reads one response from `io`: its status and headers, and its body into `body`.
fn read_response(io: &mut impl BufRead, body: &mut Vec<u8>) -> Result<Response, Failed> {
    let not_http = |begins: &[u8]| {
        Failed::Fault(Fault::lost(
            ErrorKind::Mismatch,
            format!(
                "the answer is not HTTP (it begins {:?}): the server speaks Thrift over TCP (transport=buffered or framed), or is not a Thrift2 server",
                String::from_utf8_lossy(&begins[..begins.len().min(40)])
            ),
        ))
    };
    // Before a line is read: an answer of Thrift over TCP may hold no line break at all.
    let begins = io.fill_buf()?;
    if !begins.is_empty() && !b"HTTP/1.".starts_with(&begins[..begins.len().min(7)]) {
        return Err(not_http(begins));
    }
    let status_line = read_line(io)?;
    let status = status_line
        .strip_prefix("HTTP/1.")
        .and_then(|rest| rest.get(2..5))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| not_http(status_line.as_bytes()))?;
    let mut response = Response {
        status,
        close: status_line.starts_with("HTTP/1.0"),
        authenticate: None,
    };
    let (mut length, mut chunked, mut head) = (None, false, status_line.len());
    loop {
        let line = read_line(io)?;
        head += line.len();
        if line.is_empty() {
            break;
        }
        if head > MAX_HEAD {
            return Err(not_thrift("a response head past 64 KiB"));
        }
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                length = Some(
                    value
                        .parse::<usize>()
                        .map_err(|_| not_thrift("a Content-Length that is not a number"))?,
                );
            }
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "connection" => response.close |= value.eq_ignore_ascii_case("close"),
            "www-authenticate" => response.authenticate = Some(value.to_string()),
            _ => {}
        }
    }
    if chunked {
        loop {
            let size = read_line(io)?;
            let size = size.split(';').next().unwrap_or("").trim();
            let size = usize::from_str_radix(size, 16)
                .map_err(|_| not_thrift("a chunk size that is not hex"))?;
            if size == 0 {
                // Trailers, to the empty line.
                while !read_line(io)?.is_empty() {}
                break;
            }
            read_body(io, body, size)?;
            if !read_line(io)?.is_empty() {
                return Err(not_thrift("a chunk longer than its size"));
            }
        }
    } else if let Some(length) = length {
        read_body(io, body, length)?;
    } else {
        // Neither: the body runs to the end of the connection.
        response.close = true;
        (&mut *io).take(MAX_ANSWER as u64 + 1).read_to_end(body)?;
        if body.len() > MAX_ANSWER {
            return Err(too_long());
        }
    }
    Ok(response)
}

/// `n` more bytes of the body.
fn read_body(io: &mut impl Read, body: &mut Vec<u8>, n: usize) -> Result<(), Failed> {
    if body.len().saturating_add(n) > MAX_ANSWER {
        return Err(too_long());
    }
    let at = body.len();
    body.resize(at + n, 0);
    io.read_exact(&mut body[at..])?;
    Ok(())
}

/// A line of the head, without its `\r\n`; the end of the connection before one is an error.
fn read_line(io: &mut impl BufRead) -> Result<String, Failed> {
    let mut line = Vec::new();
    (&mut *io)
        .take(MAX_HEAD as u64)
        .read_until(b'\n', &mut line)?;
    if line.is_empty() {
        return Err(Failed::Io(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed the connection before its answer",
        )));
    }
    if line.last() != Some(&b'\n') {
        return Err(not_thrift(
            "a line of the response head past 64 KiB, or cut",
        ));
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}

fn not_thrift(what: &str) -> Failed {
    Failed::Fault(Fault::lost(
        ErrorKind::Mismatch,
        format!("an HTTP answer that no Thrift2 server gives: {what}"),
    ))
}

fn too_long() -> Failed {
    Failed::Fault(Fault::lost(
        ErrorKind::Mismatch,
        format!(
            "an answer past {} MiB, which no Thrift2 answer is",
            MAX_ANSWER >> 20
        ),
    ))
}

/// The fault of a response whose status is not a success, in words that say what to change.
fn refusal(endpoint: &Endpoint, response: &Response, body: &[u8]) -> Option<Fault> {
    let status = response.status;
    if (200..300).contains(&status) {
        return None;
    }
    let said = server_message(body);
    let said = if said.is_empty() {
        String::new()
    } else {
        format!(": {said}")
    };
    Some(match status {
        401 => {
            let asks = response.authenticate.as_deref().unwrap_or("");
            if let Some(principal) = endpoint.kerberos() {
                Fault::kept(
                    ErrorKind::Auth,
                    format!("HTTP 401{said}: the server refused this client's Kerberos ticket for {principal} (SPNEGO): is it the server's hbase.thrift.spnego.principal, of the server's realm?"),
                )
            } else if asks.to_ascii_lowercase().starts_with("negotiate") {
                Fault::kept(
                    ErrorKind::Auth,
                    format!("HTTP 401{said}: the server asks for Kerberos (SPNEGO, `WWW-Authenticate: {asks}`): set kerberos= to its principal (hbase.thrift.spnego.principal, often HTTP/_HOST@REALM)"),
                )
            } else {
                Fault::kept(
                    ErrorKind::Auth,
                    format!("HTTP 401{said}: the server asks for credentials (`WWW-Authenticate: {asks}`); add them as a header (header=Authorization:...)"),
                )
            }
        }
        403 => Fault::kept(
            ErrorKind::Auth,
            format!("HTTP 403{said}: the server refuses this user"),
        ),
        404 => Fault::kept(
            ErrorKind::Config,
            format!(
                "HTTP 404{said}: nothing at path {} (HBase's Thrift2 server answers at every path: a gateway in front of it wants another path=)",
                endpoint.path()
            ),
        ),
        413 | 431 => Fault::kept(
            ErrorKind::TooLarge,
            format!("HTTP {status}{said}: the request is over the server's limit: write fewer rows a batch"),
        ),
        502..=504 => Fault::lost(
            ErrorKind::Closed,
            format!("HTTP {status}{said}: a gateway in front of the Thrift2 server could not reach it"),
        ),
        _ if said.contains("proxyuser") || said.contains("AuthorizationException") => Fault::kept(
            ErrorKind::Auth,
            format!(
                "HTTP {status}{said}: the server does not let this endpoint act for {} (do_as): it needs hbase.thrift.support.proxyuser = true and its own user allowed by hadoop.proxyuser.USER.hosts and .groups",
                endpoint.proxy_user().unwrap_or("another user")
            ),
        ),
        _ => Fault::kept(
            ErrorKind::HBase,
            format!("HTTP {status}{said} (the Thrift2 server's own error; its log has the cause)"),
        ),
    })
}

/// The server's words in an error body: an HTML page's title (Jetty's `Error 500 ...`), or the
/// first line of text, at most 300 characters.
fn server_message(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(16 << 10)]);
    let line = match (text.find("<title>"), text.find("</title>")) {
        (Some(a), Some(b)) if a + 7 <= b => text[a + 7..b].to_string(),
        _ => text.lines().next().unwrap_or("").to_string(),
    };
    let mut line = line.trim();
    // Jetty's `Error 500 ` (a page's title) and `HTTP ERROR 500 ` (text): the status is said.
    for prefix in ["HTTP ERROR ", "Error "] {
        if let Some(rest) = line.strip_prefix(prefix) {
            line = rest
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start();
        }
    }
    line.chars().take(300).collect()
}

/// The answers of a Thrift connection over HTTP, each the answer the last flush read.
pub(crate) struct Answers(Arc<Mutex<Exchange>>);

/// The reading half of a Thrift connection over HTTP: the answer of the last request.
pub(crate) type HttpRead = MessageRead<Answers>;

impl HttpRead {
    pub(crate) fn answers(exchange: Arc<Mutex<Exchange>>) -> HttpRead {
        MessageRead::new(Answers(exchange))
    }
}

impl Messages for Answers {
    fn next_message(&mut self, into: &mut Vec<u8>) -> io::Result<()> {
        // Taken whole: one lock an answer, not one a field; the buffers change places.
        let mut exchange = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::swap(into, &mut exchange.answer);
        Ok(())
    }
}

/// The writing half: a message's bytes gathered, then sent as one request when flushed, which
/// reads its answer for the reading half.
pub(crate) struct HttpWrite {
    exchange: Arc<Mutex<Exchange>>,
}

impl HttpWrite {
    pub(crate) fn new(exchange: Arc<Mutex<Exchange>>) -> HttpWrite {
        HttpWrite { exchange }
    }
}

impl Write for HttpWrite {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut exchange = self.exchange.lock().unwrap_or_else(PoisonError::into_inner);
        exchange.request.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.exchange
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(wire: &[u8]) -> Result<(Response, Vec<u8>), String> {
        let mut body = Vec::new();
        match read_response(&mut BufReader::new(wire), &mut body) {
            Ok(r) => Ok((r, body)),
            Err(Failed::Io(e)) => Err(format!("io: {e}")),
            Err(Failed::Fault(f)) => Err(format!("{:?}: {}", f.kind(), f.message())),
        }
    }

    #[test]
    fn a_response_body_is_read_by_its_length_or_its_chunks() {
        let cases: [(&[u8], &[u8], bool); 4] = [
            (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", b"hello", false),
            (
                b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;x=y\r\nhel\r\n2\r\nlo\r\n0\r\nTrailer: 1\r\n\r\n",
                b"hello",
                false,
            ),
            (b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi", b"hi", true),
            (b"HTTP/1.0 200 OK\r\n\r\nto the end", b"to the end", true),
        ];
        for (wire, want, close) in cases {
            let (response, body) = read(wire).unwrap();
            assert_eq!(
                (response.status, &body[..], response.close),
                (200, want, close)
            );
        }
    }

    #[test]
    fn an_answer_that_is_not_http_or_is_cut_says_so() {
        let cases: [(&[u8], &str); 5] = [
            (
                b"\x80\x01\x00\x02\x00\x00\x00\x0btableExists",
                "Mismatch: the answer is not HTTP",
            ),
            (
                b"",
                "io: the server closed the connection before its answer",
            ),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello", "io:"),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
                "Content-Length that is not a number",
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "chunk size that is not hex",
            ),
        ];
        for (wire, says) in cases {
            let err = read(wire).err().unwrap_or_default();
            assert!(
                err.starts_with(says) || err.contains(says),
                "{wire:?}: {err}"
            );
        }
        let huge = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n",
            MAX_ANSWER + 1
        );
        assert!(read(huge.as_bytes())
            .unwrap_err()
            .contains("an answer past 256 MiB"));
    }

    #[test]
    fn a_refusal_names_what_to_change() {
        let endpoint = Endpoint::http("h:1").with_proxy_user("alice");
        let jetty = b"<html><head><title>Error 500 javax.servlet.ServletException: Support for proxyuser is not configured</title></head></html>";
        let jetty_text = b"HTTP ERROR 500 javax.servlet.ServletException: Support for proxyuser is not configured\nURI: /\n";
        // The status, `WWW-Authenticate`, the body; the error's kind and words.
        type Case<'a> = (u16, Option<&'a str>, &'a [u8], ErrorKind, &'a str);
        let cases: [Case; 7] = [
            (401, Some("Negotiate"), b"", ErrorKind::Auth, "asks for Kerberos (SPNEGO"),
            (403, None, b"Forbidden\n", ErrorKind::Auth, "HTTP 403: Forbidden: the server refuses"),
            (404, None, b"", ErrorKind::Config, "nothing at path /"),
            (500, None, jetty, ErrorKind::Auth, "HTTP 500: javax.servlet.ServletException: Support for proxyuser is not configured: the server does not let this endpoint act for alice (do_as)"),
            (500, None, jetty_text, ErrorKind::Auth, "HTTP 500: javax.servlet.ServletException: Support for proxyuser is not configured: the server"),
            (503, None, b"", ErrorKind::Closed, "could not reach it"),
            (500, None, b"boom\nstack", ErrorKind::HBase, "HTTP 500: boom (the Thrift2 server's own error"),
        ];
        for (status, authenticate, body, kind, says) in cases {
            let response = Response {
                status,
                close: false,
                authenticate: authenticate.map(str::to_string),
            };
            let fault = refusal(&endpoint, &response, body).expect("a refusal");
            assert_eq!(fault.kind(), kind, "{status}");
            assert!(
                fault.message().contains(says),
                "{status}: {}",
                fault.message()
            );
            assert_eq!(fault.is_lost(), status == 503, "{status}");
        }
        let ok = Response {
            status: 200,
            close: false,
            authenticate: None,
        };
        assert!(refusal(&endpoint, &ok, b"").is_none());
    }

    #[test]
    fn every_request_carries_the_endpoints_path_headers_and_proxy_user() {
        let endpoint = Endpoint::http("h:9090")
            .with_path("/thrift")
            .with_header("X-Team", "rows")
            .with_proxy_user("alice");
        let head = String::from_utf8(request_head(&endpoint)).unwrap();
        assert!(
            head.starts_with("POST /thrift HTTP/1.1\r\nHost: h:9090\r\n"),
            "{head}"
        );
        for line in [
            "Content-Type: application/x-thrift\r\n",
            "X-Team: rows\r\n",
            "doAs: alice\r\n",
        ] {
            assert!(head.contains(line), "{head}");
        }
    }
}
