import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuthMode, BashUserDataBuilder, RuntimeType } from '../src';
import { WikiOidcSpec } from './fixtures/wiki-spec';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable, SandboxResult, Stubs } from './support/sandbox';
import { needing, shellcheck, shellcheckUnavailable } from './support/shellcheck';
import { deployedUserData, OIDC, synth, TLS, userData } from './support/synth';
import { PREAMBLE } from '../src/userdata/preamble';

// The EC2 boot stops at its first failure, command substitutions included, appends the journal tail to the log
// (specification rule 5.6) and exits non-zero. The script under test is the one the factory puts into the launch template.

const ENV_FILE = '/etc/fw/application.env';
const SECRET = 'canary-s3cr3t-42';
const AWS_DENIED = 'An error occurred (AccessDeniedException) when calling the GetSecretValue operation: ' +
  'Access to KMS is not allowed';
/** The plugin's first own step: nothing of it may run after a failed secret. */
const PLUGIN_FIRST_CALL = 'dnf -y update';
const JOURNAL: Stubs = { journalctl: 'for i in $(seq 1 50); do echo "journal line $i"; done' };

/**
 * The EC2 user data of a plugin with its own sign-in: its client secret is read from Secrets Manager at boot. The file
 * system's and access point's ids, which CloudFormation fills in at deploy time, become example ids.
 */
function ec2ScriptWithSecret(asDeployed = false): string {
  const { json } = synth(RuntimeType.EC2, { ...TLS, authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC }, new WikiOidcSpec());
  return (asDeployed ? deployedUserData : userData)(json).replace(/\{"Ref":"(\w+)"\}/g, (_ref, id: string) =>
    (/AccessPoint/.test(id) ? 'fsap-0123456789abcdef0' : /FileSystem/.test(id) ? 'fs-0123456789abcdef0' : `unresolved ${id}`));
}

/** Everything a run printed or logged, where a secret must never appear. */
function everythingShown(run: SandboxResult): string {
  return [run.stdout, run.stderr, ...run.log].join('\n');
}

/** The lines after the journal notice, which must be the stub's 50 lines (then, on EC2, the outcome's signal). */
function journalAfter(run: SandboxResult, notice: string): string[] {
  const at = run.log.indexOf(notice);
  expect(at).toBeGreaterThan(0);
  return run.log.slice(at + 1).filter((line) => !/^(signalled|CloudFormation took no) FAILURE/.test(line));
}

const FIFTY_LINES = Array.from({ length: 50 }, (_, i) => `journal line ${i + 1}`);

