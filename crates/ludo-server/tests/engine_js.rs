//! Runs the browser's engine module (`static/engine.js`) and the board drawings' cells
//! (`static/board.js`) under Node against the WebAssembly module built into the server.

use std::process::Command;

#[test]
fn the_browser_engine_module_plays_a_game_under_node() {
    let node = Command::new("node").arg("--version").output();
    if node.is_err() {
        // CI installs Node (see .ci/run) and must run this; elsewhere it is skipped, said aloud.
        assert!(
            std::env::var_os("CI").is_none(),
            "node is needed for the JavaScript engine test"
        );
        eprintln!("node is not installed: skipping the JavaScript engine test");
        return;
    }
    let dir = std::env::temp_dir().join(format!("ludo-engine-js-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wasm = dir.join("engine.wasm");
    let (_, _, bytes, ..) = ludo_server::assets()
        .iter()
        .find(|(path, ..)| *path == "/engine.wasm")
        .copied()
        .expect("the engine is built in");
    std::fs::write(&wasm, bytes).unwrap();
    let dir_js = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js");
    let output = Command::new("node")
        .args(["--test", "engine.test.mjs", "board.test.mjs"])
        .current_dir(dir_js)
        .env("LUDO_WASM", &wasm)
        .output()
        .expect("node runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
