import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type AppState, checkLifecycle, type LifecycleFinding } from './lifecycle-check';
import { UserError } from '../errors';

/** Findings that stop a deployment: what CloudFormation or a service would refuse, or a read left dangling. */
export const REFUSING_KINDS: ReadonlyArray<LifecycleFinding['kind']> = ['refused', 'replaces-named', 'recreates-kept', 'adopts-stale', 'unread-parameter'];

/** What each kind of finding means, as `check-change` prints it. */
const MEANING: Record<LifecycleFinding['kind'], string> = {
  'refused': 'refused by the service',
  'replaces-named': 'refused: replaced under its own name',
  'recreates-kept': 'refused: a name still held',
  'adopts-stale': 'refused: adopted still naming old resources',
  'unread-parameter': 'refused: reads a parameter no stack creates',
  'replaces-read': 'redeploy the readers: a published value changes',
  'adopts': 'adopted by cdk deploy --import-existing-resources',
  'replaces': 'replaced',
  'unknown-type': 'not checked: type unknown to the checker',
};

/** Every stack's template of a cloud assembly directory (`cdk synth -o`), by stack name, read from its manifest. */
export function assemblyState(directory: string): AppState {
  const manifestFile = path.join(directory, 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    throw new UserError(`check-change: ${directory} is not a cloud assembly (no manifest.json there); give the directory cdk synth -o wrote, ` +
      'or the cdk.out of the release that was last deployed.');
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf-8'));
  return Object.fromEntries(Object.values<any>(manifest.artifacts ?? {}).filter((a) => a.type === 'aws:cloudformation:stack')
    .map((a) => [a.properties?.stackName ?? a.displayName, JSON.parse(fs.readFileSync(path.join(directory, a.properties.templateFile), 'utf-8'))]));
}

/** A line of the report, and whether what it says stops the change. */
export interface ReportLine {
  readonly text: string;
  readonly refuses: boolean;
}

/** The findings of going from `previous` to `current`, a line each under its stack's line. */
export function reportLines(previous: AppState, current: AppState): ReportLine[] {
  const findings = checkLifecycle([previous, current], { replacements: true });
  const stacks = [...new Set([...Object.keys(previous), ...Object.keys(current)])].sort();
  return stacks.flatMap((stack) => {
    const own = findings.filter((f) => f.stack === stack);
    const state = !previous[stack] ? ' (new)' : !current[stack] ? ' (no longer in the app: cdk destroy it first)' : '';
    return [{ text: `${stack}${state}: ${own.length === 0 ? 'nothing replaced, nothing refused' : ''}`.trimEnd(), refuses: false },
      ...own.map((f) => ({ text: `  ${MEANING[f.kind]}: ${f.logicalId}: ${f.detail}`, refuses: REFUSING_KINDS.includes(f.kind) }))];
  });
}

/** The report's lines; `refused` tells whether any stops the change. */
export function changeReport(previous: AppState, current: AppState): { readonly lines: string[]; readonly refused: boolean } {
  const lines = reportLines(previous, current);
  return { lines: lines.map((l) => l.text), refused: lines.some((l) => l.refuses) };
}

/**
 * `fw-deploy check-change <previous assembly> [-c key=value]...`: synthesises the app of the current directory with
 * the CDK CLI, as `cdk synth` does (cdk.json and the -c values), compares it with the previous assembly, prints what
 * each stack's deployment would do, and returns the exit code: 1 when anything would be refused, 0 otherwise.
 */
export function checkChange(args: string[], cwd = process.cwd(), write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): number {
  const [previousDirectory, ...rest] = args;
  if (!previousDirectory || !contextArgs(rest)) {
    throw new UserError(`check-change: usage: fw-deploy check-change <previous cloud assembly> [-c key=value]... (given ${JSON.stringify(args)})`);
  }
  const previous = assemblyState(path.resolve(cwd, previousDirectory));
  const report = changeReport(previous, synthesize('check-change', cwd, rest).stacks);
  report.lines.forEach(write);
  write(report.refused ? 'check-change: refused; each line above names its rule and the way through.' : 'check-change: nothing AWS would refuse.');
  return report.refused ? 1 : 0;
}

/** Whether `args` are `-c key=value` pairs (or `--context`), as cdk synth takes them. */
export function contextArgs(args: string[]): boolean {
  return args.length % 2 === 0 && args.every((a, i) => (i % 2 === 0 ? a === '-c' || a === '--context' : /^[^=]+=/.test(a)));
}

/**
 * The app of `cwd` synthesised by the CDK CLI as `cdk synth` does (cdk.json and the -c values `args`): every stack's
 * template, and the region the stacks are for (the manifest's environment), when one is set.
 */
export function synthesize(command: string, cwd: string, args: string[]): { readonly stacks: AppState; readonly region?: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `fw-${command}-`));
  try {
    const synth = spawnSync('npx', ['cdk', 'synth', '-q', '-o', outdir, ...args], {
      cwd, encoding: 'utf-8', env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    });
    if (synth.status !== 0) throw new UserError(`${command}: cdk synth failed in ${cwd}:\n${synth.stderr.trim()}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'manifest.json'), 'utf-8'));
    const regions = Object.values<any>(manifest.artifacts ?? {}).map((a) => /^aws:\/\/[^/]+\/(.+)$/.exec(a.environment ?? '')?.[1])
      .filter((r): r is string => !!r && r !== 'unknown-region');
    return { stacks: assemblyState(outdir), region: regions[0] };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
