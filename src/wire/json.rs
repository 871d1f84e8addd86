//! A JSON writer for the state views, the answers users wait for most.
//!
//! The views are serde types, and serde_json writes them correctly, but at a
//! cost paid on every uncached answer: each member name and each string goes
//! through serde_json's escaping loop, byte by byte, and through a few calls
//! of its map machinery. Almost nothing in a view can need escaping: member
//! names are identifiers, and the values are names from the rules' tables
//! (roles, points, reasons), notations (`h2e2`, `炮二平五`), codes and
//! numbers. [`WriteJson`] writes those straight into one growing `String`:
//!
//! - a member name is one constant fragment (`,"legal_actions":`), made by
//!   [`json_object!`] and [`json_members!`] at compile time;
//! - a `&'static str` is a name from a table and is copied as it is (debug
//!   builds check that it needs no escaping);
//! - a notation ([`Shown`](super::Shown)) is written by its `Display` (or,
//!   for the lists that hold hundreds, from a table made once from it);
//! - every other string (a code, a share URL built from the `Host` header, a
//!   FEN, a history a client sent) is checked, and one that needs escaping
//!   is written by serde_json.
//!
//! The serde derives stay on the view types: they are the specification.
//! The tests below check the scalars and escaping against serde_json, and
//! those of `crate::games` every game's views along played lines, byte for
//! byte.

use std::fmt::Write as _;

/// A JSON text being written: a `String` that only [`WriteJson`] values
/// and the object and array helpers append to.
#[derive(Debug, Default)]
pub struct JsonOut {
    text: String,
}

impl JsonOut {
    /// An empty text with room for `capacity` bytes: a view's size is
    /// known closely enough to write it without growing.
    pub fn with_capacity(capacity: usize) -> JsonOut {
        JsonOut {
            text: String::with_capacity(capacity),
        }
    }

    /// The text written.
    pub fn into_string(self) -> String {
        self.text
    }

    /// Appends a fragment of JSON syntax made at compile time: `{`, `]`, or
    /// a member name with its quotes, comma and colon.
    #[inline]
    pub fn syntax(&mut self, fragment: &'static str) {
        self.text.push_str(fragment);
    }

    /// Writes a string that a table of names or a notation produced and so
    /// needs no escaping: no quote, backslash or control character (debug
    /// builds check).
    #[inline]
    pub fn name(&mut self, name: &str) {
        debug_assert!(plain(name), "{name:?} would need escaping");
        self.text.reserve(name.len() + 2);
        self.text.push('"');
        self.text.push_str(name);
        self.text.push('"');
    }

    /// Writes part of a string whose quotes the caller writes (in its
    /// [`JsonOut::syntax`] fragments): a name from a table or a notation,
    /// which needs no escaping (debug builds check).
    #[inline]
    pub fn raw(&mut self, part: &str) {
        debug_assert!(plain(part), "{part:?} would need escaping");
        self.text.push_str(part);
    }

    /// Writes the concatenation of names (see [`JsonOut::name`]) as one
    /// string: a notation made of parts from tables (`h2` `e2`).
    #[inline]
    pub fn names(&mut self, parts: &[&str]) {
        self.text.push('"');
        for part in parts {
            debug_assert!(plain(part), "{part:?} would need escaping");
            self.text.push_str(part);
        }
        self.text.push('"');
    }

    /// Writes characters from a table (a move's name, a glyph) as one
    /// string, each encoded in place: no buffer, no UTF-8 check.
    #[inline]
    pub fn chars(&mut self, chars: impl IntoIterator<Item = char>) {
        self.text.push('"');
        for c in chars {
            debug_assert!(
                c >= ' ' && c != '"' && c != '\\',
                "{c:?} would need escaping"
            );
            self.text.push(c);
        }
        self.text.push('"');
    }

    /// [`JsonOut::chars`] without the quotes (see [`JsonOut::raw`]).
    #[inline]
    pub fn raw_chars(&mut self, chars: impl IntoIterator<Item = char>) {
        for c in chars {
            debug_assert!(
                c >= ' ' && c != '"' && c != '\\',
                "{c:?} would need escaping"
            );
            self.text.push(c);
        }
    }

    /// Writes bytes that are all ASCII: a template of syntax with a
    /// value's letters and digits put in (see `MoveView` in
    /// `crate::games::xiangqi`). One copy of a length known where it is
    /// made, where a `&str` of the same bytes would first be checked as
    /// UTF-8 byte by byte; the check that they are ASCII is a few
    /// instructions. Bytes that are not all ASCII (a caller's bug) are
    /// written with replacement characters, never as broken UTF-8.
    #[allow(unsafe_code)]
    #[inline]
    pub fn ascii<const N: usize>(&mut self, bytes: &[u8; N]) {
        if bytes.is_ascii() {
            // SAFETY: every ASCII byte is a whole UTF-8 character on its
            // own, so the text stays valid UTF-8.
            unsafe { self.text.as_mut_vec() }.extend_from_slice(bytes);
        } else {
            debug_assert!(false, "{bytes:?} are not all ASCII");
            self.text.push_str(&String::from_utf8_lossy(bytes));
        }
    }

