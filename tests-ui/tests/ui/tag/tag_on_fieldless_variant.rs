use rowkey::RowKey;

#[derive(RowKey)]
enum Kind {
    View,
    #[rowkey(tag = 9)]
    Click,
}

fn main() {}
