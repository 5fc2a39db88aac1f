import { type CfnResource, Stack } from 'aws-cdk-lib';

/**
 * Whether a resource of `type` in `node`'s stack points at `reference` (one of `node`'s own `Ref` or attributes) through
 * `target`: a WAF association naming a load balancer, a logging configuration naming a web ACL.
 */
export function referencedInStack<T extends CfnResource>(node: CfnResource, reference: string,
  type: abstract new (...args: any[]) => T, target: (resource: T) => unknown): boolean {
  const stack = Stack.of(node);
  const wanted = JSON.stringify(stack.resolve(reference));
  return stack.node.findAll().some((c) => c instanceof type && JSON.stringify(stack.resolve(target(c))) === wanted);
}
