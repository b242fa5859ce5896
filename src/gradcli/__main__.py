"""`python -m gradcli`: the same entry point as the installed command (launch.run)."""
from gradcli.launch import run

run()
