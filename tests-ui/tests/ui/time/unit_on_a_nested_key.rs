use rowkey::RowKey;

#[derive(RowKey)]
struct Inner {
    id: u32,
}

#[derive(RowKey)]
struct Key {
    #[rowkey(unit = "us")]
    inner: Inner,
}

fn main() {}
