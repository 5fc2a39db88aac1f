import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CASC_SCHEMA_SOURCES, JENKINS_CORE, JENKINS_PLUGIN_CLOSURE } from '../../src/build-server/versions';

/**
 * Every citation of a pinned project's source in the repository's code, tests and documentation names the pinned
 * release: `jenkins-2.568.2`, `jenkinsci/docker@2.568.2`, `oic-auth@4.715.vf202e4229f61`, `matrix-auth 3.2.8`,
 * `sonarqube-plugin@sonar-2.18.2`, or a shortening of the pin at a `.` (`audit-trail 436`). After a pin moves, this
 * test names every file and line that still cites the old release: each must be re-read in the new source (the lines
 * move) and updated. A pin whose source is read at another release (`sourceRead`, matrix-auth) may be cited at either. Advisory data, its test and this test name other releases on purpose and are not read.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const READ = ['packages/core/src', 'packages/core/test', 'packages/core/jenkins', 'packages/plugin-template/src', 'docs', 'tools',
  'examples', 'deploy', 'README.md'];
const NOT_READ = [/\/advisories\//, /(advisories|pin-citations)\.test\.ts$/, /\.json$/];

interface Cited { readonly component: string; readonly pinned: string; readonly read?: string; readonly pattern: RegExp }

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const VERSION = '(\\d+(?:\\.[0-9A-Za-z_]+)*)';
const CITED: Cited[] = [
  { component: 'core', pinned: JENKINS_CORE.version, pattern: new RegExp(`(?:\\bjenkins-|jenkinsci/docker@|\\bdocker@)${VERSION}`, 'g') },
  ...[...new Set([...CASC_SCHEMA_SOURCES, ...JENKINS_PLUGIN_CLOSURE])].filter((pin) => pin !== JENKINS_CORE).map((pin) => {
    const names = [...new Set([pin.id, pin.repository.split('/')[1]])].map(escape).join('|');
    const prefix = pin.tagPrefix ? `(?:${escape(pin.tagPrefix)})?` : '';
    return { component: pin.id, pinned: pin.version, read: pin.sourceRead, pattern: new RegExp(`(?<![\\w-])(?:${names})(?:@${prefix}| )${VERSION}`, 'g') };
  }),
];

/** The cited release is the pin, or the pin shortened at a `.`. */
const names = (cited: string, pinned: string) => pinned === cited || pinned.startsWith(`${cited}.`);

function files(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...READ], { cwd: ROOT, encoding: 'utf-8' }).split('\0').filter(Boolean);
  return listed.filter((f) => /\.(ts|js|java|groovy|md|sh|py|xml|yaml|yml|txt)$/.test(f) && !NOT_READ.some((re) => re.test(f)));
}

function staleCitations(text: (file: string) => string = (f) => fs.readFileSync(path.join(ROOT, f), 'utf-8')): string[] {
  const stale: string[] = [];
  for (const file of files()) {
    const lines = text(file).split('\n');
    lines.forEach((line, i) => {
      for (const { component, pinned, read, pattern } of CITED) {
        for (const m of line.matchAll(pattern)) {
          if (!names(m[1], pinned) && !(read && names(m[1], read))) stale.push(`${file}:${i + 1}: ${m[0]} (${component} is pinned at ${pinned})`);
        }
      }
    });
  }
  return stale;
}

test('every citation of a pinned project names the pinned release', () => {
  expect(staleCitations()).toEqual([]);
});

test('the check can fail: with a pin moved, the citations of the old release are named', () => {
  const core = CITED[0];
  const moved = { ...core, pinned: '2.580.2' };
  const line = 'jenkinsci/jenkins@jenkins-2.568.2 core/src/main/java/hudson/WebAppMain.java lines 218-221';
  expect([...line.matchAll(moved.pattern)].map((m) => names(m[1], moved.pinned))).toEqual([false]);
  const audit = CITED.find((c) => c.component === 'audit-trail')!;
  expect([...'audit-trail 436 `LogFileAuditLogger`, audit-trail@436.vc0d1e79fc5a_3'.matchAll(audit.pattern)].map((m) => m[1]))
    .toEqual(['436', '436.vc0d1e79fc5a_3']);
  expect(names('436', audit.pinned)).toBe(true);
  expect(names('435', audit.pinned)).toBe(false);
  const sonar = CITED.find((c) => c.component === 'sonar')!;
  expect([...'sonarqube-plugin@sonar-2.18.2 and sonar 2.18.1'.matchAll(sonar.pattern)].map((m) => [m[1], names(m[1], sonar.pinned)]))
    .toEqual([['2.18.2', true], ['2.18.1', false]]);
  // matrix-auth is pinned at one release and read at another: both are current, any third is stale.
  expect(staleCitations((f) => (f === 'docs/build-server.md' ? 'matrix-auth 3.2.10, matrix-auth@matrix-auth-3.2.8, matrix-auth 3.2.7' : '')))
    .toEqual(['docs/build-server.md:1: matrix-auth 3.2.7 (matrix-auth is pinned at 3.2.10)']);
  // The whole scan: a file that cites an older release is named, with its line.
  expect(staleCitations((f) => (f === 'docs/build-server.md' ? 'a\nread in jenkinsci/jenkins@jenkins-2.555.3 `WebAppMain.java`' : '')))
    .toEqual([`docs/build-server.md:2: jenkins-2.555.3 (core is pinned at ${JENKINS_CORE.version})`]);
});
