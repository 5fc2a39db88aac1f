"""A small wiki, described for the framework in Python: every member of the plugin contract."""
import typing

import jsii
from fw_core import (
    ApplicationSize,
    AuthMode,
    BlockedRequest,
    ComplianceControl,
    ControlGrade,
    ContainerInitialization,
    DatabaseRequirement,
    Ec2Context,
    EgressRule,
    EphemeralWorkers,
    IApplicationSpec,
    IOidcIntegration,
    IUserDataBuilder,
    KnownVulnerability,
    LogAlarm,
    PluginSetting,
    PosixUser,
    RequestBodyLimit,
    SoftwareComponent,
    SoftwareComponentType,
)


@jsii.implements(IApplicationSpec)
class WikiSpec:
    def application_id(self) -> str:
        return "wiki"

    def default_container_image(self) -> str:
        return "ghcr.io/example/wiki:1.4.2"

    def application_port(self) -> jsii.Number:
        return 3000

    def container_data_path(self) -> str:
        return "/srv/wiki-data"

    def efs_data_path(self) -> str:
        return "/wiki"

    def volume_name(self) -> str:
        return "wiki-data"

    def container_user(self) -> str:
        return "1001:1002"

    def efs_permissions(self) -> str:
        return "750"

    def ebs_device_name(self) -> str:
        return "/dev/xvdf"

    def ec2_data_path(self) -> str:
        return "/srv/wiki"

    def ec2_log_paths(self) -> typing.List[str]:
        return ["/var/log/wiki/wiki.log"]

    def health_check_path(self) -> str:
        return "/healthz?ready=1"

    def container_environment_variables(self, fqdn: str, ssl_enabled: bool, auth_mode: str) -> typing.Mapping[str, str]:
        """Rule 1: the public address from ssl_enabled and fqdn, or a local address with the port."""
        if fqdn and fqdn.strip():
            url = ("https://" if ssl_enabled else "http://") + fqdn.strip()
        else:
            url = f"http://localhost:{self.application_port()}"
        return {"WIKI_PUBLIC_URL": url}

    def container_initialization(
        self, fqdn: str, ssl_enabled: bool, auth_mode: str, security_profile: str,
    ) -> typing.Optional[ContainerInitialization]:
        return None

    def log_alarms(self) -> typing.List[LogAlarm]:
        return []

    def supported_auth_modes(self) -> typing.List[str]:
        return list(AuthMode.ALL)

    def ephemeral_workers(self) -> typing.Optional[EphemeralWorkers]:
        """No workers."""
        return None

    def secrets(self) -> typing.Mapping[str, str]:
        return {}

    def default_size(self) -> ApplicationSize:
        """The framework's size."""
        return ApplicationSize()

    def settings(self) -> typing.List[PluginSetting]:
        """No settings by configuration."""
        return []

    def with_settings(self, values: typing.Mapping[str, str]) -> IApplicationSpec:
        """Called only when settings() declares some."""
        return self

    def request_body_limits(self) -> typing.List[RequestBodyLimit]:
        return []

    def blocked_requests(self) -> typing.List[BlockedRequest]:
        return []

    def known_vulnerabilities(self) -> typing.List[KnownVulnerability]:
        return []

    def software_components(self) -> typing.List[SoftwareComponent]:
        return [SoftwareComponent(name="wiki", version="1.4.2", type=SoftwareComponentType.APPLICATION)]

    def compliance_controls(self) -> typing.List[ComplianceControl]:
        """What the wiki itself does for PCI DSS, listed in the PRODUCTION evidence report."""
        return [ComplianceControl(requirements=["8.2.8"], statement="A wiki session idle for 15 minutes ends.",
                                  configured_in="WIKI_SESSION_TIMEOUT", grade=ControlGrade.PARTIAL)]

    def egress_rules(self) -> typing.List[EgressRule]:
        """Nothing beyond HTTPS and NFS."""
        return []

    def database(self) -> typing.Optional[DatabaseRequirement]:
        """The wiki keeps its data in files: no database."""
        return None

    def supports_oidc_integration(self) -> bool:
        return False

    def oidc_integration(self) -> typing.Optional[IOidcIntegration]:
        return None

    def configure_user_data(self, builder: IUserDataBuilder, context: Ec2Context) -> None:
        """The user-data order: update, install, agent, mount, configure, unit, start."""
        builder.add_system_update()
        builder.add_commands("fw_pkg install -y nodejs", "fw_pkg install -y wiki-server")
        builder.install_cloud_watch_agent(context.log_group_name, self.ec2_log_paths())
        ids = PosixUser.parse(self.container_user())
        # EFS with its access point or the EBS volume, as the context says; rule 6's check is the framework's.
        builder.mount_data_volume(context, self.ebs_device_name(), self.ec2_data_path(), ids.uid, ids.gid)
        builder.add_commands("mkdir -p /var/log/wiki", "systemctl enable --now wiki.service", "fw_require_active wiki.service 10")
