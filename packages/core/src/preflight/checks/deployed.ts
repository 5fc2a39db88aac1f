import { reportLines } from '../../lifecycle/check-change';
import type { AppState } from '../../lifecycle/lifecycle-check';
import type { AwsCalls } from '../clients';
import type { DeploymentFacts } from '../facts';
import { errorName, fail, type Finding, ok } from '../finding';

/**
 * What deploying would do to the stacks already deployed: their templates as CloudFormation holds them
 * (`GetTemplate`), compared with the synthesised ones by the same checker as `check-change`. A stack not yet deployed
 * is new and compared with nothing.
 */
export async function deployedChecks(facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const deployed: AppState = {};
  for (const stack of Object.keys(facts.stacks)) {
    try {
      const body = (await aws.call('@aws-sdk/client-cloudformation', 'GetTemplate', { StackName: stack, TemplateStage: 'Original' })).TemplateBody;
      deployed[stack] = typeof body === 'string' ? JSON.parse(body) : body;
    } catch (e) {
      if (errorName(e) !== 'ValidationError') throw e;
    }
  }
  if (Object.keys(deployed).length === 0) return [ok('deployed', 'the deployment', `no stack of it is deployed in ${aws.region} yet`)];
  const current = Object.fromEntries(Object.entries(facts.stacks).filter(([name]) => deployed[name]));
  return reportLines(deployed, current).map((line) => (line.refuses
    ? fail('deployed', 'the deployment', line.text.trim(), 'each refusal names its rule and the way through (docs/deploying.md, "Before you deploy")')
    : ok('deployed', 'the deployment', line.text.trim())));
}
