//! A record of Sequence Stacks as `sequence verify` reads it (RECORD-STACKS.md).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sequence_fuzz::record::<sequence_stacks::Game>(data));
