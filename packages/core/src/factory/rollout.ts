import type { DeploymentContext } from '../context/deployment-context';
import { DeploymentStrategy, type Rollout } from '../contract/deployment-strategy';
import { UserError } from '../errors';

/**
 * The deployment's `deploymentStrategy` and `desiredCount`, or their defaults: `ROLLING` without data of its own,
 * `STOP_FIRST` with. An application that keeps data has one writer of its file system or volume (Jenkins, SonarQube,
 * Nexus lock their directories), which never runs twice: rolling or a second task is refused, naming why.
 */
export function rolloutOf(plugin: string, context: DeploymentContext, keepsData: boolean): Rollout {
  const strategy = context.deploymentStrategy ?? (keepsData ? DeploymentStrategy.STOP_FIRST : DeploymentStrategy.ROLLING);
  const desiredCount = context.desiredCount ?? 1;
  if (keepsData) {
    const refused = [
      ...strategy === DeploymentStrategy.ROLLING ? [`deploymentStrategy ${strategy} would start the new one beside the running one`] : [],
      ...desiredCount > 1 ? [`desiredCount ${desiredCount} would run ${desiredCount} at once`] : [],
    ];
    if (refused.length > 0) {
      throw new UserError(`${plugin} keeps data (keepsData()) on a file system or volume it writes alone, and a single writer ` +
        `never runs twice: ${refused.join('; ')}. Leave ${refused.length > 1 ? 'them' : 'it'} out (stop-first, one at a time).`);
    }
  }
  return { strategy, desiredCount };
}
