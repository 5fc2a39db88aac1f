import type { aws_iam as iam, custom_resources as cr } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { acknowledge, RECORD_ACKNOWLEDGEMENTS } from '../compliance/acknowledge';

const acknowledged = new WeakSet<Construct>();

/**
 * Acknowledges the packs' findings on the one function `AwsCustomResource` makes a stack (its singleton), whichever
 * user creates it first: the closed default security group of a VPC the framework creates, or the file-system policy
 * on a VPC you are given. It runs during deployments only, for the calls its users' own statements allow. It sits at
 * stack level, outside the factory's or platform's context, so whether anything reads acknowledgements is asked of
 * `scope`, where that context is.
 */
export function acknowledgeCustomResourceFunction(scope: Construct, resource: cr.AwsCustomResource): void {
  if (scope.node.tryGetContext(RECORD_ACKNOWLEDGEMENTS) === false) return;
  const role = resource.grantPrincipal as iam.Role;
  const fn = role.node.scope as Construct;
  if (acknowledged.has(fn)) return;
  acknowledged.add(fn);
  acknowledge(role, 'AwsSolutions-IAM4', 'AWSLambdaBasicExecutionRole: the function writes its own log; its other ' +
    'permissions are the one statement of each call it makes (each user\'s CustomResourcePolicy).');
  acknowledge(fn, 'LambdaInsideVPC', 'It calls an AWS API during deployments and handles no data; inside the VPC it ' +
    'would need a network path and group of its own for those calls.');
  acknowledge(fn, 'LambdaConcurrency', 'CloudFormation invokes it during deployments only, once per change of its users.');
  acknowledge(fn, 'LambdaDLQ', 'CloudFormation is its only caller: a failed call fails the deployment, which ' +
    'CloudFormation reports and rolls back; a dead-letter queue would hold only a copy of that request.');
}
