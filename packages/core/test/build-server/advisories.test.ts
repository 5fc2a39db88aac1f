import * as fs from 'fs';
import * as path from 'path';
import { advisoryCoverage, JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, PINS_UNDER_ADVISORY } from '../../src/build-server/versions';
import { KNOWN_VULNERABILITY_SEVERITIES } from '../../src/contract/known-vulnerability';
import { compareVersions } from '../support/jenkins-versions';

/**
 * The pins against the Jenkins project's published advisories, as data committed in packages/core/jenkins/advisories/:
 * - warnings.json: jenkins-infra/update-center2's resources/warnings.json (what Jenkins' update site tells running
 *   controllers) at the commit it names, kept for core and every pinned plugin; refreshed by
 *   `node tools/jenkins-advisories/snapshot.js <update-center2 git dir>` (docs/build-server.md, "Advisories").
 * - announced.json: advisories announced after that commit, transcribed from the Jenkins security team's announcements.
 * Every advisory that matches a pin must be one PINS_UNDER_ADVISORY records, and every record must still match.
 */
const DIR = path.join(__dirname, '..', '..', 'jenkins', 'advisories');
const snapshot = JSON.parse(fs.readFileSync(path.join(DIR, 'warnings.json'), 'utf-8'));
const announced = JSON.parse(fs.readFileSync(path.join(DIR, 'announced.json'), 'utf-8'));

interface Pin { readonly component: string; readonly version: string }
const PINS: Pin[] = [{ component: 'core', version: JENKINS_CORE.version },
  ...[...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE].map(({ id, version }) => ({ component: id, version }))];

/** Whether `version` is `last` or an earlier release. */
const atMost = (version: string, last: string) => compareVersions(version, last) <= 0;

/** The advisories that affect one pin: `component id` pairs. */
function advisoriesOf(pin: Pin): string[] {
  const fromWarnings = snapshot.warnings
    .filter((w: any) => w.name === pin.component && w.versions.some((v: any) => new RegExp(`^(?:${v.pattern})$`).test(pin.version)))
    .map((w: any) => w.id);
  const fromAnnouncements = announced.announcements.flatMap((a: any) => a.advisories)
    .filter((a: any) => a.name === pin.component && atMost(pin.version, a.lastAffected))
    .flatMap((a: any) => a.ids);
  return [...fromWarnings, ...fromAnnouncements].map((id: string) => id.replace(/^(SECURITY-\d+).*$/, '$1'));
}

test('the snapshot says where it comes from, and covers core and every pinned plugin', () => {
  expect(snapshot.source).toEqual({
    repository: 'https://github.com/jenkins-infra/update-center2',
    path: 'resources/warnings.json',
    commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    committed: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  expect(snapshot.covers).toEqual(['core', ...advisoryCoverage()]);
  for (const w of snapshot.warnings) expect(snapshot.covers).toContain(w.name);
  for (const a of announced.announcements) expect(a.announcement).toMatch(/^https:\/\/www\.openwall\.com\/lists\/oss-security\/\d{4}\/\d\d\/\d\d\/\d+$/);
});

test('every advisory against a pin is recorded in PINS_UNDER_ADVISORY, and every record still matches a pin', () => {
  const found = PINS.map((pin) => [pin.component, [...new Set(advisoriesOf(pin))].sort()] as const).filter(([, ids]) => ids.length > 0);
  const recorded = PINS_UNDER_ADVISORY.map((e) => [e.component, [...e.advisories].sort()] as const);
  expect(Object.fromEntries(found)).toEqual(Object.fromEntries(recorded));
});

const exposure = JSON.parse(fs.readFileSync(path.join(DIR, 'exposure.json'), 'utf-8'));

test('exposure.json gives every advisory against a pin, and no other, its severity and fix as the advisory data says', () => {
  expect(Object.keys(exposure.advisories).sort()).toEqual(PINS_UNDER_ADVISORY.flatMap((e) => e.advisories).sort());
  const fixedInAnnounced = Object.fromEntries(announced.announcements.flatMap((a: any) => a.advisories)
    .flatMap((a: any) => a.ids.map((id: string) => [id, a.fixedIn])));
  for (const { component, advisories } of PINS_UNDER_ADVISORY) {
    const pin = PINS.find((p) => p.component === component)!;
    for (const id of advisories) {
      const { advisory, severity, fixedIn } = exposure.advisories[id];
      expect([id, exposure.sources[advisory]]).toEqual([id, expect.any(String)]);
      expect([id, (KNOWN_VULNERABILITY_SEVERITIES as readonly string[]).includes(severity)]).toEqual([id, true]);
      if (fixedInAnnounced[id]) {
        expect([id, fixedIn]).toEqual([id, fixedInAnnounced[id]]);
      } else {
        // From warnings.json: the fixed release is past every affected range, the pin is not.
        const warning = snapshot.warnings.find((w: any) => w.id === id && w.name === component);
        const affected = (v: string) => warning.versions.some((r: any) => new RegExp(`^(?:${r.pattern})$`).test(v));
        expect([id, affected(pin.version), affected(fixedIn)]).toEqual([id, true, false]);
      }
      expect([id, compareVersions(fixedIn, pin.version) > 0]).toEqual([id, true]);
    }
  }
});

describe('the check can fail', () => {

  test('a pin set back to a version under a recorded advisory is found (update-center2 patterns)', () => {
    // SECURITY-3676: matrix-auth 3.2.1 to 3.2.9.
    expect(advisoriesOf({ component: 'matrix-auth', version: '3.2.5' })).toContain('SECURITY-3676');
    expect(advisoriesOf({ component: 'matrix-auth', version: '3.2.10' })).not.toContain('SECURITY-3676');
    expect(advisoriesOf({ component: 'workflow-cps', version: '4331.v9d06ed4658ff' })).toContain('SECURITY-3677');
  });

  test('the fixed releases the announcements name are not affected, and the releases before them are', () => {
    for (const a of announced.announcements.flatMap((x: any) => x.advisories)) {
      expect([a.name, a.fixedIn, atMost(a.fixedIn, a.lastAffected)]).toEqual([a.name, a.fixedIn, false]);
      expect([a.name, a.lastAffected, atMost(a.lastAffected, a.lastAffected)]).toEqual([a.name, a.lastAffected, true]);
    }
    expect(advisoriesOf({ component: 'script-security', version: '1422.v06869826dd9b_' })).toEqual([]);
    expect(advisoriesOf({ component: 'core', version: '2.568.3' })).toEqual([]);
    expect(advisoriesOf({ component: 'core', version: '2.568.2' })).toContain('SECURITY-3972');
  });

  test('Jenkins version order', () => {
    expect(atMost('807.v7d7de30930cf', '807.809.vd3a_4e5e4ec98')).toBe(true);
    expect(atMost('807.809.vd3a_4e5e4ec98', '807.v7d7de30930cf')).toBe(false);
    expect(atMost('1402.1405.vc96e74964250', '1412.v7737b_3405f86')).toBe(true);
    expect(atMost('2.18.2', '2.18.3')).toBe(true);
    expect(atMost('2.19.0', '2.18.3')).toBe(false);
    expect(atMost('2.580.1', '2.568.2')).toBe(false);
  });
});
