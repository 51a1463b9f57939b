use rowkey::RowKey;

#[derive(RowKey)]
struct Clash {
    user: u8,
    into: u8,
}

fn main() {}
