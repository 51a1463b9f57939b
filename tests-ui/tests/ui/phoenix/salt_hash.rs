use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix, salt(buckets = 4, hash = "md5"))]
struct Row {
    id: u32,
}

fn main() {}
