//! Build settings of the `kifu` binary that Cargo.toml cannot express.
//!
//! On Linux with glibc the binary is linked as a fixed-address executable (`-no-pie`) rather than
//! a position-independent one: a position-independent kifu carries about 6,400 relocations that
//! the dynamic loader applies at every start, each writing a page of the binary's data that is
//! then a private copy (about 20 page faults), for a run that may last only a few milliseconds
//! (a collection of a few hundred games). The price is that the binary itself is not loaded at
//! a random address (its libraries, stacks and heap still are). Measured in the commit that
//! added it. Only the binaries are linked so; the library, tests and examples are not.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
