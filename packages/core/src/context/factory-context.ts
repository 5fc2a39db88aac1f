import { Stack, Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { FactorySettings } from './factory-settings';
import type { RuntimeType } from '../contract/runtime-type';
import { SecurityProfile } from '../contract/security-profile';
import { UserError } from '../errors';
import { CodeSettings, CONTEXT_KEYS } from './context-keys';
import type { DeploymentContext } from './deployment-context';
import { readDeploymentContext } from './deployment-context-reader';

/**
 * The deployment context of one factory: the context keys of the construct tree (`cdk.json`, `-c`) and the settings
 * given in code, validated once by the deployment app's own reader, so the specification's two procedures (in code, by
 * configuration) give the same deployment for the same keys. A key set in both must have the same value; a key set in
 * one of them is taken from there; DEV without TLS when neither says otherwise.
 */
export function factoryContext(scope: IConstruct, runtimeType: RuntimeType, applicationId: string, code: FactorySettings,
  requirements?: (v: Record<string, any>) => string[]): DeploymentContext {
  const stack = Stack.of(scope);
  const fromTree = scope.node.getAllContext();
  const known = (value: string) => (Token.isUnresolved(value) ? undefined : value);
  const settings: CodeSettings = { props: code, stackName: stack.stackName, region: known(stack.region), applicationId, runtimeType };
  const fromCode: Record<string, unknown> = Object.fromEntries(CONTEXT_KEYS.map((key) => [key.name, key.code(settings)]));

  const conflicts: string[] = [];
  for (const key of CONTEXT_KEYS) {
    const inCode = fromCode[key.name];
    const inTree = fromTree[key.name];
    if (!given(inCode) || !given(inTree) || sameValue(key.parse, inCode, inTree)) continue;
    const show = (v: unknown) => (key.sensitive ? '(hidden)' : JSON.stringify(v));
    conflicts.push(`${key.name}: ${key.codeSource} ${show(inCode)}, the context ${show(inTree)}`);
  }
  if (given(fromTree.region) && fromCode.region === undefined) {
    conflicts.push(`region: the stack has none (environment-agnostic), the context ${JSON.stringify(fromTree.region)}; ` +
      'create the stack with env: { region } (the deployment app does)');
  }
  if (conflicts.length > 0) {
    throw new UserError('The ApplicationFactory\'s settings contradict the deployment context (cdk.json, -c); give each ' +
      `setting once, or the same value in both:\n  - ${conflicts.join('\n  - ')}`);
  }

  const merged: Record<string, unknown> = { ...fromTree };
  for (const [name, value] of Object.entries(fromCode)) if (given(value)) merged[name] = value;
  merged.securityProfile ??= SecurityProfile.DEV;
  merged.sslEnabled ??= false;
  return readDeploymentContext(merged, Object.keys(fromCode).filter((name) => given(fromCode[name])), requirements);
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** Equal as the key reads them (`"true"` from `-c` and `true` in code are the same); unreadable values compare as text. */
function sameValue(parse: (raw: unknown) => { value: unknown } | { allowed: string }, a: unknown, b: unknown): boolean {
  const [pa, pb] = [parse(a), parse(b)];
  return 'value' in pa && 'value' in pb ? JSON.stringify(pa.value) === JSON.stringify(pb.value) : String(a) === String(b);
}
