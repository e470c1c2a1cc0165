//! Writes every benchmark input into the folder given as the first argument.
fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).expect("usage: write_inputs DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    for input in sg_bench::all_inputs() {
        std::fs::write(dir.join(input.name), &input.bytes).unwrap();
        println!("{} {} {}", input.name, input.subcommand, input.bytes.len());
    }
}
