//! Golden notation vectors: WXF and Chinese forms of moves, produced by
//! independent implementations (see the header of the data file).

use qipan_rules::xiangqi::{chinese, names, wxf, Move, Namer, Position};

#[test]
fn wxf_and_chinese_match_golden_vectors() {
    let text = include_str!("data/xiangqi-notation.tsv");
    let mut failures = Vec::new();
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen\t"))
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [fen, iccs, want_wxf, want_chinese] = cols[..] else {
            panic!("bad row {line:?}");
        };
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m: Move = iccs.parse().unwrap_or_else(|e| panic!("{iccs}: {e}"));
        assert!(pos.is_legal(m), "{iccs} is legal in {fen}");
        assert_eq!(
            Namer::new(&pos).names(m),
            names(&pos, m),
            "{fen} {iccs}: a namer and names differ"
        );
        let got = (
            wxf(&pos, m).unwrap_or_default(),
            chinese(&pos, m).unwrap_or_default(),
        );
        if got != (want_wxf.to_owned(), want_chinese.to_owned()) {
            failures.push(format!(
                "{fen} {iccs}: want {want_wxf} {want_chinese}, got {} {}",
                got.0, got.1
            ));
        }
        rows += 1;
    }
    assert!(rows >= 60, "only {rows} rows");
    assert!(
        failures.is_empty(),
        "{} of {rows} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
