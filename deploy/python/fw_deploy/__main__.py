"""``python -m fw_deploy``: what a Python project's cdk.json runs."""
from fw_deploy import main

main()
