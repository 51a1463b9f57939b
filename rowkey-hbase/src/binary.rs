//! Thrift's binary protocol, read from a buffer of our own: what every answer of a Thrift2 server
//! in the binary protocol (its default) is read with, whatever the transport under it (buffered
//! TCP, framed, HTTP, SASL).
//!
//! The Thrift runtime's `TBinaryInputProtocol` over its `TBufferedReadTransport` takes each
//! number through the transport's `Read` (a call and a copy a field), zeroes every byte string
//! before reading into it, and trusts a length from the wire with its allocation. A read of
//! 1,000,000 rows spent more than half of its client's time there. This reader keeps 64 KiB of
//! the stream, takes numbers out of it in place, copies a byte string out once, and grows a long
//! one as its bytes arrive (a length no answer holds is an error when the stream ends, not an
//! allocation of that length). The bytes mean what they mean to the runtime's reader; a test
//! holds the two to the same answers.

use std::io::{self, Read};

use thrift::protocol::{
    TFieldIdentifier, TInputProtocol, TListIdentifier, TMapIdentifier, TMessageIdentifier,
    TMessageType, TSetIdentifier, TStructIdentifier, TType,
};
use thrift::{ProtocolError, ProtocolErrorKind};

/// The bytes of the stream kept at once.
const BUFFER: usize = 64 * 1024;
/// The most of a byte string's length taken on trust before its bytes arrive.
const TRUSTED: usize = 1 << 20;
/// The most elements a list, set or map of an answer holds: the generated code allocates room
/// for the size it is given, so a negative or absurd one is an error here (a page of rows holds
/// its page size, a row its cells).
const MAX_ELEMENTS: i32 = 1 << 24;

/// Thrift's strict binary protocol read from `source` through a buffer.
pub(crate) struct BinaryInput<R> {
    source: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
}

impl<R: Read> BinaryInput<R> {
    pub(crate) fn new(source: R) -> Self {
        BinaryInput {
            source,
            buf: vec![0; BUFFER].into_boxed_slice(),
            pos: 0,
            end: 0,
        }
    }

    /// At least `n` bytes (at most [`BUFFER`]) held from `pos` on, read from the source if need be.
    #[inline(always)]
    fn fill(&mut self, n: usize) -> io::Result<()> {
        if self.end - self.pos >= n {
            return Ok(());
        }
        self.refill(n)
    }

    /// [`fill`](Self::fill) when the bytes held are too few: what is left moves to the front, and
    /// the source fills the rest.
    #[inline(never)]
    fn refill(&mut self, n: usize) -> io::Result<()> {
        self.buf.copy_within(self.pos..self.end, 0);
        self.end -= self.pos;
        self.pos = 0;
        while self.end < n {
            match self.source.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the answer ended before its last field",
                    ))
                }
                Ok(got) => self.end += got,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The next `N` bytes.
    #[inline]
    fn take<const N: usize>(&mut self) -> thrift::Result<[u8; N]> {
        self.fill(N)?;
        let mut bytes = [0; N];
        bytes.copy_from_slice(&self.buf[self.pos..self.pos + N]);
        self.pos += N;
        Ok(bytes)
    }

    /// A length or a size from the wire, refused when negative.
    fn size(&mut self) -> thrift::Result<usize> {
        let n = i32::from_be_bytes(self.take()?);
        usize::try_from(n).map_err(|_| {
            protocol_error(
                ProtocolErrorKind::NegativeSize,
                format!("a negative size: {n}"),
            )
        })
    }

    /// The element count of a list, set or map, refused when negative or absurd.
    fn elements(&mut self) -> thrift::Result<i32> {
        let n = self.read_i32()?;
        if (0..=MAX_ELEMENTS).contains(&n) {
            Ok(n)
        } else {
            Err(protocol_error(
                ProtocolErrorKind::SizeLimit,
                format!("a collection of {n} elements"),
            ))
        }
    }

    fn field_type(&mut self) -> thrift::Result<TType> {
        let [b] = self.take()?;
        field_type(b)
    }
}

fn protocol_error(kind: ProtocolErrorKind, message: String) -> thrift::Error {
    thrift::Error::Protocol(ProtocolError { kind, message })
}

/// The type a byte names, as the runtime's binary protocol reads it.
fn field_type(b: u8) -> thrift::Result<TType> {
    Ok(match b {
        0x00 => TType::Stop,
        0x01 => TType::Void,
        0x02 => TType::Bool,
        0x03 => TType::I08,
        0x04 => TType::Double,
        0x06 => TType::I16,
        0x08 => TType::I32,
        0x0A => TType::I64,
        0x0B => TType::String,
        0x0C => TType::Struct,
        0x0D => TType::Map,
        0x0E => TType::Set,
        0x0F => TType::List,
        0x10 => TType::Utf8,
        0x11 => TType::Utf16,
        other => {
            return Err(protocol_error(
                ProtocolErrorKind::InvalidData,
                format!("cannot convert {other} to TType"),
            ))
        }
    })
}

