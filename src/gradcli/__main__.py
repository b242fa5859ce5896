"""`python -m gradcli`."""
from gradcli.cli import run

run()
