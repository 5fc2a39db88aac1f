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
  /** The sandbox's own directory; reuse it for a second boot. */
  readonly dir: string;
  /** A file as the script left it, or undefined when the script did not write it. */
  readonly written: (file: string) => string | undefined;
}

/** Commands every run stubs: package managers, downloads and services must never touch this machine. */
export const DEFAULT_STUBS: Stubs = {
  'dnf': '',
  'yum': '',
  'rpm': '',
  // Each download holds its own URL; a `.sha256` URL answers the checksum of what its file's download holds, so a
  // script that checks what it downloads passes, and one that checks the wrong thing fails.
  // The instance metadata answers (IMDSv2: a token first), and the application answers its health check with 200.
  'curl': [
    'case "$*" in *169.254.169.254/latest/api/token*) echo token; exit 0 ;; *meta-data/instance-id*) echo i-0123456789abcdef0; exit 0 ;;',
    '  *meta-data/local-ipv4*) echo 10.0.1.5; exit 0 ;; *%{http_code}*) printf 200; exit 0 ;; esac',
    'out=""; url=""',
    'while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift ;; http*) url="$1" ;; esac; shift; done',
    'if [ -n "$out" ]; then mkdir -p "$(dirname "$out")" && printf \'download of %s\\n\' "$url" > "$out"; fi',
    'case "$url" in *.sha256) printf \'download of %s\\n\' "${url%.sha256}" | sha256sum | cut -d " " -f 1 ;; esac',
  ].join('\n'),
  'java': '',
  'systemctl': '',
  'journalctl': '',
  'sleep': '',
  'amazon-cloudwatch-agent-ctl': '',
  'mount': '',
  'mountpoint': 'exit 1',
  'ebsnvme-id': 'exit 1',
};

/** The directories the script sees through a copy-on-write overlay: it can change them, the machine keeps them. */
const OVERLAID = ['/etc', '/var', '/usr', '/opt', '/srv'];

/** What the sandbox needs, as a skipped test's name says it. */
export const SANDBOX_NEEDS = 'root and a private mount namespace (unshare -m)';

/** Why this process cannot make the mount namespace and overlays the sandbox needs, or undefined when it can. */
export function sandboxUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `the platform is ${process.platform}, not linux`;
  const uid = process.getuid?.();
  if (uid !== 0) return `running as uid ${uid}, not root`;
  const run = spawnSync('unshare', ['-m', '--propagation', 'private', 'true'], { encoding: 'utf-8' });
  if (run.error) return `unshare cannot run: ${run.error.message}`;
  if (run.status !== 0) return `unshare -m failed: ${run.stderr.trim() || `status ${run.status}`}`;
  return undefined;
}

/** Whether this process can make the mount namespace and overlays the sandbox needs. */
export function canSandbox(): boolean {
  return sandboxUnavailable() === undefined;
}

/** Why no loop device can stand in for an EBS volume here (the sandbox and a free loop device), or undefined. */
export function loopDeviceUnavailable(): string | undefined {
  const sandbox = sandboxUnavailable();
  if (sandbox) return sandbox;
  const run = spawnSync('losetup', ['-f'], { encoding: 'utf-8' });
  if (run.error) return `losetup cannot run: ${run.error.message}`;
  if (run.status !== 0) return `no free loop device (losetup -f: ${run.stderr.trim() || `status ${run.status}`})`;
  return undefined;
}

export interface SandboxOptions {
  /**
   * More directories to overlay, for example /dev, where a script that links a device name must not change the
   * machine's (the devices stay usable through the overlay).
   */
  readonly alsoOverlaid?: string[];
}

/**
 * Runs a script in a private mount namespace where /etc, /var, /usr, /opt and /srv are overlays whose changes land in
 * the sandbox's directory, with stub commands first on PATH and a known /etc/fstab.
 */
export function runInSandbox(script: string, stubs: Stubs = DEFAULT_STUBS, dir?: string, options: SandboxOptions = {}): SandboxResult {
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fw-sandbox-'));
  const upper = (d: string) => path.join(root, 'upper', d);
  const overlaid = [...OVERLAID, ...options.alsoOverlaid ?? []];
  for (const d of overlaid) {
    fs.mkdirSync(upper(d), { recursive: true });
    fs.mkdirSync(path.join(root, 'work', d), { recursive: true });
  }
  const fstab = path.join(upper('/etc'), 'fstab');
  if (!fs.existsSync(fstab)) fs.writeFileSync(fstab, '# /etc/fstab of the sandbox\nUUID=root / xfs defaults 0 0\n');
  const bin = path.join(root, 'bin');
  const calls = path.join(root, 'calls.log');
  fs.rmSync(bin, { recursive: true, force: true });
  fs.mkdirSync(bin);
  fs.writeFileSync(calls, '');
  for (const [name, body] of Object.entries(stubs)) {
    const file = path.join(bin, name);
    fs.writeFileSync(file, `#!/bin/bash\nprintf '%s\\n' "${name} $*" >> ${JSON.stringify(calls)}\n${body}\n`);
    fs.chmodSync(file, 0o755);
  }
  const scriptFile = path.join(root, 'userdata.sh');
  fs.writeFileSync(scriptFile, script);

  const setup = [
    ...overlaid.filter((d) => fs.existsSync(d)).map((d) =>
      `mount -t overlay overlay -o lowerdir=${d},upperdir=${upper(d)},workdir=${path.join(root, 'work', d)} ${d}`),
    `PATH=${bin}:$PATH exec bash ${scriptFile}`,
  ].join(' && ');
  const run = spawnSync('unshare', ['-m', '--propagation', 'private', 'bash', '-c', setup], { encoding: 'utf-8' });

  const written = (file: string) => {
    const top = overlaid.find((d) => file.startsWith(`${d}/`));
    const copy = top ? path.join(upper(top), file.slice(top.length)) : undefined;
    return copy && fs.existsSync(copy) && fs.statSync(copy).isFile() ? fs.readFileSync(copy, 'utf-8') : undefined;
  };
  return {
    status: run.status,
    stdout: run.stdout,
    stderr: run.stderr,
    calls: fs.readFileSync(calls, 'utf-8').split('\n').filter(Boolean),
    log: (written('/var/log/userdata.log') ?? '').split('\n').filter(Boolean)
      .map((l) => l.replace(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /, '')),
    fstab: fs.readFileSync(fstab, 'utf-8'),
    dir: root,
    written,
  };
}
