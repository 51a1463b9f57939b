use rowkey::RowKey;

#[derive(RowKey)]
struct Inner {
    a: u8,
}

#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct Key {
    id: u32,
    inner: Inner,
}

fn main() {}
