use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Row {
    #[rowkey(width = 3)]
    code: String,
    id: i64,
}

fn main() {
    let _ = Row::scan().code_range("a".."b");
}
