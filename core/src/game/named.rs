//! Enums whose variants are words of the games' formats (end reasons, pie states, frames,
//! directions, piece types). Each word is its variant's name in kebab case (`FourSides` is
//! `four-sides`), derived by `strum`; [`named_enum!`] adds the list of variants and the
//! conversions as inherent items, so callers need no trait in scope.

/// Gives an enum that derives `strum::IntoStaticStr`, `strum::EnumString` and
/// `strum::VariantArray` (with `#[strum(serialize_all = "kebab-case")]`) its `ALL`, `name`
/// and `from_name`.
macro_rules! named_enum {
    ($name:ident) => {
        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [$name; <$name as strum::VariantArray>::VARIANTS.len()] = {
                const V: &[$name] = <$name as strum::VariantArray>::VARIANTS;
                let mut all = [V[0]; V.len()];
                let mut i = 1;
                while i < V.len() {
                    all[i] = V[i];
                    i += 1;
                }
                all
            };

            /// The variant's word in positions, records and notation.
            pub fn name(self) -> &'static str {
                self.into()
            }

            /// The variant whose word is `s`, if any.
            pub fn from_name(s: &str) -> Option<$name> {
                s.parse().ok()
            }
        }
    };
}

pub(crate) use named_enum;
