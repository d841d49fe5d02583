//! How a load test reports its progress: [`Progress`], which the
//! `sequence` binary implements with progress bars on stderr and
//! [`NoProgress`] drops.

/// A phase of a load test, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The tables made (and warmed up): one step a table.
    Tables,
    /// The WebSocket clients connected (or failed to): one step a client.
    Websockets,
    /// The measuring window: one step a second.
    Measuring,
}

/// Where a load test reports its progress. The phases run one after the
/// other; the steps of one come from many tasks at once.
pub trait Progress: Send + Sync {
    /// `phase` begins, `len` steps long.
    fn start(&self, phase: Phase, len: u64);
    /// One more step of the phase under way.
    fn step(&self);
    /// The moves played so far, once a second while measuring.
    fn moves(&self, moves: u64);
    /// The phase under way is over.
    fn finish(&self);
}

/// Progress reported to no one.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _phase: Phase, _len: u64) {}
    fn step(&self) {}
    fn moves(&self, _moves: u64) {}
    fn finish(&self) {}
}
