//! Semantic tokens: every name of the document coloured as what the index resolved it to (a
//! variable, a zone, an enumeration member, a phase, ...), declarations marked, built-ins marked
//! as the language's own. Keywords, strings and numbers are left to the editor's grammar.

use super::analysis::Analysis;
use super::symbols::{Kind, Symbol};
use super::text::Lines;
use lsp_types::{SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend};

/// The token types, in the order of the legend.
const TYPES: [SemanticTokenType; 9] = [
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::TYPE,
    SemanticTokenType::ENUM,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::STRUCT,
];

/// The token modifiers, in the order of the legend (bit 0 first).
const MODIFIERS: [SemanticTokenModifier; 3] =
    [SemanticTokenModifier::DECLARATION, SemanticTokenModifier::READONLY, SemanticTokenModifier::DEFAULT_LIBRARY];

const DECLARATION: u32 = 1;
const READONLY: u32 = 2;
const DEFAULT_LIBRARY: u32 = 4;

/// The names of the token types and modifiers the server sends.
pub(super) fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend { token_types: TYPES.to_vec(), token_modifiers: MODIFIERS.to_vec() }
}

/// Every resolved name of the document, in order, as the protocol encodes tokens (each relative
/// to the one before).
pub(super) fn semantic_tokens(analysis: &Analysis) -> SemanticTokens {
    let text = analysis.text();
    let lines = Lines::new(text);
    let mut found: Vec<_> = analysis.index.references.iter().filter(|r| r.site.file == analysis.this).collect();
    found.sort_by_key(|r| (r.site.span.start, !r.declaration));
    found.dedup_by_key(|r| r.site.span.start);
    let mut data = Vec::new();
    let (mut line, mut column) = (0, 0);
    for reference in found {
        let span = reference.site.span;
        let Some(name) = text.get(span.start..span.end).filter(|n| !n.is_empty() && !n.contains('\n')) else {
            continue;
        };
        let symbol = &analysis.index.symbols[reference.symbol];
        let (token_type, mut modifiers) = classify(symbol, &text[span.end..]);
        if reference.declaration {
            modifiers |= DECLARATION;
        }
        let at = lines.position(span.start);
        let delta_line = at.line - line;
        let delta_start = if delta_line == 0 { at.character - column } else { at.character };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: name.encode_utf16().count() as u32,
            token_type,
            token_modifiers_bitset: modifiers,
        });
        (line, column) = (at.line, at.character);
    }
    SemanticTokens { result_id: None, data }
}

/// The token type (an index into [`TYPES`]) and modifiers of a name; `after` is the text after it.
fn classify(symbol: &Symbol, after: &str) -> (u32, u32) {
    let of = |wanted: SemanticTokenType| TYPES.iter().position(|t| *t == wanted).unwrap_or_default() as u32;
    match symbol.kind {
        Kind::Parameter | Kind::Seat | Kind::Side => (of(SemanticTokenType::VARIABLE), READONLY),
        Kind::Enum => (of(SemanticTokenType::ENUM), 0),
        Kind::Member => (of(SemanticTokenType::ENUM_MEMBER), 0),
        Kind::Attribute | Kind::PayloadField => (of(SemanticTokenType::PROPERTY), 0),
        Kind::Zone => (of(SemanticTokenType::STRUCT), 0),
        Kind::Variable => (of(SemanticTokenType::VARIABLE), 0),
        Kind::Definition => (of(SemanticTokenType::FUNCTION), 0),
        Kind::Phase | Kind::Variant => (of(SemanticTokenType::NAMESPACE), 0),
        Kind::Local if symbol.owner.is_some() => (of(SemanticTokenType::PARAMETER), 0),
        Kind::Local => (of(SemanticTokenType::VARIABLE), 0),
        // `side` is a type and a function: a call says which.
        Kind::Builtin if after.trim_start().starts_with('(') => (of(SemanticTokenType::FUNCTION), DEFAULT_LIBRARY),
        Kind::Builtin if ["int", "bool", "seat", "side", "card"].contains(&symbol.name.as_str()) => {
            (of(SemanticTokenType::TYPE), DEFAULT_LIBRARY)
        }
        Kind::Builtin => (of(SemanticTokenType::VARIABLE), DEFAULT_LIBRARY | READONLY),
    }
}