describe('the rendered EC2 user data', () => {
  const script = ec2ScriptWithSecret();

  test('holds no reference but the file system\'s (runnable as it is) and reads the secret before any step of the plugin', () => {
    expect(script).not.toMatch(/Fn::|Ref"|\$\{Token|unresolved/);
    expect(script.indexOf('\nfw_env_secret ')).toBeGreaterThan(0);
    expect(script.indexOf('\nfw_env_secret ')).toBeLessThan(script.indexOf('fw_pkg -y update'));
  });

  test('reads each secret into a variable, never as an argument whose failure would be swallowed', () => {
    expect(script).toContain(`fw_env_secret '${ENV_FILE}' 'WIKI_OIDC_CLIENT_SECRET' 'eu-west-1' '${OIDC.clientSecretArn}'\n`);
    expect(script).toContain('  value=$(aws secretsmanager get-secret-value --region "$region" --secret-id "$arn" "${version[@]}" ' +
      '--query SecretString --output text 2>> "$FW_LOG")\n');
    expect(script).toContain('  fw_env_line "$file" "$name" "$value"\n');
    // No command substitution as an argument of another command (its status would be lost).
    expect(script.split('\n').filter((l) => /^\s*[a-z_]+ .*\$\(aws /.test(l))).toEqual([]);
  });

  test('stops on the first failure, inside command substitutions too, and never traces', () => {
    expect(script).toContain('set -Eeuo pipefail\nshopt -s inherit_errexit\n');
    expect(script).toContain("trap 'fw_on_exit \"$?\"' EXIT");
    expect(script).not.toMatch(/set\s+-[a-zA-Z]*[xv]|xtrace|verbose|BASH_XTRACEFD/);
  });

  needing('shellcheck', shellcheckUnavailable()).test('has zero shellcheck findings', () => {
    expect(shellcheck(script)).toBe('');
  });
});

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('the EC2 boot, executed in a sandbox with stub commands', () => {
  const script = ec2ScriptWithSecret();

  test('a failing Secrets Manager read stops the boot before the plugin\'s steps, logs the journal tail and exits non-zero', () => {
    const run = runInSandbox(script, { ...DEFAULT_STUBS, ...JOURNAL, aws: `[ "$1" = secretsmanager ] || exit 0; echo ${JSON.stringify(AWS_DENIED)} >&2; exit 254` });
    expect(run.status).toBe(254);
    expect(run.calls.filter((c) => c.startsWith('aws '))).toEqual([
      `aws secretsmanager get-secret-value --region eu-west-1 --secret-id ${OIDC.clientSecretArn} --query SecretString --output text`,
      expect.stringMatching(/^aws cloudformation signal-resource .* --status FAILURE$/),
    ]);
    expect(run.calls).not.toContain(PLUGIN_FIRST_CALL);
    expect(run.calls.some((c) => c.startsWith('systemctl'))).toBe(false);
    expect(run.log).toContain(`reading WIKI_OIDC_CLIENT_SECRET from Secrets Manager (${OIDC.clientSecretArn})`);
    expect(run.log).toContain(AWS_DENIED);
    expect(run.log).toContainEqual(expect.stringMatching(/^FAILED: line \d+ exited with status 254$/));
    expect(run.log).not.toContain('user data finished');
    expect(run.calls).toContain('journalctl -b -n 50 --no-pager');
    expect(journalAfter(run, 'the last 50 journal lines of this boot follow')).toEqual(FIFTY_LINES);
    // The entries before the secret are written; the secret's is not, not even empty.
    expect(run.written(ENV_FILE)).toContain('WIKI_OIDC_ISSUER="https://login.example.com"\n');
    expect(run.written(ENV_FILE)).not.toContain('WIKI_OIDC_CLIENT_SECRET');
  });

  test('a secret that reads as empty stops the boot too, naming the variable', () => {
    const run = runInSandbox(script, { ...DEFAULT_STUBS, ...JOURNAL, aws: 'echo' });
    expect(run.status).not.toBe(0);
    expect(run.log).toContain(`WIKI_OIDC_CLIENT_SECRET: the SecretString of ${OIDC.clientSecretArn} is empty; it must hold the value (a text secret)`);
    expect(run.calls).not.toContain(PLUGIN_FIRST_CALL);
    expect(journalAfter(run, 'the last 50 journal lines of this boot follow')).toEqual(FIFTY_LINES);
  });

  test('a succeeding Secrets Manager read writes the entry into the root-only file and the boot carries on; the value is never shown', () => {
    const run = runInSandbox(script, { ...DEFAULT_STUBS, aws: `printf '%s\\n' '${SECRET}'` });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.written(ENV_FILE)).toBe('WIKI_OIDC_ISSUER="https://login.example.com"\nWIKI_OIDC_CLIENT_ID="wiki"\n' +
      `WIKI_OIDC_CLIENT_SECRET="${SECRET}"\n`);
    expect((fs.statSync(path.join(run.dir, 'upper', ENV_FILE)).mode % 0o1000).toString(8)).toBe('600');
    expect(run.calls).toContain(PLUGIN_FIRST_CALL);
    expect(run.log[run.log.length - 1]).toBe('user data finished');
    expect(everythingShown(run)).not.toContain(SECRET);
  });

  test('as the launch template holds it, helpers packed, the boot unpacks them and runs the same; a damaged pack stops it first', () => {
    const deployed = ec2ScriptWithSecret(true);
    expect(deployed).toMatch(/^fw_helpers=\$\(printf '%s' '[A-Za-z0-9+/=]+' \| base64 -d \| gunzip\)$/m);
    expect(deployed).not.toContain('fw_env_secret() {');
    const stubs = { ...DEFAULT_STUBS, aws: `printf '%s\\n' '${SECRET}'` };
    const packed = runInSandbox(deployed, stubs);
    const unpacked = runInSandbox(script, stubs);
    expect(packed.status).toBe(0);
    expect(packed.calls).toEqual(unpacked.calls);
    expect(packed.written(ENV_FILE)).toBe(unpacked.written(ENV_FILE));
    expect(packed.log[packed.log.length - 1]).toBe('user data finished');
    const damaged = runInSandbox(deployed.replace(/(^fw_helpers=\$\(printf '%s' ')H4sI/m, '$1XXXX'), { ...stubs, ...JOURNAL });
    expect(damaged.status).not.toBe(0);
    expect(damaged.calls.filter((c) => c.startsWith('aws '))).toEqual([]);
    expect(damaged.log).toContainEqual(expect.stringMatching(/^FAILED: line \d+ exited with status \d+$/));
  });

  test('the value is not echoed when the boot fails after reading it', () => {
    const run = runInSandbox(script, { ...DEFAULT_STUBS, aws: `printf '%s\\n' '${SECRET}'`, dnf: 'exit 5' });
    expect(run.status).toBe(5);
    expect(run.written(ENV_FILE)).toContain(`WIKI_OIDC_CLIENT_SECRET="${SECRET}"\n`);
    expect(everythingShown(run)).not.toContain(SECRET);
  });

  test('negative control: the old form, the read as printf\'s argument, swallows the failure and exits 0', () => {
    // The read moved into fw_env_line's argument, and the empty check with it.
    const old = script.replace(/ {2}value=(\$\(aws [^\n]*\))\n[\s\S]*? {2}fw_env_line "\$file" "\$name" "\$value"\n/,
      '  fw_env_line "$file" "$name" "$1"\n');
    expect(old).not.toBe(script);
    const run = runInSandbox(old, { ...DEFAULT_STUBS, aws: 'exit 254' });
    expect(run.status).toBe(0);
    expect(run.written(ENV_FILE)).toContain('WIKI_OIDC_CLIENT_SECRET=""\n');
  });
});

/** systemd 252's own reader of `EnvironmentFile=` (test/support/systemd-env-file.c), built here. */
const SYSTEMD_SHARED = '/usr/lib/x86_64-linux-gnu/systemd';
function systemdReader(): { readonly path?: string; readonly unavailable?: string } {
  if (!fs.existsSync(path.join(SYSTEMD_SHARED, 'libsystemd-shared-252.so'))) {
    return { unavailable: `no ${SYSTEMD_SHARED}/libsystemd-shared-252.so (Debian 12's libsystemd-shared)` };
  }
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-systemd-')), 'systemd-env-file');
  const build = spawnSync('gcc', ['-o', out, path.join(__dirname, 'support', 'systemd-env-file.c'), `-L${SYSTEMD_SHARED}`,
    '-l:libsystemd-shared-252.so', `-Wl,-rpath,${SYSTEMD_SHARED}`], { encoding: 'utf-8' });
  if (build.error || build.status !== 0) return { unavailable: `gcc cannot build the reader: ${build.error?.message ?? build.stderr}` };
  return { path: out };
}

/** The entries systemd reads from a file, as NAME -> value. */
function readAsSystemd(reader: string, content: string): Record<string, string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-env-')), 'application.env');
  fs.writeFileSync(file, content);
  const run = spawnSync(reader, [file]);
  expect(run.status).toBe(0);
  return Object.fromEntries(run.stdout.toString('utf-8').split('\0').filter(Boolean).map((e) => {
    const at = e.indexOf('=');
    return [e.slice(0, at), e.slice(at + 1)];
  }));
}

/**
 * Values an unquoted `NAME=value` line alters: systemd drops an unquoted backslash and the spaces at either end, ends
 * the value at a line break, and takes a trailing backslash as a continuation (v252 src/basic/env-file.c, lines
 * 126-179). The boot's `aws ... --output text` and command substitution drop trailing line breaks, so none ends in one.
 */
const NASTY = ['a\\b', 'a\\\\b', 'quote"in', "it's", '$HOME and ${X}', 'back`tick`', ' lead', 'trail ', 'two\nlines',
  'ends with \\', '#not a comment', 'a;b & c', 'ünïcödé ✓', "'"];
const reader = systemdReader();

needing(`${SANDBOX_NEEDS}, gcc and Debian's libsystemd-shared (systemd 252)`, sandboxUnavailable() ?? reader.unavailable)
  .describe('the environment file, read by systemd 252\'s own parser', () => {
    const script = ec2ScriptWithSecret();
    const boot = (value: string, bootScript = script) => {
      const answer = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-secret-')), 'value');
      fs.writeFileSync(answer, `${value}\n`);
      return runInSandbox(bootScript, { ...DEFAULT_STUBS, aws: `cat ${JSON.stringify(answer)}` });
    };

    test.each(NASTY)('a secret %j arrives in the service\'s environment exactly as Secrets Manager holds it', (value) => {
      const run = boot(value);
      expect(run.status).toBe(0);
      expect(readAsSystemd(reader.path!, run.written(ENV_FILE)!)).toEqual({
        WIKI_OIDC_ISSUER: 'https://login.example.com', WIKI_OIDC_CLIENT_ID: 'wiki', WIKI_OIDC_CLIENT_SECRET: value,
      });
    });

    test('negative control: the old `printf \'%s=%s\'` line alters them', () => {
      const old = script.replace(/ {2}fw_env_line "\$file" "\$name" "\$value"\n/, '  printf \'%s=%s\\n\' "$name" "$value" >> "$file"\n');
      expect(old).not.toBe(script);
      const altered = NASTY.filter((value) => readAsSystemd(reader.path!, boot(value, old).written(ENV_FILE)!).WIKI_OIDC_CLIENT_SECRET !== value);
      expect(altered).toEqual(expect.arrayContaining(['a\\b', ' lead', 'trail ', 'two\nlines', 'ends with \\']));
    });
  });

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('any failure stops the boot with the journal tail', () => {
  function boot(...commands: string[]): string {
    const builder = new BashUserDataBuilder();
    builder.addCommands(...commands);
    builder.addCommands('touch /srv/after-the-failure');
    return builder.render();
  }

  test.each([
    ['a failing command', ['false'], 1],
    ['a failing command inside a function', ['f() { echo start; false; echo not reached; }', 'f'], 1],
    // Without inherit_errexit the substitution would carry on to `echo ok` and succeed.
    ['the first failing command of a substitution with several', ['v=$(false; echo ok)', 'echo "$v"'], 1],
    ['a failing pipeline stage', ['exit 4 | cat'], 4],
    ['an explicit exit', ['exit 6'], 6],
    ['an unset variable', ['echo "$NOT_SET_ANYWHERE"'], 1],
  ])('%s', (_name, commands, status) => {
    const run = runInSandbox(boot(...commands), { ...DEFAULT_STUBS, ...JOURNAL });
    expect(run.status).toBe(status);
    expect(run.written('/srv/after-the-failure')).toBeUndefined();
    expect(run.log).toContainEqual(expect.stringMatching(new RegExp(`^FAILED: (line \\d+ )?exited with status ${status}$`)));
    expect(run.log.filter((l) => l.startsWith('FAILED'))).toHaveLength(1);
    expect(journalAfter(run, 'the last 50 journal lines of this boot follow')).toEqual(FIFTY_LINES);
  });

  test('a failure after the application\'s unit is known appends that unit\'s journal', () => {
    const run = runInSandbox(boot('fw_require_active wiki.service 0', 'false'), { ...DEFAULT_STUBS, ...JOURNAL });
    expect(run.status).toBe(1);
    expect(run.log).toContain('wiki.service is active');
    expect(run.calls).toContain('journalctl -u wiki.service -n 50 --no-pager');
    expect(journalAfter(run, 'the last 50 journal lines of wiki.service follow')).toEqual(FIFTY_LINES);
  });

  test('a unit check a plugin tolerates does not keep a later failure from appending the journal', () => {
    const stubs = { ...DEFAULT_STUBS, ...JOURNAL, systemctl: '[ "$1" = is-active ] && exit 3; exit 0' };
    const run = runInSandbox(boot('fw_require_active wiki.service 0 || true', 'false'), stubs);
    expect(run.status).toBe(1);
    expect(run.calls.filter((c) => c.startsWith('journalctl'))).toHaveLength(2);
    expect(journalAfter(run, 'the last 50 journal lines of wiki.service follow')).toEqual(FIFTY_LINES);
  });

  test('a boot without failure exits 0 and appends no journal', () => {
    const run = runInSandbox(boot('true'), { ...DEFAULT_STUBS, ...JOURNAL });
    expect(run.status).toBe(0);
    expect(run.calls.some((c) => c.startsWith('journalctl'))).toBe(false);
    expect(run.log[run.log.length - 1]).toBe('user data finished');
  });

  test('the preamble alone runs clean', () => {
    const run = runInSandbox(PREAMBLE, DEFAULT_STUBS);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });
});
