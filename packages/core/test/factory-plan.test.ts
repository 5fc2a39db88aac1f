import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { SIGN_IN } from './support/jenkins';
import { pinnedImage, propsFor, REGION_ENV, testDefaults } from './support/synth';
import { planFactory } from '../src/factory/factory-plan';

/**
 * The factory's plan on its own (issue 62): configuration in, decisions and refusals out, before and without any
 * resource: nothing is synthesised, and a refusal leaves the stack empty.
 */
const plan = (props: object) => {
  const stack = new Stack(new App(), 'Ci', { env: REGION_ENV });
  const spec = new JenkinsSpec();
  const scope = new Construct(stack, 'Plan');
  const defaults = { ...testDefaults(spec), ...SIGN_IN, ...pinnedImage(RuntimeType.EC2, props) };
  return { stack, result: () => planFactory(scope, RuntimeType.EC2, spec, { ...defaults, ...props }) };
};
const resourcesOf = (stack: Stack) => stack.node.findAll().filter((c) => c instanceof CfnResource);

test('decides the configured plugin, its secrets, sizes and storage, and builds nothing', () => {
  const { stack, result } = plan({ ...propsFor(SecurityProfile.PRODUCTION), alarmEmail: 'security@example.com', ec2Storage: 'ebs' });
  const decided = result();
  expect(decided.plugin).toBe('JenkinsSpec');
  expect(decided.runtimeType).toBe(RuntimeType.EC2);
  expect(decided.dataOn).toBe('ebs');
  expect(Object.keys(decided.secrets)).toEqual(['OIDC_CLIENT_SECRET']);
  expect(decided.logGroupName).toBe('/aws/Ci/EC2/PRODUCTION');
  expect(decided.knownVulnerabilities.length).toBeGreaterThan(0);
  expect(resourcesOf(stack)).toEqual([]);
});

test('refuses before anything is built, every problem of the context at once', () => {
  const { stack, result } = plan({ securityProfile: SecurityProfile.PRODUCTION, pciDssScope: undefined });
  expect(result).toThrow(/^Invalid deployment context \(\d+ problems\):/);
  expect(resourcesOf(stack)).toEqual([]);
});
