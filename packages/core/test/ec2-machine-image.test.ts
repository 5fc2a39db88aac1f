import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { ALARM_EMAIL, EC2_IMAGE_ID, only, propsFor, REGION_ENV, synth, testDefaults } from './support/synth';
import { AL2023_IMAGE_PARAMETER } from '../src/contract/ec2-context';

// STAGING and PRODUCTION run the Amazon Linux 2023 image the deployment names (ec2ImageId, profile setting
// ec2ImagePinned); DEV follows the newest, read from AWS's public parameter at each deployment.

const imageOf = (json: any) => only(json, 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData.ImageId;

test('PRODUCTION: the launch template names the image given, and reads no parameter', () => {
  const { json } = synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), ec2ImageId: 'ami-0fedcba9876543210' });
  expect(imageOf(json)).toBe('ami-0fedcba9876543210');
  expect(JSON.stringify(json.Parameters ?? {})).not.toContain('ami-amazon-linux-latest');
});

test('DEV: the newest Amazon Linux 2023, from the public parameter the key\'s description names', () => {
  const { json } = synth(RuntimeType.EC2);
  const parameter = json.Parameters[imageOf(json).Ref];
  expect(parameter).toMatchObject({ Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', Default: AL2023_IMAGE_PARAMETER });
});

test.each([SecurityProfile.STAGING, SecurityProfile.PRODUCTION])('%s on EC2 without ec2ImageId is refused, with how to find the current one', (profile) => {
  const spec = new WikiSpec();
  expect(() => new ApplicationFactory(new Stack(new App(), 'WikiStack', { env: REGION_ENV }), 'App', RuntimeType.EC2, spec,
    { ...propsFor(profile), ...testDefaults(spec), alarmEmail: ALARM_EMAIL })).toThrow(
    `securityProfile ${profile} on runtimeType EC2 needs ec2ImageId, the Amazon Linux 2023 image the instance runs, so that a new ` +
    `release replaces nothing until you choose it. The current one in your region: aws ssm get-parameter --name ${AL2023_IMAGE_PARAMETER} ` +
    '--query Parameter.Value --output text');
});

test('a value that is no AMI id is refused, naming it', () => {
  expect(() => synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), ec2ImageId: 'al2023-latest' })).toThrow(
    'ec2ImageId "al2023-latest" is not allowed; expected an AMI id: ami- and 8 or 17 hex digits, for example ami-0123456789abcdef0');
});

test('on Fargate the key changes nothing and is not warned: a configuration that moves between runtimes carries it', () => {
  const { stack, json } = synth(RuntimeType.FARGATE, { ec2ImageId: EC2_IMAGE_ID });
  Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('ec2ImageId'));
  expect(JSON.stringify(json)).not.toContain(EC2_IMAGE_ID);
});
