import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lazy } from 'aws-cdk-lib';
import { BashUserDataBuilder, Ec2Context, Shell } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from './support/sandbox';
import { needing, shellcheck, shellcheckUnavailable } from './support/shellcheck';
import { HELPERS, PREAMBLE } from '../src/userdata/preamble';

const EFS_CONTEXT: Ec2Context = {
  stackName: 'wiki-dev',
  securityProfile: 'DEV',
  runtimeType: 'EC2',
  logGroupName: '/aws/wiki-dev/EC2/DEV',
  serviceUser: 'wiki',
  sslEnabled: false,
  hasEfs: true,
  efsId: 'fs-0123456789abcdef0',
  accessPointId: 'fsap-0123456789abcdef0',
};
const EBS_CONTEXT: Ec2Context = { ...EFS_CONTEXT, hasEfs: false, efsId: undefined, accessPointId: undefined };

function wikiScript(context: Ec2Context): string {
  const builder = new BashUserDataBuilder();
  new WikiSpec().configureUserData(builder, context);
  return builder.render();
}

/** One builder per operation, each called once with valid arguments. */
const OPERATIONS: Record<string, (b: BashUserDataBuilder) => void> = {
  addSystemUpdate: (b) => b.addSystemUpdate(),
  addCommands: (b) => b.addCommands('echo one', 'echo two'),
  mountEfs: (b) => b.mountEfs('fs-0123456789abcdef0', 'fsap-0123456789abcdef0', '/srv/data', '1000', '1000'),
  mountEbs: (b) => b.mountEbs('/dev/xvdf', '/srv/data', '1000', '1000'),
  installCloudWatchAgent: (b) => b.installCloudWatchAgent('/aws/s/EC2/DEV', ['/var/log/app.log', '/var/log/b.log']),
  writeFiles: (b) => b.writeFiles({ '/srv/a.conf': 'a = 1\n', '/srv/b.txt': 'no newline' }),
};

