use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(crate = "not a path!")]
struct Key {
    id: u64,
}

fn main() {}
