use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(tag = 1)]
enum Kind {
    View,
    Click,
}

fn main() {}
