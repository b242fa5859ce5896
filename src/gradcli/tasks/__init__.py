"""The tasks: one module (or package) per command's computation, between the CLI and the
language, engine and symbolic layers below. A task computes and returns records; it never
prints. `api.py` is their facade."""
