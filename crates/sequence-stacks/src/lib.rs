//! Sequence Stacks rules engine (RULES.md Part 2, S1–S7). Pure: no I/O, no clock, no global state.
