use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(desc = true)]
    ts: i64,
}

fn main() {}
