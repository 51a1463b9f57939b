//! Thrift's framed transport, each message after its length in 4 bytes big-endian, with the
//! limits the runtime's own (`thrift::transport::TFramedReadTransport`) lacks: a request longer
//! than the server's frame limit is refused before it is sent (the server would close the
//! connection without a word), and an answer frame that cannot be one (a negative length, or one
//! past [`MAX_ANSWER`], such as the `HTTP` of a web server read as a length) is an error
//! rather than an allocation of gigabytes.

use std::io::{self, Read, Write};

use crate::endpoint::MAX_ANSWER;
use crate::error::{ErrorKind, Fault, Faults};
use crate::socket::{MessageRead, Messages};

/// The reading half's frames: each frame's bytes, its length checked first.
pub(crate) struct Frames<R> {
    inner: R,
    faults: Faults,
}

/// The reading half: frames in, their bytes out.
pub(crate) type FramedRead<R> = MessageRead<Frames<R>>;

impl<R: Read> FramedRead<R> {
    pub(crate) fn framed(inner: R, faults: Faults) -> Self {
        MessageRead::new(Frames { inner, faults })
    }
}

impl<R: Read> Messages for Frames<R> {
    fn next_message(&mut self, into: &mut Vec<u8>) -> io::Result<()> {
        let mut len = [0u8; 4];
        self.inner.read_exact(&mut len)?;
        let len = i32::from_be_bytes(len);
        let len = usize::try_from(len)
            .ok()
            .filter(|&n| n <= MAX_ANSWER)
            .ok_or_else(|| {
                self.faults.raise(Fault::lost(
                    ErrorKind::Mismatch,
                    format!(
                        "an answer frame of {len} bytes, which no Thrift2 answer has: the server is not framed, or not a Thrift2 server"
                    ),
                ))
            })?;
        into.resize(len, 0);
        self.inner.read_exact(into)
    }
}

/// The writing half: a message's bytes gathered, then sent as one frame when flushed.
pub(crate) struct FramedWrite<W> {
    inner: W,
    message: Vec<u8>,
    max_frame: usize,
    faults: Faults,
}

impl<W: Write> FramedWrite<W> {
    pub(crate) fn new(inner: W, max_frame: usize, faults: Faults) -> Self {
        FramedWrite {
            inner,
            message: Vec::new(),
            max_frame,
            faults,
        }
    }
}

impl<W: Write> Write for FramedWrite<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.message.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let len = self.message.len();
        if len > self.max_frame {
            self.message.clear();
            return Err(self.faults.raise(Fault::kept(
                ErrorKind::TooLarge,
                format!(
                    "a request of {len} bytes is over the server's frame limit of {} bytes (max_frame; hbase.regionserver.thrift.framed.max_frame_size_in_mb on the server): write fewer rows a batch, or raise both",
                    self.max_frame
                ),
            )));
        }
        // Under the limit, which fits an i32 unless a user set a limit past 2 GiB.
        let header = u32::try_from(len)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a frame past 4 GiB"))?;
        let mut frame = Vec::with_capacity(4 + len);
        frame.extend_from_slice(&header.to_be_bytes());
        frame.append(&mut self.message);
        self.inner.write_all(&frame)?;
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_sent_as_one_frame_and_read_back() {
        let mut wire = Vec::new();
        let mut w = FramedWrite::new(&mut wire, 16, Faults::default());
        w.write_all(b"hello ").unwrap();
        w.write_all(b"world").unwrap();
        w.flush().unwrap();
        assert_eq!(wire, b"\x00\x00\x00\x0bhello world");
        let mut r = FramedRead::framed(&wire[..], Faults::default());
        let mut got = String::new();
        // One frame, then the end of the input.
        assert!(r.read_to_string(&mut got).is_err());
        assert_eq!(got, "hello world");
    }

    #[test]
    fn a_request_over_the_frame_limit_is_refused_before_it_is_sent() {
        let mut wire = Vec::new();
        let faults = Faults::default();
        let mut w = FramedWrite::new(&mut wire, 4, faults.clone());
        w.write_all(b"12345").unwrap();
        let err = w.flush().unwrap_err();
        let fault = faults.take().expect("the refusal is kept for the error");
        assert_eq!(
            (fault.kind(), fault.is_lost()),
            (ErrorKind::TooLarge, false)
        );
        for said in [err.to_string(), fault.message().to_string()] {
            assert!(
                said.contains("a request of 5 bytes is over the server's frame limit of 4 bytes"),
                "{said}"
            );
        }
        drop(w);
        assert!(wire.is_empty());
    }

    #[test]
    fn an_answer_that_is_not_a_frame_is_an_error_not_an_allocation() {
        for wire in [&b"HTTP/1.1 400 Bad Request\r\n"[..], b"\xff\xff\xff\xfe"] {
            let faults = Faults::default();
            let err = FramedRead::framed(wire, faults.clone())
                .read(&mut [0u8; 8])
                .unwrap_err();
            assert!(err.to_string().contains("not framed"), "{err}");
            let fault = faults.take().expect("the mismatch is kept for the error");
            assert_eq!(fault.kind(), ErrorKind::Mismatch);
        }
    }
}
