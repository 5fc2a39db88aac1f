import { App } from 'aws-cdk-lib';
import { DeploymentApp } from './deployment-app';
import { UserErrors } from './user-errors';

/**
 * The `fw-deploy` command. A mistake in the configuration or a plugin is printed as its message alone, without a
 * stack trace; so is a PRODUCTION compliance finding.
 */
export function main(): void {
  try {
    const app = new App();
    DeploymentApp.addTo(app);
    app.synth();
  } catch (e) {
    if (!UserErrors.isUserError(e)) throw e;
    process.stderr.write(`fw-deploy: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
