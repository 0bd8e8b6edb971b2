//! Builds everything the web client needs into the server binary: the rules engine and the CPU
//! players compiled to WebAssembly (`ludo-wasm`, built by a nested cargo into a target directory
//! of its own, so it never waits on the outer build's lock: once for the page, `/engine.wasm`,
//! and once more with a game's analysis, `/analysis.wasm`), and every file of `static/`, each
//! stored as it is, gzipped and compressed with Brotli (a quarter smaller than gzip for the
//! engine, which keeps the first load well inside its budget).

use std::env;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest
        .parent()
        .and_then(Path::parent)
        .expect("the server crate sits in crates/")
        .to_path_buf();
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    // The page's engine, and the same with a game's analysis, fetched only when one is shown.
    let wasm = build_wasm(&root, false);
    let analysis = build_wasm(&root, true);
    let mut assets: Vec<(String, Vec<u8>)> = vec![
        ("/engine.wasm".to_owned(), wasm),
        ("/analysis.wasm".to_owned(), analysis),
    ];
    // The `expert` CPU's networks learned against `medium`, each fetched by the page only when an
    // expert plays its game in the browser (those learned against `random` play only natively).
    for file in sorted_files_under(&root.join("crates/ludo-bots/src/expert/networks")) {
        let name = file
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        if !name.ends_with("-random.bin") {
            let bytes = fs::read(&file).expect("the expert's networks are readable");
            assets.push((format!("/expert/{name}"), bytes));
        }
    }
    let static_dir = manifest.join("static");
    for file in sorted_files_under(&static_dir) {
        let name = file
            .strip_prefix(&static_dir)
            .expect("a file under static/")
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = fs::read(&file).expect("a static file");
        let bytes = if name.ends_with(".js") {
            let source = String::from_utf8(bytes).expect("a script is UTF-8");
            script_comments::without_comment_lines(&source).into_bytes()
        } else {
            bytes
        };
        assets.push((format!("/{name}"), bytes));
    }
    preload_the_first_screen(&mut assets);
    write_table(&out, &assets);
}

/// The home page told of every module its entry script imports, to ask for them all at once (see
/// `src/preloads.rs`).
fn preload_the_first_screen(assets: &mut [(String, Vec<u8>)]) {
    let source = |path: &str| {
        assets
            .iter()
            .find(|(name, _)| name == path)
            .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
    };
    let modules = preloads::module_graph(preloads::ENTRY, source);
    // A rules page's answer: the modules that draw the page that the home page's scripts do not
    // already bring. Its words are shown before the engine is asked for, as the home screen's.
    let mut rules_page = vec![preloads::RULES_PAGE.to_owned()];
    rules_page.extend(preloads::module_graph(preloads::RULES_PAGE, source));
    rules_page.retain(|module| !modules.contains(module));
    // A room's answer: the modules that draw a room. Its lobby is drawn before the engine is
    // asked for (a game in it is drawn once the engine is there, see static/room/online.js).
    let mut room_page: Vec<String> = Vec::new();
    for entry in preloads::ROOM_PAGE {
        let graph = preloads::module_graph(entry, source);
        for module in std::iter::once(entry.to_owned()).chain(graph) {
            if !modules.contains(&module) && !room_page.contains(&module) {
                room_page.push(module);
            }
        }
    }
    let headers = format!(
        "/// The `Link` header of an address drawn with the engine.\n\
         pub const DRAWN_WITH_THE_ENGINE: &str = {:?};\n\
         /// The `Link` header of a rules page.\n\
         pub const RULES_PAGE: &str = {:?};\n\
         /// The `Link` header of a room.\n\
         pub const ROOM_PAGE: &str = {:?};\n",
        preloads::link_header(&[preloads::ENGINE], &[], &[]),
        preloads::link_header(&[], &rules_page, &[preloads::RULES_PAGE_STYLE]),
        preloads::link_header(&[], &room_page, &[]),
    );
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    fs::write(out.join("links.rs"), headers).expect("OUT_DIR is writable");
    let page = assets
        .iter_mut()
        .find(|(name, _)| name == "/index.html")
        .expect("static/index.html exists");
    let html = String::from_utf8(page.1.clone()).expect("the page is UTF-8");
    page.1 = preloads::with_preloads(&html, &modules).into_bytes();
}

/// Every file under `dir`, in order of path.
fn sorted_files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_under(dir, &mut files);
    files.sort();
    files
}

