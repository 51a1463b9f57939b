use rowkey::RowKey;

#[derive(RowKey)]
struct Host {
    name: String,
}

// The derive cannot see that `Host` is variable-length, so `Key` gets `to_key`; it fails only when used.
#[derive(RowKey)]
struct Key {
    host: Host,
}

fn main() {
    let key = Key { host: Host { name: "web-1".to_owned() } };
    let _ = key.to_key();
}
