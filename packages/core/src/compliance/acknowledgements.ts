import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The acknowledgements recorded on one construct, as (rule id, reason). aws-cdk-lib records each under
 * `Validations.ACKNOWLEDGED_RULES_METADATA_KEY`, its id prefixed `annotation::` (`Annotation::` since 2.262.1).
 */
export function acknowledgementsOn(construct: IConstruct): [string, string][] {
  return construct.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && m.data)
    .flatMap((m) => Object.entries(m.data as Record<string, string>)).map(([id, reason]) => [id.replace(/^annotation::/i, ''), reason]);
}

/**
 * The reason `ruleId` is acknowledged for `resource`: on it or on any construct above it, where cdk-nag's packs
 * look too (`NagPack.isAcknowledged`).
 */
export function acknowledgementFor(resource: IConstruct, ruleId: string): string | undefined {
  for (let c: IConstruct | undefined = resource; c; c = c.node.scope) {
    const found = acknowledgementsOn(c).find(([id]) => id === ruleId);
    if (found) return found[1];
  }
  return undefined;
}
