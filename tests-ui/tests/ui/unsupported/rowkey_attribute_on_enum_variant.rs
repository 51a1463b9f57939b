use rowkey::RowKey;

#[derive(RowKey)]
enum Kind {
    #[rowkey(desc)]
    View,
    Click,
}

fn main() {}
