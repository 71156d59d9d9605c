//! Enums whose variants are words of the games' formats (end reasons, pie states, frames,
//! directions, piece types). Each word is its variant's name in kebab case (`FourSides` is
//! `four-sides`), derived by `strum` inside [`named_enum!`], which also adds the list of
//! variants and the conversions as inherent items, so callers need no trait in scope.

/// Declares an enum of unit variants whose words are their names in kebab case (strum's
/// derives) and gives it `ALL` (the variants in declaration order), `name` and `from_name`.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(strum::IntoStaticStr, strum::EnumString, strum::VariantArray)]
        #[strum(serialize_all = "kebab-case")]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

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
