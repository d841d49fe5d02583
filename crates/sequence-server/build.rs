//! Rebuilds the server when a migration is added or changed: `sqlx::migrate!`
//! embeds `migrations/` in the binary, and a new file there is not
//! otherwise a reason to rebuild.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
