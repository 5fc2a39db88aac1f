package com.example.wiki;

import dev.fwframework.core.ApplicationSpec;
import dev.fwframework.core.Ec2Context;
import dev.fwframework.core.IUserDataBuilder;
import dev.fwframework.core.PosixIds;
import dev.fwframework.core.PosixUser;
import java.util.List;
import java.util.Map;

/** A small wiki, described for the framework: the spec's members with the spec's names. */
public class WikiSpec extends ApplicationSpec {
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
    @Override public String healthCheckPath() { return "/healthz?ready=1"; }

    /** Rule 1: the public address from sslEnabled and fqdn; without an fqdn, a local address with the port. */
    @Override
    public Map<String, String> containerEnvironmentVariables(String fqdn, Boolean sslEnabled, String authMode) {
        String url = fqdn == null || fqdn.isBlank()
            ? "http://localhost:" + applicationPort()
            : (sslEnabled ? "https://" : "http://") + fqdn.trim();
        return Map.of("WIKI_PUBLIC_URL", url);
    }

    /** The spec's rule-5 order. */
    @Override
    public void configureUserData(IUserDataBuilder builder, Ec2Context context) {
        builder.addSystemUpdate();
        builder.addCommands("fw_pkg install -y nodejs", "fw_pkg install -y wiki-server");
        builder.installCloudWatchAgent(context.getLogGroupName(), ec2LogPaths());
        PosixIds ids = PosixUser.parse(containerUser());
        builder.mountDataVolume(context, ebsDeviceName(), ec2DataPath(), ids.getUid(), ids.getGid());
        builder.addCommands("mkdir -p /var/log/wiki", "systemctl enable --now wiki.service", "fw_require_active wiki.service 10");
    }
}
