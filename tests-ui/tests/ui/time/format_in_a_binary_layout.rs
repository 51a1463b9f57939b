use rowkey::RowKey;

#[derive(RowKey)]
struct Message {
    #[rowkey(format = "%Y%m%d")]
    day: chrono::NaiveDate,
}

fn main() {}
