use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[rowkey(dsc)]
    ts: i64,
}

fn main() {}
