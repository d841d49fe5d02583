//! A line a bot program writes in answer to a move request (stacks;
//! docs/bot-protocol.md).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sequence_fuzz::bot_line::<sequence_stacks::Game>(data));
