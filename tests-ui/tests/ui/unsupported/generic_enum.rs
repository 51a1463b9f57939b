use rowkey::RowKey;

// A const parameter, because an unused type or lifetime parameter is an error of its own (E0392).
#[derive(RowKey)]
enum Kind<const N: usize> {
    View,
    Click,
}

fn main() {}
