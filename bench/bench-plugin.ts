import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A project with one plugin installed, of the same shape as the hand-written stack's application. */
export function installPlugin(prefix: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = path.join(root, 'node_modules', 'bench-plugin');
  fs.mkdirSync(path.join(dir, 'META-INF', 'services'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench-plugin', version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(dir, 'META-INF', 'services', 'dev.fwframework.core.IApplicationSpec'), 'bench-plugin.AppSpec\n');
  fs.writeFileSync(path.join(dir, 'index.js'), `
const { ApplicationSpec, PosixUser, Ec2Contexts } = require(${JSON.stringify(path.resolve(__dirname, '..', 'packages', 'core', 'lib'))});
class AppSpec extends ApplicationSpec {
  applicationId() { return 'app'; } defaultContainerImage() { return 'example/app:1.0.0'; } applicationPort() { return 8080; }
  containerDataPath() { return '/data'; } efsDataPath() { return '/app'; } volumeName() { return 'data'; }
  containerUser() { return '1000:1000'; } efsPermissions() { return '750'; } ebsDeviceName() { return '/dev/xvdf'; }
  ec2DataPath() { return '/srv/app'; } ec2LogPaths() { return ['/var/log/app.log']; }
  containerEnvironmentVariables() { return { APP_URL: 'http://localhost:8080' }; }
  configureUserData(b, ctx) {
    b.addSystemUpdate(); b.addCommands('fw_pkg install -y app');
    b.installCloudWatchAgent('/aws/' + ctx.stackName + '/EC2/DEV', this.ec2LogPaths());
    const { uid, gid } = PosixUser.parse(this.containerUser());
    const { efsId, accessPointId } = Ec2Contexts.requireEfsIds(ctx);
    b.mountEfs(efsId, accessPointId, this.ec2DataPath(), uid, gid);
    b.addCommands('systemctl enable --now app', 'fw_require_active app 10');
  }
}
exports.AppSpec = AppSpec;
`);
  return root;
}

