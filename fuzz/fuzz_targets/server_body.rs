//! A JSON request body of the server's API: the first byte picks the
//! route (`sequence_server::routes::BODIES`), the rest is the body.
#![no_main]
use sequence_server::routes::{read_body, BODIES};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let route = BODIES[usize::from(pick) % BODIES.len()];
    // refusals are messages, never panics; an accepted body was JSON
    if read_body(route, body).is_ok() {
        assert!(std::str::from_utf8(body).is_ok(), "{route}: a body that is not UTF-8 was read");
    }
});