    /// Writes any string, escaped as serde_json escapes it.
    pub fn string(&mut self, s: &str) {
        if plain(s) {
            self.text.reserve(s.len() + 2);
            self.text.push('"');
            self.text.push_str(s);
            self.text.push('"');
        } else {
            let escaped = serde_json::to_string(s)
                .expect("serde_json writes any str: it has no map keys or custom errors");
            self.text.push_str(&escaped);
        }
    }

    /// Writes a value's `Display` as a string, with no string in between:
    /// for notations, whose text needs no escaping (debug builds check).
    pub fn display(&mut self, value: &impl std::fmt::Display) {
        self.text.push('"');
        let start = self.text.len();
        write!(self.text, "{value}").expect("writing into a String cannot fail");
        debug_assert!(
            plain(&self.text[start..]),
            "{:?} would need escaping",
            &self.text[start..]
        );
        self.text.push('"');
    }

    /// Writes an unsigned integer.
    #[inline]
    pub fn number(&mut self, n: u64) {
        self.text.push_str(itoa::Buffer::new().format(n));
    }

    /// Starts an array: write its items with [`Array::item`], then call
    /// [`Array::end`].
    #[inline]
    pub fn array(&mut self) -> Array<'_> {
        self.text.push('[');
        Array {
            out: self,
            first: true,
        }
    }

    /// Writes every item of a sequence as an array.
    pub fn seq<'a, T: WriteJson + 'a>(&mut self, items: impl IntoIterator<Item = &'a T>) {
        let mut array = self.array();
        for item in items {
            item.write_json(array.item());
        }
        array.end();
    }
}

/// Whether JSON writes `s` as it is, between quotes: no `"`, `\` or
/// control character (what serde_json escapes; it leaves DEL and all of
/// Unicode alone). Branch-free over the bytes, so the compiler checks many
/// at once.
pub fn plain(s: &str) -> bool {
    !s.bytes().fold(false, |bad, b| {
        bad | (b < 0x20) | (b == b'"') | (b == b'\\')
    })
}

/// An array being written (see [`JsonOut::array`]).
#[derive(Debug)]
pub struct Array<'a> {
    out: &'a mut JsonOut,
    first: bool,
}

impl Array<'_> {
    /// The writer, placed for the next item.
    #[inline]
    pub fn item(&mut self) -> &mut JsonOut {
        if !std::mem::take(&mut self.first) {
            self.out.text.push(',');
        }
        self.out
    }

    /// Closes the array.
    #[inline]
    pub fn end(self) {
        self.out.text.push(']');
    }
}

/// A value a view writes with [`JsonOut`], as serde_json would write its
/// `Serialize` form (compact).
pub trait WriteJson {
    /// Appends the value's JSON text.
    fn write_json(&self, out: &mut JsonOut);

    /// Appends an array of `items`: each written in turn, unless the type
    /// knows a quicker way to write many (as serde's `serialize_bytes`
    /// does for bytes).
    fn write_slice(items: &[Self], out: &mut JsonOut)
    where
        Self: Sized,
    {
        out.seq(items);
    }
}

/// The members a flattened part (`#[serde(flatten)]`) adds to the object
/// around it, each after a comma.
pub trait WriteMembers {
    /// Appends `,"name":value` for each member.
    fn write_members(&self, out: &mut JsonOut);
}

/// A name from a table (a role, a point, a reason): see [`JsonOut::name`].
/// Only `'static` strings: anything built at run time goes through
/// [`JsonOut::string`] (a `String`).
impl WriteJson for &'static str {
    #[inline]
    fn write_json(&self, out: &mut JsonOut) {
        out.name(self);
    }
}

impl WriteJson for String {
    fn write_json(&self, out: &mut JsonOut) {
        out.string(self);
    }
}

/// A glyph from a table (`帥`), written as serde_json writes a `char`.
impl WriteJson for char {
    #[inline]
    fn write_json(&self, out: &mut JsonOut) {
        out.chars([*self]);
    }
}

impl WriteJson for bool {
    #[inline]
    fn write_json(&self, out: &mut JsonOut) {
        out.syntax(if *self { "true" } else { "false" });
    }
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl WriteJson for $t {
            fn write_json(&self, out: &mut JsonOut) {
                out.number(u64::from(*self));
            }
        }
    )*};
}
unsigned!(u8, u16, u32, u64);

