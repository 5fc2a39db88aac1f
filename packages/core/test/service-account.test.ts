import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, BashUserDataBuilder, Ec2Context, JenkinsSpec, PciDssScope, Platform, RuntimeType, ServiceHardening } from '../src';
import { UserError } from '../src/errors';
import { WikiSpec } from './fixtures/wiki-spec';
import { PLATFORM_PROPS } from './support/platform';
import { runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from './support/sandbox';
import { needing } from './support/shellcheck';
import { EC2_IMAGE_ID, IMAGE_DIGESTS, REGION_ENV, resources, synth, userData } from './support/synth';

/**
 * Amazon Linux 2023 at the first boot, as cloud-init leaves it before the user data runs: `ec2-user` holds uid and gid
 * 1000, is in `wheel`, and may run anything without a password (AWS EC2 user guide, "Manage users on your Amazon Linux
 * instance"; cloud-init writes the rule to /etc/sudoers.d/90-cloud-init-users). Whoever holds 1000 on this machine is
 * removed first, inside the sandbox only.
 */
const CLOUD_INIT = `#!/bin/bash
set -euo pipefail
holder=$(getent passwd 1000 | cut -d: -f1) || true
if [ -n "$holder" ]; then userdel "$holder"; fi
holder=$(getent group 1000 | cut -d: -f1) || true
if [ -n "$holder" ]; then groupdel "$holder"; fi
getent group wheel >/dev/null || groupadd -r wheel
groupadd -g 1000 ec2-user
useradd -u 1000 -g 1000 -G wheel,adm -m -d /home/ec2-user -s /bin/bash ec2-user
install -d -m 0700 -o ec2-user -g ec2-user /home/ec2-user/.ssh
install -m 0600 -o ec2-user -g ec2-user /dev/null /home/ec2-user/.ssh/authorized_keys
printf '# User rules for ec2-user\\nec2-user ALL=(ALL) NOPASSWD:ALL\\n' > /etc/sudoers.d/90-cloud-init-users
chmod 0440 /etc/sudoers.d/90-cloud-init-users
`;

const CONTEXT: Ec2Context = {
  stackName: 'ci',
  securityProfile: 'DEV',
  runtimeType: 'EC2',
  logGroupName: '/aws/ci/EC2/DEV',
  serviceUser: 'jenkins',
  fqdn: 'ci.example.com',
  sslEnabled: false,
  hasEfs: true,
  efsId: 'fs-0123456789abcdef0',
  accessPointId: 'fsap-0123456789abcdef0',
};

/** The framework's first step and the build server's installation, as the EC2 runtime renders them. */
function bootScript(): string {
  const builder = new BashUserDataBuilder();
  builder.createServiceAccount('jenkins', '1000', '1000', '/var/lib/jenkins');
  new JenkinsSpec().configureUserData(builder, CONTEXT);
  return builder.render();
}

/** What sudo and the account database say afterwards, one `key: value` a line. */
const INSPECT = `#!/bin/bash
printf 'jenkins: %s\\n' "$(getent passwd jenkins)"
printf 'jenkins groups: %s\\n' "$(id -Gn jenkins)"
printf 'ec2-user: %s\\n' "$(getent passwd ec2-user)"
printf 'ec2-user groups: %s\\n' "$(id -Gn ec2-user)"
printf 'authorized_keys: %s\\n' "$(stat -c %U:%G /home/ec2-user/.ssh/authorized_keys)"
sudo -l -U jenkins 2>&1 | sed 's/^/sudo -l jenkins: /'
runuser -u jenkins -- sudo -n true 2>/dev/null; printf 'jenkins sudo status: %s\\n' "$?"
runuser -u ec2-user -- sudo -n true 2>/dev/null; printf 'ec2-user sudo status: %s\\n' "$?"
seq 1 1000 > /var/log/jenkins/jenkins.log
chown jenkins:jenkins /var/log/jenkins/jenkins.log
logrotate -f -s /var/tmp/fw-logrotate.state /etc/logrotate.d/jenkins 2>&1 | sed 's/^/logrotate says: /'
printf 'jenkins.log: %s\\n' "$(stat -c '%U:%G %s' /var/log/jenkins/jenkins.log)"
printf 'jenkins.log.1: %s\\n' "$(stat -c '%U:%G %s' /var/log/jenkins/jenkins.log.1)"
`;

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('EC2: the application\'s own account', () => {
  // Three boots of one sandbox: cloud-init's state, the user data, then the inspection.
  const first = runInSandbox(CLOUD_INIT, {}, undefined, { alsoOverlaid: ['/home'] });
  const boot = runInSandbox(bootScript(), undefined, first.dir, { alsoOverlaid: ['/home'] });
  const again = runInSandbox(bootScript(), undefined, first.dir, { alsoOverlaid: ['/home'] });
  const seen = runInSandbox(INSPECT, {}, first.dir, { alsoOverlaid: ['/home'] });
  const line = (key: string) => seen.stdout.split('\n').find((l) => l.startsWith(`${key}: `))?.slice(key.length + 2);

  test('the boot creates it with the containerUser ids, no login, no group but its own', () => {
    expect(first.status).toBe(0);
    expect(boot.stderr).toBe('');
    expect(boot.status).toBe(0);
    expect(line('jenkins')).toBe('jenkins:x:1000:1000:application jenkins:/var/lib/jenkins:/sbin/nologin');
    expect(line('jenkins groups')).toBe('jenkins');
    expect(boot.log).toContain('application account jenkins (1000:1000, no login, no sudo)');
  });

  test('it cannot sudo, where the cloud-init user it replaced on uid 1000 could', () => {
    expect(line('jenkins sudo status')).not.toBe('0');
    expect(seen.stdout).toMatch(/^sudo -l jenkins: User jenkins is not allowed to run sudo/m);
    // The negative control: ec2-user, moved to other ids, keeps its rule (by name), its groups and its files.
    expect(line('ec2-user sudo status')).toBe('0');
    expect(line('ec2-user')).toMatch(/^ec2-user:x:(\d+):(\d+)::\/home\/ec2-user:\/bin\/bash$/);
    expect(line('ec2-user')).not.toMatch(/:1000:|:1000$/);
    expect(line('ec2-user groups')).toMatch(/^ec2-user .*wheel/);
    expect(line('authorized_keys')).toBe('ec2-user:ec2-user');
    expect(boot.log.filter((l) => / moved from [ug]id 1000 to /.test(l))).toHaveLength(2);
  });

  test('a second boot finds it in place and moves nobody', () => {
    expect(again.status).toBe(0);
    const secondBoot = again.log.slice(again.log.lastIndexOf(again.log.filter((l) => l.startsWith('user data started')).pop()!));
    expect(secondBoot.filter((l) => l.includes(' moved from '))).toEqual([]);
    expect(secondBoot).toContain('application account jenkins (1000:1000, no login, no sudo)');
  });

  test('Jenkins runs as it, with NoNewPrivileges, and its directories are its ids\'', () => {
    const dropIn = boot.written('/etc/systemd/system/jenkins.service.d/override.conf')!.split('\n');
    expect(dropIn).toEqual(expect.arrayContaining(['User=jenkins', 'Group=jenkins', 'NoNewPrivileges=yes']));
    expect(dropIn).toContain('ReadWritePaths=/var/lib/jenkins /var/cache/jenkins /var/log/jenkins');
  });

  test('logrotate (the real one) rotates jenkins.log in place as the account: Winstone never reopens it', () => {
    // jenkinsci/winstone 8.1039.v78300b_1d48a_9 Launcher.java lines 568-581: the log is opened once, appending.
    expect(boot.written('/etc/logrotate.d/jenkins')).toContain('copytruncate');
    expect(seen.stdout).not.toMatch(/^logrotate says: /m);
    expect(line('jenkins.log')).toBe('jenkins:jenkins 0');
    expect(line('jenkins.log.1')).toBe(`jenkins:jenkins ${Array.from({ length: 1000 }, (_, i) => `${i + 1}\n`).join('').length}`);
  });
});

/** systemd 252 (Amazon Linux 2023's) reading a unit: the RPM's unit is not here, a unit of its type stands in. */
function systemdAnalyze(dropIn: string, ...args: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-unit-'));
  fs.writeFileSync(path.join(dir, 'app.service'), '[Unit]\nDescription=stand-in\n[Service]\nType=notify\nExecStart=/usr/bin/env\n');
  fs.mkdirSync(path.join(dir, 'app.service.d'));
  fs.writeFileSync(path.join(dir, 'app.service.d', 'override.conf'), dropIn);
  return spawnSync('systemd-analyze', [...args, '--man=no', path.join(dir, 'app.service')], { encoding: 'utf-8' });
}

function systemdUnavailable(): string | undefined {
  const run = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf-8' });
  if (run.error) return `systemd-analyze cannot run: ${run.error.message}`;
  return /^systemd 252\b/.test(run.stdout) ? undefined : `systemd-analyze is not systemd 252: ${run.stdout.split('\n')[0]}`;
}

needing('systemd-analyze of systemd 252', systemdUnavailable()).describe('ServiceHardening: the sandbox systemd 252 reads', () => {
  const lines = ['[Service]', ...ServiceHardening.systemdLines('jenkins', ['/var/lib/jenkins', '/var/log/jenkins']), ''].join('\n');

  test('every line is a key systemd knows, with a value it parses (systemd-analyze verify)', () => {
    const run = systemdAnalyze(lines, 'verify');
    expect(run.stderr).not.toMatch(/Unknown key|Failed to parse|Invalid|Unknown section/);
    expect(run.status).toBe(0);
    // The check can fail: a key systemd does not know is reported.
    expect(systemdAnalyze(`${lines}NoNewPrivilege=yes\n`, 'verify').stderr).toMatch(/Unknown key 'NoNewPrivilege'/);
  });

  test('systemd rates the exposure at most 4.0 of 10 ("OK"); without the sandbox it is above', () => {
    // systemd-analyze security --threshold: exits non-zero when the overall exposure is above it.
    const threshold = ['security', '--offline=true', '--threshold=40'];
    const hardened = systemdAnalyze(lines, ...threshold);
    expect(hardened.stdout).toMatch(/Overall exposure level for app\.service: [0-3]\.\d|Overall exposure level for app\.service: 4\.0/);
    expect(hardened.status).toBe(0);
    expect(systemdAnalyze('[Service]\nUser=jenkins\n', ...threshold).status).not.toBe(0);
  });

  test('refuses a user that is not an account name, and no writable path', () => {
    expect(() => ServiceHardening.systemdLines('Jenkins User', ['/var/lib/x'])).toThrow(UserError);
    expect(() => ServiceHardening.systemdLines('jenkins', [])).toThrow(/one or more absolute paths/);
  });
});

describe('the EC2 runtime', () => {
  test('creates the account first, before the plugin\'s steps, and tells the plugin its name', () => {
    let seen: Ec2Context | undefined;
    class Spy extends WikiSpec {
      public configureUserData(builder: any, context: Ec2Context) { seen = context; super.configureUserData(builder, context); }
    }
    const script = userData(synth(RuntimeType.EC2, {}, new Spy()).json);
    expect(seen?.serviceUser).toBe('wiki');
    const steps = script.split('\n').filter((l) => l.startsWith('fw_log \'step '));
    // Only the signal's target comes before it: a failure of the account's step is signalled too (test/ec2-signal.test.ts).
    expect(steps.slice(0, 2)).toEqual([expect.stringMatching(/^fw_log 'step 1: outcome signalled to \w+'$/),
      'fw_log \'step 2: application account wiki (1001:1002)\'']);
    expect(script).toContain("fw_service_account 'wiki' '1001' '1002' '/srv/wiki'");
  });

  test.each(['0:0', '0:1000'])('refuses containerUser %s: the application would run as root', (user) => {
    class Root extends WikiSpec { public containerUser() { return user; } }
    const app = new App();
    expect(() => new ApplicationFactory(new Stack(app, 'S', { env: REGION_ENV }), 'App', RuntimeType.EC2, new Root()))
      .toThrow(new RegExp(`containerUser\\(\\) is '${user}': uid 0 is root, and on EC2 the application would run as root`));
  });

  test.each(['472:0', '999:999', '101:101'])('takes an official image\'s ids under 1000 (%s), standalone and on a platform', (user) => {
    class Official extends WikiSpec { public containerUser() { return user; } }
    const script = userData(synth(RuntimeType.EC2, {}, new Official()).json);
    const [uid, gid] = user.split(':');
    expect(script).toContain(`fw_service_account 'wiki' '${uid}' '${gid}' '/srv/wiki'`);
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', PLATFORM_PROPS);
    new ApplicationFactory(new Stack(app, 'Wiki', { env: REGION_ENV }), 'App', RuntimeType.EC2, new Official(),
      { platform, subdomain: 'wiki', imageDigests: IMAGE_DIGESTS, pciDssScope: PciDssScope.CONNECTED, ec2ImageId: EC2_IMAGE_ID });
    const accessPoint = resources(app.synth().getStackByName('Platform').template, 'AWS::EFS::AccessPoint')[0][1].Properties;
    // The data keeps the image's owner on EFS, whichever runtime writes it.
    expect(accessPoint.PosixUser).toEqual({ Uid: uid, Gid: gid });
  });
});

/** A system account on the instance already holding uid 472 (as a package could have made it), for the refusal. */
const SYSTEM_HOLDS_472 = `#!/bin/bash
set -euo pipefail
for holder in $(getent passwd 472 | cut -d: -f1); do userdel "$holder"; done
for holder in $(getent group 472 | cut -d: -f1); do groupdel "$holder"; done
useradd -r -u 472 -M -s /sbin/nologin metricsd
`;

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('EC2: an official image\'s ids under 1000 (Grafana\'s 472:0)', () => {
  const grafana = () => {
    const builder = new BashUserDataBuilder();
    builder.createServiceAccount('grafana', '472', '0', '/var/lib/grafana');
    return builder.render();
  };
  const clear = runInSandbox('#!/bin/bash\nfor h in $(getent passwd 472 | cut -d: -f1); do userdel "$h"; done\n' +
    'for h in $(getent group 472 | cut -d: -f1); do groupdel "$h"; done\n', {}, undefined, { alsoOverlaid: ['/home'] });
  const boot = runInSandbox(grafana(), undefined, clear.dir, { alsoOverlaid: ['/home'] });
  const again = runInSandbox(grafana(), undefined, clear.dir, { alsoOverlaid: ['/home'] });
  const seen = runInSandbox('#!/bin/bash\nprintf "grafana: %s\\n" "$(getent passwd grafana)"\nprintf "groups: %s\\n" "$(id -G grafana)"\n',
    {}, clear.dir, { alsoOverlaid: ['/home'] });
  const taken = runInSandbox(SYSTEM_HOLDS_472, {}, undefined, { alsoOverlaid: ['/home'] });
  const refused = runInSandbox(grafana(), undefined, taken.dir, { alsoOverlaid: ['/home'] });

  test('the account is created with uid 472 and a group of its own, not root\'s', () => {
    expect([clear.status, boot.status, boot.stderr]).toEqual([0, 0, '']);
    expect(seen.stdout).toContain('grafana: grafana:x:472:472:application grafana:/var/lib/grafana:/sbin/nologin');
    expect(seen.stdout).toContain('groups: 472\n');
    expect(boot.log).toContain('application account grafana (472:472, no login, no sudo; gid 0 of containerUser() is root\'s group: not given)');
  });

  test('a second boot finds it in place', () => {
    expect(again.status).toBe(0);
    expect(again.log.filter((l) => l.startsWith('application account grafana (472:472'))).toHaveLength(2);
  });

  test('held by a system account, the boot stops naming the holder, and moves nobody', () => {
    expect(taken.status).toBe(0);
    expect(refused.status).not.toBe(0);
    expect(refused.log).toContain('uid 472 of containerUser() belongs to metricsd, an account of the system, which is not moved; choose another uid');
    expect(refused.log.filter((l) => l.includes(' moved from '))).toEqual([]);
  });
});
