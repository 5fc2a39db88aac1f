import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVICE_RULES, SERVICE_SOURCES } from './service-rules';

/**
 * What CloudFormation does to a deployed app as it moves through states, read from CloudFormation's own resource
 * schemas (aws/cloudformation/resource-schemas.json: `primaryIdentifier`, `createOnlyProperties`, derived from the
 * pinned cfn-lint's bundled provider schemas by tools/aws/cloudformation-schemas/derive.py).
 *
 * - A change to a create-only property replaces the resource; with its name (primary identifier) unchanged, the new
 *   one is created first under the old one's name and the update fails ("cannot update a stack when a custom-named
 *   resource requires replacing").
 * - A resource a stack kept (DeletionPolicy Retain or RetainExceptOnCreate) when it was removed still holds its name;
 *   a later state creating that name again fails with AlreadyExists, unless `cdk deploy --import-existing-resources`
 *   adopts it, which needs a static name that is the type's primary identifier and a DeletionPolicy of Retain or
 *   RetainExceptOnCreate on the new resource
 *   (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/import-resources-automatically.html). Import
 *   never modifies what it adopts: a create-only reference to a resource the stack creates anew keeps naming the old one.
 * - A stack reads another's values through SSM parameters (`AWS::SSM::Parameter::Value<String>`): each must still be
 *   created by some stack of the state, and a change that replaces what one names leaves the readers on the old one
 *   until they are deployed again (and CloudFormation cannot delete it while they use it).
 *
 * - What the services refuse or do to data that the schemas do not say (`refused`): service-rules.ts, each
 *   rule resting on a sentence of the service's API model and naming the way through.
 *
 * `adopts` is not a failure: it lists what `--import-existing-resources` adopts, which the docs' Lifecycle tells.
 */
export const SCHEMAS: Record<string, { primaryIdentifier: string[]; createOnlyProperties: string[] }> =
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'aws', 'cloudformation', 'resource-schemas.json'), 'utf-8')).types;

/** Every stack's template by stack name. */
export type AppState = Record<string, any>;

export interface LifecycleFinding {
  readonly kind: 'replaces-named' | 'recreates-kept' | 'adopts' | 'adopts-stale' | 'replaces-read' | 'unread-parameter' | 'unknown-type' | 'refused'
  | 'replaces';
  readonly stack: string;
  readonly logicalId: string;
  readonly detail: string;
}

const KEPT = new Set(['Retain', 'RetainExceptOnCreate']);
const isKept = (resource: any) => KEPT.has(resource.DeletionPolicy);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The resource's name: its primary identifier's values, when the template sets them all (otherwise CloudFormation names it). */
export function nameOf(resource: any): string | undefined {
  const schema = SCHEMAS[resource.Type];
  if (!schema || schema.primaryIdentifier.length === 0) return undefined;
  const values = schema.primaryIdentifier.map((p) => resource.Properties?.[p]);
  return values.every((v) => v !== undefined) ? `${resource.Type} ${JSON.stringify(values)}` : undefined;
}

function resourcesOfType(state: AppState, type: string): Array<[string, string, any]> {
  return [...resourcesOf(state)].filter(([, , r]) => r.Type === type);
}

function* resourcesOf(state: AppState): Generator<[string, string, any]> {
  for (const [stack, template] of Object.entries(state)) {
    for (const [id, resource] of Object.entries<any>(template.Resources ?? {})) yield [stack, id, resource];
  }
}

/**
 * The findings of going from `before` to `after`, and of any state after it recreating what an earlier removal kept;
 * with `replacements`, every resource the change replaces too (`replaces`).
 */
export function checkLifecycle(states: AppState[], options: { readonly replacements?: boolean } = {}): LifecycleFinding[] {
  const findings: LifecycleFinding[] = [];
  const left = new Map<string, { stack: string; logicalId: string }>();
  const unknown = new Set<string>();
  states.forEach((state, index) => {
    findings.push(...unknownTypes(state, unknown), ...unreadParameters(state));
    if (index === 0) return;
    const before = states[index - 1];
    const names = new Map<string, [string, string]>();
    for (const [stack, id, resource] of resourcesOf(before)) {
      const name = nameOf(resource);
      if (name) names.set(name, [stack, id]);
      if (!state[stack]?.Resources?.[id] && isKept(resource) && name) left.set(name, { stack, logicalId: id });
    }
    const because = replacementsOf(before, state, findings);
    const replaced = new Set(because.keys());
    if (options.replacements) {
      for (const [key, changed] of because) {
        const [stack, id] = key.split('/');
        findings.push({ kind: 'replaces', stack, logicalId: id, detail: `${before[stack].Resources[id].Type} (create-only ${changed.join(', ')})` });
      }
    }
    findings.push(...replacedReads(state, replaced), ...serviceFindings(before, state, replaced), ...nameFindings(before, state, names, left));
  });
  return findings;
}

