//! `sequence selfplay --game stacks` and `sequence bench --game stacks`.

use crate::{BenchArgs, SelfplayArgs};

/// Random legal Stacks games.
pub fn selfplay(_a: SelfplayArgs) -> anyhow::Result<()> {
    anyhow::bail!("stacks selfplay is not built yet")
}

/// Stacks playout throughput.
pub fn bench(_a: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("stacks bench is not built yet")
}

/// Verifies a Stacks record; on success the summary JSON of RECORD-STACKS.md.
pub fn verify(_v: serde_json::Value) -> Result<serde_json::Value, sequence_common::record::ReplayError> {
    Err(sequence_common::record::MalformedRecord("stacks records are not supported yet".into()).into())
}
