//! Generated code reaches everything through absolute paths: it compiles in a module without the
//! prelude, without warnings, through a re-exported crate path, and leaks no names.
#![deny(warnings)]
#![warn(clippy::pedantic)]

/// A crate that re-exports rowkey, as a user's facade crate would.
pub mod facade {
    pub use ::rowkey::*;
}

#[no_implicit_prelude]
mod no_prelude {
    #[derive(::rowkey::RowKey, Debug, PartialEq, Clone, Copy)]
    pub enum Kind {
        A,
        B = 9,
    }

    #[derive(::rowkey::RowKey, Debug, PartialEq)]
    pub struct Key<'a> {
        pub a: u64,
        #[rowkey(desc)]
        pub b: i64,
        pub c: ::std::string::String,
        pub d: ::std::option::Option<u8>,
        #[rowkey(width = 4)]
        pub e: &'a str,
        pub f: Kind,
        #[rowkey(reverse)]
        pub g: ::std::vec::Vec<u8>,
    }

    #[derive(::rowkey::RowKey, Debug, PartialEq)]
    #[rowkey(crate = "crate::facade")]
    pub struct ThroughFacade {
        pub x: u32,
        pub kind: Kind,
    }

    /// An enum key with a raw field name, a tagged variant and a variant without fields.
    #[derive(::rowkey::RowKey, Debug, PartialEq)]
    #[rowkey(tag = b"r/")]
    pub enum Row {
        User {
            r#type: u8,
            name: ::std::string::String,
        },
        #[rowkey(tag = b"o")]
        Order {
            user: u64,
            #[rowkey(desc)]
            ts: i64,
        },
        Gone,
    }

    #[derive(::rowkey::RowKey, Debug, PartialEq)]
    #[rowkey(tag = b"evt/", salt(buckets = 4))]
    pub struct Tagged {
        pub user: u32,
    }

    #[derive(::rowkey::RowKey)]
    pub struct Generic<T> {
        pub value: T,
        pub tail: u8,
    }

    /// A generic field before one of varying length: the head the encoder checks up front is a
    /// constant over `T`.
    #[derive(::rowkey::RowKey, Debug, PartialEq)]
    pub struct GenericHead<T> {
        pub value: T,
        pub name: ::std::string::String,
    }
}

use no_prelude::{Generic, GenericHead, Key, Kind, Row, Tagged, ThroughFacade};
use rowkey::RowKey;

#[test]
fn derives_compile_without_the_prelude_and_work() {
    let k = Key {
        a: 1,
        b: -2,
        c: "c".into(),
        d: Some(4),
        e: "e",
        f: Kind::B,
        g: vec![1, 2],
    };
    let bytes = k.to_vec().unwrap();
    assert_eq!(Key::decode(&bytes).unwrap(), k);
    let t = ThroughFacade {
        x: 5,
        kind: Kind::A,
    };
    assert_eq!(ThroughFacade::LEN, 5);
    assert_eq!(ThroughFacade::decode(&t.to_key().unwrap()).unwrap(), t);
    let g = Generic {
        value: 7u16,
        tail: 1,
    };
    assert_eq!(g.to_vec().unwrap(), [0, 7, 1]);
    assert_eq!(<Generic<u16> as RowKey>::FIXED_LEN, Some(3));
    assert_eq!(<Generic<String> as RowKey>::FIXED_LEN, None);
    let headed = GenericHead {
        value: 7u16,
        name: "ab".into(),
    };
    assert_eq!(headed.to_vec().unwrap(), [0, 7, b'a', b'b']);
    assert!(headed.encode_into(&mut [0u8; 1]).is_err());
    assert_eq!(
        GenericHead::<u16>::decode(&[0, 7, b'a', b'b']).unwrap(),
        headed
    );
    let r = Row::User {
        r#type: 3,
        name: "n".into(),
    };
    assert_eq!(r.to_vec().unwrap(), b"r/\x00\x03n");
    assert_eq!(Row::decode(&r.to_vec().unwrap()).unwrap(), r);
    assert_eq!(Row::Gone.to_vec().unwrap(), b"r/\x02");
    let plan: rowkey::Scan<Row> = Row::scan().user().r#type(3).into();
    assert!(plan.matches(b"r/\x00\x03n"));
    assert!(Row::scan().order().user(1).ts_range(..5).is_exact());
    let t = Tagged { user: 1 };
    assert_eq!(Tagged::decode(&t.to_key().unwrap()).unwrap(), t);
}

/// Names the generated code uses internally must not collide with the user's.
#[allow(non_upper_case_globals, dead_code)]
mod collisions {
    const out: u8 = 0;
    const mode: u8 = 0;
    const input: u8 = 0;
    struct KeyWriter;
    struct Result;
    struct Ok;
    struct Option;

    #[derive(rowkey::RowKey)]
    struct Key {
        out: u8,
        mode: u16,
        input: String,
    }
}
