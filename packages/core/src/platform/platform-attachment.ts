import { aws_ec2 as ec2, aws_ssm as ssm, Stack, Token } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Platform } from './platform';
import { securityGroupParameter } from './platform-parameters';
import type { AllowFrom } from '../context/allow-from';
import { CONTEXT_KEYS } from '../context/context-keys';
import type { DeploymentContext } from '../context/deployment-context';
import type { FactorySettings } from '../context/factory-settings';
import type { PlatformContext } from '../context/platform-context';
import { shownValue, UserError } from '../errors';
import { LISTENER_PRIORITY } from '../infrastructure/routing';

// What an ApplicationFactory decides when it attaches to a platform: its settings and neighbours.

/** The host name an application answers at on a platform: `<subdomain>.<domain>`, or the domain. */
export function hostOf(context: DeploymentContext): string {
  if (!context.fqdn) throw new Error('an application on a platform without a domain passed the context reader');
  return context.fqdn;
}

/**
 * The factory's props on a platform: its security profile, TLS, alarm recipient and network are the platform's (a
 * different value is refused, naming both), its domain and hosted zone too unless given.
 */
export function propsOnPlatform<T extends FactorySettings & { readonly listenerPriority?: number }>(scope: Construct, stack: Stack,
  platform: Platform, props: T): T {
  const on = platform.context;
  const given = (key: keyof FactorySettings) => props[key] ?? scope.node.tryGetContext(key);
  const problems: string[] = [];
  // The keys the platform decides (the key table's onPlatform; the region is compared below, with the stacks'). A
  // context value is text ("true"), a prop typed.
  const text = (value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : String(value));
  for (const key of CONTEXT_KEYS) {
    const decided = key.onPlatform?.decides === 'platform' ? key.onPlatform : undefined;
    const value = decided && key.name !== 'region' ? given(key.name as keyof FactorySettings) : undefined;
    if (!decided || value === undefined) continue;
    if (decided.shared) {
      const platformValue = on[key.name as keyof PlatformContext];
      if (text(value) !== text(platformValue)) {
        problems.push(`${key.name}: the application ${shownValue(value)}, the platform ${shownValue(platformValue)}; ${decided.why}.`);
      }
    } else if (text(value) !== text(key.default)) {
      problems.push(`${key.name} ${shownValue(value)} belongs to the platform (${decided.why}); set it there.`);
    }
  }
  const priority = props.listenerPriority;
  if (priority !== undefined && (!Number.isInteger(priority) || priority < LISTENER_PRIORITY.min || priority > LISTENER_PRIORITY.max)) {
    problems.push(`listenerPriority ${shownValue(priority)} is not allowed; expected a whole number from ${LISTENER_PRIORITY.min} ` +
      `to ${LISTENER_PRIORITY.max} (the load balancer's rule priorities).`);
  }
  if (Stack.of(platform) === stack) {
    problems.push('the application is in the platform\'s own stack; give it a stack of its own (it reads the platform\'s ' +
      'parameters at deploy time, which exist only once the platform is deployed).');
  }
  const region = Token.isUnresolved(stack.region) ? undefined : stack.region;
  if (region !== on.region) {
    problems.push(`region: the application's stack ${shownValue(region)}, the platform's ${shownValue(on.region)}; an application ` +
      'runs in its platform\'s region (its parameters are regional).');
  }
  if (problems.length > 0) {
    throw new UserError(`Application ${stack.stackName} cannot attach to platform ${on.stackName}:\n  - ${problems.join('\n  - ')}`);
  }
  const domain = given('domain') ?? on.domain;
  const inherit = (key: 'hostedZoneId' | 'certificateArn') =>
    props[key] ?? (domain === on.domain && scope.node.tryGetContext(key) === undefined ? on[key] : undefined);
  // The shared keys are the platform's values (the region is its stack's); the others it decides stay the
  // application's defaults, so that it builds no second network or account-wide pack.
  const shared = CONTEXT_KEYS.filter((k) => k.onPlatform?.decides === 'platform' && k.onPlatform.shared && k.name !== 'region')
    .map((k) => [k.name, on[k.name as keyof PlatformContext]]);
  return {
    ...props,
    ...Object.fromEntries(shared),
    domain: props.domain ?? (scope.node.tryGetContext('domain') === undefined ? on.domain : undefined),
    hostedZoneId: inherit('hostedZoneId'),
    certificateArn: inherit('certificateArn'),
  };
}

/**
 * `allowFrom`: each named application of the platform may connect on its port, through a rule in this stack on each
 * side; nothing else but the load balancer reaches the application. The source must be attached first: this stack
 * reads its security group's parameter, so it deploys after the source's stack.
 */
export function admitApplications(scope: Construct, platform: Platform, securityGroup: ec2.ISecurityGroup, allowFrom: AllowFrom[],
  context: DeploymentContext): void {
  const stack = Stack.of(scope);
  new ssm.StringParameter(scope, 'SecurityGroupId', {
    parameterName: securityGroupParameter(platform.context.stackName, context.stackName),
    stringValue: securityGroup.securityGroupId,
    description: `The security group of ${context.stackName} (${context.applicationId}), for allowFrom`,
  });
  for (const rule of allowFrom) {
    const source = platform._application(rule.applicationId);
    if (!source || source.stackName === context.stackName) {
      throw new UserError(`${context.stackName}: allowFrom names applicationId ${shownValue(rule.applicationId)}, which is not ` +
        `an application attached to platform ${platform.context.stackName} before this one; attached: ` +
        `${platform._applicationIds().filter((id) => id !== context.applicationId).join(', ') || 'none'}. Attach it first.`);
    }
    if (!Number.isInteger(rule.port) || rule.port < 1 || rule.port > 65535) {
      throw new UserError(`${context.stackName}: allowFrom port ${shownValue(rule.port)} of ${rule.applicationId} is not allowed; expected a TCP port from 1 to 65535.`);
    }
    const peer = ec2.SecurityGroup.fromSecurityGroupId(scope, `From-${rule.applicationId}`, ssm.StringParameter.valueForStringParameter(
      scope, securityGroupParameter(platform.context.stackName, source.stackName)), { allowAllOutbound: false });
    securityGroup.addIngressRule(peer, ec2.Port.tcp(rule.port), `From ${rule.applicationId}`);
    peer.addEgressRule(securityGroup, ec2.Port.tcp(rule.port), `To ${context.applicationId}`);
    stack.addStackDependency(source.stack, `reads the security group of ${source.stackName} (allowFrom)`);
  }
}
