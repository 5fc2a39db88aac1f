// One CDK app of the platform benchmark (bench/platform.ts): `n` PRODUCTION applications, alternately on Fargate and
// EC2, either each standalone in its own stack or all in stacks of their own on one platform. Run as a script
// (`node bench/platform-app.js <standalone|platform> <n> <outdir>`) it synthesises and exits: the whole process is timed.
const path = require('node:path');
const { App, Stack } = require('aws-cdk-lib');
const core = require(path.resolve(__dirname, '..', 'packages', 'core', 'lib'));

class AppSpec extends core.ApplicationSpec {
  constructor(id) { super(); this.id = id; }
  applicationId() { return this.id; }
  defaultContainerImage() { return 'example/app:1.0.0'; }
  applicationPort() { return 8080; }
  containerDataPath() { return '/data'; }
  efsDataPath() { return `/${this.id}`; }
  volumeName() { return 'data'; }
  containerUser() { return '1000:1000'; }
  efsPermissions() { return '750'; }
  ebsDeviceName() { return '/dev/xvdf'; }
  ec2DataPath() { return '/srv/app'; }
  ec2LogPaths() { return ['/var/log/app.log']; }
  configureUserData(b, ctx) {
    b.addSystemUpdate();
    b.addCommands('fw_pkg install -y app');
    b.installCloudWatchAgent(ctx.logGroupName, this.ec2LogPaths());
    const { efsId, accessPointId } = core.Ec2Contexts.requireEfsIds(ctx);
    b.mountEfs(efsId, accessPointId, this.ec2DataPath(), '1000', '1000');
    b.addCommands('systemctl enable --now app', 'fw_require_active app 10');
  }
}

const env = { region: 'eu-west-1' };
const TLS = { domain: 'example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ' };
// What PRODUCTION needs for a Docker Hub image: the pull-through cache's credential and the image's digest.
const DOCKER_HUB_CREDENTIAL = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf';
const IMAGE_DIGESTS = { 'example/app:1.0.0': `sha256:${'0'.repeat(64)}` };

/** The app, not yet synthesised. */
function build(mode, n, outdir) {
  const app = new App({ outdir });
  const platform = mode === 'platform'
    ? new core.Platform(new Stack(app, 'platform', { env }), 'Platform', { securityProfile: 'PRODUCTION', ...TLS, dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL })
    : undefined;
  for (let i = 1; i <= n; i++) {
    const stack = new Stack(app, `app${i}`, { env });
    const runtime = i % 2 === 1 ? 'FARGATE' : 'EC2';
    const props = platform ? { platform, subdomain: `app${i}`, imageDigests: IMAGE_DIGESTS }
      : { securityProfile: 'PRODUCTION', sslEnabled: true, subdomain: `app${i}`, ...TLS, dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL, imageDigests: IMAGE_DIGESTS };
    new core.ApplicationFactory(stack, 'App', runtime, new AppSpec(`app${i}`), props);
  }
  return app;
}

/** Resources by type over every stack of the app. */
function countByType(app) {
  const counts = {};
  for (const stack of app.synth().stacks) {
    for (const resource of Object.values(stack.template.Resources)) counts[resource.Type] = (counts[resource.Type] || 0) + 1;
  }
  return counts;
}

module.exports = { build, countByType };

if (require.main === module) {
  const [mode, n, outdir] = process.argv.slice(2);
  build(mode, Number(n), outdir).synth();
}
