use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(text)]
struct Message {
    #[rowkey(format = "%Y%m")]
    day: chrono::NaiveDate,
}

fn main() {}
