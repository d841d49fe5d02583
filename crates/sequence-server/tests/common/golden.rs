//! Golden files: outputs recorded once and compared byte for byte on every
//! run (the server's scripted API answers, `tests/move_path.rs`; the
//! arena's outputs, crates/sequence-cli `tests/arena_golden.rs`).
//! `SEQUENCE_GOLDEN_WRITE=1` records them again after a deliberate change.

/// Whether this run records the golden files (`SEQUENCE_GOLDEN_WRITE` is
/// set) instead of comparing with them.
pub fn writing() -> bool {
    std::env::var_os("SEQUENCE_GOLDEN_WRITE").is_some()
}

/// Where `got` and `want` first differ, by line (1-based), for a failure
/// message: `line N:\n   got: …\n  want: …`; `(end)` for a side that
/// ends first.
pub fn first_difference(got: &[u8], want: &[u8]) -> String {
    let (got, want) = (String::from_utf8_lossy(got), String::from_utf8_lossy(want));
    let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    let i = g
        .iter()
        .zip(&w)
        .position(|(a, b)| a != b)
        .unwrap_or(g.len().min(w.len()));
    format!(
        "line {}:\n   got: {}\n  want: {}",
        i + 1,
        g.get(i).unwrap_or(&"(end)"),
        w.get(i).unwrap_or(&"(end)")
    )
}
