import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** The build server's Jenkins code, shipped as source beside `lib/` (`jenkins/` in the package). */
export const JENKINS_CODE_DIR = path.join(__dirname, '..', '..', 'jenkins');

/** The Job DSL seed script of the compliance jobs (`jenkins/jobs/compliance-jobs.groovy`). */
export function complianceJobsScript(): string {
  return fs.readFileSync(path.join(JENKINS_CODE_DIR, 'jobs', 'compliance-jobs.groovy'), 'utf-8');
}

/**
 * The pipeline scripts a seed script defines: the text of each `script('''...''')`, as Groovy reads it (the file
 * uses no escape but `\\`). The Java test of the seed script checks this rule against Groovy itself.
 */
export function pipelineScripts(seed: string): string[] {
  return [...seed.matchAll(/script\('''([\s\S]*?)'''\)/g)].map((m) => m[1].replace(/\\\\/g, '\\'));
}

/**
 * script-security's hash of an approved Groovy script (`security.scriptApproval.approvedScriptHashes`): SHA-512 of
 * `<language>:<script>` with the prefix `SHA512:` (jenkinsci/script-security-plugin@1402.1405.vc96e74964250,
 * ScriptApproval.java lines 205-209, 239-245 and 274, the default hasher; GroovyLanguage's name is `groovy`).
 */
export function approvedScriptHash(script: string): string {
  return 'SHA512:' + createHash('sha512').update(`groovy:${script}`, 'utf-8').digest('hex');
}
