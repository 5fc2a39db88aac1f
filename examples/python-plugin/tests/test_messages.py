"""What a Python plugin author reads when something is wrong: the plugin named, Python's words, the member that threw."""
import jsii
import pytest
from aws_cdk import App, Stack
from fw_core import ApplicationFactory, Ec2Contexts, IApplicationSpec, RuntimeType

from wiki_plugin import WikiSpec

JAVASCRIPT_WORDS = ("undefined", "null", "Object declares")


def synth_failure(runtime, spec):
    app = App()
    with pytest.raises(Exception) as failure:
        ApplicationFactory(Stack(app, "Wiki"), "App", runtime, spec)
        app.synth()
    return str(failure.value)


@jsii.implements(IApplicationSpec)
class BadPort(WikiSpec):
    def application_port(self):
        return 70000


@jsii.implements(IApplicationSpec)
class Unpinned(WikiSpec):
    def configure_user_data(self, builder, context):
        raise ValueError("the wiki package is not pinned")


@jsii.implements(IApplicationSpec)
class TwoLinesInOne(WikiSpec):
    def configure_user_data(self, builder, context):
        builder.add_commands("mkdir -p /srv/wiki", "systemctl enable wiki\nsystemctl start wiki")


def test_a_bad_value_names_the_plugin():
    message = synth_failure(RuntimeType.FARGATE, BadPort())
    # jsii passes no Python class name to the framework: the plugin is named by its application_id().
    assert "Plugin wiki declares invalid values" in message
    assert "wiki.applicationPort() returned 70000; allowed: " in message
    assert not [w for w in JAVASCRIPT_WORDS if w in message], message


def test_a_missing_value_is_absent():
    with pytest.raises(Exception) as failure:
        Ec2Contexts.require_efs_ids(
            stack_name="Wiki", security_profile="DEV", runtime_type="EC2", log_group_name="/wiki", service_user="wiki",
            ssl_enabled=False, has_efs=True, efs_id="fs-0123456789abcdef0",
        )
    message = str(failure.value)
    assert 'accessPointId is missing (efsId: "fs-0123456789abcdef0", accessPointId: absent)' in message
    assert not [w for w in JAVASCRIPT_WORDS if w in message], message


def test_an_exception_in_a_plugin_member_is_reported_with_the_member_and_its_message():
    message = synth_failure(RuntimeType.EC2, Unpinned())
    assert "wiki.configureUserData() threw: " in message
    assert "the wiki package is not pinned" in message


def test_a_command_line_with_a_line_break_is_refused_naming_its_index():
    message = synth_failure(RuntimeType.EC2, TwoLinesInOne())
    assert "wiki.configureUserData() threw: addCommands(): command 2 (argument index 1)" in message
    assert "holds a line break" in message


def test_the_deployment_app_prints_a_plugin_members_failure_as_the_users_mistake():
    """What `python -m fw_deploy` prints, without a stack trace: the member, and the plugin's own message."""
    from fw_core import DeploymentApp

    import fw_deploy

    app = App(context={"stackName": "wiki-dev", "applicationId": "wiki", "runtimeType": "EC2", "securityProfile": "DEV", "sslEnabled": "false"})
    with pytest.raises(Exception) as failure:
        DeploymentApp.add_to_with_plugins(app, [Unpinned()])
    assert fw_deploy.user_message(failure.value) == "wiki.configureUserData() threw: the wiki package is not pinned"
