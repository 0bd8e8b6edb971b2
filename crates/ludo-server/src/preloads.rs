//! The home page as it is sent: told at once of every file its first screen waits for.
//!
//! A browser learns of a module only when it has read the one that imports it, so the page's
//! scripts would arrive a level of imports at a time, a round trip each, and the engine's
//! WebAssembly only once they had all run. The server's build (`build.rs`) therefore writes into
//! `index.html`, after its module script, a `<link rel="modulepreload">` for every module that
//! the entry script imports statically (directly or through others), so that all of them are
//! asked for together. Modules imported with `import()` (loaded when asked for) are left out.
//! The engine is preloaded by the answer's `Link` header on the addresses that draw with it
//! (`routes/pages.rs`), and a rules page's answer adds the modules that draw it, which `app.js`
//! imports only there; the home screen is drawn without the engine, and loads it once shown.

/// The script every page starts from.
pub const ENTRY: &str = "/app.js";

/// The modules `source` (at `path`, such as `/game/table.js`) imports statically, as absolute
/// paths, in the order written: `import … from '…'`, `export … from '…'` and `import '…'`.
pub fn static_imports(path: &str, source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(at) = statement_start(rest) {
        let statement = &rest[at..];
        let end = statement.find(';').unwrap_or(statement.len());
        if let Some(specifier) = last_quoted(&statement[..end]) {
            found.push(resolve(path, specifier));
        }
        rest = &statement[end..];
    }
    found
}