describe('rendering', () => {
  test('every script starts strict, defines the log and package-manager helpers, and never traces', () => {
    const script = wikiScript(EFS_CONTEXT);
    expect(script.startsWith('#!/bin/bash\n')).toBe(true);
    expect(script).toContain('set -Eeuo pipefail');
    expect(script).toContain('readonly FW_LOG=/var/log/userdata.log');
    expect(script).toContain('if command -v dnf >/dev/null 2>&1; then FW_PKG=dnf; else FW_PKG=yum; fi');
    expect(script).not.toMatch(/set\s+-[a-z]*[xv]|xtrace|verbose|BASH_XTRACEFD/);
  });

  test.each(Object.keys(OPERATIONS))('%s adds one numbered progress line and its commands', (name) => {
    const builder = new BashUserDataBuilder();
    OPERATIONS[name](builder);
    const script = builder.render();
    expect(script).toMatch(/^fw_log 'step 1: .+'$/m);
    expect(script).not.toMatch(/step 2:/);
    expect(script.trimEnd().endsWith('fw_log "user data finished"')).toBe(true);
  });

  test('addSystemUpdate updates through the chosen package manager', () => {
    const b = new BashUserDataBuilder();
    b.addSystemUpdate();
    expect(b.render()).toMatch(/^fw_log 'step 1: system update'\nfw_pkg -y update$/m);
  });

  test('addCommands appends the lines as they are, in order', () => {
    const b = new BashUserDataBuilder();
    b.addCommands('echo one', 'echo "$HOME"');
    expect(b.render()).toContain("fw_log 'step 1: commands (2 lines)'\necho one\necho \"$HOME\"\n");
  });

  test('mountEfs passes every value quoted to the EFS helper, which mounts with TLS, IAM and the access point', () => {
    const b = new BashUserDataBuilder();
    OPERATIONS.mountEfs(b);
    const script = b.render();
    expect(script).toContain("fw_mount_efs 'fs-0123456789abcdef0' 'fsap-0123456789abcdef0' '/srv/data' '1000' '1000'");
    expect(script).toContain('efs _netdev,noresvport,tls,iam,accesspoint=$access_point,nofail 0 0');
    expect(script).toContain('fw_fstab_set() {');
    expect(script).not.toContain('fw_mount_ebs() {');
  });

  test('mountEbs mounts by UUID with nofail and formats only when blkid finds nothing', () => {
    const b = new BashUserDataBuilder();
    OPERATIONS.mountEbs(b);
    const script = b.render();
    expect(script).toContain("fw_mount_ebs '/dev/xvdf' '/srv/data' '1000' '1000'");
    expect(script).toContain('"UUID=$uuid $mount_path $fstype defaults,nofail 0 2"');
    expect(script).toMatch(/if \[ "\$rc" -eq 2 \]; then\n.*\n\s+mkfs -t ext4/);
    expect(script).toContain('ebsnvme-id -b "$dev"');
  });

  test('mountDataVolume mounts EFS with its access point when the context has EFS, the EBS device otherwise', () => {
    const efs = new BashUserDataBuilder();
    efs.mountDataVolume(EFS_CONTEXT, '/dev/xvdf', '/srv/data', '1000', '1000');
    expect(efs.render()).toContain("fw_mount_efs 'fs-0123456789abcdef0' 'fsap-0123456789abcdef0' '/srv/data' '1000' '1000'");
    const ebs = new BashUserDataBuilder();
    ebs.mountDataVolume(EBS_CONTEXT, '/dev/xvdf', '/srv/data', '1000', '1000');
    expect(ebs.render()).toContain("fw_mount_ebs '/dev/xvdf' '/srv/data' '1000' '1000'");
    expect(ebs.render()).not.toContain('fw_mount_efs ');
  });

  test('mountDataVolume applies rule 6: EFS without its access point fails, naming what is missing', () => {
    expect(() => new BashUserDataBuilder().mountDataVolume({ ...EFS_CONTEXT, accessPointId: undefined }, '/dev/xvdf', '/srv/data', '1000', '1000'))
      .toThrow(/hasEfs is true but accessPointId is missing/);
  });

  test('installCloudWatchAgent writes an agent configuration that ships each path to the log group', () => {
    const b = new BashUserDataBuilder();
    OPERATIONS.installCloudWatchAgent(b);
    const script = b.render();
    const quotedJson = /fw_install_cloudwatch_agent '([^']*)'/.exec(script)![1];
    const config = JSON.parse(quotedJson);
    expect(config.logs.logs_collected.files.collect_list).toEqual([
      { file_path: '/var/log/app.log', log_group_name: '/aws/s/EC2/DEV', log_stream_name: '{instance_id}/var/log/app.log' },
      { file_path: '/var/log/b.log', log_group_name: '/aws/s/EC2/DEV', log_stream_name: '{instance_id}/var/log/b.log' },
    ]);
    expect(script).toContain('fw_pkg install -y amazon-cloudwatch-agent');
  });

  test('a helper used twice is defined once', () => {
    const b = new BashUserDataBuilder();
    b.mountEbs('/dev/xvdf', '/srv/a', '1', '1');
    b.mountEfs('fs-0123456789abcdef0', 'fsap-0123456789abcdef0', '/srv/b', '1', '1');
    expect(b.render().match(/^fw_fstab_set\(\) \{/gm)).toHaveLength(1);
  });
});

