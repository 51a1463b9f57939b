use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(crate = "::rowkey", crate = "::rowkey")]
struct Key {
    id: u64,
}

fn main() {}
