use rowkey::RowKey;

#[derive(RowKey)]
struct Clash {
    user: u8,
    is_exact: u8,
}

fn main() {}
