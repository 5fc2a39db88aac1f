import { App } from 'aws-cdk-lib';
import { DeploymentApp } from './deployment-app';

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
    const error = e as Error & { isUserError?: boolean };
    if (error.isUserError || /^Validation failed/.test(error.message)) {
      process.stderr.write(`fw-deploy: ${error.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}
