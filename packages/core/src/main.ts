import { App } from 'aws-cdk-lib';
import { DeploymentApp } from './deployment-app';
import { UserErrors } from './user-errors';

/**
 * The `fw-deploy` command: the deployment app `cdk synth` runs, `fw-deploy check-change <previous assembly>`
 * (`lifecycle/check-change.ts`), or `fw-deploy preflight` (`preflight/preflight.ts`). A mistake in the configuration or a plugin is printed as its message alone, without a
 * stack trace; so is a PRODUCTION compliance finding.
 */
export function main(args: string[] = process.argv.slice(2)): void {
  try {
    if (args[0] === 'check-change') {
      // Loaded only for the command: a synthesis does not read the checker's schemas.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { checkChange } = require('./lifecycle/check-change') as typeof import('./lifecycle/check-change');
      process.exitCode = checkChange(args.slice(1));
      return;
    }
    if (args[0] === 'preflight') {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { preflight } = require('./preflight/preflight') as typeof import('./preflight/preflight');
      preflight(args.slice(1)).then((code) => { process.exitCode = code; }, (e) => {
        reportUserError(e);
        process.exitCode = 1;
      });
      return;
    }
    const app = new App();
    DeploymentApp.addTo(app);
    app.synth();
  } catch (e) {
    reportUserError(e);
    process.exit(1);
  }
}

/** A user's mistake as its message alone; anything else is thrown on, with its stack trace. */
function reportUserError(e: unknown): void {
  if (!UserErrors.isUserError(e)) throw e;
  process.stderr.write(`fw-deploy: ${(e as Error).message}\n`);
}
