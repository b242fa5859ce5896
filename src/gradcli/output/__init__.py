"""Results -> text: plain/JSON/CSV, Markdown/LaTeX, rich tables, ledgers, Graphviz, help topics."""
