//! The errors' messages, as a user reads them.

use super::*;
use alloc::string::ToString;

#[test]
fn an_encode_error_keeps_the_innermost_field_a_nested_key_named() {
    let err = EncodeError::new(EncodeErrorKind::TooWide { width: 2 })
        .in_field("Inner", "code")
        .in_field("Outer", "inner");
    assert_eq!((err.key(), err.field()), ("Inner", "code"));
}

#[test]
fn an_encode_error_of_the_whole_key_names_the_key_and_no_field() {
    let kind = EncodeErrorKind::RowTooLong {
        len: 40_000,
        max: 32_767,
    };
    let err = EncodeError::new(kind).in_key("Event");
    assert_eq!((err.key(), err.field()), ("Event", ""));
    assert!(err.to_string().contains("`Event`"));
}

#[test]
fn a_decode_errors_offset_adds_up_through_nested_keys_and_keeps_the_innermost_field() {
    // A bad bool at byte 0 of `Inner.flag`, which starts 3 bytes into `Inner`, which starts
    // 5 bytes into `Outer`.
    let err = DecodeError::new(DecodeErrorKind::InvalidBool(2), 0)
        .in_field("Inner", "flag", 3)
        .in_field("Outer", "inner", 5);
    assert_eq!((err.key(), err.field(), err.offset()), ("Inner", "flag", 8));
}

#[test]
fn counts_in_messages_agree_in_number() {
    use DecodeErrorKind as D;
    use EncodeErrorKind as E;
    let cases: [(&dyn fmt::Display, &str); 10] = [
        (
            &D::Truncated {
                needed: 4,
                available: 1,
            },
            "the field needs 4 bytes but 1 byte is left",
        ),
        (
            &D::Truncated {
                needed: 1,
                available: 0,
            },
            "the field needs 1 byte but 0 bytes are left",
        ),
        (
            &D::Truncated {
                needed: 8,
                available: 2,
            },
            "the field needs 8 bytes but 2 bytes are left",
        ),
        (&D::TrailingBytes { count: 1 }, "1 byte left over"),
        (&D::TrailingBytes { count: 3 }, "3 bytes left over"),
        (
            &D::RowTooLong { len: 9, max: 8 },
            "key of 9 bytes is longer",
        ),
        (
            &E::BufferTooSmall {
                needed: 4,
                available: 1,
            },
            "buffer holds 1 byte but",
        ),
        (
            &E::BufferTooSmall {
                needed: 4,
                available: 2,
            },
            "buffer holds 2 bytes but",
        ),
        (
            &E::RowTooLong {
                len: 40_000,
                max: 32_767,
            },
            "key is 40000 bytes,",
        ),
        (
            &E::BucketOutOfRange {
                bucket: 1,
                buckets: 1,
            },
            "the layout has 1 bucket (0 only)",
        ),
    ];
    for (kind, says) in cases {
        let text = kind.to_string();
        assert!(text.contains(says), "{text:?} does not say {says:?}");
    }
}

#[test]
fn an_out_of_range_salt_says_so_in_the_form_the_key_shows_it() {
    let cases = [
        (
            (9, 6, false),
            "salt byte 09 is out of range: the key has 6 buckets (00 to 05)",
        ),
        (
            (0x10, 16, false),
            "salt byte 10 is out of range: the key has 16 buckets (00 to 0F)",
        ),
        (
            (1, 1, false),
            "salt byte 01 is out of range: the key has 1 bucket (00 only)",
        ),
        (
            (17, 16, true),
            "salt 17 is out of range: the key has 16 buckets (0 to 15)",
        ),
    ];
    for ((bucket, buckets, text), says) in cases {
        let kind = DecodeErrorKind::BucketOutOfRange {
            bucket,
            buckets,
            text,
        };
        assert_eq!(kind.to_string(), says);
    }
    let encode = EncodeErrorKind::BucketOutOfRange {
        bucket: 4,
        buckets: 4,
    };
    assert_eq!(
        encode.to_string(),
        "salt bucket 4 is out of range: the layout has 4 buckets (0 to 3)"
    );
}

#[test]
fn a_decode_error_of_the_whole_key_names_the_key_and_no_field() {
    let err = DecodeError::new(DecodeErrorKind::TrailingBytes { count: 2 }, 8).in_key("Event");
    assert_eq!((err.key(), err.field(), err.offset()), ("Event", "", 8));
    assert!(err.to_string().contains("`Event`"));
}
