//! The committed tables equal the values of the games' definitions.
#![cfg(feature = "embedded")]

use sg_core::knight::{MoveSet, knight_square_table};
use sg_core::row::{row_grundy, row_table_by_definition};
use sg_tables::format::Game;
use sg_tables::{Table, TableError, embedded_knight_table, embedded_row_table};

#[test]
fn row_table_equals_closed_form_and_definition_on_all_rows() {
    let table = embedded_row_table();
    assert_eq!(table.width(), 20);
    let by_definition = row_table_by_definition(20);
    for mask in 0..1u64 << 20 {
        let g = table.get(mask).unwrap();
        assert_eq!(u32::from(g), row_grundy(mask), "closed form, row {mask:#b}");
        assert_eq!(g, by_definition[mask as usize], "definition, row {mask:#b}");
    }
    assert_eq!(table.get(1 << 20), None);
}

#[test]
fn knight_table_equals_sequential_definition() {
    let table = embedded_knight_table();
    assert_eq!(table.size(), 1024);
    assert_eq!(table.moves(), &MoveSet::hyper_knight());
    assert_eq!(
        table.values(),
        &knight_square_table(table.moves(), 1024)[..]
    );
    assert_eq!(table.get(1023, 1023), Some(table.values()[1024 * 1024 - 1]));
    assert_eq!(table.get(1024, 0), None);
}

#[test]
fn embedded_files_are_valid_and_aligned() {
    for bytes in [
        sg_tables::embedded_row_bytes(),
        sg_tables::embedded_knight_bytes(),
    ] {
        assert_eq!(bytes.as_ptr() as usize % 64, 0);
        let table = Table::from_bytes(bytes).unwrap();
        assert!(table.info().metadata.generator.starts_with("xtask "));
        assert!(matches!(
            table.info().metadata.game,
            Game::Row { width: 20 } | Game::Knight { size: 1024, .. }
        ));
    }
}

#[test]
fn knight_pattern_is_certified_and_agrees_with_the_tables() {
    let pattern = sg_tables::embedded_knight_pattern();
    assert_eq!(pattern.moves(), MoveSet::hyper_knight());
    // The certificate is the proof; this is an independent spot check
    // against the knight table of the definition.
    let table = embedded_knight_table();
    for x in (0..1024).step_by(7) {
        for y in 0..1024 {
            assert_eq!(Some(pattern.value(x, y)), table.get(x, y), "({x}, {y})");
        }
    }
    let bytes = sg_tables::embedded_knight_pattern_bytes();
    assert_eq!(bytes.as_ptr() as usize % 64, 0);
    let table = Table::from_bytes(bytes).unwrap();
    assert!(matches!(
        table.info().metadata.game,
        Game::KnightPattern { .. }
    ));
    assert!(table.knight().is_err(), "a pattern is not a knight table");
    assert!(
        Table::from_bytes(sg_tables::embedded_knight_bytes())
            .unwrap()
            .knight_pattern()
            .is_err()
    );
}

#[test]
fn a_pattern_file_that_does_not_certify_is_refused() {
    // A well-formed file (right checksums) whose description is wrong: the
    // certificate, rerun on every load, refuses it.
    let file = Table::from_bytes(sg_tables::embedded_knight_pattern_bytes()).unwrap();
    let mut payload = file.payload().to_vec();
    let last = payload.len() - 1;
    payload[last] ^= 1;
    let forged = sg_tables::format::encode(&file.info().metadata, &payload).unwrap();
    let forged = sg_tables::AlignedBytes::copy_from(&forged);
    let err = Table::from_bytes(forged.as_slice())
        .unwrap()
        .knight_pattern()
        .unwrap_err();
    assert!(
        matches!(err, TableError::KnightPattern { .. }),
        "the certificate's failure, typed: {err:?}"
    );
    assert!(err.to_string().contains("knight pattern"), "{err}");
}

#[test]
fn octal_catalogue_is_valid_and_has_the_classics() {
    let bytes = sg_tables::embedded_octal_catalogue_bytes();
    assert_eq!(bytes.as_ptr() as usize % 64, 0);
    let table = Table::from_bytes(bytes).unwrap();
    let Game::OctalCatalogue { limit, games, .. } = table.info().metadata.game else {
        panic!("not a catalogue");
    };
    let catalogue = sg_tables::embedded_octal_catalogue();
    assert_eq!(
        (catalogue.limit(), catalogue.entries().len()),
        (limit, games as usize)
    );
    let get = |code: &str| {
        catalogue
            .get(&sg_octal::Rules::parse(code).unwrap())
            .unwrap()
    };
    // Kayles: preperiod 71, period 12 (Winning Ways).
    let kayles = get("0.77").period.unwrap();
    assert_eq!((kayles.preperiod, kayles.period), (71, 12));
    // Dawson's Kayles: period 34.
    assert_eq!(get("0.07").period.unwrap().period, 34);
    // Officers: no period (none is known).
    let officers = get(".6");
    assert_eq!((officers.period, officers.computed), (None, limit + 1));
}
