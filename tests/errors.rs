//! Bad input gets a clear error naming the key, the field and the problem: never a panic, never a
//! silently truncated value.

use rowkey::{DecodeErrorKind, EncodeErrorKind, RowKey};

#[derive(RowKey, Debug, PartialEq)]
struct Event {
    id: u32,
    #[rowkey(width = 2)]
    shard: u32,
    #[rowkey(width = 4)]
    tag: String,
    name: String,
    flag: bool,
    kind: Kind,
    c: char,
    o: Option<u8>,
    host: String,
}

#[derive(RowKey, Debug, PartialEq)]
enum Kind {
    A = 1,
    B = 2,
}

fn event() -> Event {
    Event {
        id: 1,
        shard: 2,
        tag: "t".into(),
        name: "n".into(),
        flag: true,
        kind: Kind::B,
        c: 'x',
        o: Some(3),
        host: "h".into(),
    }
}

/// Offsets of the fields in `event()`'s key.
const FLAG: usize = 4 + 2 + 4 + 3;
const KIND: usize = FLAG + 1;
const CHAR: usize = KIND + 1;
const OPT: usize = CHAR + 4;
const HOST: usize = OPT + 2;

#[test]
fn short_buffer_reports_what_the_key_needs() {
    let mut buf = [0u8; 10];
    let err = event().encode_into(&mut buf).unwrap_err();
    assert_eq!(
        err.kind(),
        EncodeErrorKind::BufferTooSmall {
            needed: HOST + 1,
            available: 10
        }
    );
    assert_eq!(err.key(), "Event");
    assert!(err.to_string().contains("needs 22"), "{err}");
    let mut exact = vec![0u8; event().encoded_len()];
    assert_eq!(event().encode_into(&mut exact).unwrap(), HOST + 1);
}

