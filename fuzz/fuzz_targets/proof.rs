//! Certificates (`grundy proof check`, `sg_search::proof::check`) on any
//! bytes: never a panic, and never a false proof. The input is read twice:
//! as a whole file, which must be refused or accepted without a panic; and
//! as edits (offset, byte) of the payload of a true certificate (of Cram
//! 4x5, Chomp 3x4 or Node-Kayles on a 3 x 4 grid, written by `prove` from
//! the solver), whose checksums are then made right so that the check of
//! the claims is reached: an edited certificate is refused or proves the
//! same nimber, since its game and root are those of the true one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_search::Solver;
use sg_search::games::chomp::Chomp;
use sg_search::games::cram::Cram;
use sg_search::games::node_kayles::NodeKayles;
use sg_search::proof::{ProofFile, ProofGame, check, prove};
use std::sync::OnceLock;

/// The certificate of `game`'s start, from the solver.
fn proof_of<G: ProofGame>(game: &G) -> ProofFile {
    let solver = Solver::new(game);
    solver.nimber(&game.root()).unwrap();
    prove(&solver, "fuzz").unwrap()
}

/// The true certificates the edits start from.
fn proofs() -> &'static [ProofFile; 3] {
    static PROOFS: OnceLock<[ProofFile; 3]> = OnceLock::new();
    PROOFS.get_or_init(|| {
        [
            proof_of(&Cram::<u64>::new(4, 5).unwrap()),
            proof_of(&Chomp::<u64>::rectangle(3, 4).unwrap()),
            proof_of(&NodeKayles::<u64>::grid(3, 4).unwrap()),
        ]
    })
}

/// `proof` with its header's payload length and checksum made right for
/// `payload` in place of its own.
fn with_payload(proof: &[u8], payload: &[u8]) -> Vec<u8> {
    let metadata_len = u32::from_le_bytes(proof[16..20].try_into().unwrap()) as usize;
    let mut file = proof[..64 + metadata_len].to_vec();
    file[24..32].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    file[32..36].copy_from_slice(&crc32fast::hash(payload).to_le_bytes());
    file.extend_from_slice(payload);
    file
}

fuzz_target!(|data: &[u8]| {
    let _ = check(data);
    let Some((&which, edits)) = data.split_first() else {
        return;
    };
    let proof = &proofs()[usize::from(which) % 3];
    let metadata_len = u32::from_le_bytes(proof.bytes[16..20].try_into().unwrap()) as usize;
    let mut payload = proof.bytes[64 + metadata_len..].to_vec();
    // Edits of three bytes: an offset (two bytes, little-endian) and a
    // value; an offset past the end cuts the payload there.
    for edit in edits.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([edit[0], edit[1]]));
        match payload.get_mut(at) {
            Some(byte) => *byte = edit[2],
            None => payload.truncate(usize::from(edit[2]) * payload.len() / 256),
        }
    }
    if let Ok(checked) = check(&with_payload(&proof.bytes, &payload)) {
        assert_eq!(checked.nimber, proof.nimber, "a false proof was accepted");
    }
});
