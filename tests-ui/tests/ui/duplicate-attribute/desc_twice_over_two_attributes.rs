use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(desc)]
    #[rowkey(desc)]
    ts: i64,
}

fn main() {}
