use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    #[rowkey(salt(buckets = 4))]
    id: u32,
}

fn main() {}
