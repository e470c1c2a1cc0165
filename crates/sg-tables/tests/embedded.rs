//! The committed tables equal the values of the games' definitions.
#![cfg(feature = "embedded")]

use sg_core::knight::{MoveSet, knight_square_table};
use sg_core::row::{row_grundy, row_table_by_definition};
use sg_tables::{Game, Table, embedded_knight_table, embedded_row_table};

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
