//! Salt buckets and hash prefixes: the bucket functions pinned with vectors computed independently
//! (Apache Phoenix's documented cases, Python's hashlib and a Java-semantics `Arrays.hashCode`),
//! spreading of sequential keys, verification on decode, writer-chosen buckets, and split points.

use proptest::prelude::*;
use rowkey::regions::Regions;
use rowkey::{
    hbase, DecodeErrorKind, DecodeSaltedKey, EncodeErrorKind, HashPrefix, Prefix, RowKey, Salt,
    SaltHash, SaltedKey,
};

// ---------------------------------------------------------------- bucket functions

#[derive(RowKey, Debug, PartialEq)]
struct PhoenixBytes {
    #[rowkey(salt(buckets = 3, hash = "java"))]
    row: [u8; 6],
}

#[derive(RowKey, Debug, PartialEq)]
struct PhoenixRow {
    #[rowkey(salt(buckets = 16, hash = "java"))]
    row: String,
}

#[test]
fn java_buckets_match_phoenix() {
    let bytes = [0x96, 0x00, 0xF6, 0x00, 0x13, 0xFE];
    assert_eq!(Salt::new(3, SaltHash::Java).unwrap().bucket_of(&bytes), 2);
    assert_eq!(
        PhoenixBytes { row: bytes }.to_vec().unwrap(),
        [2, 0x96, 0x00, 0xF6, 0x00, 0x13, 0xFE]
    );
    assert_eq!(Salt::new(16, SaltHash::Java).unwrap().bucket_of(b"row1"), 8);
    let key = PhoenixRow { row: "row1".into() }.to_vec().unwrap();
    assert_eq!(key, b"\x08row1");
    assert_eq!(PhoenixRow::decode(&key).unwrap().row, "row1");
}

#[test]
fn java_bucket_of_integer_min_value_hash_is_in_range() {
    // Arrays.hashCode of these bytes is Integer.MIN_VALUE, where abs(h) % N went negative before
    // PHOENIX-1472; abs(h % N) gives 2 for N = 3 and 7, and 0 for N = 16.
    let min_hash = [0x00, 0x0E, 0x04, 0x06, 0xF8, 0x02, 0xFB];
    let bucket = |n| Salt::new(n, SaltHash::Java).unwrap().bucket_of(&min_hash);
    assert_eq!(
        (bucket(3), bucket(7), bucket(16), bucket(256)),
        (2, 2, 0, 0)
    );
}

#[derive(RowKey, Debug, PartialEq)]
struct Md5Prefixed {
    #[rowkey(hash_prefix(len = 3))]
    id: String,
}

#[test]
fn md5_prefix_matches_md5sum() {
    // printf foo0001 | md5sum  ->  95f18cf8...
    let key = Md5Prefixed {
        id: "foo0001".into(),
    }
    .to_vec()
    .unwrap();
    assert_eq!(key, b"\x95\xF1\x8Cfoo0001");
    let mut out = [0u8; 4];
    HashPrefix::new(4).unwrap().prefix_of(b"foo0001", &mut out);
    assert_eq!(out, [0x95, 0xF1, 0x8C, 0xF8]);
}

#[derive(RowKey, Debug, PartialEq)]
struct Md5Salted {
    #[rowkey(salt(buckets = 16))]
    row: String,
}

#[test]
fn md5_bucket_is_the_first_four_digest_bytes_mod_n() {
    // md5("row1") begins with bytes whose big-endian u32 is 13 mod 16 (Python's hashlib).
    assert_eq!(
        Md5Salted { row: "row1".into() }.to_vec().unwrap(),
        b"\x0Drow1"
    );
    assert_eq!(Salt::new(16, SaltHash::Md5).unwrap().bucket_of(b"row1"), 13);
}

#[derive(RowKey, Debug, PartialEq)]
struct ModSalted {
    #[rowkey(salt(buckets = 16, hash = "mod"))]
    ts: u64,
    seq: u8,
}

#[derive(RowKey, Debug, PartialEq)]
struct ModNarrow {
    #[rowkey(width = 3, salt(buckets = 7, hash = "mod"))]
    id: u32,
}

