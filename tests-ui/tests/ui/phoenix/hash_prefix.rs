use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    #[rowkey(hash_prefix(len = 2))]
    host: String,
}

fn main() {}
