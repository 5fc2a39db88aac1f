import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, ApplicationFactoryProps, DeploymentContext, DeploymentContextReader, KnownVulnerability, RuntimeType } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { CONTEXT_KEYS, ContextKey } from '../src/context/context-keys';

// Every context key's example (CONTEXT_KEYS[].example; together they are one valid deployment) goes in through the
// context and through the factory's code, and must come out in the DeploymentContext. Where a key lands is written
// here, apart from the key table: a key fills the field of its own name, a key oidc<Member> the member of `oidc`.

const EXAMPLES: Record<string, unknown> = Object.fromEntries(CONTEXT_KEYS.map((k) => [k.name, k.example]));

/** The keys a factory reads from its stack and its own arguments rather than its props. */
const FROM_STACK_AND_ARGUMENTS = ['stackName', 'region', 'applicationId', 'runtimeType'];

/** `oidcClientId` -> `clientId`; undefined for a key that is not the identity provider's. */
function oidcMember(name: string): string | undefined {
  const match = /^oidc([A-Z])(.*)$/.exec(name);
  return match ? `${match[1].toLowerCase()}${match[2]}` : undefined;
}

/** Where a key's value is in a DeploymentContext. */
function valueIn(context: DeploymentContext, name: string): unknown {
  const member = oidcMember(name);
  return member ? (context.oidc as Record<string, unknown> | undefined)?.[member] : (context as unknown as Record<string, unknown>)[name];
}

/** One line for each key whose example did not arrive, naming the key. */
function notArrived(context: DeploymentContext, keys: readonly ContextKey[] = CONTEXT_KEYS): string[] {
  return keys.filter((k) => JSON.stringify(valueIn(context, k.name)) !== JSON.stringify(k.example))
    .map((k) => `${k.name}: ${JSON.stringify(k.example)} was given, the DeploymentContext has ${JSON.stringify(valueIn(context, k.name))}`);
}

/** The factory's props that carry the examples: a key's prop has its name; the identity provider's keys are `oidc`. */
function propsOf(examples: Record<string, unknown>): ApplicationFactoryProps {
  const props: Record<string, unknown> = {};
  const oidc: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(examples).filter(([n]) => !FROM_STACK_AND_ARGUMENTS.includes(n))) {
    const member = oidcMember(name);
    if (member) oidc[member] = value;
    else props[name] = value;
  }
  return { ...props, oidc } as unknown as ApplicationFactoryProps;
}

/** The test plugin under the example's applicationId. */
class ExampleSpec extends WikiSpec {
  public applicationId() { return String(EXAMPLES.applicationId); }
  /** The settings the `pluginSettings` example gives. */
  public settings() { return Object.keys(EXAMPLES.pluginSettings as object).map((name) => ({ name, description: name })); }
  public withSettings() { return this; }
  /** The advisories the `acceptedAdvisories` example accepts, declared (an id the plugin does not declare is refused). */
  public knownVulnerabilities(): KnownVulnerability[] {
    return Object.keys(EXAMPLES.acceptedAdvisories as object).map((id) => ({ id, component: 'wiki', version: '1.4.2', severity: 'High', fixedIn: '1.4.3' }));
  }
}

/** The context of a factory made in code, in a stack named and placed as the examples say. */
function factoryContextOf(context: Record<string, unknown>, props: ApplicationFactoryProps): DeploymentContext {
  const stack = new Stack(new App({ context }), String(EXAMPLES.stackName), { env: { region: String(EXAMPLES.region) } });
  return new ApplicationFactory(stack, 'App', EXAMPLES.runtimeType as RuntimeType, new ExampleSpec(), props).context;
}

const ROUTES: Array<[string, () => DeploymentContext]> = [
  ['the context, read by the deployment app (DeploymentContextReader)', () => DeploymentContextReader.fromValues(EXAMPLES)],
  ['the context, read by a factory made in code', () => factoryContextOf(EXAMPLES, {})],
  ['the factory\'s props, its stack and its arguments', () => factoryContextOf({}, propsOf(EXAMPLES))],
];

describe.each(ROUTES)('every key\'s example arrives in the DeploymentContext through %s', (_route, read) => {
  let context: DeploymentContext;
  beforeAll(() => {
    context = read();
  });

  test.each(CONTEXT_KEYS.map((k) => k.name))('%s', (name) => {
    expect(notArrived(context).filter((p) => p.startsWith(`${name}:`))).toEqual([]);
  });
});

test('no example is its key\'s default: a value that did not arrive cannot pass for one that did', () => {
  expect(CONTEXT_KEYS.filter((k) => k.default !== undefined && JSON.stringify(k.example) === JSON.stringify(k.default)).map((k) => k.name))
    .toEqual([]);
});

describe('the check fails, naming the key (controls)', () => {
  const context = DeploymentContextReader.fromValues(EXAMPLES);

  test('a field that was not filled', () => {
    const { vpcCidr: _dropped, ...withoutVpcCidr } = context;
    expect(notArrived(withoutVpcCidr)).toEqual(['vpcCidr: "10.1.0.0/16" was given, the DeploymentContext has undefined']);
  });

  test('a member of the identity provider that was not filled', () => {
    const oidc = { ...context.oidc!, tokenEndpoint: undefined as unknown as string };
    expect(notArrived({ ...context, oidc })).toEqual([
      `oidcTokenEndpoint: ${JSON.stringify(EXAMPLES.oidcTokenEndpoint)} was given, the DeploymentContext has undefined`,
    ]);
  });

  test('a key added to the table without a field to fill', () => {
    const key = CONTEXT_KEYS.find((k) => k.name === 'vpcCidr')!;
    expect(notArrived(context, [...CONTEXT_KEYS, { ...key, name: 'newKey' }]))
      .toEqual(['newKey: "10.1.0.0/16" was given, the DeploymentContext has undefined']);
  });

  test('a prop the factory does not read leaves the key to the context', () => {
    const { vpcCidr: _dropped, ...props } = propsOf(EXAMPLES);
    expect(notArrived(factoryContextOf({}, props))).toEqual(['vpcCidr: "10.1.0.0/16" was given, the DeploymentContext has undefined']);
  });
});