#[test]
fn value_too_wide_for_its_width_is_refused() {
    let err = Event {
        shard: 0x1_0000,
        ..event()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(err.kind(), EncodeErrorKind::TooWide { width: 2 });
    assert_eq!((err.key(), err.field()), ("Event", "shard"));
    let err = Event {
        tag: "toolong".into(),
        ..event()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(err.kind(), EncodeErrorKind::TooWide { width: 4 });
    assert_eq!(err.field(), "tag");
    assert_eq!(
        err.to_string(),
        "cannot encode row key: `Event.tag`: value does not fit the field's width of 4"
    );
}

#[test]
fn padded_content_ending_in_the_pad_byte_is_refused() {
    let err = Event {
        tag: "a\0".into(),
        ..event()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(err.kind(), EncodeErrorKind::EndsWithPad);
    assert_eq!(err.field(), "tag");
}

#[test]
fn key_longer_than_the_hbase_row_limit_is_refused() {
    let long = "x".repeat(rowkey::limits::HBASE);
    let err = Event {
        host: long,
        ..event()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(
        err.kind(),
        EncodeErrorKind::RowTooLong {
            len: HOST + rowkey::limits::HBASE,
            max: 32767
        }
    );
    let fits = "x".repeat(rowkey::limits::HBASE - HOST);
    assert_eq!(
        Event {
            host: fits,
            ..event()
        }
        .to_vec()
        .unwrap()
        .len(),
        32767
    );
}

/// A sort key of DynamoDB's limit: `max_len` sets the row limit of the layout.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(max_len = 1024)]
struct SortKey {
    tenant: u32,
    path: String,
}

#[test]
fn key_longer_than_its_max_len_is_refused() {
    assert_eq!(SortKey::ROW_LIMIT, rowkey::limits::DYNAMODB_SORT_KEY);
    assert_eq!(Event::ROW_LIMIT, rowkey::limits::HBASE);
    // The tenant's 4 bytes and the path to the end of the key: 1,020 bytes of path fit.
    for (path_len, fits) in [(1_019, true), (1_020, true), (1_021, false), (5_000, false)] {
        let key = SortKey {
            tenant: 7,
            path: "p".repeat(path_len),
        };
        let mut buf = vec![0u8; 8_000];
        let (vec, into) = (key.to_vec(), key.encode_into(&mut buf));
        if fits {
            assert_eq!(vec.unwrap().len(), 4 + path_len);
            assert_eq!(into.unwrap(), 4 + path_len);
        } else {
            let too_long = EncodeErrorKind::RowTooLong {
                len: 4 + path_len,
                max: 1_024,
            };
            assert_eq!(vec.unwrap_err().kind(), too_long);
            assert_eq!(into.unwrap_err().kind(), too_long);
        }
    }
}

fn decode_err(bytes: &[u8]) -> rowkey::DecodeError {
    Event::decode(bytes).unwrap_err()
}

#[test]
fn truncated_keys_are_refused_at_every_length() {
    let key = event().to_vec().unwrap();
    // Every proper prefix but the one ending exactly before the raw last field's content.
    for n in 0..key.len() {
        let r = Event::decode(&key[..n]);
        if n == HOST {
            assert_eq!(r.unwrap().host, "");
        } else {
            assert!(r.is_err(), "prefix of {n} bytes decoded");
        }
    }
    let err = decode_err(&key[..3]);
    assert_eq!(
        err.kind(),
        DecodeErrorKind::Truncated {
            needed: 4,
            available: 3
        }
    );
    assert_eq!((err.field(), err.offset()), ("id", 0));
}

#[derive(RowKey, Debug, PartialEq)]
struct Fixed {
    a: u16,
    b: u8,
}

#[test]
fn trailing_bytes_are_refused() {
    let err = Fixed::decode(&[0, 1, 2, 3, 4]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 2 });
    assert_eq!((err.key(), err.offset()), ("Fixed", 3));
}

#[test]
fn bad_escapes_and_missing_terminators_are_refused() {
    let mut key = event().to_vec().unwrap();
    // name is "n" at offset 10: 6E 00 01. Make the escape 00 07.
    key[12] = 0x07;
    let err = decode_err(&key);
    assert_eq!(err.kind(), DecodeErrorKind::BadEscape { found: 0x07 });
    assert_eq!((err.field(), err.offset()), ("name", 12));
    let unterminated = [0, 0, 0, 1, 0, 2, b't', 0, 0, 0, b'n', b'n'];
    assert_eq!(
        decode_err(&unterminated).kind(),
        DecodeErrorKind::Unterminated
    );
}

#[test]
fn invalid_utf8_is_refused() {
    let mut key = event().to_vec().unwrap();
    key[HOST] = 0xFF;
    let err = decode_err(&key);
    assert_eq!(err.kind(), DecodeErrorKind::InvalidUtf8);
    assert_eq!((err.field(), err.offset()), ("host", HOST));
}

#[test]
fn unknown_discriminants_and_invalid_scalars_are_refused() {
    let key = event().to_vec().unwrap();
    let with = |at: usize, b: u8| {
        let mut k = key.clone();
        k[at] = b;
        decode_err(&k)
    };
    assert_eq!(
        with(KIND, 9).kind(),
        DecodeErrorKind::UnknownDiscriminant {
            value: 9,
            enum_name: "Kind"
        }
    );
    assert_eq!(
        (with(KIND, 9).field(), with(KIND, 9).offset()),
        ("kind", KIND)
    );
    assert_eq!(with(FLAG, 2).kind(), DecodeErrorKind::InvalidBool(2));
    assert_eq!(with(OPT, 7).kind(), DecodeErrorKind::InvalidOptionTag(7));
    assert_eq!(
        with(CHAR + 2, 0xD8).kind(),
        DecodeErrorKind::InvalidChar(0xD878)
    );
    assert_eq!(
        with(CHAR, 0x11).kind(),
        DecodeErrorKind::InvalidChar(0x1100_0078)
    );
    assert_eq!(
        with(KIND, 9).to_string(),
        format!("cannot decode row key: `Event.kind`: 9 is not the discriminant of any variant of `Kind` (at byte {KIND})")
    );
}

#[test]
fn errors_implement_std_error() {
    fn is_error<E: std::error::Error + Send + Sync + 'static>(_: &E) {}
    is_error(&decode_err(&[]));
    is_error(
        &Event {
            shard: 1 << 20,
            ..event()
        }
        .to_vec()
        .unwrap_err(),
    );
}

#[test]
fn an_enum_decoded_alone_names_itself() {
    let err = Kind::decode(&[0]).unwrap_err();
    assert_eq!(err.key(), "Kind");
    assert_eq!(Kind::decode(&[2]).unwrap(), Kind::B);
}

/// Layouts whose keys start with fixed fields before one of varying length: the encoder checks
/// the buffer for that head once, up front, before any field is written.
#[derive(RowKey, Debug, PartialEq)]
struct HeadThenString {
    user: u64,
    #[rowkey(desc)]
    ts: i64,
    name: String,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":", tag = "evt")]
struct TextHead {
    #[rowkey(salt(buckets = 16))]
    user: u32,
    day: u16,
    host: String,
}

/// Every buffer shorter than the key: `BufferTooSmall` with what the whole key needs (whether
/// the head check or a field refused it); every buffer at least as long: the key's bytes.
fn every_buffer_length<K: RowKey>(key: &K) {
    let whole = key.to_vec().unwrap();
    for len in 0..=whole.len() + 2 {
        let mut buf = vec![0xAA; len];
        match key.encode_into(&mut buf) {
            Ok(n) => {
                assert!(
                    len >= whole.len(),
                    "{len}-byte buffer took a {}-byte key",
                    n
                );
                assert_eq!(&buf[..n], &whole[..]);
            }
            Err(e) => {
                assert!(len < whole.len(), "{len}-byte buffer refused: {e}");
                assert_eq!(
                    e.kind(),
                    EncodeErrorKind::BufferTooSmall {
                        needed: whole.len(),
                        available: len
                    }
                );
            }
        }
    }
}

#[test]
fn a_buffer_shorter_than_the_head_gets_what_the_whole_key_needs() {
    for name in ["", "n", "web-17.example.com"] {
        every_buffer_length(&HeadThenString {
            user: 7,
            ts: -3,
            name: name.into(),
        });
        every_buffer_length(&TextHead {
            user: 42,
            day: 19_000,
            host: name.into(),
        });
    }
    every_buffer_length(&event());
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(max_len = 4)]
struct Short {
    a: u8,
    s: String,
}

#[derive(RowKey, Debug, PartialEq)]
struct Unlimited {
    s: String,
}

#[test]
fn decode_refuses_a_key_longer_than_the_layout_limit() {
    // What decodes must encode back to the same bytes: encode refuses 5 bytes under max_len = 4.
    let five = [0x01, b'a', b'b', b'c', b'd'];
    let encoded = Short {
        a: 1,
        s: "abcd".into(),
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(
        encoded.kind(),
        EncodeErrorKind::RowTooLong { len: 5, max: 4 }
    );
    let err = Short::decode(&five).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::RowTooLong { len: 5, max: 4 });
    assert_eq!(err.key(), "Short");
    assert_eq!(
        Short::decode(&five[..4]).unwrap(),
        Short {
            a: 1,
            s: "abc".into()
        }
    );
    // The default limit, HBase's 32767.
    let long = vec![b'x'; 40_001];
    let err = Unlimited::decode(&long).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::RowTooLong {
            len: 40_001,
            max: 32_767
        }
    );
    assert!(Unlimited::decode(&long[..32_767]).is_ok());
    assert!(err.to_string().contains("40001"), "{err}");
}
