import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Stub commands: name -> shell body run after the call is recorded (default: succeed silently). */
export type Stubs = Record<string, string>;

export interface SandboxResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Each stub call as `name arg1 arg2 ...`, in order. */
  readonly calls: string[];
  /** Lines of /var/log/userdata.log, without their timestamps. */
  readonly log: string[];
  /** Contents of /etc/fstab after the run. */
  readonly fstab: string;
  /** The sandbox's own directory: /var/log, /opt, /srv and /etc/fstab of the run live below it. */
  readonly dir: string;
}

/** Commands every run stubs: package managers and services must never touch this machine. */
export const DEFAULT_STUBS: Stubs = {
  'dnf': '',
  'yum': '',
  'systemctl': '',
  'journalctl': '',
  'amazon-cloudwatch-agent-ctl': '',
  'mount': '',
  'mountpoint': 'exit 1',
  'ebsnvme-id': 'exit 1',
};

/** Whether this process can make the mount namespace the sandbox needs. */
export function canSandbox(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0 &&
    spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0;
}

/**
 * Runs a script in a private mount namespace where /var/log, /opt, /srv and /etc/fstab are the sandbox's own
 * directories, with stub commands first on PATH. Nothing the script writes reaches the real system there.
 * Reuse `dir` to run a second boot against the same state.
 */
export function runInSandbox(script: string, stubs: Stubs = DEFAULT_STUBS, dir?: string): SandboxResult {
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sandbox-'));
  for (const sub of ['bin', 'varlog', 'opt', 'srv']) fs.mkdirSync(path.join(root, sub), { recursive: true });
  const fstab = path.join(root, 'fstab');
  if (!fs.existsSync(fstab)) fs.writeFileSync(fstab, '# /etc/fstab of the sandbox\nUUID=root / xfs defaults 0 0\n');
  const calls = path.join(root, 'calls.log');
  fs.writeFileSync(calls, '');
  fs.rmSync(path.join(root, 'bin'), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, 'bin'));
  for (const [name, body] of Object.entries(stubs)) {
    const file = path.join(root, 'bin', name);
    fs.writeFileSync(file, `#!/bin/bash\nprintf '%s\\n' "${name} $*" >> ${JSON.stringify(calls)}\n${body}\n`);
    fs.chmodSync(file, 0o755);
  }
  const scriptFile = path.join(root, 'userdata.sh');
  fs.writeFileSync(scriptFile, script);

  const setup = [
    `mount --bind ${root}/varlog /var/log`,
    `mount --bind ${root}/opt /opt`,
    `mount --bind ${root}/srv /srv`,
    `mount --bind ${fstab} /etc/fstab`,
    `PATH=${root}/bin:$PATH exec bash ${scriptFile}`,
  ].join(' && ');
  const run = spawnSync('unshare', ['-m', '--propagation', 'private', 'bash', '-c', setup], { encoding: 'utf-8' });

  const logFile = path.join(root, 'varlog', 'userdata.log');
  return {
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    calls: fs.readFileSync(calls, 'utf-8').split('\n').filter(Boolean),
    log: fs.existsSync(logFile)
      ? fs.readFileSync(logFile, 'utf-8').split('\n').filter(Boolean).map((l) => l.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /, ''))
      : [],
    fstab: fs.readFileSync(fstab, 'utf-8'),
    dir: root,
  };
}
