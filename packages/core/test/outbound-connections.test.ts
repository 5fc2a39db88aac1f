import { ConnectionSource, JenkinsSpec } from '../src';
import { deploymentGraph } from '../src/compliance/diagrams/deployment-graph';
import { dataFlowDot } from '../src/compliance/diagrams/dot';
import { renderMarkdown } from '../src/compliance/evidence-markdown';
import { ApplicationSpec } from '../src/contract/application-spec';
import { specProblems } from '../src/contract/spec-validation';

// Contract 1.1's outboundConnections() and defaultCredentials(): what no template shows, declared by the plugin, checked
// as data, drawn in both diagrams and listed in the report. The main job's are checked in test/examples.

class Declaring extends JenkinsSpec {
  constructor(private readonly connections: unknown, private readonly credentials: unknown = []) { super(); }
  public outboundConnections(): any { return this.connections; }
  public defaultCredentials(): any { return this.credentials; }
}

test('the build server declares the payment-gateway key\'s path from its agents, which may carry account data, and SonarQube when configured', () => {
  expect(new JenkinsSpec().outboundConnections()).toEqual([expect.objectContaining({
    name: 'Payment-gateway key (withPaymentGatewayKey)', from: ConnectionSource.WORKERS, carriesAccountData: true,
  })]);
  const withSonar = new JenkinsSpec().withSettings({
    sonarQubeUrl: 'https://sonar.example.com',
    sonarQubeTokenSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:t-AbCdEf',
    sonarQubeWebhookSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:w-AbCdEf',
  });
  expect(withSonar.outboundConnections().map((c) => [c.name, c.destination])).toContainEqual(['SonarQube', 'sonar.example.com']);
  expect([ApplicationSpec.prototype.outboundConnections(), ApplicationSpec.prototype.defaultCredentials()]).toEqual([[], []]);
});

test('each declared field is one line of text, the source one of ConnectionSource; a reference or a token is refused, a password never asked', () => {
  const bad = new Declaring([{ name: '', destination: 'a\nb', purpose: '{{resolve:ssm:/x}}', from: 'controller', carriesAccountData: 'yes' }],
    [{ account: 'admin', change: '' }]);
  expect(specProblems(bad, 'P')).toEqual(expect.arrayContaining([
    'P.outboundConnections()[0].name ""; allowed: one line of 1 to 120 characters.',
    'P.outboundConnections()[0].destination "a\\nb"; allowed: one line of 1 to 120 characters.',
    'P.outboundConnections()[0].from "controller"; allowed: application, workers (ConnectionSource).',
    'P.outboundConnections()[0].carriesAccountData "yes"; allowed: true or false.',
    'P.defaultCredentials()[0].change ""; allowed: one line of 1 to 120 characters.',
  ]));
  expect(specProblems(bad, 'P').some((p) => p.startsWith('P.outboundConnections()[0].purpose') && /CloudFormation dynamic reference/.test(p))).toBe(true);
  expect(specProblems(new Declaring(Array.from({ length: 21 }, () => ({ name: 'a', destination: 'b', purpose: 'c' }))), 'P'))
    .toContain('P.outboundConnections() lists 21 connections; allowed: at most 20.');
});

test('a declared connection is drawn from the node that opens it, red where it may carry account data; the report lists it and the default accounts first', () => {
  const group = (description: string) => ({ Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: description } });
  const template = {
    Resources: {
      AppGroup: group('Application'),
      Service: { Type: 'AWS::ECS::Service', Properties: { NetworkConfiguration: { AwsvpcConfiguration: { SecurityGroups: [{ 'Fn::GetAtt': ['AppGroup', 'GroupId'] }] } } } },
      Workers: group('Ephemeral workers: nothing inbound'),
    },
  };
  const connections = new JenkinsSpec().outboundConnections();
  const graph = deploymentGraph([{ stack: 'ci', template, connections }]);
  expect(graph.network.declaredConnections.map((c) => c.node)).toEqual(['ci_Workers']);
  expect(dataFlowDot(graph, 'ci')).toContain('ci_Workers -> declared0 [class="structure", style=dashed, color="#c5221f", fontcolor="#c5221f", ' +
    'label="a build assumes the role and reads the key onto its agent"];');
  const report = { defaultCredentials: [{ account: 'admin', change: 'My Account | Security' }], outboundConnections: connections };
  const markdown = renderMarkdown(minimalReport(report));
  expect(markdown).toContain('**Change first (2.2.2).** The image starts with these accounts at its vendor\'s published password, which the ' +
    'framework can neither see nor change: `admin` (My Account \\| Security).');
  expect(markdown).toContain('Payment-gateway key (withPaymentGatewayKey) (AWS STS and Secrets Manager: the role and secret a pipeline names, ' +
    'from the workers, may carry account data or keys that protect it): a build assumes the role and reads the key onto its agent');
});

/** A report with nothing but the two lists, as renderMarkdown reads one. */
function minimalReport(lists: object): any {
  return {
    standard: 'PCI DSS v4.0.1',
    stack: 'ci',
    notice: '',
    mapping: { file: 'f', repository: 'r', commit: 'c', requirementsFrom: 'x' },
    requirements: [],
    knownVulnerabilities: [],
    deviations: [],
    acknowledgements: [],
    principals: [],
    afterDeployment: { configConformancePack: '', securityHubStandard: '' },
    scope: { stated: 'not stated', statement: '', multiTenantProvider: 'not stated' },
    system: {
      stack: 'ci',
      account: 'a',
      region: 'r',
      templateFile: 't',
      templateSha256: 'x',
      versions: { framework: '0', cdkNag: '0', awsCdkLib: '0' },
      generatedAt: 'now',
      sourceRevision: 'not stated',
    },
    ...lists,
  };
}
