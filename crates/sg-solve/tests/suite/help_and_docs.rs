//! The help texts say what the output is, and the generated manual page and
//! shell completions cover every subcommand.

use crate::common::Bounded;
use crate::common::{grundy, number_normalised, path_with_grundy, seconds_normalised};
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
    if let Ok(mut bash) = crate::common::command("bash")
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
        assert!(
            crate::common::finish(bash, "bash -n").status.success(),
            "bash -n refuses the script"
        );
    }
    let out = grundy(&["completions", "tcsh"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// The JSON object each help text shows is what the program prints for
/// that help's own example (with `--hint` where the object has a move),
/// its `"seconds"` aside, and for `cram` its `"positions"` and
/// `"expanded"` too: the entries of the search's table and its work,
/// which depend on the number of threads and change with the search. Those of the small searches are compared:
/// the 5-cycle of `node-kayles` (0), and `chomp 3x4` on one thread (17,
/// as on two; more threads may search more).
#[test]
fn json_of_the_help_is_the_output() {
    let dag = "3\n1 1\n1 2\n0\n1 0\n2 0 1\n0\n";
    let cycle = "5 5\n0 1\n1 2\n2 3\n3 4\n4 0\n";
    let cases: [(&[&str], &str, usize); 9] = [
        (&["hdu1524", "--hint", "--json"], dag, 1),
        (&["uva11927", "--json"], "2 1\n0 1\n1 0\n0 0\n", 0),
        (&["hdu5724", "--hint", "--json"], "1\n1\n1 19\n", 0),
        (&["lightoj1315", "--hint", "--json"], "1\n1\n3 5\n", 0),
        (&["knight", "2", "5", "--json"], "", 0),
        (&["row", "1", "19", "--json"], "", 0),
        (&["node-kayles", "--json"], cycle, 0),
        (
            &["chomp", "3x4", "--hint", "--json", "--threads", "1"],
            "",
            0,
        ),
        (&["cram", "4x7", "--hint", "--json"], "", 0),
    ];
    for (args, input, line) in cases {
        let out = grundy(args, input);
        assert!(out.status.success(), "{args:?}: {out:?}");
        let printed = String::from_utf8(out.stdout).unwrap();
        let object = printed.lines().nth(line).unwrap();
        let help = stdout(&[args[0], "--help"]);
        let normalised = |text: &str| {
            let text = seconds_normalised(text);
            if args[0] == "cram" {
                number_normalised(&number_normalised(&text, "positions"), "expanded")
            } else {
                text
            }
        };
        assert!(
            normalised(&help).contains(&normalised(object)),
            "grundy {} --help does not show {object}:\n{help}",
            args[0]
        );
    }
    // `proof check`: what it prints of the certificate of Cram 4x7.
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("cram-4x7.proof");
    let proof = proof.to_str().unwrap();
    assert!(
        grundy(&["cram", "4x7", "--proof", proof], "")
            .status
            .success()
    );
    let checked = stdout(&["proof", "check", proof]);
    let line = checked.trim_end().split_once(": ").unwrap().1;
    let help = stdout(&["proof", "check", "--help"]);
    assert!(
        help.contains(&format!("`cram 4x7: {line}`")),
        "{line}:\n{help}"
    );
}

/// The examples of the help texts with the output after `#`
/// (`printf ... | grundy uva11927   # First`) print it, its lines joined
/// by `, `.
#[cfg(unix)]
#[test]
fn commented_examples_of_the_help_print_the_comment() {
    let mut count = 0;
    for name in SUBCOMMANDS {
        let help = stdout(&[name, "--help"]);
        for line in help.lines() {
            let Some((command, shown)) = line.trim_start().split_once("   # ") else {
                continue;
            };
            if !(command.starts_with("printf ") || command.starts_with("grundy ")) {
                continue;
            }
            let out = crate::common::command("sh")
                .arg("-c")
                .arg(command)
                .env("PATH", path_with_grundy())
                .stdin(std::process::Stdio::null())
                .bounded_output()
                .unwrap();
            assert!(out.status.success(), "{command}: {out:?}");
            let printed = String::from_utf8(out.stdout).unwrap();
            let printed: Vec<&str> = printed.lines().collect();
            assert_eq!(
                printed.join(", "),
                shown.trim(),
                "grundy {name} --help: {command}"
            );
            count += 1;
        }
    }
    assert!(count >= 5, "{count} commented examples found");
}
