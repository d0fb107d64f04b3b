//! Compiles Recast, Detour and `cpp/solo_mesh.cpp` (the Recast demo's solo
//! build and its path query) into a static library, for release builds only
//! (`cargo bench`, `--release`): a debug build, as `cargo test --workspace`
//! makes, compiles no C++ and the crate says Detour is absent.
//!
//! Recast's and Detour's sources are not kept in this repository. They are
//! read from `RECASTNAVIGATION_DIR` (a recastnavigation checkout: the folder
//! holding `Recast/` and `Detour/`) or else from the upstream snapshot that
//! the crates.io package `recastnavigation-sys` 1.0.3 bundles, where
//! `cargo fetch` puts it (see the crate docs).

use std::env;
use std::path::{Path, PathBuf};

fn sources() -> Option<PathBuf> {
    if let Ok(d) = env::var("RECASTNAVIGATION_DIR") {
        return Some(PathBuf::from(d));
    }
    let home = env::var("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|_| env::var("HOME").map(|h| Path::new(&h).join(".cargo")))
        .ok()?;
    let src = home.join("registry").join("src");
    std::fs::read_dir(src).ok()?.flatten().find_map(|index| {
        let d = index
            .path()
            .join("recastnavigation-sys-1.0.3")
            .join("recastnavigation");
        d.join("Detour").is_dir().then_some(d)
    })
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(detour)");
    println!("cargo::rerun-if-env-changed=RECASTNAVIGATION_DIR");
    println!("cargo::rerun-if-changed=cpp/solo_mesh.cpp");
    if env::var("PROFILE").as_deref() != Ok("release") {
        return;
    }
    let Some(root) = sources() else {
        println!(
            "cargo::warning=Detour's sources not found: set RECASTNAVIGATION_DIR or fetch recastnavigation-sys 1.0.3 (crates/detour docs); Detour is left out"
        );
        return;
    };
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .opt_level(2)
        .warnings(false)
        .include(root.join("Recast/Include"))
        .include(root.join("Detour/Include"))
        .file("cpp/solo_mesh.cpp");
    for lib in ["Recast", "Detour"] {
        let dir = root.join(lib).join("Source");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
            .collect();
        files.sort();
        build.files(files);
    }
    build.compile("navscope_detour");
    println!("cargo::rustc-cfg=detour");
}
