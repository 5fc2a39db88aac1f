import { spawnSync } from 'node:child_process';

/** The variable a pipeline sets to the commit it synthesises. */
export const SOURCE_REVISION_VARIABLE = 'FW_SOURCE_REVISION';

const found = new Map<string, string | undefined>();

/**
 * The revision of the source being synthesised: `FW_SOURCE_REVISION` when set, else the git commit of the deployment
 * project (the working directory), with `+uncommitted changes` when its tree differs from it; undefined without either.
 * Asked once a process and directory.
 */
export function sourceRevision(cwd = process.cwd()): string | undefined {
  const given = process.env[SOURCE_REVISION_VARIABLE];
  if (given) return given;
  if (!found.has(cwd)) found.set(cwd, gitRevision(cwd));
  return found.get(cwd);
}

function gitRevision(cwd: string): string | undefined {
  const head = spawnSync('git', ['rev-parse', '--verify', 'HEAD'], { cwd, encoding: 'utf-8' });
  if (head.error || head.status !== 0) return undefined;
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, encoding: 'utf-8' });
  return `${head.stdout.trim()}${status.status === 0 && status.stdout.trim() ? '+uncommitted changes' : ''}`;
}
