#[test]
fn compile_fail_cases() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
    // One pass case, which also makes trybuild use `cargo build` rather than `cargo check`, so that
    // errors raised while generating code (fixed/to_key_on_nested_variable_layout.rs) are seen.
    t.pass("tests/ui/fixed_nested_layout_to_key_compiles.rs");
}
