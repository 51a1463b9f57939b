//! `rust_decimal::Decimal` (feature `decimal`, DESIGN section 9): key order is value order, with
//! rust_decimal's own `Ord` as the oracle; equal values (0.5 and 0.50) have equal bytes and decode
//! to the normalized value; `desc` reverses; a decimal inside a key keeps the fields after it in
//! order; random bytes decode to a value or an error, never a panic; range scans on a decimal
//! field against a brute-force filter.

use std::collections::BTreeMap;
use std::ops::Bound;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rowkey::{DecodeErrorKind, RowKey};
use rust_decimal::Decimal;

mod common;
use common::{in_range, Rng};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Price {
    symbol: String,
    price: Decimal,
    ts: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Top {
    #[rowkey(desc)]
    price: Decimal,
    id: u16,
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn key(v: Decimal) -> Vec<u8> {
    Top { price: v, id: 0 }.to_vec().unwrap()
}

/// Decimals over the whole range, and from a small set written with different scales (so equal
/// values and near ties are common).
fn decimal() -> impl Strategy<Value = Decimal> + Clone {
    let wide = (-(1i128 << 96) + 1..(1i128 << 96), 0u32..=28)
        .prop_map(|(m, s)| Decimal::from_i128_with_scale(m, s));
    let small = (-300i128..300, 0u32..4, 0u32..6).prop_map(|(m, s, z)| {
        // m × 10^-s, written with z extra trailing zeros.
        Decimal::from_i128_with_scale(m * 10i128.pow(z), s + z)
    });
    prop_oneof![wide, small]
}

fn config() -> Config {
    Config {
        cases: common::scaled(10_000, 1_000_000) as u32,
        failure_persistence: None,
        ..Config::default()
    }
}

#[test]
fn equal_values_have_equal_bytes_and_decode_normalized() {
    let (a, b) = (dec("0.5"), dec("0.50"));
    assert_eq!(a, b);
    assert_eq!(key(a), key(b));
    let p = Price {
        symbol: "X".into(),
        price: dec("12.3400"),
        ts: 1,
    };
    let back = Price::decode(&p.to_vec().unwrap()).unwrap();
    assert_eq!(back, p);
    assert_eq!(back.price.to_string(), "12.34");
    assert_eq!(back.price.scale(), 2);
    assert_eq!(key(dec("-0")), key(Decimal::ZERO));
    // 100 and 1E2 are one value; so are 1000000 and 1000000.000.
    assert_eq!(key(dec("100")), key(Decimal::from_i128_with_scale(100, 0)));
    assert_eq!(key(dec("1000000")), key(dec("1000000.000")));
    assert!(Price::LAYOUT.segments[1]
        .encoding
        .to_string()
        .contains("ordered by value, one key per value"));
}

#[test]
fn key_order_is_value_order() {
    TestRunner::new(config())
        .run(
            &(decimal(), decimal(), 0u32..3, 0u32..3),
            |(a, b, ta, tb)| {
                let pa = Price {
                    symbol: "S".into(),
                    price: a,
                    ts: ta,
                };
                let pb = Price {
                    symbol: "S".into(),
                    price: b,
                    ts: tb,
                };
                let (ka, kb) = (pa.to_vec().unwrap(), pb.to_vec().unwrap());
                // The oracle: rust_decimal's Ord, then the field after it.
                prop_assert_eq!(ka.cmp(&kb), a.cmp(&b).then(ta.cmp(&tb)));
                let back = Price::decode(&ka).unwrap();
                prop_assert_eq!(back.price, a);
                prop_assert_eq!(back.price.scale(), a.normalize().scale());
                // desc: the other way round.
                let (da, db) = (key(a), key(b));
                prop_assert_eq!(da.cmp(&db), b.cmp(&a));
                prop_assert_eq!(Top::decode(&da).unwrap().price, a);
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn extremes_round_trip() {
    for v in [
        Decimal::MAX,
        Decimal::MIN,
        Decimal::from_i128_with_scale(1, 28),
        Decimal::from_i128_with_scale(-1, 28),
        Decimal::from_i128_with_scale((1 << 96) - 1, 28),
        Decimal::ONE,
        Decimal::NEGATIVE_ONE,
    ] {
        let k = key(v);
        assert!(k.len() <= 18 + 2, "{v}: {} bytes", k.len());
        assert_eq!(Top::decode(&k).unwrap().price, v, "{v}");
    }
    let mut sorted = [
        Decimal::MAX,
        Decimal::MIN,
        Decimal::ZERO,
        dec("1e-28"),
        dec("-1e-28"),
    ];
    sorted.sort();
    let keys: Vec<Vec<u8>> = sorted.iter().map(|&v| key(v)).collect();
    assert!(keys.windows(2).all(|w| w[0] > w[1]), "desc order");
}

#[test]
fn random_bytes_decode_to_a_value_or_an_error() {
    TestRunner::new(config())
        .run(&proptest::collection::vec(any::<u8>(), 0..24), |bytes| {
            common::decodes_to_its_own_key::<Top>(&bytes).map_err(TestCaseError::fail)?;
            common::decodes_to_its_own_key::<Price>(&bytes).map_err(TestCaseError::fail)?;
            Ok(())
        })
        .unwrap();
    // A sign byte that is none of the three, and a key cut inside the digits.
    let err = Top::decode(&[0x7F ^ 0xFF, 0, 0]).unwrap_err();
    assert!(matches!(err.kind(), DecodeErrorKind::Invalid(_)), "{err}");
    let mut cut = key(dec("3.14159"));
    cut.truncate(4);
    let err = Top::decode(&cut).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::Truncated { .. }),
        "{err}"
    );
}

#[test]
fn range_scans_on_a_decimal_field_match_brute_force() {
    let mut rng = Rng(77);
    let draw = |rng: &mut Rng| {
        Decimal::from_i128_with_scale(rng.below(4_000) as i128 - 2_000, rng.below(4) as u32)
    };
    let rows: BTreeMap<Vec<u8>, Price> = (0..3_000)
        .map(|_| {
            let p = Price {
                symbol: rng.pick(&["A", "B", "C"]).to_string(),
                price: draw(&mut rng),
                ts: rng.below(10) as u32,
            };
            (p.to_vec().unwrap(), p)
        })
        .collect();
    for i in 0..300 {
        let symbol = rng.pick(&["A", "B", "C", "D"]).to_string();
        let range: (Bound<Decimal>, Bound<Decimal>) = rng.range(draw);
        let plan = Price::scan().symbol(&symbol).price_range(range);
        let got: Vec<&Price> = plan
            .ranges()
            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(_, v)| v))
            .filter(|p| plan.is_exact() || plan.matches(&p.to_vec().unwrap()))
            .collect();
        let expected: Vec<&Price> = rows
            .values()
            .filter(|p| p.symbol == symbol && in_range(&p.price, &range))
            .collect();
        assert_eq!(got, expected, "scan {i}: {symbol} {range:?}");
        assert!(plan.is_exact(), "scan {i}");
    }
}
