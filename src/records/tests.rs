//! Unit tests of the record readers and writers of the service.

use super::*;

#[test]
fn download_names_carry_cjk() {
    let d = disposition("许银川-吕钦-2026.11.28.pgn");
    assert!(d.starts_with("attachment; filename=\"___-__-2026.11.28.pgn\""));
    assert!(d.contains("filename*=UTF-8''%E8%AE%B8"));
    assert_eq!(
        file_name(&[Some("A/B".into()), None], "2026.11.28", "psq"),
        "A_B-2026.11.28.psq"
    );
    assert_eq!(
        file_name(&[None, None], "2026.11.28", "txt"),
        "record-2026.11.28.txt"
    );
}

#[test]
fn charsets_and_notations() {
    assert_eq!(
        charset_of("application/x-chess-pgn; charset=GBK").unwrap(),
        Some(Charset::Gbk)
    );
    assert_eq!(charset_of("text/plain").unwrap(), None);
    assert!(charset_of("text/plain; charset=koi8-r").is_err());
    assert_eq!(family(None), Some(Family::Chinese));
    assert_eq!(family(Some("klingon")), None);
}
