import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BashUserDataBuilder, ContainerImageSpec, Ec2Context, RuntimeType, SecurityProfile } from '../src';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from './support/sandbox';
import { needing, shellcheck, shellcheckUnavailable } from './support/shellcheck';
import { only, propsFor, resources, synth, userData } from './support/synth';
import type { ImageRun } from '../src/userdata/image-run';

// An image on EC2 (IUserDataBuilder.runImage): pulled by digest through the cache, unpacked, run by systemd in the
// runtime's sandbox. What AWS receives is checked on the template; what the boot does, in the user-data sandbox; how
// systemd 252 (Amazon Linux 2023's) reads the unit and the command line the boot writes, by systemd's own manager.

const NEXUS = { applicationId: 'nexus', image: 'sonatype/nexus3:3.77.1', port: 8081, user: '200:200', dataPath: '/nexus-data', environment: { INSTALL4J_ADD_VM_PARAMS: '-Xms2g -Xmx2g' } };
const DIGEST = `sha256:${'3'.repeat(64)}`;
const PRODUCTION = { ...propsFor(SecurityProfile.PRODUCTION), ec2Storage: 'ebs', imageDigests: { [NEXUS.image]: DIGEST } } as const;
const production = synth(RuntimeType.EC2, PRODUCTION as any, new ContainerImageSpec(NEXUS));

