//! The help texts say what the output is, and the generated manual page and
//! shell completions cover every subcommand.

use crate::common::grundy;
use sg_core::knight::TriangleTable;

const SUBCOMMANDS: [&str; 16] = [
    "hdu1524",
    "uva11927",
    "hdu5724",
    "lightoj1315",
    "tables",
    "graph",
    "knight",
    "row",
    "octal",
    "floor",
    "cram",
    "node-kayles",
    "chomp",
    "proof",
    "completions",
    "man",
];

fn stdout(args: &[&str]) -> String {
    let out = grundy(args, "");
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn help_matches_the_output() {
    let help = stdout(&["lightoj1315", "--help"]);
    assert!(
        help.contains("--hint\n          After Alice, print a winning move: `Case k: Alice K X Y`"),
        "{help}"
    );
    let limit = TriangleTable::DEFAULT_MAX_SUM.to_string();
    assert!(help.contains(&format!("up to x + y = {limit}")), "{help}");
    let help = stdout(&["hdu5724", "--help"]);
    assert!(help.contains("closed form (staircase Nim)"), "{help}");
    assert!(stdout(&["knight", "--help"]).contains(&format!("x + y <= {limit}")));
    for name in [
        "hdu1524",
        "uva11927",
        "hdu5724",
        "lightoj1315",
        "graph",
        "knight",
        "row",
        "octal",
        "floor",
        "cram",
        "node-kayles",
        "chomp",
    ] {
        assert!(stdout(&[name, "--help"]).contains("--json"), "{name}");
    }
    // `--hint` output as the help says.
    let out = grundy(&["lightoj1315", "--hint"], "1\n1\n3 5\n");
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.starts_with("Case 1: Alice 1 "), "{line}");
}

#[test]
fn man_page_lists_every_subcommand() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH grundy 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    for name in SUBCOMMANDS {
        // roff writes a hyphen as `\-`.
        let name = name.replace('-', "\\-");
        assert!(page.contains(&format!("grundy\\-{name}")), "{name}");
    }
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "elvish", "fish", "powershell", "zsh"] {
        let script = stdout(&["completions", shell]);
        for name in SUBCOMMANDS {
            assert!(script.contains(name), "{shell}: {name}");
        }
        assert!(script.contains("json"), "{shell}: the --json option");
    }
    // The bash script is valid bash, where bash is installed.
    let script = stdout(&["completions", "bash"]);
    if let Ok(mut bash) = std::process::Command::new("bash")
        .arg("-n")
        .stdin(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        bash.stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        assert!(bash.wait().unwrap().success(), "bash -n refuses the script");
    }
    let out = grundy(&["completions", "tcsh"], "");
    assert_eq!(out.status.code(), Some(2));
}
