import { productionContextLiteral, SAMPLE_IMAGE } from './production-example';

/** The spec stub: every required member with an example value and what it means. */
export function specSource(className: string, applicationId: string): string {
  return `import { ApplicationSpec, Ec2Context, IUserDataBuilder, PosixUser, ServiceHardening } from '@fw/core';

/**
 * The ${applicationId} application, described for the framework. Replace each example value with your application's.
 */
export class ${className} extends ApplicationSpec {
  /** Unique id; also the value of the \`applicationId\` context key. */
  public applicationId(): string { return '${applicationId}'; }

  /** Container image, pinned to a version. */
  public defaultContainerImage(): string { return '${SAMPLE_IMAGE}'; }

  /** HTTP port the application listens on. */
  public applicationPort(): number { return 8080; }

  /** Where the data volume is mounted in the container. */
  public containerDataPath(): string { return '/var/lib/${applicationId}'; }

  /** The application's directory on the shared file system (EFS). */
  public efsDataPath(): string { return '/${applicationId}'; }

  /** Name of the data volume in the task definition. */
  public volumeName(): string { return '${applicationId}-data'; }

  /** <UID>:<GID> the container runs as; also owns the data. */
  public containerUser(): string { return '1000:1000'; }

  /** Permissions of the data directory on EFS, octal. */
  public efsPermissions(): string { return '750'; }

  /** Block device of the data volume on EC2. */
  public ebsDeviceName(): string { return '/dev/xvdf'; }

  /** Where the data volume is mounted on EC2. */
  public ec2DataPath(): string { return '/var/lib/${applicationId}'; }

  /** Log files shipped to CloudWatch on EC2. */
  public ec2LogPaths(): string[] { return ['/var/log/${applicationId}/${applicationId}.log']; }

  /** Load-balancer health check; must answer without authentication. */
  public healthCheckPath(): string { return '/'; }

  /** Rule 1: the public address from sslEnabled and fqdn, or a local address with the port. */
  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, _authMode: string): Record<string, string> {
    const url = fqdn.trim() ? \`\${sslEnabled ? 'https' : 'http'}://\${fqdn.trim()}\` : \`http://localhost:\${this.applicationPort()}\`;
    return { PUBLIC_URL: url };
  }

  /** EC2 installation, in the user-data order (update, install, agent, mount, configure, unit, start). */
  public configureUserData(builder: IUserDataBuilder, context: Ec2Context): void {
    builder.addSystemUpdate();
    builder.addCommands('fw_pkg install -y python3');
    builder.installCloudWatchAgent(context.logGroupName, this.ec2LogPaths());
    const { uid, gid } = PosixUser.parse(this.containerUser());
    builder.mountDataVolume(context, this.ebsDeviceName(), this.ec2DataPath(), uid, gid);
    // The application runs as context.serviceUser, the account the framework made for it with containerUser()'s ids
    // (never root, never the sudoer ec2-user), in systemd's sandbox.
    const logDir = '/var/log/${applicationId}';
    builder.addCommands(\`install -d -m 0750 -o \${uid} -g \${gid} \${logDir}\`);
    builder.writeFiles({
      '/etc/systemd/system/${applicationId}.service': [
        '[Unit]',
        'Description=${applicationId}',
        'After=network-online.target',
        '[Service]',
        ...ServiceHardening.systemdLines(context.serviceUser, [this.ec2DataPath(), logDir]),
        \`ExecStart=/usr/bin/python3 -m http.server \${this.applicationPort()} --directory \${this.ec2DataPath()}\`,
        \`StandardOutput=append:\${this.ec2LogPaths()[0]}\`,
        'StandardError=inherit',
        'Restart=on-failure',
        '[Install]',
        'WantedBy=multi-user.target',
        '',
      ].join('\\n'),
    });
    builder.addCommands('systemctl daemon-reload', 'systemctl enable --now ${applicationId}', 'fw_require_active ${applicationId} 10');
  }
}
`;
}

