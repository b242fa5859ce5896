"""Symbolic work on Expr: the derivative as a formula, and the simplifier it prints through."""
