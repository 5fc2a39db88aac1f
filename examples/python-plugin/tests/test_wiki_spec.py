"""The three test kinds for the Python plugin."""
import pytest
from aws_cdk import App, Stack
from fw_core import ApplicationFactory, AuthMode, RuntimeType

from wiki_plugin import WikiSpec


def test_metadata_accessors_return_the_declared_values():
    spec = WikiSpec()
    assert spec.application_id() == "wiki"
    assert spec.default_container_image() == "ghcr.io/example/wiki:1.4.2"
    assert spec.application_port() == 3000
    assert spec.container_user() == "1001:1002"
    assert spec.efs_permissions() == "750"
    assert spec.ec2_log_paths() == ["/var/log/wiki/wiki.log"]
    assert spec.health_check_path() == "/healthz?ready=1"


def test_https_address_ending_with_the_fqdn():
    url = WikiSpec().container_environment_variables("wiki.example.com", True, AuthMode.NONE)["WIKI_PUBLIC_URL"]
    assert url.startswith("https://")
    assert url.endswith("wiki.example.com")


@pytest.mark.parametrize("runtime", [RuntimeType.FARGATE, RuntimeType.EC2])
def test_a_fresh_stack_synthesises(runtime):
    app = App()
    ApplicationFactory(Stack(app, "Wiki"), "App", runtime, WikiSpec())
    app.synth()
