//! The command line (placeholder while it is written).
