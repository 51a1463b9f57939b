use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text)]
struct Message {
    #[rowkey(format = "%A %Y%m%d")]
    day: chrono::NaiveDate,
}

fn main() {}
