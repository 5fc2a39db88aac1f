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

/** script-security's hash of an approved Groovy script (`security.scriptApproval.approvedScriptHashes`). */
export function approvedScriptHash(script: string): string {
  return 'SHA512:' + createHash('sha512').update(`groovy:${script}`, 'utf-8').digest('hex');
}