/// Where the next `import` or `export … from` statement starts: at the beginning of a line,
/// and not a call (`import(`).
fn statement_start(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let is_import = line.starts_with("import ") || line.starts_with("import{");
        let is_reexport = line.starts_with("export ")
            && (line.contains(" from '") || line.contains(" from \"") || line.contains("} from"));
        if is_import || is_reexport {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// The last string in single or double quotes in `statement`: its module specifier.
fn last_quoted(statement: &str) -> Option<&str> {
    let close = statement.rfind(['\'', '"'])?;
    let quote = statement[close..].chars().next()?;
    let open = statement[..close].rfind(quote)?;
    Some(&statement[open + 1..close])
}

/// `specifier` (`./dom.js`, `../i18n/i18n.js`, `/engine/engine.js`) as an absolute path, read
/// from the module at `from`.
fn resolve(from: &str, specifier: &str) -> String {
    if specifier.starts_with('/') {
        return specifier.to_owned();
    }
    let mut parts: Vec<&str> = from.split('/').filter(|p| !p.is_empty()).collect();
    parts.pop();
    for part in specifier.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Every module `entry` imports statically, directly or not, each once, in the order met
/// (breadth first); `read` gives a module's source by its path, `None` for one that is missing.
pub fn module_graph(entry: &str, read: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let mut seen = vec![entry.to_owned()];
    let mut next = 0;
    while next < seen.len() {
        let path = seen[next].clone();
        next += 1;
        let Some(source) = read(&path) else { continue };
        for import in static_imports(&path, &source) {
            if !seen.contains(&import) {
                seen.push(import);
            }
        }
    }
    seen.remove(0);
    seen
}

/// `page` with a preload of each of `modules` right after the entry script's tag. A page without
/// that tag is returned as it is.
pub fn with_preloads(page: &str, modules: &[String]) -> String {
    let tag = format!("<script type=\"module\" src=\"{ENTRY}\"></script>\n");
    let Some(at) = page.find(&tag) else {
        return page.to_owned();
    };
    let at = at + tag.len();
    let mut links = String::new();
    for module in modules {
        links.push_str(&format!("<link rel=\"modulepreload\" href=\"{module}\">\n"));
    }
    format!("{}{links}{}", &page[..at], &page[at..])
}

/// The pages' own stylesheet of the rules pages, which `rulebook/rulespage.js` adds when it loads.
pub const RULES_PAGE_STYLE: &str = "/rulebook/rulespage.css";

/// The module that draws a rules page, loaded by `app.js` with `import()` on a rules page's address.
pub const RULES_PAGE: &str = "/rulebook/rulespage.js";

/// The modules that draw a room, loaded by `app.js` with `import()` on a room's address.
pub const ROOM_PAGE: [&str; 2] = ["/room/invite.js", "/room/online.js"];

/// The preload of the engine, as `static/engine/engine.js` fetches it (CORS mode, the page's own
/// credentials), so that the fetch uses it.
pub const ENGINE: &str =
    "</engine.wasm>; rel=preload; as=fetch; type=\"application/wasm\"; crossorigin";

/// A `Link` header's value that preloads each of `first` (whole links, as [`ENGINE`]), each of
/// `modules` and each of `styles`.
pub fn link_header(first: &[&str], modules: &[String], styles: &[&str]) -> String {
    let mut links: Vec<String> = first.iter().map(|link| (*link).to_owned()).collect();
    links.extend(modules.iter().map(|m| format!("<{m}>; rel=modulepreload")));
    links.extend(
        styles
            .iter()
            .map(|s| format!("<{s}>; rel=preload; as=style")),
    );
    links.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_on_one_or_many_lines_and_re_exports_are_found_and_resolved() {
        let source = "import { a } from './a.js';\nimport {\n  b,\n  c,\n} from '../lib/b.js';\n\
                      import './side.js';\nexport { d } from \"./d.js\";\nexport function e() {}\n";
        assert_eq!(
            static_imports("/game/table.js", source),
            ["/game/a.js", "/lib/b.js", "/game/side.js", "/game/d.js"]
        );
    }

    #[test]
    fn a_module_loaded_when_asked_for_or_a_word_in_a_comment_is_no_import() {
        let source = "const m = await import('./later.js');\n// import this from './not.js';\n\
                      x.import('./nor.js');\n  const s = 'import a from \"./no.js\"';\n";
        assert!(static_imports("/app.js", source).is_empty());
    }

    #[test]
    fn the_graph_holds_each_module_once_and_not_the_entry() {
        let files = |path: &str| {
            Some(
                match path {
                    "/app.js" => "import './a.js';\nimport './b.js';\n",
                    "/a.js" => "import './b.js';\nimport './app.js';\n",
                    "/b.js" => "import './c/d.js';\n",
                    _ => "",
                }
                .to_owned(),
            )
        };
        assert_eq!(
            module_graph("/app.js", files),
            ["/a.js", "/b.js", "/c/d.js"]
        );
    }

    #[test]
    fn a_link_header_names_the_engine_then_the_modules_then_the_styles() {
        assert_eq!(
            link_header(&[ENGINE], &["/a.js".to_owned()], &["/a.css"]),
            "</engine.wasm>; rel=preload; as=fetch; type=\"application/wasm\"; crossorigin, \
             </a.js>; rel=modulepreload, </a.css>; rel=preload; as=style"
        );
    }

    #[test]
    fn the_real_scripts_give_the_home_page_its_modules_and_a_rules_page_the_rest() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let read = |path: &str| std::fs::read_to_string(dir.join(&path[1..])).ok();
        let home = module_graph(ENTRY, read);
        assert!(home.contains(&"/game/table.js".to_owned()), "{home:?}");
        assert!(
            !home.contains(&RULES_PAGE.to_owned()),
            "loaded only where it is drawn"
        );
        let rules = module_graph(RULES_PAGE, read);
        assert!(
            rules.contains(&"/rulebook/rulestext.js".to_owned()),
            "{rules:?}"
        );
        let link = link_header(&[], &rules, &[RULES_PAGE_STYLE]);
        assert!(link.ends_with("</rulebook/rulespage.css>; rel=preload; as=style"));
    }

    #[test]
    fn a_room_s_modules_are_loaded_only_on_a_room_and_bring_what_draws_it() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let read = |path: &str| std::fs::read_to_string(dir.join(&path[1..])).ok();
        let home = module_graph(ENTRY, read);
        for entry in ROOM_PAGE {
            assert!(read(entry).is_some(), "{entry} exists");
            assert!(!home.contains(&entry.to_owned()), "{entry}: only on a room");
        }
        let room = module_graph("/room/online.js", read);
        assert!(
            room.contains(&"/room/roomsettings.js".to_owned()),
            "{room:?}"
        );
    }

    #[test]
    fn the_preloads_follow_the_entry_script() {
        let page = "<head>\n<script type=\"module\" src=\"/app.js\"></script>\n</head>\n";
        let sent = with_preloads(page, &["/a.js".to_owned()]);
        assert_eq!(
            sent,
            "<head>\n<script type=\"module\" src=\"/app.js\"></script>\n\
             <link rel=\"modulepreload\" href=\"/a.js\">\n</head>\n"
        );
    }
}
