import { PLUGIN_CONTRACT_VERSION } from './plugin-contract-version';

/**
 * Each member of `IApplicationSpec` and the plugin contract version it arrived in: the contract's minor rule as data
 * (docs/writing-a-plugin.md, "Upgrading"). A member added in a later minor of a major is dated with it, has its default
 * in `ApplicationSpec`, and is never required of a plugin (one built before it implements it not); adding one bumps
 * `PLUGIN_CONTRACT_VERSION` (test/contract-members.test.ts, and the release's API check, scripts/api-compat.js).
 */
export const APPLICATION_SPEC_MEMBERS_SINCE: Readonly<Record<string, string>> = Object.fromEntries([
  'applicationId', 'defaultContainerImage', 'applicationPort', 'containerDataPath', 'efsDataPath', 'volumeName',
  'containerUser', 'efsPermissions', 'ebsDeviceName', 'ec2DataPath', 'ec2LogPaths', 'configureUserData',
  'healthCheckPath', 'containerEnvironmentVariables', 'containerInitialization', 'logAlarms', 'supportedAuthModes',
  'ephemeralWorkers', 'egressRules', 'secrets', 'defaultSize', 'settings', 'withSettings', 'requestBodyLimits',
  'blockedRequests', 'knownVulnerabilities', 'softwareComponents', 'complianceControls', 'database',
  'supportsOidcIntegration', 'oidcIntegration',
].map((member) => [member, '1.0']).concat([
  // Images that need arguments, answer their health check on another port, or keep no data (issue 63).
  ['healthCheckPort', '1.1'], ['containerCommand', '1.1'], ['keepsData', '1.1'],
  // What the evidence draws and lists that no template shows (issue 67).
  ['outboundConnections', '1.1'], ['defaultCredentials', '1.1'],
]));

/** The first version of the contract's major: its members are what every plugin of the major implements. */
const MAJOR_BASE = `${PLUGIN_CONTRACT_VERSION.split('.')[0]}.0`;

/** The members every plugin must have, checked by the registry on each class it loads: those of its major's first version. */
export const APPLICATION_SPEC_MEMBERS: readonly string[] = Object.entries(APPLICATION_SPEC_MEMBERS_SINCE)
  .filter(([, since]) => since === MAJOR_BASE).map(([member]) => member);