/**
 * The scaffold's test kinds by their titles: the three every plugin has, and a fourth, PRODUCTION's compliance check, run once
 * per runtime (`%s`). The generated test file, the template's own tests, the end-to-end test and the docs read them here.
 */
export const SCAFFOLD_TEST_KINDS = {
  a: '(a) metadata accessors return the declared values',
  b: '(b) with an fqdn, sslEnabled true and auth mode none, the public address is https://<fqdn>',
  c: '(c) for each runtime, a fresh stack with the factory synthesises',
  d: '(d) on %s, PRODUCTION passes the four compliance packs',
} as const;

/** The runtimes the fourth kind runs on, in order. */
const SCAFFOLD_RUNTIMES = ['FARGATE', 'EC2'] as const;

/** Every test jest reports for a generated plugin, by title: what `npx projen test` passes. */
export const SCAFFOLD_TEST_TITLES: readonly string[] = [
  SCAFFOLD_TEST_KINDS.a, SCAFFOLD_TEST_KINDS.b, SCAFFOLD_TEST_KINDS.c,
  ...SCAFFOLD_RUNTIMES.map((runtime) => SCAFFOLD_TEST_KINDS.d.replace('%s', runtime)),
];

/** The three test kinds, and a fourth: PRODUCTION's compliance check. */
export function testSource(className: string, applicationId: string): string {
  return `import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, AuthMode, DeploymentApp, RuntimeType } from '@fw/core';
import { ${className} } from '../src';

describe('${className}', () => {
  const spec = new ${className}();

  test('${SCAFFOLD_TEST_KINDS.a}', () => {
    expect(spec.applicationId()).toBe('${applicationId}');
    expect(spec.applicationPort()).toBe(8080);
    expect(spec.containerUser()).toMatch(/^\\d+:\\d+$/);
    expect(spec.efsPermissions()).toMatch(/^[0-7]{3,4}$/);
    expect(spec.healthCheckPath().startsWith('/')).toBe(true);
  });

  test('${SCAFFOLD_TEST_KINDS.b}', () => {
    const url = spec.containerEnvironmentVariables('app.example.com', true, AuthMode.NONE).PUBLIC_URL;
    expect(url.startsWith('https://')).toBe(true);
    expect(url.endsWith('app.example.com')).toBe(true);
  });

  test('${SCAFFOLD_TEST_KINDS.c}', () => {
    for (const runtime of [RuntimeType.FARGATE, RuntimeType.EC2]) {
      const app = new App();
      new ApplicationFactory(new Stack(app, 'Test'), 'App', runtime, new ${className}());
      expect(() => app.synth()).not.toThrow();
    }
  });

  // What a PRODUCTION deployment needs, as the context keys of the README's "Deploying" example: a region, TLS (a
  // domain and its hosted zone), an address for the alarms, your application's role toward the cardholder data
  // environment, for a Docker Hub image the credential of the ECR pull-through cache the tasks pull it through, and
  // each image's digest, and on EC2 the Amazon Linux 2023 image the instances run (placeholders: use your credential's
  // ARN, your image's digest from \`docker buildx imagetools inspect\` and your region's image id). The framework refuses some mistakes itself, naming them (a secret in
  // containerEnvironmentVariables()); synth then runs the four compliance packs (AWS Solutions, PCI DSS v4.0.1 (the
  // framework's PciDss401Checks), NIST 800-53 R5, HIPAA), and a finding the framework does not acknowledge fails it,
  // naming the rule and the resource.
  const production = ${productionContextLiteral(applicationId).replace(/\n/g, '\n  ')};

  test.each([${SCAFFOLD_RUNTIMES.map((r) => `RuntimeType.${r}`).join(', ')}])('${SCAFFOLD_TEST_KINDS.d}', (runtime) => {
    // As \`npx fw-deploy\` reads the README's cdk.json, with \`-c runtimeType=...\` for each runtime.
    const app = new App({ context: { ...production, runtimeType: runtime } });
    DeploymentApp.addToWithPlugins(app, [new ${className}()]);
    expect(() => app.synth()).not.toThrow();
  });
});
`;
}
