use rowkey::RowKey;

#[derive(RowKey)]
struct Clash {
    user: u8,
    ranges: u8,
}

fn main() {}
