import * as fs from 'node:fs';
import * as path from 'node:path';
import { profileDatabaseSettings } from '../src/infrastructure/database';
import { PROFILE_SETTINGS } from '../src/profiles/profile-settings';

// Prose that states a profile's log retention ("kept a year in PRODUCTION") says what PROFILE_SETTINGS keeps: a change
// of the setting names every sentence left behind. (docs/security-profiles.md's table is compared cell by cell in
// profile-settings.test.ts.)

const ROOT = path.join(__dirname, '..', '..', '..');
const DAYS: Record<string, number> = { 'a week': 7, 'a month': 30, 'a year': 365 };
const DURATION = /\b(a week|a month|a year|(\d+) days)\b/;
const PROFILES = Object.keys(PROFILE_SETTINGS);

/**
 * Each sentence of `text` that states one profile's log retention: paragraphs and list items joined across their lines
 * (tables left out), split after a full stop.
 */
function retentionSentences(text: string): string[] {
  return statements(text, false)
    .filter((s) => /\blog/i.test(s) && DURATION.test(s) && PROFILES.filter((p) => new RegExp(`\\b${p}\\b`).test(s)).length === 1);
}

/**
 * The sentences of `text`: paragraphs and list items joined across their lines, split after a full stop; with
 * `tableCells`, each cell of a table row too (else tables are left out).
 */
function statements(text: string, tableCells: boolean): string[] {
  return text.split(/\n\s*\n|\n(?=\s*(?:- |\d+\. |\|))/).map((p) => p.replace(/\s*\n\s*/g, ' '))
    .flatMap((p) => (p.trimStart().startsWith('|') ? (tableCells ? p.split('|') : []) : p.split(/(?<=\.)\s+(?=[A-Z`(])/)));
}

/** The sentences whose duration is not their profile's `logRetention`, each with both. */
function wrongRetention(file: string, text: string): string[] {
  return retentionSentences(text).flatMap((sentence) => {
    const profile = PROFILES.find((p) => new RegExp(`\\b${p}\\b`).test(sentence))!;
    const m = DURATION.exec(sentence)!;
    const days = m[2] ? Number(m[2]) : DAYS[m[1]];
    const kept = Number(PROFILE_SETTINGS[profile as keyof typeof PROFILE_SETTINGS].logRetention);
    return days === kept ? [] : [`${file}: "${sentence}" says ${days} days; ${profile}'s logRetention is ${kept}`];
  });
}

const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

test('every sentence that states a profile\'s log retention agrees with PROFILE_SETTINGS', () => {
  const sentences = DOCS.flatMap((file) => retentionSentences(fs.readFileSync(path.join(ROOT, file), 'utf-8')));
  // The ones known today (docs/platform.md twice, pci-operations.md, security-profiles.md): the scan finds them.
  expect(sentences.length).toBeGreaterThanOrEqual(4);
  expect(DOCS.flatMap((file) => wrongRetention(file, fs.readFileSync(path.join(ROOT, file), 'utf-8')))).toEqual([]);
});

test('the check can fail: a sentence that says another retention is named', () => {
  expect(wrongRetention('sample.md', 'Its log group is kept a month in PRODUCTION.')).toEqual([
    'sample.md: "Its log group is kept a month in PRODUCTION." says 30 days; PRODUCTION\'s logRetention is 365',
  ]);
});

// Backups likewise: a sentence (or table cell) that states one profile's days of backups says one that the profile
// keeps (the data volume's `dataVolumeBackupDays`, or the database's, which RDS keeps at least a day); "a, b or c days
// per profile" lists the database's for DEV, STAGING and PRODUCTION in that order.

/** The days of backups a profile keeps, as profileDatabaseSettings derives them from PROFILE_SETTINGS. */
function backupDays(profile: string): number[] {
  const { backupDays: database, vaultBackupDays: vault } = profileDatabaseSettings(PROFILE_SETTINGS[profile as keyof typeof PROFILE_SETTINGS]);
  return [...new Set([database, ...vault === undefined ? [] : [vault]])];
}

const DAYS_STATED = /\b(\d+) days?\b/;
const PER_PROFILE = /\b(\d+), (\d+) or (\d+) days per profile\b/;

/** Each sentence of prose, and each table cell, that speaks of backups. */
function backupStatements(text: string): string[] {
  return statements(text, true).filter((s) => /backup|recovery point/i.test(s));
}

/** The statements whose days of backups are not their profile's, each with both. */
function wrongBackups(file: string, text: string): string[] {
  return backupStatements(text).flatMap((s) => {
    const list = PER_PROFILE.exec(s);
    if (list) {
      const kept = PROFILES.map((p) => backupDays(p)[0]);
      return list.slice(1).map(Number).join() === kept.join() ? [] : [`${file}: "${s.trim()}" says ${list.slice(1).join(', ')}; the profiles keep ${kept.join(', ')}`];
    }
    const named = PROFILES.filter((p) => new RegExp(`\\b${p}\\b`).test(s));
    const days = DAYS_STATED.exec(s);
    if (named.length !== 1 || !days) return [];
    return backupDays(named[0]).includes(Number(days[1])) ? [] : [`${file}: "${s.trim()}" says ${days[1]} days; ${named[0]} keeps ${backupDays(named[0]).join(' or ')}`];
  });
}

test('every statement of a profile\'s days of backups agrees with PROFILE_SETTINGS', () => {
  const found = DOCS.flatMap((file) => backupStatements(fs.readFileSync(path.join(ROOT, file), 'utf-8')))
    .filter((s) => PER_PROFILE.test(s) || DAYS_STATED.test(s));
  // Known today: docs/data-and-restore.md's "1, 7 or 35 days per profile" and docs/writing-a-plugin.md's "1 day in DEV".
  expect(found.length).toBeGreaterThanOrEqual(2);
  expect(DOCS.flatMap((file) => wrongBackups(file, fs.readFileSync(path.join(ROOT, file), 'utf-8')))).toEqual([]);
});

test('the check of backups can fail: another number of days, in a sentence and in a list per profile', () => {
  expect(wrongBackups('sample.md', 'The data volume\'s backups are kept 14 days in STAGING.')).toEqual([
    'sample.md: "The data volume\'s backups are kept 14 days in STAGING." says 14 days; STAGING keeps 7',
  ]);
  expect(wrongBackups('sample.md', '| RDS automated backups (1, 7 or 30 days per profile) |')).toEqual([
    'sample.md: "RDS automated backups (1, 7 or 30 days per profile)" says 1, 7, 30; the profiles keep 1, 7, 35',
  ]);
});
