"""A user error in a CDK app of the user's own, from Python: fw_deploy.user_errors() prints its message and a hint."""
import os
import subprocess
import sys

OWN_APP = """
from aws_cdk import App, Stack, Environment
from fw_core import ApplicationFactory, JenkinsSpec, RuntimeType
import fw_deploy

with fw_deploy.user_errors():
    app = App()
    ApplicationFactory(Stack(app, "BuildServer", env=Environment(region="eu-west-1")), "App", RuntimeType.FARGATE, JenkinsSpec())
    app.synth()
"""
MESSAGE = 'fw: JenkinsSpec (applicationId jenkins) cannot be deployed with authMode "none"; allowed: "application-oidc".'


def run(debug):
    env = {**os.environ, "FW_DEBUG": debug}
    return subprocess.run([sys.executable, "-c", OWN_APP], capture_output=True, text=True, env=env, timeout=300)


def test_a_user_error_is_its_message_and_a_hint_without_a_traceback():
    result = run("")
    assert result.returncode == 1, result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("fw: ")] == [
        MESSAGE, "fw: (a mistake in the settings, not a fault: set FW_DEBUG=1 for the stack trace)"]
    assert "Traceback" not in result.stderr


def test_with_fw_debug_the_traceback_shows():
    result = run("1")
    assert result.returncode != 0
    assert "Traceback (most recent call last)" in result.stderr
    assert "cannot be deployed with authMode" in result.stderr