impl<R: Read> TInputProtocol for BinaryInput<R> {
    fn read_message_begin(&mut self) -> thrift::Result<TMessageIdentifier> {
        let head: [u8; 4] = self.take()?;
        // Strict: the version first (0x8001), then the message type.
        if head[0..2] != [0x80, 0x01] {
            return Err(protocol_error(
                ProtocolErrorKind::BadVersion,
                format!("received bad version: {:?}", &head[0..2]),
            ));
        }
        let message_type = TMessageType::try_from(head[3])?;
        let name = self.read_string()?;
        let sequence_number = self.read_i32()?;
        Ok(TMessageIdentifier::new(name, message_type, sequence_number))
    }

    fn read_message_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_struct_begin(&mut self) -> thrift::Result<Option<TStructIdentifier>> {
        Ok(None)
    }

    fn read_struct_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_field_begin(&mut self) -> thrift::Result<TFieldIdentifier> {
        let field_type = self.field_type()?;
        let id = match field_type {
            TType::Stop => 0,
            _ => self.read_i16()?,
        };
        Ok(TFieldIdentifier::new::<Option<String>, String, i16>(
            None, field_type, id,
        ))
    }

    fn read_field_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_bool(&mut self) -> thrift::Result<bool> {
        Ok(self.read_i8()? != 0)
    }

    fn read_bytes(&mut self) -> thrift::Result<Vec<u8>> {
        let len = self.size()?;
        let held = (self.end - self.pos).min(len);
        let mut bytes = Vec::with_capacity(len.min(TRUSTED).max(held));
        bytes.extend_from_slice(&self.buf[self.pos..self.pos + held]);
        self.pos += held;
        while bytes.len() < len {
            let next = (len - bytes.len()).min(BUFFER);
            self.fill(next)?;
            bytes.extend_from_slice(&self.buf[self.pos..self.pos + next]);
            self.pos += next;
        }
        Ok(bytes)
    }

    fn read_i8(&mut self) -> thrift::Result<i8> {
        Ok(i8::from_be_bytes(self.take()?))
    }

    fn read_i16(&mut self) -> thrift::Result<i16> {
        Ok(i16::from_be_bytes(self.take()?))
    }

    fn read_i32(&mut self) -> thrift::Result<i32> {
        Ok(i32::from_be_bytes(self.take()?))
    }

    fn read_i64(&mut self) -> thrift::Result<i64> {
        Ok(i64::from_be_bytes(self.take()?))
    }

    fn read_double(&mut self) -> thrift::Result<f64> {
        Ok(f64::from_be_bytes(self.take()?))
    }

    fn read_string(&mut self) -> thrift::Result<String> {
        String::from_utf8(self.read_bytes()?).map_err(From::from)
    }

    fn read_list_begin(&mut self) -> thrift::Result<TListIdentifier> {
        let element_type = self.field_type()?;
        let size = self.elements()?;
        Ok(TListIdentifier::new(element_type, size))
    }

    fn read_list_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_set_begin(&mut self) -> thrift::Result<TSetIdentifier> {
        let element_type = self.field_type()?;
        let size = self.elements()?;
        Ok(TSetIdentifier::new(element_type, size))
    }

    fn read_set_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_map_begin(&mut self) -> thrift::Result<TMapIdentifier> {
        let key_type = self.field_type()?;
        let value_type = self.field_type()?;
        let size = self.elements()?;
        Ok(TMapIdentifier::new(key_type, value_type, size))
    }

    fn read_map_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_byte(&mut self) -> thrift::Result<u8> {
        let [b] = self.take()?;
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hbase::{TColumnValue, TResult};
    use thrift::protocol::{
        TBinaryInputProtocol, TBinaryOutputProtocol, TOutputProtocol, TSerializable,
    };
    use thrift::transport::TBufferChannel;

    /// A source that gives at most `step` bytes a read, to cross every buffer edge.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// xorshift, for the answers' contents.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn bytes(state: &mut u64, max: u64) -> Vec<u8> {
        (0..next(state) % max).map(|_| next(state) as u8).collect()
    }

    /// A page of rows as a Thrift2 server answers `getScannerRows`, with every optional field.
    fn page(state: &mut u64, rows: usize, value_len: u64) -> Vec<TResult> {
        (0..rows)
            .map(|_| TResult {
                row: Some(bytes(state, 40)),
                column_values: (0..next(state) % 4)
                    .map(|_| TColumnValue {
                        family: bytes(state, 4),
                        qualifier: bytes(state, 12),
                        value: bytes(state, value_len),
                        timestamp: (next(state) % 2 == 0).then(|| next(state) as i64),
                        tags: (next(state) % 3 == 0).then(|| bytes(state, 5)),
                        type_: (next(state) % 2 == 0).then(|| next(state) as i8),
                    })
                    .collect(),
                stale: (next(state) % 2 == 0).then_some(true),
                partial: Some(false),
            })
            .collect()
    }

