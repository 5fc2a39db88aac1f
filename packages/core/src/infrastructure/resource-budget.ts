import { CfnResource, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * CloudFormation's quota of resources in one stack (not adjustable; "AWS CloudFormation quotas"), which aws-cdk-lib
 * 2.263 enforces at synth as `MAX_RESOURCES` (core/lib/stack.js) with a message that names no application.
 */
export const RESOURCES_PER_STACK = 500;

/** The CloudFormation resources a construct's subtree adds to its stack (not those of nested stacks or other stacks). */
export function resourceCount(scope: IConstruct, stack: Stack): number {
  return scope.node.findAll().filter((c) => c instanceof CfnResource && c.stack === stack).length;
}

/**
 * Refuses, at synth and before the CDK's own generic check, the owner's stack over `budget` resources, naming the
 * stack, its count, what adds the most (`parts`: each application's share on a platform) and what to do.
 */
export function addResourceBudget(owner: IConstruct, parts: () => Array<[string, IConstruct]>, advice: string, budget = RESOURCES_PER_STACK): void {
  const stack = Stack.of(owner);
  owner.node.addValidation({
    validate: () => {
      const count = resourceCount(stack, stack);
      if (count <= budget) return [];
      const shares = parts().map(([name, scope]) => [name, resourceCount(scope, stack)] as const).filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1]);
      const named = shares.length > 0 ? ` (${shares.map(([name, n]) => `${name}: ${n}`).join(', ')})` : '';
      return [`Stack ${stack.stackName} would hold ${count} resources${named}; CloudFormation takes at most ${budget} in ` +
        `one stack. ${advice}`];
    },
  });
}
