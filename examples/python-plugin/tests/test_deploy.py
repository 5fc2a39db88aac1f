"""Use by configuration from Python: the deployment app, its plugins from the fw.plugins entry points."""
import json
import pathlib

import pytest
from aws_cdk import App
from fw_core import DeploymentApp

import fw_deploy
from wiki_plugin import WikiSpec

WIKI = {"stackName": "wiki-dev", "applicationId": "wiki", "runtimeType": "FARGATE", "securityProfile": "DEV", "sslEnabled": "false"}
BUILD_SERVER = json.loads((pathlib.Path(__file__).parents[2] / "build-server" / "cdk.json").read_text())["context"]
PLATFORM = json.loads((pathlib.Path(__file__).parents[2] / "platform" / "cdk.json").read_text())["context"]


def test_the_built_in_build_server_synthesises_from_python(tmp_path):
    """The built-in plugin is found inside the framework, without loading a package by name."""
    app = App(outdir=str(tmp_path), context={**BUILD_SERVER, "runtimeType": "EC2"})
    DeploymentApp.add_to(app)
    app.synth()
    template = json.loads((tmp_path / "build-server.template.json").read_text())
    assert any(r["Type"] == "AWS::AutoScaling::AutoScalingGroup" for r in template["Resources"].values())


def test_the_platform_configuration_synthesises_from_python(tmp_path):
    """examples/platform's configuration, with this package's wiki: the platform's stack and one stack an application."""
    app = App(outdir=str(tmp_path), context=PLATFORM)
    fw_deploy.add_to(app)
    app.synth()
    assert sorted(p.name for p in tmp_path.glob("*.template.json")) == [
        "fw-build-server.template.json", "fw-platform.template.json", "fw-wiki.template.json"]
    wiki = (tmp_path / "fw-wiki.template.json").read_text()
    assert "/fw/fw-platform/listener-arn" in wiki and "wiki.example.com" in wiki


def test_the_entry_point_registers_the_plugin():
    found = fw_deploy.plugins()
    assert [type(p).__name__ for p in found] == ["WikiSpec"]
    assert found[0].application_id() == "wiki"


@pytest.mark.parametrize("runtime", ["FARGATE", "EC2"])
def test_the_deployment_app_builds_the_entry_points_plugin(tmp_path, runtime):
    app = App(outdir=str(tmp_path), context={**WIKI, "runtimeType": runtime})
    fw_deploy.add_to(app)
    app.synth()
    assert (tmp_path / "wiki-dev.template.json").is_file()


def test_a_plugin_handed_in_twice_is_refused_naming_both():
    app = App(context=WIKI)
    with pytest.raises(RuntimeError) as raised:
        DeploymentApp.add_to(app, plugins=[WikiSpec(), WikiSpec()])
    message = fw_deploy.user_message(raised.value)
    assert message.startswith("Plugin discovery failed:\n  - applicationId 'wiki' is declared twice: by ")
    assert "handed to the deployment app (plugins[0])" in message and "(plugins[1])" in message


def test_an_unknown_application_id_is_the_users_mistake():
    app = App(context={**WIKI, "applicationId": "jira"})
    with pytest.raises(RuntimeError) as raised:
        fw_deploy.add_to(app)
    assert fw_deploy.user_message(raised.value) == "No installed plugin has applicationId 'jira'. Available: jenkins (@fw/core), wiki (handed in)."
    assert fw_deploy.user_message(ValueError("boom")) is None
    finding = RuntimeError("Error: Validation failed with the following errors: x\n@jsii/kernel.RuntimeError: Error: Validation failed")
    assert fw_deploy.user_message(finding) == "Validation failed with the following errors: x"
