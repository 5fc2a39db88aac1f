import { productionContext } from './production-example';

/** What the scaffold's README names. */
export interface ReadmeNames {
  readonly packageName: string;
  readonly applicationId: string;
  readonly className: string;
  readonly specFile: string;
  readonly testFile: string;
  readonly javaClass: string;
  readonly pythonDist: string;
  readonly goModule: string;
}

/** The plugin's README, written once: what to fill in, how to test, preview, release and deploy it. */
export function readmeSource(n: ReadmeNames): string {
  return `# ${n.packageName}

A plugin for the fw deployment framework (\`@fw/core\`): it describes the \`${n.applicationId}\` application, and the
framework deploys it on AWS, on ECS Fargate or on EC2, with its network, load balancer, shared file system, logs and
the PRODUCTION hardening.

## What to fill in

\`${n.specFile}\` holds \`${n.className}\`, which extends \`ApplicationSpec\`. Replace each example value:

| member | what it means |
|---|---|
| \`applicationId()\` | the id deployments select the plugin by (\`applicationId\` context key): \`${n.applicationId}\` |
| \`defaultContainerImage()\` | the container image, pinned to a version |
| \`applicationPort()\` | the HTTP port the application listens on |
| \`containerDataPath()\`, \`efsDataPath()\`, \`volumeName()\` | where the data lives: in the container, on EFS, the volume's name |
| \`containerUser()\`, \`efsPermissions()\` | \`<UID>:<GID>\` the application runs as and owns its data with; the data directory's mode |
| \`ebsDeviceName()\`, \`ec2DataPath()\`, \`ec2LogPaths()\` | EC2: the data volume's device and mount path, the log files shipped to CloudWatch |
| \`configureUserData(builder, context)\` | EC2: the installation script, in the order the framework's builder documents |
| \`healthCheckPath()\` | the load balancer's health check; must answer without sign-in |
| \`containerEnvironmentVariables(fqdn, sslEnabled, authMode)\` | the container's plain environment (never secrets) |

The optional members (\`logAlarms()\`, \`supportedAuthModes()\`, \`ephemeralWorkers()\`, \`egressRules()\`,
\`secrets()\`, \`requestBodyLimits()\`, \`blockedRequests()\`, \`complianceControls()\`, \`database()\`, the OIDC integration) have defaults; see \`@fw/core\`'s README. On EC2 run the
application as \`context.serviceUser\`, the account the framework creates for it (the sample does).

## Commands

| command | what it does |
|---|---|
| \`npx projen test\` | the tests in \`${n.testFile}\`: (a) the declared values, (b) the public address, (c) a synth on each runtime, (d) on each runtime, PRODUCTION's four compliance packs (AWS Solutions, PCI DSS v4.0.1 (the framework's PciDss401Checks), NIST 800-53 R5, HIPAA) find nothing the framework does not acknowledge; a finding names the rule and the resource; then eslint (projen's rules, \`--fix\`, cached) |
| \`npx projen build\` | tests, then the npm tarball, the Java JAR, the Python wheel and the Go module source in \`dist/\` |
| \`npx projen release\` | the same at the release version, as the release workflow builds it: 1.0.0 the first time, then bumped from your conventional commits since the last \`v*\` tag (\`npx projen build\` leaves development packages at 0.0.0) |
| \`npx projen compile && npx cdk synth -c runtimeType=EC2\` | a preview of this plugin's own deployment (DEV, no TLS; \`cdk.json\`): the template on standard output, \`FARGATE\` for the other runtime |

## Dependencies

\`@fw/core\`, \`aws-cdk-lib\` and \`constructs\` are peer dependencies in npm and of scope \`provided\` in the Maven POM
(\`dev.fwframework:core\`, \`software.amazon.awscdk:aws-cdk-lib\`, \`software.constructs:constructs\`): the deployment
supplies them. \`package:java\` sets that scope after jsii-pacmak and rewrites the checksums beside the changed JAR and POM.

## Registration

\`META-INF/services/dev.fwframework.core.IApplicationSpec\` names the plugin for the framework's registry
(\`${n.packageName}.${n.className}\`), and the same file inside the JAR names its Java class for \`ServiceLoader\`
(\`${n.javaClass}\`). Both are generated from \`specClasses\` in \`.projenrc.ts\`: to add a plugin class, export it
from \`src/index.ts\` and add its name there.

## Releasing

projen's release workflow (\`.github/workflows/release.yml\`) bumps the version from your conventional commits and
publishes with publib, each registry behind the repository secrets it needs: npm (\`NPM_TOKEN\`), Maven Central
(\`MAVEN_USERNAME\`, \`MAVEN_PASSWORD\`, \`MAVEN_GPG_PRIVATE_KEY\`, \`MAVEN_GPG_PRIVATE_KEY_PASSPHRASE\`,
\`MAVEN_STAGING_PROFILE_ID\`), PyPI as \`${n.pythonDist}\` (\`TWINE_USERNAME\`, \`TWINE_PASSWORD\`), Go as
\`${n.goModule}\` (\`GO_GITHUB_TOKEN\`) and NuGet (\`NUGET_API_KEY\`).

## Deploying

In a deployment project that installs \`@fw/core\` and this package, a \`cdk.json\` selects the plugin and configures the
deployment with the framework's context keys:

\`\`\`json
${JSON.stringify({ app: 'npx fw-deploy', context: productionContext(n.applicationId) }, undefined, 2)}
\`\`\`

Replace the placeholders: the Docker Hub credential's ARN (images from Docker Hub are pulled through an ECR
pull-through cache with it) and the image's digest (\`docker buildx imagetools inspect <image>\`; PRODUCTION runs each
image by digest) and, for EC2, your region's Amazon Linux 2023 image id (\`ec2ImageId\`: PRODUCTION pins it; the
framework's message names the command that reads the current one). \`npx cdk synth\` (or \`deploy\`) there; \`-c runtimeType=EC2\` picks the other runtime. PRODUCTION
runs the four compliance packs (AwsSolutions, PCI DSS v4.0.1 (the framework's PciDss401Checks), NIST 800-53 R5, HIPAA)
at synth and refuses any finding nobody acknowledged. \`${n.testFile}\` synthesises this example on both runtimes.
`;
}
