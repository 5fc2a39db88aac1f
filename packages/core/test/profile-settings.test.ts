import * as fs from 'node:fs';
import * as path from 'node:path';
import { RemovalPolicy } from 'aws-cdk-lib';
import { SecurityProfile } from '../src';
import { PROFILE_SETTINGS, ProfileSettings } from '../src/profiles/profile-settings';

/**
 * The rules between profiles and other settings are fields of the profile settings too; the tests of the context
 * reader, the factory and the build server check each one's effect. Here: the values of the rules, and the table of
 * docs/security-profiles.md compared with PROFILE_SETTINGS cell by cell.
 */
test.each([
  [SecurityProfile.DEV,
    { tlsRequired: false, signInTlsRequired: false, regionRequired: false, alarmRecipientRequired: false, fullAuditTrail: false }],
  [SecurityProfile.STAGING,
    { tlsRequired: false, signInTlsRequired: true, regionRequired: true, alarmRecipientRequired: false, fullAuditTrail: false }],
  [SecurityProfile.PRODUCTION,
    { tlsRequired: true, signInTlsRequired: true, regionRequired: true, alarmRecipientRequired: true, fullAuditTrail: true }],
])('%s: TLS, sign-in over TLS, region, alarm recipient and audit history', (profile, expected) => {
  expect(PROFILE_SETTINGS[profile]).toMatchObject(expected);
});

// docs/security-profiles.md's table is written by hand; PROFILE_SETTINGS is what synth applies. Each row names its
// field in the first cell (`field` in backticks); each profile's cell must be the field's value as rendered below.
const DOC = path.resolve(__dirname, '..', '..', '..', 'docs', 'security-profiles.md');
const PROFILES = [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION];
type Field = keyof ProfileSettings;
const FIELDS = [...new Set(PROFILES.flatMap((p) => Object.keys(PROFILE_SETTINGS[p])))] as Field[];

const REMOVAL: Record<string, string> = {
  [RemovalPolicy.DESTROY]: 'destroy',
  [RemovalPolicy.RETAIN]: 'retain',
  [RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE]: 'retain, except after a failed first create (`RetainExceptOnCreate`)',
};

/** A field's value as the table shows it. */
function rendered(field: Field, value: unknown): string {
  if (field === 'removalPolicy') return REMOVAL[value as string] ?? String(value);
  if (field === 'logRetention') return `${value} days`;
  if (field === 'dataVolumeBackupDays') return value === undefined ? 'none' : `${value} days`;
  if (field === 'maintenanceWindow') return value === undefined ? 'RDS\'s own (every 7 days, any hour)' : String(value);
  if (field === 'fullAuditTrail') return value ? 'full' : 'basic';
  if (field.endsWith('Required')) return value ? 'required' : 'optional';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** Every difference between the doc's table and PROFILE_SETTINGS, each naming the field. */
function tableDifferences(doc: string, settings: Record<SecurityProfile, ProfileSettings>): string[] {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => /^\| what \(field\) \| DEV \| STAGING \| PRODUCTION \|$/.test(l));
  if (start < 0) return ['docs/security-profiles.md has no table headed "| what (field) | DEV | STAGING | PRODUCTION |"'];
  const fields = [...new Set(PROFILES.flatMap((p) => Object.keys(settings[p])))] as Field[];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const cells = lines[i].replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
    const named = [...cells[0].matchAll(/`(\w+)`/g)].map((m) => m[1]).filter((n) => (fields as string[]).includes(n));
    if (named.length !== 1) {
      problems.push(`line ${i + 1}: the row names ${named.length === 0 ? 'no field' : `${named.length} fields`} of PROFILE_SETTINGS`);
      continue;
    }
    const field = named[0] as Field;
    if (seen.has(field)) problems.push(`${field}: rows at lines ${seen.get(field)} and ${i + 1}`);
    seen.set(field, i + 1);
    PROFILES.forEach((profile, p) => {
      const want = rendered(field, settings[profile][field]);
      if (cells[p + 1] !== want) problems.push(`${field}: ${profile} is "${cells[p + 1]}" in the doc (line ${i + 1}), "${want}" in PROFILE_SETTINGS`);
    });
  }
  for (const field of fields.filter((f) => !seen.has(f))) problems.push(`${field}: a field of PROFILE_SETTINGS with no row in the doc's table`);
  return problems;
}

describe('docs/security-profiles.md\'s table is PROFILE_SETTINGS', () => {
  const doc = fs.readFileSync(DOC, 'utf-8');
  test.each(FIELDS)('%s', (field) => {
    expect(tableDifferences(doc, PROFILE_SETTINGS).filter((p) => p.startsWith(`${field}:`))).toEqual([]);
  });

  test('every row names one field', () => {
    expect(tableDifferences(doc, PROFILE_SETTINGS)).toEqual([]);
  });

  test('a changed value, a new field and a row without a field are reported (controls)', () => {
    const edited = PROFILE_SETTINGS[SecurityProfile.STAGING].natGateways === 1 ? doc.replace('| 0 | 1 | 2 |', '| 0 | 2 | 2 |') : doc;
    const withNew = { ...PROFILE_SETTINGS, [SecurityProfile.DEV]: { ...PROFILE_SETTINGS[SecurityProfile.DEV], newSetting: true } };
    expect(tableDifferences(edited, PROFILE_SETTINGS)).toEqual([expect.stringMatching(/^natGateways: STAGING is "2" in the doc \(line \d+\), "1" in PROFILE_SETTINGS$/)]);
    expect(tableDifferences(doc, withNew as any)).toEqual(['newSetting: a field of PROFILE_SETTINGS with no row in the doc\'s table']);
    expect(tableDifferences(doc.replace('| VPC flow logs (`flowLogs`) |', '| VPC flow logs |'), PROFILE_SETTINGS)).toEqual([
      expect.stringMatching(/^line \d+: the row names no field of PROFILE_SETTINGS$/),
      'flowLogs: a field of PROFILE_SETTINGS with no row in the doc\'s table',
    ]);
  });
});
