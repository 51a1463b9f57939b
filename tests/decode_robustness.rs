//! Decoding arbitrary bytes never panics. Random and mutated byte strings each go through the
//! decoders of six layouts; whenever one is accepted, encoding the result must give back exactly
//! the same bytes (every key has one encoding, so a corrupt row cannot pass as a different one).
//!
//! 100,000 inputs (600,000 decodes); 2,000,000 inputs (12,000,000 decodes) with `ROWKEY_SOAK=1`.

use std::borrow::Cow;

use rowkey::{DecodeKey, RowKey};

mod common;
use common::{scaled, Rng};

#[derive(RowKey, Debug, PartialEq)]
enum Kind {
    A,
    B = 5,
    C = 200,
}

#[derive(RowKey, Debug, PartialEq)]
struct Inner {
    x: u16,
    s: String,
}

#[derive(RowKey, Debug)]
struct Fixed {
    a: u64,
    #[rowkey(desc)]
    b: i32,
    #[rowkey(width = 3)]
    c: u32,
    #[rowkey(width = 2, reverse)]
    d: u16,
    e: f64,
    f: bool,
    g: char,
    h: Kind,
}

#[derive(RowKey, Debug)]
struct Strings {
    a: String,
    #[rowkey(desc)]
    b: String,
    #[rowkey(width = 4)]
    c: Vec<u8>,
    #[rowkey(width = 3, desc)]
    d: String,
    #[rowkey(reverse)]
    e: String,
    f: Vec<u8>,
}

#[derive(RowKey, Debug)]
struct Mixed<'a> {
    a: Option<u8>,
    #[rowkey(desc)]
    b: Option<String>,
    c: Inner,
    #[rowkey(desc)]
    d: Inner,
    e: Cow<'a, str>,
    #[rowkey(width = 5)]
    f: &'a str,
    g: Option<Option<i8>>,
    last: Option<String>,
}

#[derive(RowKey, Debug)]
struct Prefixed {
    #[rowkey(hash_prefix(len = 2))]
    a: u8,
    #[rowkey(hash_prefix(len = 2))]
    s: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 4, hash = "java"))]
struct Salted {
    a: u8,
    s: String,
}

#[derive(RowKey, Debug)]
struct LastDesc {
    #[rowkey(desc)]
    s: Vec<u8>,
}

fn check<'k, K: DecodeKey<'k> + RowKey + std::fmt::Debug>(input: &'k [u8]) -> bool {
    match K::decode(input) {
        Ok(k) => {
            let again = k
                .to_vec()
                .unwrap_or_else(|e| panic!("{k:?} decoded but does not encode: {e}"));
            assert_eq!(
                again, input,
                "{k:?} decoded from {input:02X?} but encodes differently"
            );
            true
        }
        Err(e) => {
            assert!(
                e.offset() <= input.len(),
                "offset {} past {} bytes",
                e.offset(),
                input.len()
            );
            let _ = e.to_string();
            // What does not decode is still explained, as far as it goes, with the same error.
            let shown = K::explain_best_effort(input);
            assert_eq!(
                shown.error.map(|s| s.kind()),
                Some(e.kind()),
                "{input:02X?}"
            );
            let _ = shown.to_string();
            false
        }
    }
}

fn mutate(rng: &mut Rng, key: &mut Vec<u8>) {
    for _ in 0..1 + rng.index(3) {
        match rng.index(5) {
            0 if !key.is_empty() => {
                let i = rng.index(key.len());
                key[i] = rng.byte();
            }
            1 => {
                let i = rng.index(key.len() + 1);
                key.insert(i, rng.byte());
            }
            2 if !key.is_empty() => {
                let i = rng.index(key.len());
                key.remove(i);
            }
            3 => key.truncate(rng.index(key.len() + 1)),
            _ => {
                if !key.is_empty() {
                    let i = rng.index(key.len());
                    key[i] ^= 1 << rng.index(8);
                }
            }
        }
    }
}

/// A layout under test: its name, a valid key of it to mutate, and its decoder under [`check`].
struct Layout {
    name: &'static str,
    seed: fn() -> Vec<u8>,
    decodes: fn(&[u8]) -> bool,
}

