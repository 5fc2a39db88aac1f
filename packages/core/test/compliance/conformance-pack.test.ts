import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { RuntimeType, SecurityProfile } from '../../src';
import { CONFORMANCE_PACK_TEMPLATE_MAX } from '../../src/compliance/pci-conformance-pack';
import { PCI_DSS_MAPPING } from '../../src/compliance/pci-dss-401/mapping';
import { CONTEXT_KEYS } from '../../src/context/context-keys';
import { synth } from '../support/synth';

describe('pciConformancePack', () => {
  const { stack, template } = synth(RuntimeType.FARGATE, { securityProfile: SecurityProfile.DEV, pciConformancePack: true });

  test('deploys AWS\'s PCI DSS 4.0 conformance pack, every rule of the mapping, within AWS Config\'s template limit', () => {
    const [pack] = Object.values(template.findResources('AWS::Config::ConformancePack')) as any[];
    // botocore 1.44.8 config model: ConformancePackName matches [a-zA-Z][-a-zA-Z0-9]*, at most 256 characters.
    expect(pack.Properties.ConformancePackName).toBe('fw-pci-dss-4-WikiStack');
    const body: string = pack.Properties.TemplateBody;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(CONFORMANCE_PACK_TEMPLATE_MAX);
    const rules = Object.values(JSON.parse(body).Resources) as any[];
    expect(rules.map((r) => r.Properties.ConfigRuleName).sort()).toEqual(PCI_DSS_MAPPING.rules.map((r) => r.configRule).sort());
    expect(rules.find((r) => r.Properties.ConfigRuleName === 'cw-loggroup-retention-period-check').Properties)
      .toEqual({ ConfigRuleName: 'cw-loggroup-retention-period-check', Source: { Owner: 'AWS', SourceIdentifier: 'CW_LOGGROUP_RETENTION_PERIOD_CHECK' }, Scope: { ComplianceResourceTypes: ['AWS::Logs::LogGroup'] } });
  });

  test('warns, at synth, of its prerequisite: a configuration recorder in the account and region', () => {
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('configuration recorder recording in this account and region.*NoAvailableConfigurationRecorderException'));
  });

  test('is off unless set, and takes true or false only', () => {
    const key = CONTEXT_KEYS.find((k) => k.name === 'pciConformancePack')!;
    expect([key.required, key.parse('true'), key.parse(false), key.parse('yes')]).toEqual([false, { value: true }, { value: false }, { allowed: 'true or false' }]);
    expect(Template.fromJSON(synth(RuntimeType.FARGATE, { securityProfile: SecurityProfile.DEV }).json).findResources('AWS::Config::ConformancePack')).toEqual({});
  });
});
