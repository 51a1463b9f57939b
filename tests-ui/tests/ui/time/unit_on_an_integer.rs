use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(unit = "ms")]
    ts: u64,
}

fn main() {}
