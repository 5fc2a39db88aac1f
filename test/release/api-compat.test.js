// The release's API check reports a member added to IApplicationSpec as the minor change of the plugin contract it is
// (jsii-diff takes it as compatible), and refuses it unless the contract version moved.
const assert = require('node:assert');
const test = require('node:test');
const { contractProblem } = require('../../scripts/api-compat');

const assembly = (...methods) => ({ types: { '@fw/core.IApplicationSpec': { methods: methods.map((name) => ({ name })) } } });

test('a member added without a newer contract version is refused, naming it', () => {
  assert.match(contractProblem(assembly('applicationId'), assembly('applicationId', 'newMember'), '1.0', '1.0'),
    /newMember added to IApplicationSpec, but the plugin contract stays 1\.0: bump PLUGIN_CONTRACT_VERSION/);
});

test('negative controls: with the contract bumped, or nothing added, it passes', () => {
  assert.strictEqual(contractProblem(assembly('applicationId'), assembly('applicationId', 'newMember'), '1.0', '1.1'), undefined);
  assert.strictEqual(contractProblem(assembly('applicationId'), assembly('applicationId'), '1.0', '1.0'), undefined);
});
