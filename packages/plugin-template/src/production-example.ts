/** The spec stub's `defaultContainerImage()`: the image the PRODUCTION example pins by digest. */
export const SAMPLE_IMAGE = 'nginx:1.27.3';

/**
 * A PRODUCTION deployment of the scaffold's plugin, as the context keys of its `cdk.json`: the README's "Deploying"
 * example and the input of the scaffold's fourth test kind, which synthesises it on each runtime. One source, so the
 * example a plugin author copies is one that synthesises. The credential's ARN, the digest and the image id are
 * placeholders.
 */
export function productionContext(applicationId: string): Record<string, string | Record<string, string>> {
  return {
    stackName: applicationId,
    applicationId,
    runtimeType: 'FARGATE',
    securityProfile: 'PRODUCTION',
    region: 'eu-west-1',
    sslEnabled: 'true',
    domain: 'example.com',
    subdomain: applicationId,
    hostedZoneId: 'Z0123456789ABCDEFGHIJ',
    alarmEmail: 'alerts@example.com',
    // The sample image is on Docker Hub: tasks pull it through an ECR pull-through cache with this credential.
    dockerHubCredentialArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf',
    imageDigests: { [SAMPLE_IMAGE]: `sha256:${'0'.repeat(64)}` },
    // On EC2, the Amazon Linux 2023 image the instances run: a new release changes nothing until this does.
    ec2ImageId: 'ami-0123456789abcdef0',
    pciDssScope: 'CONNECTED',
  };
}

/** The same as a TypeScript object literal, indented for the scaffold's test file (single quotes, as its lint wants). */
export function productionContextLiteral(applicationId: string): string {
  const value = (v: string | Record<string, string>) => typeof v === 'string' ? `'${v}'`
    : `{ ${Object.entries(v).map(([key, digest]) => `'${key}': '${digest}'`).join(', ')} }`;
  return `{\n${Object.entries(productionContext(applicationId)).map(([key, v]) => `  ${key}: ${value(v)},\n`).join('')}}`;
}
