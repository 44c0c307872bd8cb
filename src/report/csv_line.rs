//! A row struct written as one line of CSV, the way csv's writer writes it, at a fraction of
//! the cost: the writer behind [`super::CsvTable`].
//!
//! csv's serde serializer hands each field to csv-core's incremental writer, whose state
//! machine costs about 2,000 instructions a `findings.csv` row (about 5% of `kifu check` on Fox
//! records, which have three or four findings a game). This serializer writes the same bytes
//! straight into a buffer: fields separated by `,`, a field put in double quotes (its quotes
//! doubled) when it holds `,`, `"`, a line feed or a carriage return, a line that would
//! otherwise be empty written `""`, and `\n` at the end (csv's defaults: `QuoteStyle::Necessary`,
//! `\n` terminators). It takes the shapes kifu's rows have, a struct of text, integers,
//! booleans and options of them, and declines anything else ([`Declined`]: floats, nested
//! structures, maps), so that the caller writes that row with csv's own serializer.

use std::fmt;

use serde::ser::{self, Impossible, Serialize, SerializeStruct};

/// Appends `row` as one line to `out`; [`Declined`] when `row` has a shape this serializer
/// leaves to csv's (then `out` is as it was).
pub fn write_row<T: Serialize + ?Sized>(row: &T, out: &mut Vec<u8>) -> Result<(), Declined> {
    let start = out.len();
    match row.serialize(Row { out, fields: 0 }) {
        Ok(()) => {
            end_line(out, start);
            Ok(())
        }
        Err(declined) => {
            out.truncate(start);
            Err(declined)
        }
    }
}

/// Appends the text fields `fields` as one line to `out` (a header).
pub fn write_fields<'f>(fields: impl IntoIterator<Item = &'f str>, out: &mut Vec<u8>) {
    let start = out.len();
    for (i, field) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_text(out, field.as_bytes());
    }
    end_line(out, start);
}

/// Ends the line that began at `start`. A line with no byte in it would read back as no
/// record at all: csv writes it as one empty quoted field.
fn end_line(out: &mut Vec<u8>, start: usize) {
    if out.len() == start {
        out.extend_from_slice(b"\"\"");
    }
    out.push(b'\n');
}

/// Whether `text` holds a byte that makes csv quote a field.
///
/// Sixteen bytes at a time, with no early exit inside a block, so that the compiler turns each
/// block into a few vector compares: fields are short (a path, a code, a sentence), where
/// `memchr`'s set-up for each of the four bytes cost more than the search. The bytes after the
/// last whole block are checked as one more block, the last sixteen bytes of the field (which
/// overlap the block before), and a field shorter than a block is padded with zeros: byte by
/// byte, those few bytes cost as much as the rest of the field (fox-pro's check: 36,167 rows,
/// four text fields each).
fn needs_quotes(text: &[u8]) -> bool {
    const BLOCK: usize = 16;
    let special = |block: &[u8; BLOCK]| {
        block
            .iter()
            .fold(false, |hit, &b| hit | (b == b',') | (b == b'"') | (b == b'\n') | (b == b'\r'))
    };
    let Some(last) = text.last_chunk::<BLOCK>() else {
        let mut block = [0u8; BLOCK];
        block[..text.len()].copy_from_slice(text);
        return special(&block);
    };
    let (blocks, rest) = text.as_chunks::<BLOCK>();
    blocks.iter().any(special) || (!rest.is_empty() && special(last))
}

/// A text field, quoted when it must be.
fn push_text(out: &mut Vec<u8>, text: &[u8]) {
    if !needs_quotes(text) {
        out.extend_from_slice(text);
        return;
    }
    out.push(b'"');
    let mut rest = text;
    while let Some(q) = memchr::memchr(b'"', rest) {
        out.extend_from_slice(&rest[..=q]);
        out.push(b'"');
        rest = &rest[q + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// The decimal digits of `v`, with a `-` when `negative` (as `itoa`, which csv uses, writes
/// them).
fn push_integer(out: &mut Vec<u8>, negative: bool, mut v: u64) {
    let mut digits = [0u8; 21];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if negative {
        at -= 1;
        digits[at] = b'-';
    }
    out.extend_from_slice(&digits[at..]);
}

/// A row this serializer does not write (or one whose `Serialize` reported an error, which
/// csv's serializer then reports as it always has).
#[derive(Debug)]
pub struct Declined;

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("row left to csv's serializer")
    }
}

impl std::error::Error for Declined {}

impl ser::Error for Declined {
    fn custom<M: fmt::Display>(_: M) -> Declined {
        Declined
    }
}

/// The row as a whole: a struct, each field of which is one [`Field`].
struct Row<'o> {
    out: &'o mut Vec<u8>,
    /// Fields written so far.
    fields: usize,
}

