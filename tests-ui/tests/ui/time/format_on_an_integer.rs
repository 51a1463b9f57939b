use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text)]
struct Message {
    #[rowkey(format = "%Y%m%d")]
    day: u32,
}

fn main() {}