#[test]
fn mod_bucket_is_the_value_mod_n() {
    for ts in [0u64, 1, 15, 16, 17, 1_700_000_000_123, u64::MAX] {
        let key = ModSalted { ts, seq: 1 }.to_vec().unwrap();
        assert_eq!(u64::from(key[0]), ts % 16, "ts = {ts}");
    }
    for id in [0u32, 6, 7, 0xFF_FFFF] {
        assert_eq!(u32::from(ModNarrow { id }.to_vec().unwrap()[0]), id % 7);
    }
}

#[derive(RowKey, Debug, PartialEq)]
struct TwoSources {
    #[rowkey(salt(buckets = 8))]
    user: u32,
    region: String,
    #[rowkey(salt(buckets = 8))]
    name: String,
}

#[derive(RowKey, Debug, PartialEq)]
struct DescSource {
    #[rowkey(desc, salt(buckets = 8))]
    ts: i64,
}

#[derive(RowKey, Debug, PartialEq)]
struct TwoHashSources {
    #[rowkey(hash_prefix(len = 4))]
    user: u32,
    #[rowkey(hash_prefix(len = 4))]
    name: String,
    tail: u8,
}

#[test]
fn several_sources_are_joined_in_declaration_order() {
    // md5(00 00 00 07 'a' 'b' 'c') as a big-endian u32 is 4 mod 8.
    let key = TwoSources {
        user: 7,
        region: "eu".into(),
        name: "abc".into(),
    }
    .to_vec()
    .unwrap();
    assert_eq!(key[0], 4);
    assert_eq!(&key[1..], b"\x00\x00\x00\x07eu\x00\x01abc");
    // md5(00 00 00 2A 'u' 's' 'e' 'r') begins a9 71 d3 94.
    let key = TwoHashSources {
        user: 42,
        name: "user".into(),
        tail: 9,
    }
    .to_vec()
    .unwrap();
    assert_eq!(&key[..4], [0xA9, 0x71, 0xD3, 0x94]);
}

#[test]
fn a_desc_source_is_hashed_before_inversion() {
    // The value bytes of ts = 1700000000000 are 80 00 01 8B CF E5 68 00; their md5 bucket mod 8 is 3.
    let key = DescSource {
        ts: 1_700_000_000_000,
    }
    .to_vec()
    .unwrap();
    assert_eq!(key[0], 3);
    assert_eq!(&key[1..], [0x7F, 0xFF, 0xFE, 0x74, 0x30, 0x1A, 0x97, 0xFF]);
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 16))]
struct WholeKeySalt {
    ts: u64,
    host: String,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 10, hash = "java"))]
struct PhoenixTable {
    org: String,
    id: u32,
}

#[test]
fn whole_key_salt_hashes_the_unsalted_key() {
    for ts in 0..100u64 {
        let key = WholeKeySalt {
            ts,
            host: "h".into(),
        }
        .to_vec()
        .unwrap();
        let md5 = Salt::new(16, SaltHash::Md5).unwrap();
        assert_eq!(key[0], md5.bucket_of(&key[1..]));
    }
    // Phoenix salts a table's row key the same way: SaltingUtil over the bytes after the salt byte.
    let key = PhoenixTable {
        org: "acme".into(),
        id: 5,
    }
    .to_vec()
    .unwrap();
    let java = Salt::new(10, SaltHash::Java).unwrap();
    assert_eq!(key[0], java.bucket_of(&key[1..]));
    assert_eq!(
        <WholeKeySalt as RowKey>::LAYOUT.prefix,
        Prefix::Salt(Salt::new(16, SaltHash::Md5).unwrap())
    );
}

// ---------------------------------------------------------------- spreading

#[derive(RowKey, Debug)]
struct SeqMd5 {
    #[rowkey(salt(buckets = 16))]
    id: u64,
}

#[derive(RowKey)]
struct SeqJava {
    #[rowkey(salt(buckets = 16, hash = "java"))]
    id: u64,
}

#[derive(RowKey)]
struct SeqMod {
    #[rowkey(salt(buckets = 16, hash = "mod"))]
    id: u64,
}

fn bucket_counts(keys: impl Iterator<Item = Vec<u8>>) -> [u64; 16] {
    let mut counts = [0u64; 16];
    for k in keys {
        counts[usize::from(k[0])] += 1;
    }
    counts
}

