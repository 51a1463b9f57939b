use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 0)]
struct Key {
    id: u64,
}

fn main() {}