/** Resource types the schemas do not have (once each). */
function unknownTypes(state: AppState, unknown: Set<string>): LifecycleFinding[] {
  const findings: LifecycleFinding[] = [];
  for (const [stack, id, resource] of resourcesOf(state)) {
    if (!resource.Type.startsWith('Custom::') && !resource.Type.startsWith('AWS::CDK::') && !SCHEMAS[resource.Type] && !unknown.has(resource.Type)) {
      unknown.add(resource.Type);
      findings.push({ kind: 'unknown-type', stack, logicalId: id, detail: `${resource.Type} is not in aws/cloudformation/resource-schemas.json: run python3 tools/aws/cloudformation-schemas/derive.py ${resource.Type}` });
    }
  }
  return findings;
}

/**
 * What the change replaces (`stack/id`), each with the create-only properties that changed or name a resource being
 * replaced, to a fixpoint; a named one replaced under its own name is added to `findings`.
 */
function replacementsOf(before: AppState, state: AppState, findings: LifecycleFinding[]): Map<string, string[]> {
  const because = new Map<string, string[]>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [stack, id, resource] of resourcesOf(before)) {
      const now = state[stack]?.Resources?.[id];
      if (!now || now.Type !== resource.Type || because.has(`${stack}/${id}`)) continue;
      const changed = (SCHEMAS[resource.Type]?.createOnlyProperties ?? []).filter((p) => !same(resource.Properties?.[p], now.Properties?.[p]) ||
        referencesOf(now.Properties?.[p]).some((target) => because.has(`${stack}/${target}`)));
      if (changed.length === 0) continue;
      because.set(`${stack}/${id}`, changed);
      grew = true;
      const name = nameOf(resource);
      if (name && name === nameOf(now)) {
        findings.push({ kind: 'replaces-named', stack, logicalId: id, detail: `${changed.join(', ')} changed (create-only): ${name} would be replaced under the same name` });
      }
    }
  }
  return because;
}

/** What the services refuse or do to data in this change (service-rules.ts), each with its source and way through. */
function serviceFindings(before: AppState, state: AppState, replaced: ReadonlySet<string>): LifecycleFinding[] {
  // The published values this change gives another value: what they name is replaced, or they name something else.
  const replacedParameters = new Set(resourcesOfType(state, 'AWS::SSM::Parameter')
    .filter(([stack, id, p]) => referencesOf(p.Properties.Value).some((n) => replaced.has(`${stack}/${n}`)) ||
      !same(before[stack]?.Resources?.[id]?.Properties?.Value ?? p.Properties.Value, p.Properties.Value))
    .map(([, , p]) => String(p.Properties.Name)));
  return Object.entries(SERVICE_RULES).flatMap(([name, rule]) => rule.check(before, state, replaced, replacedParameters).map((broken) => {
    const { where, quote } = SERVICE_SOURCES[rule.source];
    return {
      kind: 'refused' as const,
      stack: broken.stack,
      logicalId: broken.logicalId,
      detail: `${name}: ${broken.detail} (${where}: "${quote}"). Way through: ${rule.wayThrough}`,
    };
  }));
}

