; Indentation for Neovim (nvim-treesitter's captures; `helix/indents.scm` has Helix's): two
; spaces per level of braces, as `paradox fmt` lays files out, and the tiers of a choice one
; step in.

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
] @indent.begin

[ "}" "]" ")" ] @indent.branch
[ "}" "]" ")" ] @indent.end

(comment) @indent.auto
