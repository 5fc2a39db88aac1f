import * as fs from 'node:fs';
import * as path from 'node:path';
import { deployedChecks } from './checks/deployed';
import { dnsChecks } from './checks/dns';
import { imageChecks } from './checks/images';
import { machineImageChecks } from './checks/machine-images';
import { networkChecks } from './checks/network';
import { quotaChecks } from './checks/quotas';
import { secretChecks } from './checks/secrets';
import { serviceChecks } from './checks/services';
import { AwsCalls, MissingClient, PREFLIGHT_INSTALL, unpinnedClients } from './clients';
import { type DeploymentFacts, deploymentFacts } from './facts';
import { errorName, type Finding, warn } from './finding';
import { UserError } from '../errors';
import { contextArgs, synthesize } from '../lifecycle/check-change';

/** The checks, in the order they print: each asks AWS about one part of what the deployment assumes. */
const CHECKS: { readonly name: string; readonly run: (facts: DeploymentFacts, aws: AwsCalls, account: string) => Promise<Finding[]> }[] = [
  { name: 'vpc', run: networkChecks },
  { name: 'images', run: imageChecks },
  { name: 'machine-image', run: machineImageChecks },
  { name: 'secrets', run: secretChecks },
  { name: 'dns', run: dnsChecks },
  { name: 'services', run: serviceChecks },
  { name: 'quotas', run: quotaChecks },
  { name: 'deployed', run: deployedChecks },
];

/** The errors the SDK gives when it has no credentials, or AWS refuses the ones it has. */
const NO_CREDENTIALS = ['CredentialsProviderError', 'ExpiredToken', 'ExpiredTokenException', 'InvalidClientTokenId', 'UnrecognizedClientException', 'SignatureDoesNotMatch'];

/**
 * `fw-deploy preflight [-c key=value]...`: with the deployer's credentials and read-only calls only, checks what the
 * deployment of the current directory (synthesised as `cdk synth` does) assumes of the account and region, and prints
 * one line a finding, naming the key it comes from and the fix. Returns 1 when anything would fail, 0 otherwise.
 */
export async function preflight(args: string[], cwd = process.cwd(), write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  if (!contextArgs(args)) throw new UserError(`preflight: usage: fw-deploy preflight [-c key=value]... (given ${JSON.stringify(args)})`);
  const context = readContext(cwd, args);
  const givenRegion = typeof context.region === 'string' ? context.region : process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  const account = await callerAccount(new AwsCalls(givenRegion ?? 'us-east-1', cwd));
  const { stacks, region: stackRegion } = synthesize('preflight', cwd, args);
  const region = givenRegion ?? stackRegion;
  if (!region) throw new UserError('preflight: no region: set the region key (cdk.json or -c region=...), or AWS_REGION');
  const aws = new AwsCalls(region, cwd);
  const facts = deploymentFacts(stacks, context, region);
  write(`preflight: account ${account}, region ${region}, stacks ${Object.keys(stacks).join(', ')}`);
  const findings: Finding[] = unpinnedClients(cwd).map((c) => warn('clients', 'the deployment',
    `${c.name} ${c.installed} is installed here; preflight is built and tested with ${c.pin}`, PREFLIGHT_INSTALL));
  for (const check of CHECKS) {
    try {
      findings.push(...await check.run(facts, aws, account));
    } catch (e) {
      if (e instanceof MissingClient) throw new UserError(e.message);
      findings.push(warn(check.name, 'the deployment', `not checked: AWS answered ${errorName(e)}: ${(e as Error).message}`,
        'the deployer\'s role needs the read-only calls docs/deploying.md ("Before you deploy") lists'));
    }
  }
  for (const f of findings) {
    write(`${f.status === 'ok' ? 'ok  ' : f.status === 'fail' ? 'FAIL' : 'warn'} ${f.check} (${f.key}): ${f.message}`);
    if (f.fix) write(`       fix: ${f.fix}`);
  }
  const failed = findings.filter((f) => f.status === 'fail').length;
  const warned = findings.filter((f) => f.status === 'warn').length;
  write(`preflight: ${findings.length} findings, ${failed} would fail the deployment, ${warned} to look at.`);
  return failed > 0 ? 1 : 0;
}

/** The account of the credentials, or a one-line error saying there are none (or AWS refuses them). */
async function callerAccount(aws: AwsCalls): Promise<string> {
  try {
    return (await aws.call('@aws-sdk/client-sts', 'GetCallerIdentity', {})).Account;
  } catch (e) {
    if (e instanceof MissingClient) throw new UserError(e.message);
    if (NO_CREDENTIALS.includes(errorName(e))) {
      throw new UserError(`preflight: no usable AWS credentials (${errorName(e)}): set AWS_PROFILE, or run it where the deployer's credentials are; it makes read-only calls only`);
    }
    throw e;
  }
}

/** cdk.json's `context` in `cwd`, then the -c values (a JSON object or array given as a value is read as one). */
export function readContext(cwd: string, args: string[]): Record<string, unknown> {
  const file = path.join(cwd, 'cdk.json');
  const context: Record<string, unknown> = { ...fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf-8')).context ?? {} : {} };
  for (let i = 1; i < args.length; i += 2) {
    const [key, ...value] = args[i].split('=');
    const text = value.join('=');
    context[key] = /^[[{]/.test(text) ? JSON.parse(text) : text;
  }
  return context;
}
