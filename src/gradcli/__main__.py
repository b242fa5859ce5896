"""`python -m gradcli`."""
from gradcli.launch import run

run()
