//! `sequence export-static DIR`: the web UI with the WebAssembly engine as
//! plain files for any static file host (docs/deploy.md "A static
//! build"): every file the server embeds, `precache.json` (what the
//! service worker keeps offline) and `api/games` (the games' catalogue the
//! lobby reads), marked `"static": true` so that the lobby offers only
//! games in the browser.

use crate::BadInput;
use std::path::{Path, PathBuf};

/// `sequence export-static`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The folder to write (made if missing; it must be empty unless
    /// `--force`).
    pub dir: PathBuf,
    /// Write into a folder that is not empty (files of the same names are
    /// replaced).
    #[arg(long)]
    pub force: bool,
}

fn write(dir: &Path, rel: &str, contents: &[u8]) -> anyhow::Result<()> {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| anyhow::anyhow!("cannot make {}: {e}", parent.display()))?;
    }
    std::fs::write(&path, contents)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Runs `sequence export-static`.
///
/// # Errors
/// A path that is a file, not a folder, or a folder that is not empty
/// without `--force` ([`BadInput`]), or one that cannot be written.
pub fn run(a: ExportArgs) -> anyhow::Result<()> {
    if a.dir.exists() && !a.dir.is_dir() {
        return Err(BadInput(format!(
            "{} is not a folder (name a folder to write the site into)",
            a.dir.display()
        ))
        .into());
    }
    if let Ok(mut entries) = std::fs::read_dir(&a.dir) {
        if entries.next().is_some() && !a.force {
            return Err(BadInput(format!(
                "{} is not empty (add --force to write into it)",
                a.dir.display()
            ))
            .into());
        }
    }
    let files = sequence_server::assets::files();
    let mut bytes = 0;
    for (rel, contents) in &files {
        write(&a.dir, rel, contents)?;
        bytes += contents.len();
    }
    let mut catalogue = sequence_server::routes::games::catalogue();
    catalogue["static"] = serde_json::json!(true);
    write(&a.dir, "api/games", catalogue.to_string().as_bytes())?;
    write(
        &a.dir,
        "precache.json",
        sequence_server::assets::precache().to_string().as_bytes(),
    )?;
    println!(
        "wrote {} files ({} KB) and api/games, precache.json to {}",
        files.len(),
        bytes / 1024,
        a.dir.display()
    );
    Ok(())
}
