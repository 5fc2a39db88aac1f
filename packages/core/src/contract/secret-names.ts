// Apart from the PCI rule that reads it, so that checking a plugin's environment never loads cdk-nag (DEV does not).

/**
 * Endings of a variable's name that say it holds a secret itself (`DB_PASSWORD`, `GITHUB_TOKEN`), not a reference to
 * one (`PASSWORD_FILE`, `CLIENT_SECRET_ARN`). Secrets reach a container only as references: container secrets read from
 * Secrets Manager at start, or a file or ARN the application reads.
 */
export const SECRET_NAME_ENDINGS = [
  'PASSWORD', 'PASSWD', 'SECRET', 'TOKEN', 'API_KEY', 'APIKEY', 'PRIVATE_KEY', 'ACCESS_KEY', 'SECRET_KEY', 'CREDENTIAL', 'CREDENTIALS',
];

/** The names in `environment` whose ending says they hold a secret (case-insensitive), in order. */
export function secretNames(environment: Record<string, string> | undefined): string[] {
  return Object.keys(environment ?? {}).filter((name) =>
    SECRET_NAME_ENDINGS.some((ending) => name.toUpperCase().endsWith(ending)));
}
