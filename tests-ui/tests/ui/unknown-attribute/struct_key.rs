use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(namespace = "events")]
struct Key {
    id: u64,
}

fn main() {}
