import * as fs from 'fs';
import * as path from 'path';
import { ApplicationSpec } from '../src';
import { APPLICATION_SPEC_MEMBERS, APPLICATION_SPEC_MEMBERS_SINCE } from '../src/contract/application-spec-members';
import { PLUGIN_CONTRACT_VERSION } from '../src/contract/plugin-contract-version';

/**
 * The plugin contract's minor rule as code (docs/writing-a-plugin.md, "Upgrading"): every member of IApplicationSpec
 * carries the contract version it arrived in; none is newer than the declared version (adding one forces the bump);
 * one newer than its major's first version has a default in ApplicationSpec and is not required of a plugin. The
 * members are read from the jsii assembly, what Java, Python and Go plugins implement.
 */
const ASSEMBLY = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '.jsii'), 'utf-8'));
const INTERFACE_MEMBERS: string[] = ASSEMBLY.types['@fw/core.IApplicationSpec'].methods.map((m: { name: string }) => m.name);

const parse = (v: string) => v.split('.').map(Number) as [number, number];
const newer = (a: string, b: string) => { const [x, y] = [parse(a), parse(b)]; return x[0] > y[0] || (x[0] === y[0] && x[1] > y[1]); };

/** Every breach of the rule, naming the member. */
function memberProblems(members: string[], since: Readonly<Record<string, string>>, version: string, hasDefault: (m: string) => boolean): string[] {
  const base = `${version.split('.')[0]}.0`;
  return [
    ...members.filter((m) => since[m] === undefined).map((m) => `${m} has no contract version: date it in APPLICATION_SPEC_MEMBERS_SINCE`),
    ...Object.keys(since).filter((m) => !members.includes(m)).map((m) => `${m} is dated but IApplicationSpec has no such member`),
    ...members.filter((m) => since[m] && newer(since[m], version))
      .map((m) => `${m} arrived in ${since[m]}, newer than the declared contract ${version}: bump PLUGIN_CONTRACT_VERSION`),
    ...members.filter((m) => since[m] && newer(since[m], base) && !hasDefault(m))
      .map((m) => `${m} arrived in ${since[m]}, after ${base}: give it a default in ApplicationSpec (a plugin built before it lacks it)`),
  ];
}
const hasDefault = (m: string) => typeof (ApplicationSpec.prototype as any)[m] === 'function';

test('every member of IApplicationSpec is dated, none after the declared version, a later one with its default', () => {
  expect(INTERFACE_MEMBERS.length).toBeGreaterThan(25);
  expect(memberProblems(INTERFACE_MEMBERS, APPLICATION_SPEC_MEMBERS_SINCE, PLUGIN_CONTRACT_VERSION, hasDefault)).toEqual([]);
});

test('a plugin is required to have the members of its major\'s first version only', () => {
  const base = `${PLUGIN_CONTRACT_VERSION.split('.')[0]}.0`;
  expect([...APPLICATION_SPEC_MEMBERS].sort()).toEqual(INTERFACE_MEMBERS.filter((m) => APPLICATION_SPEC_MEMBERS_SINCE[m] === base).sort());
});

test('negative controls: a member added without a date, dated past the version, or without a default, is named', () => {
  const members = [...INTERFACE_MEMBERS, 'newMember'];
  const [major, minor] = parse(PLUGIN_CONTRACT_VERSION);
  const next = `${major}.${minor + 1}`;
  expect(memberProblems(members, APPLICATION_SPEC_MEMBERS_SINCE, PLUGIN_CONTRACT_VERSION, hasDefault))
    .toEqual(['newMember has no contract version: date it in APPLICATION_SPEC_MEMBERS_SINCE']);
  expect(memberProblems(members, { ...APPLICATION_SPEC_MEMBERS_SINCE, newMember: next }, PLUGIN_CONTRACT_VERSION, hasDefault)).toEqual([
    `newMember arrived in ${next}, newer than the declared contract ${PLUGIN_CONTRACT_VERSION}: bump PLUGIN_CONTRACT_VERSION`,
    `newMember arrived in ${next}, after ${major}.0: give it a default in ApplicationSpec (a plugin built before it lacks it)`,
  ]);
  expect(memberProblems(members, { ...APPLICATION_SPEC_MEMBERS_SINCE, newMember: next }, next, () => true)).toEqual([]);
});

test('docs/writing-a-plugin.md\'s contract table lists the declared version and every version a member is dated with', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'writing-a-plugin.md'), 'utf-8');
  const table = doc.slice(doc.indexOf('| plugin contract | first `@fw/core` release |'));
  for (const version of new Set([PLUGIN_CONTRACT_VERSION, ...Object.values(APPLICATION_SPEC_MEMBERS_SINCE)])) {
    expect([version, table]).toEqual([version, expect.stringMatching(new RegExp(`^\\| ${version.replace('.', '\\.')} \\|`, 'm'))]);
  }
});