#[test]
fn sequential_ids_spread_over_16_buckets_within_5_percent() {
    const N: u64 = 160_000;
    let mean = N as f64 / 16.0;
    let layouts: [(&str, [u64; 16]); 3] = [
        (
            "md5",
            bucket_counts((0..N).map(|id| SeqMd5 { id }.to_vec().unwrap())),
        ),
        (
            "java",
            bucket_counts((0..N).map(|id| SeqJava { id }.to_vec().unwrap())),
        ),
        (
            "mod",
            bucket_counts((0..N).map(|id| SeqMod { id }.to_vec().unwrap())),
        ),
    ];
    for (name, counts) in layouts {
        for (bucket, &c) in counts.iter().enumerate() {
            let off = (c as f64 - mean).abs() / mean;
            assert!(
                off <= 0.05,
                "{name}: bucket {bucket} has {c}, {:.1}% off the mean",
                off * 100.0
            );
        }
    }
}

// ---------------------------------------------------------------- verification on decode

#[test]
fn tampered_salt_bytes_are_rejected() {
    let k = TwoSources {
        user: 7,
        region: "eu".into(),
        name: "abc".into(),
    };
    let mut key = k.to_vec().unwrap();
    assert_eq!(TwoSources::decode(&key).unwrap(), k);
    key[0] = (key[0] + 1) % 8;
    let err = TwoSources::decode(&key).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::WrongSalt {
            expected: 4,
            found: key[0],
            text: false,
        }
    );
    assert_eq!((err.key(), err.offset()), ("TwoSources", 0));
    // Whole-key salt: a changed byte after the salt is accepted exactly when the salt still
    // matches the new bytes' bucket.
    let md5 = Salt::new(16, SaltHash::Md5).unwrap();
    let key = WholeKeySalt {
        ts: 1,
        host: "h".into(),
    }
    .to_vec()
    .unwrap();
    let (mut rejected, mut accepted) = (0, 0);
    for b in 0..=0x7Fu8 {
        let mut changed = key.clone();
        *changed.last_mut().unwrap() = b;
        let matches = md5.bucket_of(&changed[1..]) == changed[0];
        match WholeKeySalt::decode(&changed) {
            Ok(_) => {
                assert!(matches, "byte {b:02X} accepted with a wrong salt");
                accepted += 1;
            }
            Err(e) => {
                assert!(
                    !matches && matches!(e.kind(), DecodeErrorKind::WrongSalt { .. }),
                    "byte {b:02X}: {e}"
                );
                rejected += 1;
            }
        }
    }
    assert!(
        rejected > 100 && accepted >= 1,
        "rejected {rejected}, accepted {accepted}"
    );
}

#[test]
fn tampered_hash_prefixes_are_rejected() {
    let k = TwoHashSources {
        user: 42,
        name: "user".into(),
        tail: 9,
    };
    let key = k.to_vec().unwrap();
    for i in 0..key.len() - 1 {
        let mut bad = key.clone();
        bad[i] ^= 0x01;
        let err = TwoHashSources::decode(&bad).unwrap_err();
        if i < 4 + 4 {
            assert_eq!(err.kind(), DecodeErrorKind::WrongHashPrefix, "byte {i}");
        }
    }
    // The tail is not a source: changing it keeps a valid key.
    let mut other = key.clone();
    *other.last_mut().unwrap() = 10;
    assert_eq!(TwoHashSources::decode(&other).unwrap().tail, 10);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn salted_and_hashed_keys_round_trip(user in any::<u32>(), region in "[a-z\\x00]{0,4}", name in "[a-z]{0,6}", tail in any::<u8>()) {
        let k = TwoSources { user, region: region.clone(), name: name.clone() };
        prop_assert_eq!(TwoSources::decode(&k.to_vec().unwrap()).unwrap(), k);
        let h = TwoHashSources { user, name, tail };
        prop_assert_eq!(TwoHashSources::decode(&h.to_vec().unwrap()).unwrap(), h);
        let w = WholeKeySalt { ts: u64::from(user), host: region };
        prop_assert_eq!(WholeKeySalt::decode(&w.to_vec().unwrap()).unwrap(), w);
    }

    #[test]
    fn any_change_to_a_hash_prefixed_key_is_rejected_or_is_another_valid_key(user in any::<u32>(), name in "[a-z]{1,6}", at in any::<prop::sample::Index>(), flip in 1u8..=255) {
        let key = TwoHashSources { user, name, tail: 0 }.to_vec().unwrap();
        let i = at.index(key.len() - 1); // every byte but the tail, which is not a source
        let mut bad = key.clone();
        bad[i] ^= flip;
        prop_assert!(TwoHashSources::decode(&bad).is_err());
    }
}