describe('what AWS receives', () => {
  const script = userData(production.json);

  test('PRODUCTION: the image by its digest, through the pull-through cache, signed in with the instance\'s role', () => {
    expect(script).toMatch(/fw_image_root '\{"Ref":"AWS::AccountId"\}\.dkr\.ecr\.eu-west-1\.\{"Ref":"AWS::URLSuffix"\}\/fw-hub-[0-9a-f]{8}\/sonatype\/nexus3:3\.77\.1@sha256:3{64}' '\/var\/lib\/fw\/images\/nexus' 'eu-west-1'/);
    const [, pulls] = resources(production.json, 'AWS::IAM::Policy').find(([id]) => id.includes('ImagePulls'))!;
    const role = only(production.json, 'AWS::IAM::InstanceProfile').Properties.Roles[0];
    expect(pulls.Properties.Roles).toEqual([role]);
    expect(pulls.Properties.PolicyDocument.Statement.flatMap((s: any) => s.Action)).toEqual(expect.arrayContaining(['ecr:BatchGetImage', 'ecr:BatchImportUpstreamImage']));
    // The instance starts once it may pull.
    const [pullsId] = resources(production.json, 'AWS::IAM::Policy').find(([id]) => id.includes('ImagePulls'))!;
    expect(only(production.json, 'AWS::AutoScaling::AutoScalingGroup').DependsOn).toContain(pullsId);
  });

  test('the data volume, the console log shipped, the unit enabled and checked; no Docker in the plugin', () => {
    const steps = script.split('\n').filter((l) => l.startsWith('fw_log \'step '))
      .map((l) => l.replace(/^fw_log 'step \d+: /, '').replace(/'$/, '').replace(/\{"Ref":"[^"]+"\}/g, '<ref>'));
    expect(steps).toEqual([
      expect.stringMatching(/^outcome signalled to \w+$/),
      'application account nexus (200:200)',
      'attach EBS volume <ref> at /dev/xvdf',
      'system update',
      'mount EBS /dev/xvdf at /srv/nexus',
      'CloudWatch agent shipping 1 log file(s) to /aws/WikiStack/EC2/PRODUCTION',
      'image sonatype/nexus3:3.77.1',
      'log directory nexus',
      'write 2 file(s)',
      'service nexus',
      'health check /, then SUCCESS',
    ]);
    expect(script).toContain("fw_env_line '/etc/fw/nexus/image.env' 'INSTALL4J_ADD_VM_PARAMS' '-Xms2g -Xmx2g'");
    expect(script).toContain("fw_require_active 'nexus.service' 30");
  });

  test('the bill of materials names the image as the instance runs it', () => {
    const outdir = production.app.outdir;
    const bom = fs.readdirSync(outdir).map((f) => path.join(outdir, f)).filter((f) => f.endsWith('.json'))
      .map((f) => fs.readFileSync(f, 'utf-8')).find((text) => text.includes('"bomFormat"'));
    expect(bom).toContain(`"version": "3.77.1@${DIGEST}"`);
  });

  test('PRODUCTION refuses the image by tag only, naming the member and the key', () => {
    expect(() => synth(RuntimeType.EC2, { ...PRODUCTION, imageDigests: {} } as any, new ContainerImageSpec(NEXUS)))
      .toThrow(/defaultContainerImage\(\) \(run on EC2 by runImage\) is "sonatype\/nexus3:3\.77\.1", pinned by tag only; in PRODUCTION every image is pinned by digest.*imageDigests/s);
  });

  test('only the EC2 runtime\'s builder can run an image; once', () => {
    expect(() => new BashUserDataBuilder().runImage(CONTEXT)).toThrow(/runImage\(\): only the EC2 runtime's builder knows the plugin's image/);
    const twice = new TestBuilder(RUN);
    twice.runImage(CONTEXT);
    expect(() => twice.runImage(CONTEXT)).toThrow(/runImage\(\): called twice; an application runs its image once/);
  });
});

needing('shellcheck', shellcheckUnavailable()).test('the script that runs an image has zero shellcheck findings', () => {
  const builder = new TestBuilder(RUN);
  builder.runImage(CONTEXT);
  expect(shellcheck(builder.render())).toBe('');
});

/** A builder that knows an image, as the EC2 runtime's does. */
class TestBuilder extends BashUserDataBuilder {
  constructor(private readonly run: ImageRun) { super(); }
  /** @internal */
  protected _imageRun(): ImageRun { return this.run; }
}

const CONTEXT: Ec2Context = {
  stackName: 'repo',
  securityProfile: 'PRODUCTION',
  runtimeType: 'EC2',
  logGroupName: '/aws/repo/EC2/PRODUCTION',
  serviceUser: 'nexus',
  sslEnabled: true,
  hasEfs: true,
  efsId: 'fs-0123456789abcdef0',
  accessPointId: 'fsap-0123456789abcdef0',
};
const REFERENCE = `123456789012.dkr.ecr.eu-west-1.amazonaws.com/fw-hub-12345678/sonatype/nexus3:3.77.1@${DIGEST}`;
/** What the boot pulls: the pinned reference's tag, which the cache imports on a first pull. */
const TAGGED = REFERENCE.split('@')[0];
/** What Docker records of the pulled image: its repository at the digest the registry served. */
const repoDigests = (digest: string) => `${TAGGED.slice(0, TAGGED.lastIndexOf(':'))}@${digest}`;
const RUN: ImageRun = {
  applicationId: 'nexus',
  image: NEXUS.image,
  reference: REFERENCE,
  loginRegion: 'eu-west-1',
  uid: '200',
  gid: '200',
  data: { containerPath: '/nexus-data', hostPath: '/srv/nexus', ebsDeviceName: '/dev/xvdf' },
  environment: { FROM_PLUGIN: 'yes' },
  logPaths: [],
};

/**
 * The image's configuration as `docker image inspect` gives it: a command found through its PATH, and arguments
 * systemd would read otherwise if they were not quoted (a `$`, a `%`, quotes, a backslash, a tab, a lone `;`).
 */
const IMAGE_CONFIG = {
  Entrypoint: ['tini', '--'],
  Cmd: ['sh', '-c', 'exec java -Dkaraf.home="$HOME" 100% \\ done', ';', 'tab\there', ''],
  Env: ['PATH=/opt/java/bin:/usr/bin:/bin', 'JAVA_HOME=/opt/java', 'SPACED=a b'],
  WorkingDir: '/opt/sonatype',
};

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('the boot (user-data sandbox)', () => {
  // The image's file system, as docker would export it.
  const image = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-image-'));
  for (const dir of ['usr/bin', 'bin', 'opt/sonatype', 'nexus-data', 'tmp', 'etc']) fs.mkdirSync(path.join(image, dir), { recursive: true });
  for (const file of ['usr/bin/tini', 'bin/sh']) fs.writeFileSync(path.join(image, file), '', { mode: 0o755 });
  for (const file of ['etc/resolv.conf', 'etc/hosts']) fs.writeFileSync(path.join(image, file), '');
  fs.writeFileSync(`${image}.json`, JSON.stringify(IMAGE_CONFIG));
  const stubs = {
    ...DEFAULT_STUBS,
    docker: `case "$1" in login) cat > /dev/null ;; create) echo c0ffee ;; export) tar -C ${image} -c . ;;
      image) [ "$2" = inspect ] && case "$4" in *RepoDigests*) echo ${repoDigests(DIGEST)} ;; *) cat ${image}.json ;; esac ;; esac; true`,
    aws: 'echo not-a-real-token',
  };
  const builder = new TestBuilder(RUN);
  builder.runImage(CONTEXT);
  const script = builder.render();
  const first = runInSandbox(script, stubs);
  const again = runInSandbox(script, stubs, first.dir);

  test('the first boot pulls by the reference, signs in with a password on standard input, unpacks, stops docker', () => {
    expect(first.status).toBe(0);
    const docker = first.calls.filter((c) => /^(docker|aws|systemctl) /.test(c));
    // The two sides of the sign-in's pipe run at once: either may record its call first.
    expect(docker.slice(1, 3).sort()).toEqual([
      'aws ecr get-login-password --region eu-west-1',
      'docker login --username AWS --password-stdin 123456789012.dkr.ecr.eu-west-1.amazonaws.com',
    ]);
    expect([docker[0], ...docker.slice(3)]).toEqual([
      'systemctl start docker',
      `docker pull --quiet ${TAGGED}`,
      'docker logout 123456789012.dkr.ecr.eu-west-1.amazonaws.com',
      `docker image inspect --format {{range .RepoDigests}}{{println .}}{{end}} ${TAGGED}`,
      `docker create ${TAGGED}`,
      'docker export c0ffee',
      `docker image inspect --format {{json .Config}} ${TAGGED}`,
      'docker rm c0ffee',
      `docker image rm ${TAGGED}`,
      'systemctl stop docker.socket docker.service',
      'systemctl daemon-reload',
      'systemctl enable --now logrotate.timer',
      'systemctl enable --now nexus.service',
      'systemctl is-active --quiet nexus.service',
    ]);
    // The registry's password goes from aws to docker through a pipe: in no command's arguments, not in the log.
    expect([...first.calls, ...first.log].join('\n')).not.toContain('not-a-real-token');
    expect(first.written('/var/lib/fw/images/nexus/.fw-image')).toBe(`${REFERENCE}\n`);
    expect(first.written('/var/lib/fw/images/nexus/usr/bin/tini')).toBe('');
  });

  test('the image\'s environment, then the plugin\'s, in a root-only file systemd reads back', () => {
    const file = path.join(first.dir, 'upper', '/etc', 'fw/nexus/image.env');
    expect(fs.statSync(file).mode.toString(8)).toMatch(/600$/);
    expect(first.written('/etc/fw/nexus/image.env')).toBe('PATH="/opt/java/bin:/usr/bin:/bin"\nJAVA_HOME="/opt/java"\nSPACED="a b"\nFROM_PLUGIN="yes"\n');
  });

  test('a second boot finds the image unpacked and pulls nothing', () => {
    expect(again.status).toBe(0);
    expect(again.calls.filter((c) => c.startsWith('docker '))).toEqual([]);
    expect(again.log).toContain(`image ${REFERENCE} is already unpacked in /var/lib/fw/images/nexus`);
  });

  test('a tag the cache serves at another digest than the pin stops the boot, naming the image and both digests', () => {
    const other = `sha256:${'9'.repeat(64)}`;
    const run = runInSandbox(script, { ...stubs, docker: stubs.docker.replace(repoDigests(DIGEST), repoDigests(other)) });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`the image ${TAGGED} was pulled as ${repoDigests(other)}, but the pin (imageDigests) is ${DIGEST}`);
    expect(run.calls.filter((c) => c.startsWith('docker create'))).toEqual([]);
    expect(run.written('/var/lib/fw/images/nexus/.fw-image')).toBeUndefined();
  });

  test('an image without a command stops the boot, saying why', () => {
    const none = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-image-'));
    fs.writeFileSync(`${none}.json`, JSON.stringify({ Env: [] }));
    const run = runInSandbox(script, { ...stubs, docker: stubs.docker.replace(new RegExp(image, 'g'), none) });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/the image names no Entrypoint and no Cmd to run/);
  });

  // containerCommand(), merged with the image's as Docker's engine merges them (moby daemon/commit.go, merge).
  test.each([
    ['a command alone keeps the image\'s entry point', { command: ['run', '100%'] }, ':/usr/bin/tini "--" "run" "100%%"'],
    ['an entry point alone drops the image\'s command', { entryPoint: ['/bin/sh'] }, ':/bin/sh'],
    ['both replace both', { entryPoint: ['sh', '-c'], command: ['exec "$0"'] }, ':/bin/sh "-c" "exec \\"$0\\""'],
  ])('the plugin\'s command: %s', (_title, command, execStart) => {
    const withCommand = new TestBuilder({ ...RUN, command });
    withCommand.runImage(CONTEXT);
    const run = runInSandbox(withCommand.render(), stubs);
    expect(run.status).toBe(0);
    expect(run.written('/etc/systemd/system/nexus.service.d/image.conf')).toBe(`[Service]\nWorkingDirectory=/opt/sonatype\nEnvironment=HOME=/\nExecStart=${execStart}\n`);
  });

  test('the image\'s declared volumes are writable, HOME is its user\'s home in the image; a volume through a link is refused', () => {
    const withVolumes = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-image-'));
    fs.cpSync(image, withVolumes, { recursive: true });
    fs.writeFileSync(path.join(withVolumes, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nnexus:x:200:200::/opt/sonatype/home:/bin/false\n');
    fs.writeFileSync(`${withVolumes}.json`, JSON.stringify({ ...IMAGE_CONFIG, Volumes: { '/var/cache/nexus': {}, '/nexus-data': {} } }));
    const run = runInSandbox(script, { ...stubs, docker: stubs.docker.replace(new RegExp(image, 'g'), withVolumes) });
    expect(run.status).toBe(0);
    expect(run.written('/etc/systemd/system/nexus.service.d/image.conf')!.split('\n').slice(1, 5)).toEqual([
      'WorkingDirectory=/opt/sonatype', 'Environment=HOME=/opt/sonatype/home', 'ReadWritePaths=+/nexus-data', 'ReadWritePaths=+/var/cache/nexus',
    ]);
    expect(fs.statSync(path.join(run.dir, 'upper', 'var/lib/fw/images/nexus/var/cache/nexus')).isDirectory()).toBe(true);
    // A volume whose path leaves the image through a link would be created on the host: refused, naming it.
    fs.symlinkSync('/etc', path.join(withVolumes, 'opt', 'out'));
    fs.writeFileSync(`${withVolumes}.json`, JSON.stringify({ ...IMAGE_CONFIG, Volumes: { '/opt/out/evil': {} } }));
    const refused = runInSandbox(script, { ...stubs, docker: stubs.docker.replace(new RegExp(image, 'g'), withVolumes) });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/the image declares the volume "\/opt\/out\/evil", not a plain absolute path inside the image/);
  });

  // An image that keeps no data (keepsData() false): no data volume, one declared volume.
  const statelessImage = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-image-'));
  fs.cpSync(image, statelessImage, { recursive: true });
  fs.writeFileSync(`${statelessImage}.json`, JSON.stringify({ ...IMAGE_CONFIG, Volumes: { '/var/cache/nexus': {} } }));
  const statelessBuilder = new TestBuilder({ ...RUN, data: undefined });
  statelessBuilder.runImage({ ...CONTEXT, keepsData: false });
  const stateless = runInSandbox(statelessBuilder.render(), { ...stubs, docker: stubs.docker.replace(new RegExp(image, 'g'), statelessImage) });

  test('an image that keeps no data: nothing mounted or bound, only its declared volumes writable', () => {
    expect(stateless.status).toBe(0);
    expect(stateless.calls.filter((c) => /^(mount|fw_mount)/.test(c))).toEqual([]);
    const unit = stateless.written('/etc/systemd/system/nexus.service')!;
    expect(unit.split('\n').filter((l) => /^(BindPaths|RequiresMountsFor|ReadWritePaths)=/.test(l))).toEqual([]);
    expect(stateless.written('/etc/systemd/system/nexus.service.d/image.conf')).toContain('ReadWritePaths=+/var/cache/nexus\n');
    // The negative control: the image that keeps data has its volume bound and writable.
    expect(first.written('/etc/systemd/system/nexus.service')).toMatch(/^BindPaths=\/srv\/nexus:\/nexus-data$/m);
  });

  needing('systemd 252 (its manager in test mode, and systemd-analyze)', systemdUnavailable()).describe('as systemd 252 reads it', () => {
    const unit = unitDirectory(first);
    const statelessUnit = unitDirectory(stateless);

    test('the command line is the image\'s entrypoint and command, argument for argument', () => {
      const dump = managerDump(unit.dir);
      const line = /-> ExecStart:\n\s+Command Line: (.*)\n/.exec(dump)?.[1];
      expect(parseDumpedCommandLine(line ?? '')).toEqual(['/usr/bin/tini', '--', ...IMAGE_CONFIG.Cmd]);
      expect(dump).toMatch(/RootDirectory: \S+\/var\/lib\/fw\/images\/nexus\n/);
      expect(dump).toMatch(/WorkingDirectory: \/opt\/sonatype\n/);
      // The check can fail: a command line quoted as a shell would (not as systemd reads it) is read otherwise.
      fs.writeFileSync(path.join(unit.dir, 'nexus.service.d', 'image.conf'), '[Service]\nExecStart=:/usr/bin/tini -- 100%d\n');
      expect(parseDumpedCommandLine(/Command Line: (.*)\n/.exec(managerDump(unit.dir))?.[1] ?? '')).not.toEqual(['/usr/bin/tini', '--', '100%d']);
      fs.writeFileSync(path.join(unit.dir, 'nexus.service.d', 'image.conf'), unit.dropIn);
    });

    test('the unit of an image that keeps no data is one systemd reads, every line a key it knows', () => {
      const verify = spawnSync('systemd-analyze', ['verify', '--man=no', path.join(statelessUnit.dir, 'nexus.service')], { encoding: 'utf-8' });
      expect(verify.stderr.trim().split('\n')).toEqual(['nexus.service: Command /usr/bin/tini is not executable: No such file or directory']);
    });

    test('every line is a key systemd knows, and the exposure is at most 4.0 of 10, as for a native service', () => {
      const verify = spawnSync('systemd-analyze', ['verify', '--man=no', path.join(unit.dir, 'nexus.service')], { encoding: 'utf-8' });
      // systemd-analyze 252 looks for the command on the host (verify_executable: access() without the unit's
      // RootDirectory), where the image's is not; that one line is expected, nothing else.
      expect(verify.stderr.trim().split('\n')).toEqual(['nexus.service: Command /usr/bin/tini is not executable: No such file or directory']);
      // The check can fail: a key systemd does not know is reported.
      fs.appendFileSync(path.join(unit.dir, 'nexus.service.d', 'image.conf'), 'RootDirectry=/x\n');
      expect(spawnSync('systemd-analyze', ['verify', '--man=no', path.join(unit.dir, 'nexus.service')], { encoding: 'utf-8' }).stderr)
        .toMatch(/Unknown key 'RootDirectry'/);
      fs.writeFileSync(path.join(unit.dir, 'nexus.service.d', 'image.conf'), unit.dropIn);
      const security = spawnSync('systemd-analyze', ['security', '--offline=true', '--threshold=40', path.join(unit.dir, 'nexus.service')], { encoding: 'utf-8' });
      expect(security.stdout).toMatch(/Overall exposure level for nexus\.service: ([0-3]\.\d|4\.0)/);
      expect(security.status).toBe(0);
    });
  });
});

/** The unit and drop-in the boot wrote, in a directory systemd reads, the root pointing into the sandbox. */
function unitDirectory(boot: ReturnType<typeof runInSandbox>) {
  // In /tmp, not the stage's TMPDIR: systemd's test mode reads as nobody, who cannot pass a directory of mode 0700
  // (test-stages.js makes each stage's so); removed after the tests.
  const dir = fs.mkdtempSync('/tmp/fw-units-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.chmodSync(dir, 0o755);
  const root = path.join(boot.dir, 'upper', '/var', 'lib/fw/images/nexus');
  const unitText = boot.written('/etc/systemd/system/nexus.service')!.replace('RootDirectory=/var/lib/fw/images/nexus', `RootDirectory=${root}`);
  const dropIn = boot.written('/etc/systemd/system/nexus.service.d/image.conf')!;
  fs.writeFileSync(path.join(dir, 'nexus.service'), unitText, { mode: 0o644 });
  fs.mkdirSync(path.join(dir, 'nexus.service.d'), { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'nexus.service.d', 'image.conf'), dropIn, { mode: 0o644 });
  return { dir, dropIn };
}

/**
 * systemd 252's own manager, in test mode (`systemd --test`, which refuses to run as root: as nobody), loading the unit
 * and dumping it as it parsed it.
 */
function managerDump(dir: string): string {
  const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '/lib/systemd/systemd', '--test', '--system',
    '--unit=nexus.service', '--log-target=console'], { encoding: 'utf-8', env: { ...process.env, SYSTEMD_UNIT_PATH: `${dir}:` }, maxBuffer: 64 * 1024 * 1024 });
  const start = run.stdout.indexOf('-> Unit nexus.service:');
  if (start < 0) throw new Error(`systemd --test did not dump nexus.service: ${run.stderr.slice(0, 2000)}`);
  const end = run.stdout.indexOf('-> Unit ', start + 1);
  const dump = run.stdout.slice(start, end < 0 ? undefined : end);
  if (!/Unit Load State: loaded\n/.test(dump)) throw new Error(`systemd --test did not load ${dir}/nexus.service (can nobody read it?): ${dump.slice(0, 500)}`);
  return dump;
}

/** The words of a command line as the manager's dump quotes them (systemd's `quote_command_line`: C escapes in double quotes). */
function parseDumpedCommandLine(line: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' };
  for (let m = re.exec(line); m; m = re.exec(line)) {
    words.push((m[1] ?? m[2]).replace(/\\x([0-9a-fA-F]{2})|\\(.)/g, (_, hex, c) => (hex ? String.fromCharCode(parseInt(hex, 16)) : escapes[c] ?? c)));
  }
  return words;
}

function systemdUnavailable(): string | undefined {
  const run = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf-8' });
  if (run.error) return `systemd-analyze cannot run: ${run.error.message}`;
  if (!/^systemd 252\b/.test(run.stdout)) return `systemd-analyze is not systemd 252: ${run.stdout.split('\n')[0]}`;
  return fs.existsSync('/lib/systemd/systemd') ? undefined : 'no /lib/systemd/systemd';
}
