import { assertNotExpandedByCasc } from './casc-variable';
import { SECRET_ARN } from '../context/key-parsers';
import type { PluginSetting } from '../contract/plugin-setting';
import { UserError } from '../errors';

/** The SonarQube server the pipelines' analyses and quality gate use. */
export interface SonarQubeServer {
  /** The server's address, for example https://sonarqube.example.com (HTTPS: the token travels with every call). */
  readonly serverUrl: string;
  /** ARN of the Secrets Manager secret holding a SonarQube token (text) that may run analyses. */
  readonly tokenSecretArn: string;
  /** ARN of the Secrets Manager secret holding the secret SonarQube signs its webhook with (text). */
  readonly webhookSecretArn: string;
}

/**
 * The names the example Jenkinsfile (jenkins/examples/Jenkinsfile) uses: `withSonarQubeEnv('sonarqube')` finds the installation by exact name
 * (sonar 2.18.2 SonarInstallation.java lines 152-163), `qualityGate(webhookSecretId: 'sonar-webhook-secret')` the
 * credential.
 */
export const SONARQUBE = {
  installation: 'sonarqube',
  tokenCredential: 'sonar-token',
  webhookCredential: 'sonar-webhook-secret',
  tokenVariable: 'SONAR_TOKEN',
  webhookVariable: 'SONAR_WEBHOOK_SECRET',
} as const;

/** Fails, naming the value, unless the server's address is an HTTPS URL. */
export function assertValidSonarQube(server: SonarQubeServer): void {
  if (!/^https:\/\/[^\s/]+(\/\S*)?$/.test(server.serverUrl ?? '')) {
    throw new UserError(`JenkinsSpec: sonarQube.serverUrl ${JSON.stringify(server.serverUrl)} is not an HTTPS URL ` +
      '(for example https://sonarqube.example.com): the token travels with every call to it.');
  }
}

/** The secrets the controller reads: variable name -> Secrets Manager ARN. */
export function sonarQubeSecrets(server: SonarQubeServer): Record<string, string> {
  return { [SONARQUBE.tokenVariable]: server.tokenSecretArn, [SONARQUBE.webhookVariable]: server.webhookSecretArn };
}

/** The `pluginSettings` that set the SonarQube server by configuration: all three, or none. */
export const SONARQUBE_SETTINGS = {
  serverUrl: 'sonarQubeUrl',
  tokenSecretArn: 'sonarQubeTokenSecretArn',
  webhookSecretArn: 'sonarQubeWebhookSecretArn',
} as const satisfies Record<keyof SonarQubeServer, string>;

const SECRET_ARN_ALLOWED = 'a Secrets Manager secret\'s complete ARN, for example arn:aws:secretsmanager:eu-west-1:123456789012:secret:sonar-token-AbCdEf';

/** The declarations of `SONARQUBE_SETTINGS`, each optional: the build server runs without SonarQube too. */
export function sonarQubeSettings(): PluginSetting[] {
  const arn = SECRET_ARN.source.replace(/^\^|\$$/g, '');
  return [
    {
      name: SONARQUBE_SETTINGS.serverUrl,
      description: 'the SonarQube server\'s HTTPS address, for the pipelines\' analyses and quality gate',
      pattern: 'https://[^\\s/]+(/\\S*)?',
      allowed: 'an HTTPS URL, for example https://sonarqube.example.com',
      optional: true,
    },
    // Sensitive: a token pasted where its ARN belongs is never echoed in a refusal.
    { name: SONARQUBE_SETTINGS.tokenSecretArn, description: 'the secret holding a SonarQube token that may run analyses (text)', pattern: arn, allowed: SECRET_ARN_ALLOWED, optional: true, sensitive: true },
    { name: SONARQUBE_SETTINGS.webhookSecretArn, description: 'the secret SonarQube signs its webhook with (text)', pattern: arn, allowed: SECRET_ARN_ALLOWED, optional: true, sensitive: true },
  ];
}

/** The server the settings describe, none when none is given; some but not all is refused, naming what is missing. */
export function sonarQubeFromSettings(values: Record<string, string>): SonarQubeServer | undefined {
  const names = Object.values(SONARQUBE_SETTINGS);
  const given = names.filter((name) => values[name] !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < names.length) {
    throw new UserError(`JenkinsSpec: pluginSettings gives ${given.join(', ')} but not ${names.filter((n) => !given.includes(n)).join(', ')}; ` +
      'SonarQube needs all three (its address, the token\'s secret and the webhook secret), or none.');
  }
  assertNotExpandedByCasc({ [SONARQUBE_SETTINGS.serverUrl]: values[SONARQUBE_SETTINGS.serverUrl] }, 'JenkinsSpec: pluginSettings');
  return {
    serverUrl: values[SONARQUBE_SETTINGS.serverUrl],
    tokenSecretArn: values[SONARQUBE_SETTINGS.tokenSecretArn],
    webhookSecretArn: values[SONARQUBE_SETTINGS.webhookSecretArn],
  };
}