// ---------------------------------------------------------------- writer-chosen buckets

#[test]
fn writers_may_choose_the_bucket_and_readers_try_every_one() {
    let k = SeqMd5 { id: 99 };
    let computed = k.to_vec().unwrap()[0];
    let chosen = (computed + 1) % 16;
    let key = k.to_vec_in_bucket(chosen).unwrap();
    assert_eq!(key[0], chosen);
    // The plain decode checks the salt; a round-robin key needs decode_any_bucket.
    assert!(matches!(
        SeqMd5::decode(&key).unwrap_err().kind(),
        DecodeErrorKind::WrongSalt { .. }
    ));
    let (back, bucket) = SeqMd5::decode_any_bucket(&key).unwrap();
    assert_eq!((back.id, bucket), (99, chosen));
    // A Get must try every bucket.
    let candidates = k.bucket_keys().unwrap();
    assert_eq!(candidates.len(), usize::from(SeqMd5::BUCKETS));
    assert!(candidates.contains(&key));
    assert!(candidates
        .iter()
        .enumerate()
        .all(|(b, c)| usize::from(c[0]) == b && c[1..] == key[1..]));
    let err = k.to_vec_in_bucket(16).unwrap_err();
    assert_eq!(
        err.kind(),
        EncodeErrorKind::BucketOutOfRange {
            bucket: 16,
            buckets: 16
        }
    );
    let mut bad = key.clone();
    bad[0] = 200;
    assert_eq!(
        SeqMd5::decode_any_bucket(&bad).unwrap_err().kind(),
        DecodeErrorKind::BucketOutOfRange {
            bucket: 200,
            buckets: 16,
            text: false,
        }
    );
}

// ---------------------------------------------------------------- split points and regions

#[derive(RowKey, Debug)]
struct Hashed4 {
    #[rowkey(hash_prefix(len = 4))]
    id: u64,
}

#[derive(RowKey, Debug)]
struct Plain {
    id: u64,
}

/// Splits a uniform random sample of keys with `splits` and checks every region is within 5%.
fn assert_even(splits: Vec<Vec<u8>>, regions: usize, keys: impl Iterator<Item = Vec<u8>>) {
    assert_eq!(splits.len(), regions - 1);
    assert!(
        splits.windows(2).all(|w| w[0] < w[1]),
        "split points not sorted: {splits:?}"
    );
    let regions = Regions::new(splits).unwrap();
    let mut counts = regions.counter();
    for k in keys {
        counts.add(&k);
    }
    let mean = counts.total() as f64 / regions.len() as f64;
    for (i, &c) in counts.counts().iter().enumerate() {
        let off = (c as f64 - mean).abs() / mean;
        assert!(
            off <= 0.05,
            "region {i} of {} has {c} keys, {:.1}% off the mean",
            regions.len(),
            off * 100.0
        );
    }
    assert!(counts.skew().unwrap() <= 1.05);
}

/// Deterministic pseudo-random u64s.
fn random_ids(n: usize) -> impl Iterator<Item = u64> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    (0..n).map(move |_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    })
}

#[test]
fn split_keys_divide_uniform_keys_evenly() {
    for regions in [2, 5, 16, 40] {
        assert_even(
            Hashed4::split_keys(regions),
            regions,
            random_ids(200_000).map(|id| Hashed4 { id }.to_vec().unwrap()),
        );
    }
    // Salted: bucket boundaries, and between them when there are more regions than buckets.
    for regions in [4, 16, 24, 48] {
        assert_even(
            WholeKeySalt::split_keys(regions),
            regions,
            random_ids(200_000).map(|id| {
                WholeKeySalt {
                    ts: id,
                    host: String::new(),
                }
                .to_vec()
                .unwrap()
            }),
        );
    }
}

