//! The server's integration tests in one test binary (`cargo test -p
//! sequence-server --test it`; one file's tests: `… --test it api::`):
//! each file of tests/ is a module here, sharing tests/common/,
//! tests/cluster/ and tests/i18n_files/. One binary is compiled and
//! linked once instead of once per file (a cold build spent about 2.5 CPU
//! minutes on the per-file binaries).
//!
//! Three files stay binaries of their own (Cargo.toml `[[test]]`), as
//! they change what the whole process shares: tests/memory.rs counts
//! every allocation of the process (a global allocator), and
//! tests/admin.rs and tests/operations.rs each install the process's
//! global log subscriber with a filter of their own.
//! [`every_test_file_is_built`] checks that no file of tests/ is left
//! out of both.

mod cluster;
mod common;
mod i18n_files;

mod accounts;
mod accounts_assets;
mod api;
mod backup;
mod codes;
mod errors;
mod fuzz;
mod hidden;
mod hostile;
mod learn_assets;
mod learn_progress;
mod migrations;
mod move_path;
mod passkeys;
mod postgres;
mod puzzles;
mod ratings;
mod scale_faults;
mod scale_races;
mod startup;
mod table_feel;
mod tutorial;
mod web_assets;
mod wording;
mod ws;

/// Cargo.toml turns off the automatic test targets (`autotests =
/// false`): every `tests/NAME.rs` must be a module of this file or a
/// `[[test]]` of its own there, or its tests would never run.
#[test]
fn every_test_file_is_built() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let here = std::fs::read_to_string(dir.join("tests/it.rs")).expect("tests/it.rs");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("Cargo.toml");
    let mut files = 0;
    for entry in std::fs::read_dir(dir.join("tests")).expect("tests/") {
        let path = entry.expect("an entry of tests/").path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".rs"))
        else {
            continue;
        };
        if name == "it" {
            continue;
        }
        files += 1;
        let module = here.lines().any(|l| l == format!("mod {name};"));
        let own = manifest.contains(&format!("path = \"tests/{name}.rs\""));
        assert!(
            module != own,
            "tests/{name}.rs must be either a module of tests/it.rs or a [[test]] of Cargo.toml (module: {module}, [[test]]: {own})"
        );
    }
    assert!(files >= 28, "{files} test files");
}
