//! A line a bot program writes in answer to a move request (classic;
//! docs/bot-protocol.md).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sequence_fuzz::bot_line::<sequence_classic::Game>(data));
