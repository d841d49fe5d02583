//! The server's log lines caught in memory: a [`LogBuf`] is the writer of
//! a test's `tracing` subscriber, and its text is read back to check what
//! was logged.

use std::sync::{Arc, Mutex};

/// A log writer into a shared buffer (clones write to the same one).
#[derive(Clone, Default)]
pub struct LogBuf(Arc<Mutex<Vec<u8>>>);

impl LogBuf {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("the log").clone()).expect("UTF-8 logs")
    }
}

impl std::io::Write for LogBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("the log buffer").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
