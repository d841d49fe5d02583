//! A move in the record and API notation of classic, and a card code.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sequence_fuzz::notation::<sequence_classic::Game>(data));
