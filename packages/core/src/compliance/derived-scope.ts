import { drawnWith } from './diagrams/diagram-files';
import type { DrawnStack } from './diagrams/graph-model';
import { PciDssScope } from '../contract/pci-dss-scope';

/** The scope a stack that states none takes from the applications drawn with it, and which of them make it so. */
export interface DerivedScope {
  readonly scope: PciDssScope;
  readonly from: string[];
}

/** From the widest scope down: a platform one CDE application runs on is in the CDE, whatever else runs on it. */
const WIDEST_FIRST = [PciDssScope.CDE, PciDssScope.CONNECTED, PciDssScope.OUT_OF_SCOPE];

/**
 * The scope of a stack that states none (a platform's), from the stacks of the same cloud assembly drawn with it (those
 * that read its SSM parameters: the applications whose network, load balancers and file systems it holds): the widest
 * any of them states. None when the stack states its own, or nothing drawn with it states one.
 */
export function derivedScope(stack: string, assembly: readonly DrawnStack[]): DerivedScope | undefined {
  const self = assembly.find((s) => s.stack === stack);
  if (!self || (self.scope !== undefined && self.scope !== 'not stated')) return undefined;
  const linked = drawnWith(stack, assembly).slice(1);
  for (const scope of WIDEST_FIRST) {
    const from = linked.filter((s) => s.scope === scope).map((s) => s.stack);
    if (from.length) return { scope, from };
  }
  return undefined;
}

/** What the report says of a derived scope. */
export function derivedScopeStatement(derived: DerivedScope): string {
  const many = derived.from.length > 1;
  return `Not stated here; derived as ${derived.scope} from what runs on this stack in the same cloud assembly: ` +
    `${derived.from.join(', ')} ${many ? 'state' : 'states'} ${derived.scope} and ${many ? 'use' : 'uses'} the network, load balancers ` +
    'and file systems this stack holds, so the requirements apply to it as they do to them. Confirm it with your assessor.';
}
