//! Checks of game records that every game's record tests share (included by path).

#![allow(dead_code)] // each test binary uses its own subset

use crumble_core::GameText;
use crumble_core::game::record::Record;

/// Reads `text` as a record of `G`, checks that writing it and reading it back gives the same
/// record, and that writing is stable.
pub fn round_trip<G: GameText>(text: &str) -> Record<G> {
    let rec = Record::<G>::parse(text).unwrap_or_else(|e| panic!("refused: {e}\n{text}"));
    let written = rec.write();
    let back = Record::<G>::parse(&written)
        .unwrap_or_else(|e| panic!("own output refused: {e}\n{written}"));
    assert_eq!(back, rec, "written:\n{written}");
    assert_eq!(back.write(), written, "writing is stable");
    rec
}

/// `text` is refused as a record of `G` with an error on `line` whose message contains
/// `part`.
pub fn refused<G: GameText>(text: &str, line: usize, part: &str) {
    match Record::<G>::parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            assert_eq!(e.line, line, "wrong line for {e}\n{text}");
            let msg = e.to_string();
            assert!(msg.starts_with(&format!("line {line}: ")), "{msg}");
            assert!(msg.contains(part), "message {msg:?} lacks {part:?}");
        }
    }
}
