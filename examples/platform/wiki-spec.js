// The example wiki plugin (the same wiki as examples/java-plugin and examples/python-plugin), in plain JavaScript so
// that `npx cdk synth` needs no build step here.
const { ApplicationSpec, PosixUser, Shell } = require('@fw/core');

class WikiSpec extends ApplicationSpec {
  applicationId() { return 'wiki'; }
  defaultContainerImage() { return 'ghcr.io/example/wiki:1.4.2'; }
  applicationPort() { return 3000; }
  containerDataPath() { return '/srv/wiki-data'; }
  efsDataPath() { return '/wiki'; }
  volumeName() { return 'wiki-data'; }
  containerUser() { return '1001:1002'; }
  efsPermissions() { return '750'; }
  ebsDeviceName() { return '/dev/xvdf'; }
  ec2DataPath() { return '/srv/wiki'; }
  ec2LogPaths() { return ['/var/log/wiki/wiki.log']; }
  healthCheckPath() { return '/healthz'; }

  containerEnvironmentVariables(fqdn, sslEnabled) {
    return { WIKI_PUBLIC_URL: fqdn ? `${sslEnabled ? 'https' : 'http'}://${fqdn}` : `http://localhost:${this.applicationPort()}` };
  }

  configureUserData(builder, context) {
    builder.addSystemUpdate();
    builder.addCommands('fw_pkg install -y nodejs', 'fw_pkg install -y wiki-server');
    builder.installCloudWatchAgent(context.logGroupName, this.ec2LogPaths());
    const { uid, gid } = PosixUser.parse(this.containerUser());
    builder.mountDataVolume(context, this.ebsDeviceName(), this.ec2DataPath(), uid, gid);
    builder.addCommands(
      'mkdir -p /etc/wiki /var/log/wiki',
      `printf '%s\\n' ${Shell.quote(`data=${this.ec2DataPath()}`)} > /etc/wiki/wiki.conf`,
      'systemctl enable --now wiki.service',
      'fw_require_active wiki.service 0',
    );
  }
}

module.exports = { WikiSpec };
