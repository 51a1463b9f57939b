//! Nothing but a home for `tests/ui.rs`: the compile-fail cases of `#[derive(RowKey)]`, one error
//! per file under `tests/ui/<category>/`, each checked against its `.stderr`.
