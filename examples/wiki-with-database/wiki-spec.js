// A plugin configured entirely from cdk.json: the wiki of examples/platform, keeping its pages in a PostgreSQL
// database. Its address is the plugin's own setting (`pluginSettings`), its password a secret (`secrets`), and it
// declares the size it needs (`defaultSize()`), which the `cpu`, `memoryLimitMiB` and `instanceType` keys override.
// Plain JavaScript, so `npx cdk synth` needs no build step here.
const { ApplicationSpec, PosixUser, Shell } = require('@fw/core');

class WikiSpec extends ApplicationSpec {
  /** The registry constructs the plugin without arguments; `withSettings()` returns it configured. */
  constructor(settings = {}) {
    super();
    this.databaseUrl = settings.databaseUrl;
  }

  settings() {
    return [{
      name: 'databaseUrl',
      description: 'The PostgreSQL database the wiki keeps its pages in, without credentials (the password is the secret WIKI_DATABASE_PASSWORD).',
      pattern: 'postgresql://[A-Za-z0-9.-]+(:\\d+)?/\\w+',
      allowed: 'a PostgreSQL URL without credentials, for example postgresql://wiki-db.example.com:5432/wiki',
    }];
  }

  withSettings(values) { return new WikiSpec(values); }

  /** The framework's default (1 vCPU, 2 GiB) is too small for the wiki with its page index. */
  defaultSize() { return { cpu: 2048, memoryLimitMiB: 4096, instanceType: 'm7i.large' }; }

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
    return {
      WIKI_PUBLIC_URL: fqdn ? `${sslEnabled ? 'https' : 'http'}://${fqdn}` : `http://localhost:${this.applicationPort()}`,
      WIKI_DATABASE_URL: this.databaseUrl,
    };
  }

  configureUserData(builder, context) {
    builder.addSystemUpdate();
    builder.addCommands('fw_pkg install -y nodejs', 'fw_pkg install -y wiki-server');
    builder.installCloudWatchAgent(context.logGroupName, this.ec2LogPaths());
    const { uid, gid } = PosixUser.parse(this.containerUser());
    builder.mountDataVolume(context, this.ebsDeviceName(), this.ec2DataPath(), uid, gid);
    // The service reads WIKI_DATABASE_PASSWORD from the framework's environment file; the address is configuration.
    builder.addCommands(
      'mkdir -p /etc/wiki /var/log/wiki',
      `printf '%s\\n' ${Shell.quote(`data=${this.ec2DataPath()}`)} ${Shell.quote(`database=${this.databaseUrl}`)} > /etc/wiki/wiki.conf`,
      'systemctl enable --now wiki.service',
      'fw_require_active wiki.service 0',
    );
  }
}

module.exports = { WikiSpec };