/// Every file under `dir`, its folders included (the client's rooms: `game/`, `room/`, …), each
/// folder watched for changes.
fn files_under(dir: &Path, files: &mut Vec<PathBuf>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    for entry in fs::read_dir(dir).expect("the folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files_under(&path, files);
        } else if path.is_file() {
            files.push(path);
        }
    }
}

/// The flag that writes the crates' sources as `/cargo/...` in the module's panic locations,
/// whatever the building user's cargo home: the module's size, which the performance test bounds
/// to the byte, then does not depend on who builds it or where.
fn remap_cargo_home() -> String {
    let home = env::var("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|_| env::var("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_else(|_| PathBuf::from("/root/.cargo"));
    println!("cargo:rerun-if-env-changed=CARGO_HOME");
    println!("cargo:rerun-if-env-changed=HOME");
    format!("--remap-path-prefix={}=/cargo", home.display())
}

/// Compiles `ludo-wasm` for `wasm32-unknown-unknown`, with its `analysis` feature or without;
/// the module's bytes.
fn build_wasm(root: &Path, analysis: bool) -> Vec<u8> {
    for watched in ["ludo-rules", "ludo-bots", "ludo-fair", "ludo-wasm"] {
        println!(
            "cargo:rerun-if-changed={}",
            root.join("crates").join(watched).display()
        );
    }
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );
    let sysroot = Command::new(env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned()))
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let has_target = sysroot
        .map(|s| {
            Path::new(&s)
                .join("lib/rustlib/wasm32-unknown-unknown")
                .exists()
        })
        .unwrap_or(false);
    if !has_target {
        panic!(
            "\n\nThe web client's engine is built for WebAssembly, and this toolchain lacks the \
             target.\nAdd it with:\n\n    rustup target add wasm32-unknown-unknown\n\n"
        );
    }
    let target_dir = root.join("target").join("wasm-build");
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .current_dir(root)
        .args([
            "build",
            "-p",
            "ludo-wasm",
            "--lib",
            "--profile",
            "wasm",
            "--target",
            "wasm32-unknown-unknown",
            "--target-dir",
        ])
        .arg(&target_dir)
        .args((!analysis).then_some("--no-default-features"))
        // The host's flags and wrappers are not the browser's.
        .env_remove("RUSTFLAGS")
        .env("CARGO_ENCODED_RUSTFLAGS", remap_cargo_home())
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .status()
        .expect("cargo runs");
    assert!(
        status.success(),
        "building ludo-wasm for the browser failed"
    );
    let module = target_dir.join("wasm32-unknown-unknown/wasm/ludo_wasm.wasm");
    fs::read(&module).expect("the WebAssembly module was built")
}

/// Writes `assets.rs`: each asset's path, content type, bytes, gzipped bytes and Brotli bytes.
fn write_table(out: &Path, assets: &[(String, Vec<u8>)]) {
    let mut table = String::from(
        "/// Every file the web client needs: path, content type, bytes, gzipped, Brotli.\n",
    );
    table.push_str("pub static ASSETS: &[crate::Asset] = &[\n");
    for (index, (path, bytes)) in assets.iter().enumerate() {
        let raw = out.join(format!("asset-{index}"));
        let gz = out.join(format!("asset-{index}.gz"));
        let br = out.join(format!("asset-{index}.br"));
        fs::write(&raw, bytes).expect("OUT_DIR is writable");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(bytes).expect("gzip in memory");
        fs::write(&gz, encoder.finish().expect("gzip in memory")).expect("OUT_DIR is writable");
        let mut brotli = Vec::new();
        let params = brotli::enc::BrotliEncoderParams {
            quality: 11,
            lgwin: 22,
            ..Default::default()
        };
        brotli::BrotliCompress(&mut &bytes[..], &mut brotli, &params).expect("Brotli in memory");
        fs::write(&br, brotli).expect("OUT_DIR is writable");
        table.push_str(&format!(
            "    ({path:?}, {:?}, include_bytes!({:?}), include_bytes!({:?}), include_bytes!({:?})),\n",
            content_type(path),
            raw.display().to_string(),
            gz.display().to_string(),
            br.display().to_string()
        ));
    }
    table.push_str("];\n");
    fs::write(out.join("assets.rs"), table).expect("OUT_DIR is writable");
}

// The scripts as they are sent: whole-line comments left out, lines kept.
#[path = "src/script_comments.rs"]
mod script_comments;

// The home page's preloads of what its first screen waits for.
#[path = "src/preloads.rs"]
mod preloads;

// The content type of a file by its name, shared with the server (which serves files from disk
// with `--static-dir`).
include!("src/content_type.rs");
