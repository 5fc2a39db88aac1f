import { RESPONSIBILITY, responsibilityOf } from '../../src/compliance/responsibility';

// Who answers for a principal requirement follows the stack: requirement 8 says only what the application's authMode
// puts in the template (src/compliance/responsibility.ts). The quality gate's SonarQube report is read in
// test/examples/quality-gate.test.js.

test('nobody signs in (authMode none): requirement 8 claims no identity provider and names the default administrator', () => {
  const eight = responsibilityOf('8', { signIn: 'nobody' });
  expect(`${eight.framework} ${eight.others ?? ''}`).not.toMatch(/identity provider|OIDC/);
  expect(eight.customer).toMatch(/default administrator changed before it serves anyone/);
  expect(responsibilityOf('7', { signIn: 'nobody' }).others).toBeUndefined();
});

test.each([['load-balancer', /^The load balancer signs every user in/], ['application', /^The application signs users in through your identity provider/]] as const)(
  '%s: requirement 8 says who signs in, with the identity provider\'s part', (signIn, framework) => {
    const eight = responsibilityOf('8', { signIn });
    expect(eight.framework).toMatch(framework);
    expect(eight.others).toMatch(/^The identity provider/);
  });

test('no claim the template cannot show, in any stack: no default passwords, least privilege, HTTPS between applications', () => {
  const texts = Object.keys(RESPONSIBILITY).flatMap((q) => (['nobody', 'application', 'load-balancer', undefined] as const)
    .map((signIn) => responsibilityOf(q, { signIn }).framework));
  for (const claim of [/no default passwords/, /least-privilege/, /HTTPS between applications/]) expect(texts.filter((t) => claim.test(t))).toEqual([]);
});
