import * as fs from 'fs';
import * as path from 'path';
import { JENKINS_CODE_DIR } from './compliance-jobs';

/**
 * The mask-passwords plugin's global patterns: card numbers (16 digits, optionally grouped by '-' or a space), a CVV
 * after a card number, and a CVV named as such are masked in every build log. The same rules as the pipeline
 * library's `maskCardData` step (`CardData.groovy`), which keeps the layout (groups of four asterisks) where the plugin
 * writes its fixed mask.
 *
 * Java regular expressions, name -> regex, kept in one data file (`jenkins/card-data-patterns.json`) that the Maven
 * tests run through mask-passwords' own masking code (CardDataLogMaskingTest); they also check that the 16-digit part
 * of the first two patterns is one and the same, and the one of `CardData.groovy`.
 */
export const CARD_DATA_PATTERNS: Readonly<Record<string, string>> = Object.freeze(
  JSON.parse(fs.readFileSync(path.join(JENKINS_CODE_DIR, 'card-data-patterns.json'), 'utf-8')) as Record<string, string>);

/**
 * mask-passwords keeps its global configuration in this file of the Jenkins home (it has no configuration-as-code
 * support); the build server writes it before every start.
 */
export const MASK_PASSWORDS_FILE = 'com.michelin.cio.hudson.plugins.maskpasswords.MaskPasswordsConfig.xml';

const PLUGIN = 'com.michelin.cio.hudson.plugins';
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The plugin's configuration file (XStream form): the patterns, applied to every build. */
export function maskPasswordsConfig(): string {
  const entries = Object.entries(CARD_DATA_PATTERNS);
  return [
    "<?xml version='1.1' encoding='UTF-8'?>",
    `<${PLUGIN}.maskpasswords.MaskPasswordsConfig>`,
    '  <maskPasswordsParamDefClasses>',
    '    <string>hudson.model.PasswordParameterDefinition</string>',
    `    <string>${PLUGIN}.passwordparam.PasswordParameterDefinition</string>`,
    '  </maskPasswordsParamDefClasses>',
    '  <globalVarPasswordPairs/>',
    '  <globalVarMaskRegexes/>',
    '  <globalVarMaskRegexesU>',
    ...entries.map(([name, regex]) =>
      `    <${PLUGIN}.maskpasswords.MaskPasswordsConfig_-VarMaskRegexEntry><key>${name}</key>` +
      `<value><regex>${xml(regex)}</regex></value></${PLUGIN}.maskpasswords.MaskPasswordsConfig_-VarMaskRegexEntry>`),
    '  </globalVarMaskRegexesU>',
    '  <globalVarMaskRegexesMap>',
    ...entries.map(([name, regex]) =>
      `    <entry><string>${name}</string><${PLUGIN}.maskpasswords.MaskPasswordsBuildWrapper_-VarMaskRegex>` +
      `<regex>${xml(regex)}</regex></${PLUGIN}.maskpasswords.MaskPasswordsBuildWrapper_-VarMaskRegex></entry>`),
    '  </globalVarMaskRegexesMap>',
    '  <globalVarEnableGlobally>true</globalVarEnableGlobally>',
    `</${PLUGIN}.maskpasswords.MaskPasswordsConfig>`,
    '',
  ].join('\n');
}
