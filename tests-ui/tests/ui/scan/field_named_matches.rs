use rowkey::RowKey;

#[derive(RowKey)]
struct Clash {
    user: u8,
    matches: u8,
}

fn main() {}
