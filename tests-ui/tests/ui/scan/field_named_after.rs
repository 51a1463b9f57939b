use rowkey::RowKey;

#[derive(RowKey)]
struct Clash {
    user: u8,
    after: u8,
}

fn main() {}
