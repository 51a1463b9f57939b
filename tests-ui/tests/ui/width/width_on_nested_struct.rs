use rowkey::RowKey;

#[derive(RowKey)]
struct Inner {
    id: u32,
}

#[derive(RowKey)]
struct Key {
    #[rowkey(width = 2)]
    inner: Inner,
}

fn main() {}
