// A pass case. Besides checking that `to_key` works through a nested fixed type, it makes trybuild
// build the cases with `cargo build` instead of `cargo check`: the `to_key` assertion in
// fixed/to_key_on_nested_variable_layout.rs is evaluated when code is generated, which
// `cargo check` never does.
use rowkey::RowKey;

#[derive(RowKey)]
struct Host {
    id: u32,
}

#[derive(RowKey)]
struct Key {
    host: Host,
    ts: u64,
}

fn main() {
    let key = Key { host: Host { id: 7 }, ts: 9 };
    let bytes: [u8; 12] = key.to_key().unwrap();
    assert_eq!(bytes, [0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 9]);
    assert_eq!(Key::LEN, 12);
}