describe('bad arguments are rejected before anything is added', () => {
  const cases: Array<[string, (b: BashUserDataBuilder) => void, RegExp]> = [
    ['addCommands()', (b) => b.addCommands(), /at least one command/],
    ['addCommands line break', (b) => b.addCommands('echo one', 'echo two\necho three'),
      /^addCommands\(\): command 2 \(argument index 1\) is "echo two\\necho three", which holds a line break; each string is one script line/],
    ['addCommands carriage return', (b) => b.addCommands('echo one\r'), /command 1 \(argument index 0\).*line break/],
    ['mountEfs bad efsId', (b) => b.mountEfs('vol-1', 'fsap-0123456789abcdef0', '/srv/d', '1', '1'), /efsId "vol-1" is not an EFS id/],
    ['mountEfs bad access point', (b) => b.mountEfs('fs-0123456789abcdef0', 'ap', '/srv/d', '1', '1'), /accessPointId "ap"/],
    ['mountEfs relative path', (b) => b.mountEfs('fs-0123456789abcdef0', 'fsap-0123456789abcdef0', 'srv/d', '1', '1'), /mountPath "srv\/d"/],
    ['mountEbs bad device', (b) => b.mountEbs('xvdf', '/srv/d', '1', '1'), /deviceName "xvdf"/],
    ['mountEbs non-numeric uid', (b) => b.mountEbs('/dev/xvdf', '/srv/d', 'jenkins', '1'), /uid "jenkins" is not a numeric user id/],
    ['mountEbs quote in path', (b) => b.mountEbs('/dev/xvdf', "/srv/d'; rm -rf /", '1', '1'), /mountPath/],
    ['mountEbs non-numeric gid', (b) => b.mountEbs('/dev/xvdf', '/srv/d', '1', 'x'), /gid "x"/],
    ['installCloudWatchAgent no paths', (b) => b.installCloudWatchAgent('/aws/x', []), /logPaths is empty/],
    ['installCloudWatchAgent relative path', (b) => b.installCloudWatchAgent('/aws/x', ['app.log']), /logPaths\[0\] "app.log" is not an absolute path/],
    ['installCloudWatchAgent bad group', (b) => b.installCloudWatchAgent('bad group', ['/a']), /logGroupName "bad group"/],
    ['writeFiles none', (b) => b.writeFiles({}), /needs at least one file/],
    ['writeFiles relative path and binary content', (b) => b.writeFiles({ 'etc/a': 'x', '/srv/my file': 'x', '/srv/b': 'a\0b' }),
      /path "etc\/a" is not an absolute path without white space; path "\/srv\/my file" is not an absolute path without white space; the content of \/srv\/b is not text without NUL bytes/],
    ['writeFiles deploy-time content', (b) => b.writeFiles({ '/srv/a.conf': `arn = ${Lazy.string({ produce: () => 'arn:aws:sns:eu-west-1:1:x' })}\n` }),
      /the content of \/srv\/a.conf holds a value known only at deploy time \(a token\), but the files are compressed at synth; write that value at boot instead/],
  ];
  test.each(cases)('%s', (_name, call, message) => {
    const b = new BashUserDataBuilder();
    b.addSystemUpdate();
    const before = b.render();
    expect(() => call(b)).toThrow(message);
    expect(b.render()).toBe(before);
  });

  test('every bad argument of one call is named at once', () => {
    expect(() => new BashUserDataBuilder().mountEbs('xvdf', 'rel', 'u', 'g'))
      .toThrow(/deviceName "xvdf".*mountPath "rel".*uid "u".*gid "g"/);
  });
});

describe('Shell.quote', () => {
  test.each([
    'plain', "it's", "''", 'a b\tc', '$HOME `id` $(id) \\n', 'line1\nline2', '!*?[]{};|&<>', '',
  ])('bash reads %j back unchanged', (value) => {
    const run = spawnSync('bash', ['-c', `printf '%s' ${Shell.quote(value)}`], { encoding: 'utf-8' });
    expect(run.stdout).toBe(value);
  });

  test('refuses a NUL character', () => {
    expect(() => Shell.quote('a\0b')).toThrow(/NUL/);
  });
});

