//! A record of classic Sequence as `sequence verify` reads it (RECORD.md).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sequence_fuzz::record::<sequence_classic::Game>(data));
