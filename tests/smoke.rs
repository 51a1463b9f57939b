use rowkey::{DecodeKey, RowKey};

#[derive(RowKey, Debug, PartialEq)]
struct Pair {
    s: String,
    b: u8,
}

#[test]
fn design_example_bytes() {
    let k = Pair {
        s: "a\0b".into(),
        b: 7,
    };
    assert_eq!(
        k.to_vec().unwrap(),
        vec![0x61, 0x00, 0xFF, 0x62, 0x00, 0x01, 0x07]
    );
    assert_eq!(Pair::decode(&k.to_vec().unwrap()).unwrap(), k);
}