needing('shellcheck', shellcheckUnavailable()).describe('shellcheck', () => {
  test('the check itself reports a finding in a faulty script', () => {
    expect(shellcheck('#!/bin/bash\nrm -rf $dir/*\n')).toMatch(/SC2086/);
  });

  test.each(Object.keys(OPERATIONS))('the script of %s has zero findings', (name) => {
    const b = new BashUserDataBuilder();
    OPERATIONS[name](b);
    expect(shellcheck(b.render())).toBe('');
  });

  test.each([['EFS', EFS_CONTEXT], ['EBS', EBS_CONTEXT]])('the whole test plugin script (%s) has zero findings', (_n, ctx) => {
    expect(shellcheck(wikiScript(ctx))).toBe('');
  });
});

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('executed in a sandbox with stub commands', () => {
  test('the steps run in the spec\'s rule-5 order and each logs its progress line', () => {
    const run = runInSandbox(wikiScript(EFS_CONTEXT));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const calls = run.calls.filter((c) => !c.startsWith('mountpoint'));
    expect(calls).toEqual([
      'dnf -y update',
      'dnf install -y nodejs',
      'dnf install -y wiki-server',
      'dnf install -y amazon-cloudwatch-agent',
      'amazon-cloudwatch-agent-ctl -a fetch-config -m ec2 -s -c file:/opt/aws/amazon-cloudwatch-agent/etc/amazon-cloudwatch-agent.json',
      'dnf install -y amazon-efs-utils',
      'mount /srv/wiki',
      'systemctl enable --now wiki.service',
      'sleep 0',
      'systemctl is-active --quiet wiki.service',
    ]);
    expect(run.log).toEqual([
      'user data started (package manager: dnf)',
      'step 1: system update',
      'step 2: commands (2 lines)',
      'step 3: CloudWatch agent shipping 1 log file(s) to /aws/wiki-dev/EC2/DEV',
      'step 4: mount EFS fs-0123456789abcdef0 (fsap-0123456789abcdef0) at /srv/wiki',
      'warning: /srv/wiki is owned by 0:0, expected 1001:1002 (check the access point\'s owner)',
      'mounted fs-0123456789abcdef0 via fsap-0123456789abcdef0 at /srv/wiki',
      'step 5: commands (4 lines)',
      'wiki.service is active',
      'user data finished',
    ]);
    expect(run.fstab).toContain('fs-0123456789abcdef0:/ /srv/wiki efs _netdev,noresvport,tls,iam,accesspoint=fsap-0123456789abcdef0,nofail 0 0\n');
  });

  test('writeFiles writes each file byte for byte, keeps an existing file\'s mode, and needs nothing but the script', () => {
    const files = { '/srv/app/a.conf': 'a = ${not expanded}\n%s 100%\n', '/srv/app/b.txt': 'no trailing newline', '/srv/app/c': '\n\nblank\n' };
    const b = new BashUserDataBuilder();
    b.addCommands('mkdir -p /srv/app', 'install -m 0600 /dev/null /srv/app/c');
    b.writeFiles(files);
    b.addCommands('stat -c %a /srv/app/c > /srv/mode');
    const run = runInSandbox(b.render());
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const [path, content] of Object.entries(files)) expect(run.written(path)).toBe(content);
    expect(run.written('/srv/mode')).toBe('600\n');
    expect(run.log).toContain('step 2: write 3 file(s)');
  });

  test('writeFiles may be called twice: each call runs where it stands, and the later content of a path stays', () => {
    const b = new BashUserDataBuilder();
    b.addCommands('mkdir -p /srv/app');
    b.writeFiles({ '/srv/app/a.conf': 'first\n' });
    b.addCommands('cp /srv/app/a.conf /srv/app/seen');
    b.writeFiles({ '/srv/app/a.conf': 'second\n', '/srv/app/b.conf': 'b\n' });
    const run = runInSandbox(b.render());
    expect(run.status).toBe(0);
    expect([run.written('/srv/app/seen'), run.written('/srv/app/a.conf'), run.written('/srv/app/b.conf')]).toEqual(['first\n', 'second\n', 'b\n']);
  });

  test('a second boot leaves exactly one fstab line per mount point and keeps the others', () => {
    const script = wikiScript(EFS_CONTEXT);
    const first = runInSandbox(script);
    const second = runInSandbox(script, DEFAULT_STUBS, first.dir);
    expect(second.status).toBe(0);
    expect(second.fstab).toBe(first.fstab);
    expect(second.fstab.split('\n').filter((l) => l.includes(' /srv/wiki '))).toHaveLength(1);
    expect(second.fstab).toContain('UUID=root / xfs defaults 0 0');
  });

  test('yum is used where dnf does not exist', () => {
    const { dnf: _dnf, ...withoutDnf } = DEFAULT_STUBS;
    const run = runInSandbox(wikiScript(EFS_CONTEXT), withoutDnf);
    expect(run.status).toBe(0);
    expect(run.calls[0]).toBe('yum -y update');
    expect(run.calls.some((c) => c.startsWith('dnf'))).toBe(false);
    expect(run.log[0]).toBe('user data started (package manager: yum)');
  });

  test('a service that is not active fails the boot and appends its last 50 journal lines', () => {
    const run = runInSandbox(wikiScript(EFS_CONTEXT), {
      ...DEFAULT_STUBS,
      systemctl: '[ "$1" = is-active ] && exit 3; exit 0',
      journalctl: 'for i in $(seq 1 50); do echo "journal line $i"; done',
    });
    expect(run.status).not.toBe(0);
    expect(run.calls).toContain('journalctl -u wiki.service -n 50 --no-pager');
    const at = run.log.indexOf('wiki.service is not active after 0s; its last 50 journal lines follow');
    expect(at).toBeGreaterThan(0);
    expect(run.log.slice(at + 1, at + 51)).toEqual(Array.from({ length: 50 }, (_, i) => `journal line ${i + 1}`));
    expect(run.log[at + 51]).toMatch(/^FAILED: line \d+ exited with status 1$/);
    // The unit's journal is in the log once: the failure it caused does not append it again.
    expect(run.log).toHaveLength(at + 52);
    expect(run.calls.filter((c) => c.startsWith('journalctl'))).toHaveLength(1);
  });

  test('a failing step stops the script and is logged with the boot\'s last 50 journal lines', () => {
    const run = runInSandbox(wikiScript(EFS_CONTEXT), { ...DEFAULT_STUBS, dnf: 'exit 7', journalctl: 'echo "boot journal"' });
    expect(run.status).toBe(7);
    expect(run.log).toEqual(['user data started (package manager: dnf)', 'step 1: system update',
      expect.stringMatching(/^FAILED: line \d+ exited with status 7$/),
      'the last 50 journal lines of this boot follow', 'boot journal']);
    expect(run.calls.filter((c) => c.startsWith('journalctl'))).toEqual(['journalctl -b -n 50 --no-pager']);
  });

  test('nothing a command holds is echoed: no tracing reaches the console or the log', () => {
    const b = new BashUserDataBuilder();
    b.addCommands('CANARY="canary-$((6 * 7))-s3cr3t"', 'export CANARY', 'test -n "$CANARY"');
    const run = runInSandbox(b.render());
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr + run.log.join('\n')).not.toContain('canary-42');
  });
});

test('IUserDataBuilder\'s documentation names every shell function a script can define (Java and Python read it there)', () => {
  const defined = [PREAMBLE, ...Object.values(HELPERS).map((h) => h.body)]
    .flatMap((text) => [...text.matchAll(/^(fw_\w+)\(\) \{/gm)].map((m) => m[1]));
  const source = readFileSync(join(__dirname, '..', 'src', 'contract', 'user-data-builder.ts'), 'utf-8');
  const documentation = /\/\*\*([\s\S]*?)\*\/\s*export interface IUserDataBuilder/.exec(source)![1];
  const documented = [...documentation.matchAll(/`(fw_\w+)/g)].map((m) => m[1]);
  expect(defined).toHaveLength(22);
  expect([...new Set(documented)].sort()).toEqual([...new Set(defined)].sort());
});
