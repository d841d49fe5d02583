//! The PyO3 bindings.
