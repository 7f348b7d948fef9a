; Indentation for Helix (`../indents.scm` has Neovim's): two spaces per level of braces, as
; `paradox fmt` lays files out, and the tiers of a choice one step in.

[
  (block)
  (card_declaration)
  (enum_declaration)
  (side_declaration)
  (variant_declaration)
  (scenario)
  (zone_declaration)
  (case_expression)
  (make_card_statement)
  (choose_statement)
  (list)
  (arguments)
  (parameters)
] @indent

[ "}" "]" ")" ] @outdent
