//! A text frame a client sends on the table WebSocket (docs/api.md).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // WebSocket text frames are UTF-8 (the library refuses others)
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = sequence_server::ws::parse_client(text);
    }
});