#[test]
fn salt_split_keys_are_bucket_boundaries() {
    let expected: Vec<Vec<u8>> = (1..16u8).map(|b| vec![b]).collect();
    assert_eq!(SeqMd5::split_keys(16), expected);
    assert_eq!(SeqMd5::split_keys(4), vec![vec![4], vec![8], vec![12]]);
    assert_eq!(SeqMd5::split_keys(32)[0], vec![0, 0x80, 0, 0, 0]);
    assert_eq!(SeqMd5::split_keys(32)[1], vec![1]);
    assert_eq!(
        Hashed4::split_keys(4),
        vec![
            vec![0x40, 0, 0, 0],
            vec![0x80, 0, 0, 0],
            vec![0xC0, 0, 0, 0]
        ]
    );
}

#[test]
fn layouts_without_a_prefix_or_one_region_have_no_split_keys() {
    assert!(Plain::split_keys(16).is_empty());
    assert!(SeqMd5::split_keys(1).is_empty());
    assert!(SeqMd5::split_keys(0).is_empty());
}

#[test]
fn regions_reject_unsorted_or_empty_split_points() {
    assert!(Regions::new(vec![vec![2], vec![1]]).is_err());
    assert!(Regions::new(vec![vec![1], vec![1]]).is_err());
    assert!(Regions::new(vec![vec![]]).is_err());
    let r = Regions::new(vec![vec![1], vec![2]]).unwrap();
    assert_eq!(r.bounds(0), Some((&[][..], &[1u8][..])));
    assert_eq!(r.bounds(2), Some((&[2u8][..], &[][..])));
    assert_eq!(r.bounds(3), None);
    assert_eq!(r.counter().skew(), None);
}

// ---------------------------------------------------------------- shell helpers

#[test]
fn shell_statements_use_the_layouts_split_keys() {
    let create = hbase::create_statement("events", &["d"], &SeqMd5::split_keys(4));
    assert_eq!(
        create,
        r#"create 'events', 'd', SPLITS => ["\x04", "\x08", "\x0C"]"#
    );
    let key = PhoenixRow { row: "row1".into() }.to_vec().unwrap();
    assert_eq!(
        hbase::scan_command("t", &key, b"\x08row2"),
        r#"scan 't', {STARTROW => "\x08row1", STOPROW => "\x08row2"}"#
    );
    assert_eq!(hbase::shell_string(b"#{x}\""), r#""\x23{x}\x22""#);
    assert_eq!(hbase::create_statement("it's", &[], &[]), r"create 'it\'s'");
}

#[derive(RowKey)]
struct JavaBuilder {
    #[rowkey(salt(buckets = 16, hash = "java"))]
    user_id: u64,
    #[rowkey(desc)]
    ts: i64,
    host: String,
}

/// The README's Java builder: `abs(Arrays.hashCode(Bytes.toBytes(userId)) % 16)`, then
/// `Bytes.toBytes(userId)`, `Bytes.toBytes(Long.MAX_VALUE - ts)`, `Bytes.toBytes(host)`.
fn java_builder_key(user_id: i64, ts: i64, host: &str) -> Vec<u8> {
    let user = user_id.to_be_bytes();
    let mut h: i32 = 1;
    for b in user {
        h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
    }
    let mut key = vec![(h % 16).unsigned_abs() as u8];
    key.extend_from_slice(&user);
    key.extend_from_slice(&(i64::MAX - ts).to_be_bytes());
    key.extend_from_slice(host.as_bytes());
    key
}

#[test]
fn readme_java_builder_writes_the_same_bytes() {
    for (user, ts) in [
        (0i64, 0i64),
        (42, 1_700_000_000_000),
        (i64::MAX, 5),
        (123_456_789, i64::MAX),
    ] {
        let k = JavaBuilder {
            user_id: user as u64,
            ts,
            host: "web-1".into(),
        };
        assert_eq!(
            k.to_vec().unwrap(),
            java_builder_key(user, ts, "web-1"),
            "user {user}, ts {ts}"
        );
    }
}