impl<T: WriteJson> WriteJson for Option<T> {
    #[inline]
    fn write_json(&self, out: &mut JsonOut) {
        match self {
            Some(v) => v.write_json(out),
            None => out.syntax("null"),
        }
    }
}

impl<T: WriteJson> WriteJson for Vec<T> {
    fn write_json(&self, out: &mut JsonOut) {
        T::write_slice(self, out);
    }
}

impl<T: WriteJson, const N: usize> WriteJson for [T; N] {
    fn write_json(&self, out: &mut JsonOut) {
        T::write_slice(self, out);
    }
}

impl<T: std::fmt::Display> WriteJson for super::Shown<T> {
    fn write_json(&self, out: &mut JsonOut) {
        out.display(&self.0);
    }
}

/// Declares a view once: the struct, as written (with its `Serialize`
/// derive), and its [`WriteJson`], which writes what serde writes for it:
/// an object of its fields in order, under their own names. A field may
/// carry doc comments only: a `#[serde(…)]` attribute, which would make
/// serde write something else, does not match and fails to compile.
///
/// ```ignore
/// crate::json_object! {
///     #[derive(Debug, Serialize)]
///     pub struct CellView {
///         side: &'static str,
///         role: &'static str,
///     }
/// }
/// ```
#[macro_export]
macro_rules! json_object {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:expr])*
                $fvis:vis $field:ident : $ty:ty
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[doc = $doc])* $fvis $field: $ty, )+
        }

        impl $crate::wire::json::WriteJson for $name {
            fn write_json(&self, out: &mut $crate::wire::json::JsonOut) {
                $crate::json_object!(@fields self, out, "{", $($field)+);
                out.syntax("}");
            }
        }
    };
    (@fields $self:ident, $out:ident, $open:literal, $first:ident $($rest:ident)*) => {
        $out.syntax(concat!($open, "\"", stringify!($first), "\":"));
        $crate::wire::json::WriteJson::write_json(&$self.$first, $out);
        $(
            $out.syntax(concat!(",\"", stringify!($rest), "\":"));
            $crate::wire::json::WriteJson::write_json(&$self.$rest, $out);
        )*
    };
}

/// Declares once a struct flattened into another (`#[serde(flatten)]`):
/// the struct, as written, and its [`WriteMembers`], its fields in order,
/// each after a comma. Fields carry doc comments only, as in
/// [`json_object!`].
#[macro_export]
macro_rules! json_members {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:expr])*
                $fvis:vis $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[doc = $doc])* $fvis $field: $ty, )*
        }

        impl $crate::wire::json::WriteMembers for $name {
            fn write_members(&self, out: &mut $crate::wire::json::JsonOut) {
                $(
                    out.syntax(concat!(",\"", stringify!($field), "\":"));
                    $crate::wire::json::WriteJson::write_json(&self.$field, out);
                )*
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(value: &impl WriteJson) -> String {
        let mut out = JsonOut::default();
        value.write_json(&mut out);
        out.into_string()
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let cases = [
            "",
            "h2e2",
            "炮二平五",
            "http://localhost:8080/v1/xiangqi/AAAA",
            "quote \" here",
            "back\\slash",
            "tab\tnew\nline\r",
            "\u{0}\u{1f}\u{7f}",
            "é\u{2028}",
        ];
        for s in cases {
            assert_eq!(
                written(&s.to_owned()),
                serde_json::to_string(s).unwrap(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn plain_is_exactly_what_serde_json_leaves_alone() {
        for b in 0..=0x7fu8 {
            let s = char::from(b).to_string();
            let unescaped = serde_json::to_string(&s).unwrap() == format!("\"{s}\"");
            assert_eq!(plain(&s), unescaped, "byte {b:#x}");
        }
    }

    #[test]
    fn scalars_and_containers_match_serde_json() {
        assert_eq!(written(&true), "true");
        assert_eq!(
            written(&u64::MAX),
            serde_json::to_string(&u64::MAX).unwrap()
        );
        assert_eq!(written(&0u8), "0");
        assert_eq!(written(&'帥'), serde_json::to_string(&'帥').unwrap());
        let nested: Vec<Vec<Option<u8>>> = vec![vec![None, Some(1)], vec![], vec![Some(2)]];
        assert_eq!(written(&nested), serde_json::to_string(&nested).unwrap());
        let pairs: Vec<[u8; 2]> = vec![[0, 1], [9, 19]];
        assert_eq!(written(&pairs), serde_json::to_string(&pairs).unwrap());
    }
}
