import { CfnResource, type Stack } from 'aws-cdk-lib';

/** The longest value CloudFormation can put in place of a pseudo parameter (`aws-us-gov` of the partitions). */
const PSEUDO_PARAMETER_MAX: Record<string, number> = { 'AWS::AccountId': 12, 'AWS::Partition': 10, 'AWS::Region': 14, 'AWS::URLSuffix': 13 };
/** A reference this file knows nothing of: assumed as long as an ARN can reasonably be. */
const UNKNOWN_REFERENCE_MAX = 256;

/**
 * The most characters `text` can have once deployed: its literal characters, and for each deploy-time value the
 * longest it can be (`refMax` by resource type for a `Ref` to a resource of this stack, the pseudo parameters above,
 * `UNKNOWN_REFERENCE_MAX` otherwise). For a size limit AWS applies to a value the template builds at deploy time.
 */
export function deployedLengthAtMost(stack: Stack, text: string, refMax: Record<string, number> = {}): number {
  const types: Record<string, string> = Object.fromEntries(stack.node.findAll()
    .filter((c): c is CfnResource => CfnResource.isCfnResource(c))
    .map((r) => [stack.resolve(r.logicalId), r.cfnResourceType]));
  const measure = (value: unknown): number => {
    if (typeof value === 'string') return value.length;
    if (Array.isArray(value)) return value.reduce((n: number, v) => n + measure(v), 0);
    const node = value as Record<string, any>;
    if (node?.['Fn::Join']) {
      const [separator, parts] = node['Fn::Join'];
      return parts.reduce((n: number, v: unknown) => n + measure(v), 0) + separator.length * Math.max(parts.length - 1, 0);
    }
    if (node?.Ref !== undefined) return PSEUDO_PARAMETER_MAX[node.Ref] ?? refMax[types[node.Ref]] ?? UNKNOWN_REFERENCE_MAX;
    return UNKNOWN_REFERENCE_MAX;
  };
  return measure(stack.resolve(text));
}
