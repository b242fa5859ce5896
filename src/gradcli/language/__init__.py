"""The language: text <-> Expr (parser, LALR runtime and tables, AST, printer)."""