/** Names the change creates again: given up in the same update, kept by an earlier removal (adopted or not). */
function nameFindings(before: AppState, state: AppState, names: Map<string, [string, string]>,
  left: Map<string, { stack: string; logicalId: string }>): LifecycleFinding[] {
  const findings: LifecycleFinding[] = [];
  for (const [stack, id, resource] of resourcesOf(state)) {
    const name = nameOf(resource);
    const existed = before[stack]?.Resources?.[id];
    if (!name || (existed && nameOf(existed) === name)) continue;
    const previous = names.get(name);
    const givenUp = previous && !(previous[0] === stack && previous[1] === id) && state[previous[0]]?.Resources?.[previous[1]] === undefined;
    if (givenUp && !isKept(before[previous[0]].Resources[previous[1]])) {
      // Another logical id (or stack) gives up the name in the same update: CloudFormation creates before it deletes.
      findings.push({ kind: 'recreates-kept', stack, logicalId: id, detail: `${name} moves from ${previous.join('/')}: created before the old one is deleted (AlreadyExists)` });
      continue;
    }
    const kept = left.get(name);
    if (!kept) continue;
    if (!isKept(resource)) {
      findings.push({ kind: 'recreates-kept', stack, logicalId: id, detail: `${name}, kept by ${kept.stack}/${kept.logicalId} when it was removed, is created again (AlreadyExists) and cannot be adopted (DeletionPolicy ${resource.DeletionPolicy ?? 'Delete'})` });
      continue;
    }
    const stale = createdReferences(resource, state[stack], before[stack]);
    findings.push(stale.length > 0
      ? { kind: 'adopts-stale', stack, logicalId: id, detail: `${name} would be adopted (--import-existing-resources) still naming the old ${stale.join(', ')}` }
      : { kind: 'adopts', stack, logicalId: id, detail: name });
    left.delete(name);
  }
  return findings;
}

/** The logical ids a value refers to (Ref, Fn::GetAtt). */
function referencesOf(value: unknown): string[] {
  const referenced = new Set<string>();
  const walk = (v: any): void => {
    if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v && typeof v === 'object') {
      if (typeof v.Ref === 'string') referenced.add(v.Ref);
      if (Array.isArray(v['Fn::GetAtt'])) referenced.add(v['Fn::GetAtt'][0]);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  return [...referenced];
}

/** The resources of its own template a kept resource names that this update creates anew beside it (nameless ones). */
function createdReferences(resource: any, template: any, before: any): string[] {
  // Import leaves every property as it was: a group named in VPCSecurityGroups stays the old one too.
  return referencesOf(resource.Properties ?? {}).filter((id) => {
    const target = template.Resources?.[id];
    return target && !before?.Resources?.[id] && !(nameOf(target) && isKept(target));
  }).map((id) => `${template.Resources[id].Type} ${id}`);
}

/** Parameters whose value names a resource this update replaces, read by another stack (which keeps the old one). */
function replacedReads(state: AppState, replaced: Set<string>): LifecycleFinding[] {
  const findings: LifecycleFinding[] = [];
  for (const [stack, id, resource] of resourcesOf(state)) {
    if (resource.Type !== 'AWS::SSM::Parameter') continue;
    const gone = referencesOf(resource.Properties.Value).filter((n) => replaced.has(`${stack}/${n}`));
    const readers = Object.entries(state).filter(([other, t]) => other !== stack &&
      Object.values<any>(t.Parameters ?? {}).some((p) => p.Default === resource.Properties.Name)).map(([other]) => other);
    if (gone.length > 0 && readers.length > 0) {
      findings.push({ kind: 'replaces-read', stack, logicalId: id, detail: `${resource.Properties.Name} names ${gone.join(', ')}, replaced by this change; ${readers.join(', ')} still use the old one` });
    }
  }
  return findings;
}

/** SSM parameters a stack reads at deploy time that no stack of the state creates (AWS's /aws/ ones and the CDK bootstrap's aside). */
function unreadParameters(state: AppState): LifecycleFinding[] {
  const created = new Set<string>();
  for (const [, , resource] of resourcesOf(state)) {
    if (resource.Type === 'AWS::SSM::Parameter' && typeof resource.Properties.Name === 'string') created.add(resource.Properties.Name);
  }
  const findings: LifecycleFinding[] = [];
  for (const [stack, template] of Object.entries(state)) {
    for (const [id, parameter] of Object.entries<any>(template.Parameters ?? {})) {
      if (!String(parameter.Type).startsWith('AWS::SSM::Parameter::Value') || /^\/(aws|cdk-bootstrap)\//.test(String(parameter.Default)) || created.has(parameter.Default)) continue;
      findings.push({ kind: 'unread-parameter', stack, logicalId: id, detail: `reads ${parameter.Default}, which no stack creates` });
    }
  }
  return findings;
}
