//! Unit tests of the match domain types.

use super::{line_fault, NameError, SeatName};

#[test]
fn names_must_show_and_show_as_themselves() {
    for ok in [
        "Wei",
        "林 棋",
        "Le\u{301}on",
        "👨\u{200D}👩\u{200D}👧",
        "❤\u{FE0F}",
    ] {
        assert!(SeatName::parse(ok).is_ok(), "{ok:?}");
    }
    for (bad, fault) in [
        ("\u{200B}\u{200B}", NameError::Invisible),
        ("\u{3164}", NameError::Invisible),
        ("\u{2800}\u{2800}", NameError::Invisible),
        ("a\u{00AD}", NameError::Invisible),
        ("\u{E0041}", NameError::Invisible),
        ("\u{202E}evil", NameError::Bidi),
        ("x\u{200E}", NameError::Bidi),
        ("\u{061C}x", NameError::Bidi),
        ("\u{200D}\u{FE0F}", NameError::Blank),
        ("\u{3000}", NameError::Empty),
        ("a\u{0007}", NameError::Control),
    ] {
        assert_eq!(SeatName::parse(bad), Err(fault), "{bad:?}");
    }
    assert_eq!(line_fault("busy"), None);
}
