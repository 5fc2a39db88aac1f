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
