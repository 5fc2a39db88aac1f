import * as fs from 'node:fs';
import * as path from 'node:path';
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
  return text.split(/\n\s*\n|\n(?=\s*(?:- |\d+\. ))/).filter((p) => !p.trimStart().startsWith('|')).map((p) => p.replace(/\s*\n\s*/g, ' '))
    .flatMap((p) => p.split(/(?<=\.)\s+(?=[A-Z`(])/))
    .filter((s) => /\blog/i.test(s) && DURATION.test(s) && PROFILES.filter((p) => new RegExp(`\\b${p}\\b`).test(s)).length === 1);
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