/// Every layout, each name next to its own decoder.
const LAYOUTS: [Layout; 6] = [
    Layout {
        name: "Fixed",
        seed: || {
            Fixed {
                a: 7,
                b: -3,
                c: 1000,
                d: 513,
                e: -0.25,
                f: true,
                g: 'é',
                h: Kind::B,
            }
            .to_vec()
            .unwrap()
        },
        decodes: |k| check::<Fixed>(k),
    },
    Layout {
        name: "Strings",
        seed: || {
            Strings {
                a: "a\0b".into(),
                b: "zz".into(),
                c: b"xy".to_vec(),
                d: "q".into(),
                e: "rev\0".into(),
                f: vec![0, 0xFF],
            }
            .to_vec()
            .unwrap()
        },
        decodes: |k| check::<Strings>(k),
    },
    Layout {
        name: "Mixed",
        seed: || {
            Mixed {
                a: Some(1),
                b: Some("x\0".into()),
                c: Inner {
                    x: 2,
                    s: "in".into(),
                },
                d: Inner {
                    x: 3,
                    s: "\0".into(),
                },
                e: Cow::Borrowed("cow"),
                f: "five",
                g: Some(None),
                last: Some("end".into()),
            }
            .to_vec()
            .unwrap()
        },
        decodes: |k| check::<Mixed>(k),
    },
    Layout {
        name: "LastDesc",
        seed: || LastDesc { s: vec![1, 0, 2] }.to_vec().unwrap(),
        decodes: |k| check::<LastDesc>(k),
    },
    Layout {
        name: "Prefixed",
        seed: || {
            Prefixed {
                a: 1,
                s: "p".into(),
            }
            .to_vec()
            .unwrap()
        },
        decodes: |k| check::<Prefixed>(k),
    },
    Layout {
        name: "Salted",
        seed: || {
            Salted {
                a: 2,
                s: "q".into(),
            }
            .to_vec()
            .unwrap()
        },
        decodes: |k| check::<Salted>(k),
    },
];

#[test]
fn random_and_mutated_inputs_never_panic() {
    let inputs = scaled(100_000, 2_000_000);
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let seeds: Vec<Vec<u8>> = LAYOUTS.iter().map(|l| (l.seed)()).collect();
    let (mut tried, mut accepted) = ([0usize; LAYOUTS.len()], [0usize; LAYOUTS.len()]);
    let mut input = Vec::with_capacity(64);
    for round in 0..inputs {
        input.clear();
        if round % 2 == 0 {
            let len = rng.index(48);
            input.extend((0..len).map(|_| rng.byte()));
        } else {
            input.extend_from_slice(&seeds[rng.index(seeds.len())]);
            mutate(&mut rng, &mut input);
        }
        for (i, layout) in LAYOUTS.iter().enumerate() {
            tried[i] += 1;
            accepted[i] += usize::from((layout.decodes)(&input));
        }
    }
    // Every layout saw every input, and none is vacuously rejecting everything.
    let mut checked = 0;
    for ((layout, tried), accepted) in LAYOUTS.iter().zip(tried).zip(accepted) {
        let name = layout.name;
        assert_eq!(tried, inputs, "{name} did not decode every input");
        assert!(
            accepted > inputs / 1_000,
            "{name} accepted only {accepted} of {inputs} inputs"
        );
        println!("{name}: accepted {accepted} of {inputs} inputs");
        checked += 1;
    }
    assert_eq!(checked, 6, "layouts checked");
    let decodes: usize = tried.iter().sum();
    let rejected = decodes - accepted.iter().sum::<usize>();
    println!("{decodes} decodes of {inputs} inputs, {rejected} of them malformed and rejected");
}

#[test]
fn seeds_decode() {
    for layout in &LAYOUTS {
        let seed = (layout.seed)();
        // Every decoder takes every seed without panicking; each layout accepts its own.
        let ok: Vec<bool> = LAYOUTS.iter().map(|l| (l.decodes)(&seed)).collect();
        assert!(
            (layout.decodes)(&seed),
            "the {} seed does not decode as its own layout ({ok:?})",
            layout.name
        );
    }
}
