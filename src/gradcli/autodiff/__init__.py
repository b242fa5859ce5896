"""Reverse-mode autodiff: backends, the Value engine, vectors, and lowering an Expr onto a graph."""
