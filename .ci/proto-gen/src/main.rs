//! Generates rowkey-hbase's protobuf messages of HBase's filters from HBase's own `.proto`
//! files: `rowkey-proto-gen PROTO_DIR OUT_DIR` writes `OUT_DIR/hbase.pb.rs` from
//! `PROTO_DIR/Filter.proto` and the files it imports (see `.ci/proto-check`).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, protos, out] = &args[..] else {
        eprintln!("usage: rowkey-proto-gen PROTO_DIR OUT_DIR");
        std::process::exit(2);
    };
    prost_build::Config::new()
        .out_dir(out)
        .compile_protos(&[format!("{protos}/Filter.proto")], &[protos.as_str()])
        .expect("prost-build compiles HBase's Filter.proto");
}
