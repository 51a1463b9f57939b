use rowkey::RowKey;

#[derive(RowKey)]
struct Clash {
    user: u8,
    split: u8,
}

fn main() {}
