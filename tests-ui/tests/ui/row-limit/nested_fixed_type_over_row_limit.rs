use rowkey::RowKey;

#[derive(RowKey)]
struct Half {
    bytes: [u8; 20000],
}

#[derive(RowKey)]
struct Key {
    first: Half,
    second: Half,
}

fn main() {}
