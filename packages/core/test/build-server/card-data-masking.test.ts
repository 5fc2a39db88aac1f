import * as fs from 'fs';
import * as path from 'path';
import { CARD_DATA_PATTERNS, maskPasswordsConfig } from '../../src/build-server/card-data-masking';
import { JENKINS_CODE_DIR } from '../../src/build-server/compliance-jobs';

/**
 * The Maven test CardDataLogMaskingTest runs jenkins/card-data-patterns.json through mask-passwords 220.v95819055b_265's
 * own masking code. Here: what the plugin is given is exactly that file. The plugin's console filter takes the
 * patterns from globalVarMaskRegexesMap (MaskPasswordsConfig.java:335-343, the map field of line 128; the
 * globalVarMaskRegexesU list is not read for it), so that map must hold every pattern, as written.
 */
const FILE: Record<string, string> = JSON.parse(fs.readFileSync(path.join(JENKINS_CODE_DIR, 'card-data-patterns.json'), 'utf-8'));
const unxml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

test('the patterns are the data file, in its order', () => {
  expect(Object.entries(CARD_DATA_PATTERNS)).toEqual(Object.entries(FILE));
  expect(Object.keys(FILE)).toEqual(['card-number', 'cvv-after-card-number', 'named-cvv']);
});

test('the plugin\'s map of global regexes holds exactly the file\'s patterns, XML-escaped', () => {
  const map = /<globalVarMaskRegexesMap>([\s\S]*?)<\/globalVarMaskRegexesMap>/.exec(maskPasswordsConfig())![1];
  const entries = [...map.matchAll(/<entry><string>([^<]*)<\/string><com\.michelin\.cio\.hudson\.plugins\.maskpasswords\.MaskPasswordsBuildWrapper_-VarMaskRegex><regex>([^<]*)<\/regex><\/com\.michelin\.cio\.hudson\.plugins\.maskpasswords\.MaskPasswordsBuildWrapper_-VarMaskRegex><\/entry>/g)]
    .map((m) => [m[1], unxml(m[2])]);
  expect(entries).toEqual(Object.entries(FILE));
  expect(map.replace(/<entry>[\s\S]*?<\/entry>/g, '').trim()).toBe('');
});
