//! Instructions per operation, base against work (`run.sh BASE --instructions`): `probe TREE OP
//! N` runs OP N times on the keys of benches/codec.rs, TREE `base` or `work`. Built by run.sh in
//! its harness crate, where `rowkey_base` is the base tree; not a target of this package.

macro_rules! keys {
    ($m:ident, $krate:ident, $name:literal) => {
        mod $m {
            use $krate::RowKey;
            use std::hint::black_box;
            use super::hand_mixed_encode;
            #[derive(RowKey, Debug, PartialEq)]
            #[rowkey(crate = $name)]
            pub struct MixedRef<'a> { pub id: u64, pub ts: i64, pub name: &'a str }
            #[derive(RowKey, Debug, PartialEq)]
            #[rowkey(crate = $name)]
            pub struct Fixed { pub a: u64, #[rowkey(desc)] pub b: i64, pub c: u32 }
            #[derive(RowKey)]
            #[rowkey(crate = $name)]
            #[rowkey(text, delimiter = ":")]
            pub struct TextKey<'a> { pub user: &'a str, #[rowkey(desc)] pub ts: i64, #[rowkey(width = 4)] pub shard: u32 }
            #[derive(RowKey)]
            #[rowkey(crate = $name)]
            pub struct Salted<'a> { #[rowkey(salt(buckets = 16))] pub id: u64, pub ts: i64, #[rowkey(salt(buckets = 16))] pub name: &'a str }
            #[derive(RowKey, Debug, PartialEq)]
            #[rowkey(crate = $name)]
            #[rowkey(phoenix)]
            pub struct PhoenixRow<'a> { pub host: &'a str, #[rowkey(desc)] pub ts: i64, pub region: Option<&'a str> }
            #[derive(RowKey)]
            #[rowkey(crate = $name)]
            pub struct HostTs<'a> { pub host: std::borrow::Cow<'a, str>, #[rowkey(desc)] pub ts: i64 }
            pub fn run(op: &str, n: usize) {
                let t = TextKey { user: "alice", ts: 1_700_000_000_000, shard: 7 };
                let s = Salted { id: 42, ts: 1_700_000_000_000, name: "web-17" };
                let p = PhoenixRow { host: "web-17.example.com", ts: 1_700_000_000_000, region: Some("eu-west") };
                let tb = t.to_vec().unwrap();
                let pb = p.to_vec().unwrap();
                let k = MixedRef { id: 42, ts: 1_700_000_000_000, name: "web-17.example.com" };
                let f = Fixed { a: 7, b: 1_700_000_000_000, c: 9 };
                let mut buf = [0u8; 64];
                let kb = k.to_vec().unwrap();
                let fb = f.to_vec().unwrap();
                let h = HostTs { host: "web-17".into(), ts: 17 };
                let hb = h.to_vec().unwrap();
                // One loop an operation: the match is taken once, outside the counted work.
                match op {
                    "mixed-encode" => for _ in 0..n { black_box(black_box(&k).encode_into(&mut buf).unwrap()); },
                    "mixed-decode" => for _ in 0..n { black_box(MixedRef::decode(black_box(&kb)).unwrap()); },
                    "fixed-encode" => for _ in 0..n { black_box(black_box(&f).encode_into(&mut buf).unwrap()); },
                    "fixed-decode" => for _ in 0..n { black_box(Fixed::decode(black_box(&fb)).unwrap()); },
                    "text-encode" => for _ in 0..n { black_box(black_box(&t).encode_into(&mut buf).unwrap()); },
                    "text-decode" => for _ in 0..n { black_box(TextKey::decode(black_box(&tb)).unwrap()); },
                    "salted-encode" => for _ in 0..n { black_box(black_box(&s).encode_into(&mut buf).unwrap()); },
                    "phoenix-encode" => for _ in 0..n { black_box(black_box(&p).encode_into(&mut buf).unwrap()); },
                    "inside-encode" => for _ in 0..n { black_box(black_box(&h).encode_into(&mut buf).unwrap()); },
                    "inside-decode" => for _ in 0..n { black_box(HostTs::decode(black_box(&hb)).unwrap()); },
                    "phoenix-decode" => for _ in 0..n { black_box(PhoenixRow::decode(black_box(&pb)).unwrap()); },
                    // The same bytes as mixed-encode, written by hand (benches/codec.rs's
                    // hand_mixed_encode): the baseline of the encode ratio.
                    "hand-mixed-encode" => for _ in 0..n {
                        let k = black_box(&k);
                        black_box(hand_mixed_encode(k.id, k.ts, k.name, &mut buf).unwrap());
                    },
                    _ => panic!("op"),
                }
            }
        }
    };
}
// `hand_mixed_encode`, the hand-written baseline, is benches/codec.rs's own: run.sh appends it to
// the harness's copy of this file.

keys!(base, rowkey_base, "rowkey_base");
keys!(work, rowkey, "rowkey");

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[3].parse().unwrap();
    match a[1].as_str() { "base" => base::run(&a[2], n), _ => work::run(&a[2], n) }
}
