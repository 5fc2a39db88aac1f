import { derivedScope, derivedScopeStatement } from '../../src/compliance/derived-scope';
import { PciDssScope } from '../../src/contract/pci-dss-scope';

// A platform that publishes one SSM parameter, and the applications that read it (as platform-parameters.ts writes and
// an attached application's template reads it), with the scopes their deployments state.
const PLATFORM = { Resources: { Published: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/fw/p/vpc-id', Value: 'vpc-1' } } } };
const reader = { Parameters: { Vpc: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/fw/p/vpc-id' } }, Resources: {} };
const app = (stack: string, scope: PciDssScope | 'not stated') => ({ stack, template: reader, scope });

test('a platform takes the widest scope of the applications that run on it in the assembly, naming them (the review\'s R13)', () => {
  const assembly = [{ stack: 'p', template: PLATFORM, scope: 'not stated' as const },
    app('ci', PciDssScope.CONNECTED), app('shop', PciDssScope.CDE), app('wiki', PciDssScope.OUT_OF_SCOPE), app('pay', PciDssScope.CDE)];
  expect(derivedScope('p', assembly)).toEqual({ scope: PciDssScope.CDE, from: ['shop', 'pay'] });
  expect(derivedScope('p', assembly.filter((s) => s.scope !== PciDssScope.CDE))).toEqual({ scope: PciDssScope.CONNECTED, from: ['ci'] });
  expect(derivedScopeStatement({ scope: PciDssScope.CDE, from: ['shop'] }))
    .toMatch(/^Not stated here; derived as CDE from what runs on this stack in the same cloud assembly: shop states CDE and uses /);
});

test('a stack that states its scope, or that nothing stated runs on, derives none', () => {
  expect(derivedScope('shop', [{ stack: 'p', template: PLATFORM, scope: 'not stated' }, app('shop', PciDssScope.CDE)])).toBeUndefined();
  expect(derivedScope('p', [{ stack: 'p', template: PLATFORM, scope: 'not stated' }, app('x', 'not stated')])).toBeUndefined();
  expect(derivedScope('p', [{ stack: 'p', template: PLATFORM }, { stack: 'other', template: { Resources: {} }, scope: PciDssScope.CDE }])).toBeUndefined();
});