/// One field of the row, its separator already written.
struct Field<'o> {
    out: &'o mut Vec<u8>,
}

impl Field<'_> {
    fn text(self, text: &[u8]) -> Result<(), Declined> {
        push_text(self.out, text);
        Ok(())
    }

    fn unsigned(self, v: u64) -> Result<(), Declined> {
        push_integer(self.out, false, v);
        Ok(())
    }

    fn signed(self, v: i64) -> Result<(), Declined> {
        push_integer(self.out, v < 0, v.unsigned_abs());
        Ok(())
    }
}

/// Integer methods, each widened to the 64 bits `signed` or `unsigned` writes.
macro_rules! integers {
    ($($method:ident($ty:ty) => $write:ident;)*) => {
        $(fn $method(self, v: $ty) -> Result<(), Declined> {
            self.$write(v.into())
        })*
    };
}

/// The two newtype methods, declined (generic, so [`decline!`] cannot write them).
macro_rules! decline_newtypes {
    () => {
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), Declined> {
            Err(Declined)
        }

        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Declined> {
            Err(Declined)
        }
    };
}

/// Serializer methods that decline their shape.
macro_rules! decline {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, Declined> { Err(Declined) })*
    };
}

impl ser::Serializer for Row<'_> {
    type Ok = ();
    type Error = Declined;
    type SerializeSeq = Impossible<(), Declined>;
    type SerializeTuple = Impossible<(), Declined>;
    type SerializeTupleStruct = Impossible<(), Declined>;
    type SerializeTupleVariant = Impossible<(), Declined>;
    type SerializeMap = Impossible<(), Declined>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Declined>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Declined> {
        Ok(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Declined> {
        Err(Declined)
    }

    decline_newtypes!();

    decline! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeStructVariant;
    }
}

impl SerializeStruct for Row<'_> {
    type Ok = ();
    type Error = Declined;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Declined> {
        if self.fields > 0 {
            self.out.push(b',');
        }
        self.fields += 1;
        value.serialize(Field { out: self.out })
    }

    fn end(self) -> Result<(), Declined> {
        Ok(())
    }
}

impl ser::Serializer for Field<'_> {
    type Ok = ();
    type Error = Declined;
    type SerializeSeq = Impossible<(), Declined>;
    type SerializeTuple = Impossible<(), Declined>;
    type SerializeTupleStruct = Impossible<(), Declined>;
    type SerializeTupleVariant = Impossible<(), Declined>;
    type SerializeMap = Impossible<(), Declined>;
    type SerializeStruct = Impossible<(), Declined>;
    type SerializeStructVariant = Impossible<(), Declined>;

    fn serialize_bool(self, v: bool) -> Result<(), Declined> {
        self.text(if v { b"true" } else { b"false" })
    }

    integers! {
        serialize_i8(i8) => signed;
        serialize_i16(i16) => signed;
        serialize_i32(i32) => signed;
        serialize_i64(i64) => signed;
        serialize_u8(u8) => unsigned;
        serialize_u16(u16) => unsigned;
        serialize_u32(u32) => unsigned;
        serialize_u64(u64) => unsigned;
    }

    fn serialize_char(self, v: char) -> Result<(), Declined> {
        self.text(v.encode_utf8(&mut [0; 4]).as_bytes())
    }

    fn serialize_str(self, v: &str) -> Result<(), Declined> {
        self.text(v.as_bytes())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Declined> {
        self.text(v)
    }

    fn serialize_none(self) -> Result<(), Declined> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Declined> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Declined> {
        Ok(())
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<(), Declined> {
        self.text(name.as_bytes())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Declined> {
        self.text(variant.as_bytes())
    }

    decline_newtypes!();

    decline! {
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize)
            -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_that_needs_quotes_is_found_wherever_it_lies() {
        const SPECIAL: [u8; 4] = [b',', b'"', b'\n', b'\r'];
        let other: Vec<u8> = (0..=255u8).filter(|b| !SPECIAL.contains(b)).collect();
        for len in 0..=50 {
            // Every other byte value, in turn, at every place.
            let plain: Vec<u8> = (0..len).map(|i| other[(i * 7 + len) % other.len()]).collect();
            assert!(!needs_quotes(&plain), "{plain:?}");
            for at in 0..len {
                for special in SPECIAL {
                    let mut text = plain.clone();
                    text[at] = special;
                    assert!(needs_quotes(&text), "{text:?}");
                }
            }
        }
    }
}
