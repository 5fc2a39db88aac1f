package com.example.wiki;

import dev.fwframework.core.ApplicationSpec;
import dev.fwframework.core.AuthMode;
import dev.fwframework.core.ContainerInitialization;
import dev.fwframework.core.Ec2Context;
import dev.fwframework.core.EgressRule;
import dev.fwframework.core.EphemeralWorkers;
import dev.fwframework.core.IOidcIntegration;
import dev.fwframework.core.IUserDataBuilder;
import dev.fwframework.core.LogAlarm;
import dev.fwframework.core.PosixIds;
import dev.fwframework.core.PosixUser;
import java.util.List;
import java.util.Map;

/** A small wiki, described for the framework: every member of the plugin contract. */
public class WikiSpec extends ApplicationSpec {
    // Required.
    @Override public String applicationId() { return "wiki"; }
    @Override public String defaultContainerImage() { return "ghcr.io/example/wiki:1.4.2"; }
    @Override public Number applicationPort() { return 3000; }
    @Override public String containerDataPath() { return "/srv/wiki-data"; }
    @Override public String efsDataPath() { return "/wiki"; }
    @Override public String volumeName() { return "wiki-data"; }
    @Override public String containerUser() { return "1001:1002"; }
    @Override public String efsPermissions() { return "750"; }
    @Override public String ebsDeviceName() { return "/dev/xvdf"; }
    @Override public String ec2DataPath() { return "/srv/wiki"; }
    @Override public List<String> ec2LogPaths() { return List.of("/var/log/wiki/wiki.log"); }

    /** The user-data order: update, install, agent, mount, configure, unit, start. */
    @Override
    public void configureUserData(IUserDataBuilder builder, Ec2Context context) {
        builder.addSystemUpdate();
        builder.addCommands("fw_pkg install -y nodejs", "fw_pkg install -y wiki-server");
        builder.installCloudWatchAgent(context.getLogGroupName(), ec2LogPaths());
        PosixIds ids = PosixUser.parse(containerUser());
        builder.mountDataVolume(context, ebsDeviceName(), ec2DataPath(), ids.getUid(), ids.getGid());
        builder.addCommands("mkdir -p /var/log/wiki", "systemctl enable --now wiki.service", "fw_require_active wiki.service 10");
    }

    // Optional: ApplicationSpec's defaults, except where this wiki differs (health check, environment).
    @Override public String healthCheckPath() { return "/healthz?ready=1"; }

    /** Rule 1: the public address from sslEnabled and fqdn; without an fqdn, a local address with the port. */
    @Override
    public Map<String, String> containerEnvironmentVariables(String fqdn, Boolean sslEnabled, String authMode) {
        String url = fqdn == null || fqdn.isBlank()
            ? "http://localhost:" + applicationPort()
            : (sslEnabled ? "https://" : "http://") + fqdn.trim();
        return Map.of("WIKI_PUBLIC_URL", url);
    }

    @Override
    public ContainerInitialization containerInitialization(String fqdn, Boolean sslEnabled, String authMode, String securityProfile) {
        return null;
    }

    @Override public List<LogAlarm> logAlarms() { return List.of(); }
    @Override public List<String> supportedAuthModes() { return AuthMode.ALL; }
    @Override public EphemeralWorkers ephemeralWorkers() { return null; }
    @Override public List<EgressRule> egressRules() { return List.of(); }
    @Override public Boolean supportsOidcIntegration() { return false; }
    @Override public IOidcIntegration oidcIntegration() { return null; }
}