    /// A message of `results`, as the server writes it.
    fn written(results: &[TResult]) -> Vec<u8> {
        let mut channel = TBufferChannel::with_capacity(0, 1 << 24);
        let mut out = TBinaryOutputProtocol::new(&mut channel, true);
        out.write_message_begin(&TMessageIdentifier::new(
            "getScannerRows",
            TMessageType::Reply,
            7,
        ))
        .unwrap();
        out.write_list_begin(&TListIdentifier::new(TType::Struct, results.len() as i32))
            .unwrap();
        for r in results {
            r.write_to_out_protocol(&mut out).unwrap();
        }
        out.write_list_end().unwrap();
        out.write_message_end().unwrap();
        out.flush().unwrap();
        channel.write_bytes()
    }

    fn read_page(
        input: &mut dyn TInputProtocol,
    ) -> thrift::Result<(TMessageIdentifier, Vec<TResult>)> {
        let message = input.read_message_begin()?;
        let list = input.read_list_begin()?;
        let results = (0..list.size)
            .map(|_| TResult::read_from_in_protocol(input))
            .collect::<thrift::Result<Vec<_>>>()?;
        input.read_list_end()?;
        input.read_message_end()?;
        Ok((message, results))
    }

    #[test]
    fn answers_read_as_the_thrift_runtime_reads_them_across_every_buffer_edge() {
        let mut state = 0x2545_F491_4F6C_DD1D;
        for (round, (rows, value_len)) in [(0, 1), (1, 1), (50, 100), (2_000, 40), (3, 200_000)]
            .into_iter()
            .enumerate()
        {
            let results = page(&mut state, rows, value_len);
            let bytes = written(&results);
            let mut channel = TBufferChannel::with_capacity(bytes.len(), 0);
            channel.set_readable_bytes(&bytes);
            let theirs = read_page(&mut TBinaryInputProtocol::new(channel, true)).unwrap();
            assert_eq!(
                theirs.1, results,
                "round {round}: the runtime's own reading"
            );
            for step in [1, 3, 7, 4096, usize::MAX] {
                let source = Trickle {
                    bytes: &bytes,
                    step,
                };
                let ours = read_page(&mut BinaryInput::new(source)).unwrap();
                assert_eq!(ours.0, theirs.0, "round {round}, step {step}");
                assert_eq!(ours.1, theirs.1, "round {round}, step {step}");
            }
        }
    }

    #[test]
    fn a_cut_or_garbled_answer_is_an_error_without_a_panic_or_its_claimed_allocation() {
        let mut state = 99;
        let bytes = written(&page(&mut state, 20, 30));
        for cut in 0..bytes.len() {
            let source = Trickle {
                bytes: &bytes[..cut],
                step: 5,
            };
            assert!(
                read_page(&mut BinaryInput::new(source)).is_err(),
                "cut at {cut}"
            );
        }
        // A byte string that claims 2 GiB and holds 3 bytes.
        let claim = [0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3];
        let mut input = BinaryInput::new(&claim[..]);
        assert!(input.read_bytes().is_err());
        let negative = [0xFF, 0xFF, 0xFF, 0xFE];
        let e = BinaryInput::new(&negative[..]).read_bytes().unwrap_err();
        assert!(
            matches!(&e, thrift::Error::Protocol(p) if p.kind == ProtocolErrorKind::NegativeSize),
            "{e}"
        );
        let e = BinaryInput::new(&[0x80, 0x02, 0, 2][..])
            .read_message_begin()
            .unwrap_err();
        assert!(
            matches!(&e, thrift::Error::Protocol(p) if p.kind == ProtocolErrorKind::BadVersion),
            "{e}"
        );
        // A list of -1 and of 2^31 - 1 rows: refused before the generated code makes room.
        for size in [[0xFF; 4], [0x7F, 0xFF, 0xFF, 0xFF]] {
            let bytes = [&[0x0C][..], &size].concat();
            let e = BinaryInput::new(&bytes[..]).read_list_begin().unwrap_err();
            assert!(
                matches!(&e, thrift::Error::Protocol(p) if p.kind == ProtocolErrorKind::SizeLimit),
                "{e}"
            );
        }
        for garbage in 0..=255u8 {
            let bytes = [garbage; 64];
            let _ = read_page(&mut BinaryInput::new(&bytes[..]));
        }
    }
}
