use rowkey::RowKey;

#[derive(RowKey)]
struct Clash {
    user: u8,
    salt_len: u8,
}

fn main() {}
