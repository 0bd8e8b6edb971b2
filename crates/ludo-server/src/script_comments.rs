//! The web client's scripts as they are sent: each line that holds only a comment left empty.
//!
//! The modules are written for their readers, with a comment above nearly everything, and served
//! as they are written otherwise (no bundler, no minifier: see docs/web-client.md). A fifth of
//! their bytes are whole-line comments, which no browser needs; the server's build
//! (`build.rs`) empties those lines. Lines are kept, so that a line number in a browser's error
//! or stack trace still points at the source. Only lines that are a comment from their first
//! character to their last are emptied: a `//` line, or the lines of a block that opens a line
//! with `/*` and closes one with `*/` (a block that closes before code on its last line is kept
//! whole). A multi-line template literal whose own line began so would be cut, so none in
//! `static/` does (a test below reads the sources).

/// `source` with every line that holds only a comment left empty.
pub fn without_comment_lines(source: &str) -> String {
    let lines: Vec<&str> = source.split('\n').collect();
    let mut emptied = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let text = lines[i].trim();
        if text.starts_with("//") {
            emptied[i] = true;
        } else if let Some(rest) = text.strip_prefix("/*") {
            // The block's last line: this one, or the first after it that closes it.
            let (last, closing) = match rest.find("*/") {
                Some(end) => (i, &rest[end..]),
                None => match (i + 1..lines.len()).find(|&k| lines[k].contains("*/")) {
                    Some(k) => (k, &lines[k][lines[k].find("*/").expect("found")..]),
                    None => (lines.len() - 1, "*/"),
                },
            };
            if closing.trim_end() == "*/" {
                emptied[i..=last].fill(true);
            }
            i = last;
        }
        i += 1;
    }
    let kept: Vec<&str> = lines
        .iter()
        .zip(&emptied)
        .map(|(line, &emptied)| if emptied { "" } else { line })
        .collect();
    kept.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_lines_are_emptied_and_code_lines_kept_with_their_numbers() {
        let source = "// A module.\nimport { a } from './a.js';\n\n/**\n * Doubles.\n */\nexport const twice = (n) => 2 * n; // inline\n  /* one line */\nconst url = 'http://x'; /* kept */";
        let served = without_comment_lines(source);
        assert_eq!(
            served,
            "\nimport { a } from './a.js';\n\n\n\n\nexport const twice = (n) => 2 * n; // inline\n\nconst url = 'http://x'; /* kept */"
        );
        assert_eq!(served.lines().count(), source.lines().count());
    }

    #[test]
    fn a_block_that_closes_before_code_is_kept_whole() {
        let source = "/* a\n b */ const x = 1;\nconst y = 2;\n/* c */ const z = 3;";
        assert_eq!(without_comment_lines(source), source,);
    }

    #[test]
    fn no_template_literal_of_the_client_has_a_line_that_would_read_as_a_comment() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/static");
        let mut files = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(dir)];
        while let Some(d) = dirs.pop() {
            for entry in std::fs::read_dir(d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "js") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 30);
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            let mut in_template = false;
            for (n, line) in source.lines().enumerate() {
                let text = line.trim();
                let commented = text.starts_with("//") || text.starts_with("/*");
                if in_template && commented {
                    panic!(
                        "{}:{}: a template literal line reads as a comment",
                        file.display(),
                        n + 1
                    );
                }
                let ticks = line.replace("\\`", "").matches('`').count();
                if !commented && !text.starts_with('*') && ticks % 2 == 1 {
                    in_template = !in_template;
                }
            }
        }
    }
}
