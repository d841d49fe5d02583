//! What one seat may know.
