// The network (PCI DSS 1.2.3) and data-flow (1.2.4) diagrams the main job leaves beside its evidence reports: the test
// command runs `cd examples/build-server && npx cdk synth` just before this file (FARGATE into cdk.out, EC2 into
// cdk.out/ec2). The drawing is checked against the templates' security-group rules, and in Debian's Chromium.
const assert = require('node:assert');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { browserCheck, flowsMatchRules, readSvg } = require('./diagram-checks');

const cdkOut = path.join(__dirname, '..', '..', 'examples', 'build-server', 'cdk.out');
const RUNTIMES = { FARGATE: cdkOut, EC2: path.join(cdkOut, 'ec2') };
const read = (dir, file) => fs.readFileSync(path.join(dir, file), 'utf-8');
const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');
const FILES = ['build-server.network.svg', 'build-server.network.dot', 'build-server.data-flow.svg', 'build-server.data-flow.dot'];

for (const [runtime, dir] of Object.entries(RUNTIMES)) {
  test(`${runtime}: both diagrams, each SVG with its Graphviz source, cited by SHA-256 in the report and the OSCAL document`, () => {
    const report = JSON.parse(read(dir, 'build-server.pci-dss-4.0.1.json'));
    const markdown = read(dir, 'build-server.pci-dss-4.0.1.md');
    const oscal = JSON.parse(read(dir, 'build-server.pci-dss-4.0.1.oscal.json'));
    assert.deepStrictEqual(report.diagrams.map((d) => d.file), FILES);
    assert.deepStrictEqual(report.diagrams.map((d) => d.requirement), ['1.2.3', '1.2.3', '1.2.4', '1.2.4']);
    for (const file of FILES) {
      const hash = sha256(read(dir, file));
      assert.strictEqual(report.diagrams.find((d) => d.file === file).sha256, hash, file);
      assert.ok(markdown.includes(`\`${file}\` (SHA-256 ${hash})`), `the Markdown report cites ${file} by its hash`);
      const cited = oscal['assessment-results']['back-matter'].resources.find((r) => r.rlinks?.[0].href === file);
      assert.strictEqual(cited?.rlinks[0].hashes[0].value, hash, `the OSCAL document cites ${file} by its hash`);
    }
    assert.match(read(dir, 'build-server.network.svg'), /^<\?xml[^]*<svg [^]*<\/svg>\s*$/);
  });

  test(`${runtime}: both diagrams draw the identity provider, the administrators' path, DNS, the image registry path and the alarm recipients, ` +
    'and are stamped with the source revision and the template\'s SHA-256', () => {
    const report = JSON.parse(read(dir, 'build-server.pci-dss-4.0.1.json'));
    for (const kind of ['network', 'data-flow']) {
      const dot = read(dir, `build-server.${kind}.dot`);
      assert.match(dot, /^  idp0 \[label="Identity provider\\nhttps:\/\/login\.example\.com"/m, kind);
      assert.match(dot, /^  \w+ -> idp0 \[class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="the application signs users in \(OIDC back channel\)"\];$/m, kind);
      // PRODUCTION gives no shell (sessionManager off): administrators use the application's interface, as users.
      assert.match(dot, /^  administrators -> \w+ \[class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="the application's interface, signed in as users"\];$/m, kind);
      assert.doesNotMatch(dot, /label="shell: /, kind);
      assert.match(dot, /^  dns0 \[label="DNS \(Route 53\): ci\.example\.com"/m, kind);
      assert.match(dot, /^  \w+ -> registry0 \[class="structure", style=dashed, color="#1967d2", fontcolor="#1967d2", label="pulls its images"\];$/m, kind);
      assert.match(dot, /^  upstream0 \[label="Upstream registry\\nregistry-1\.docker\.io"/m, kind);
      assert.match(dot, /^  recipient0 \[label="Alarm recipient\\nemail security@example\.com"/m, kind);
      assert.match(dot, /^  alarms -> recipient0 /m, kind);
      // What AWS delivers on the services' side: the load balancer's access logs, the web ACL's and the VPC's logs.
      assert.match(dot, /^  deliveries \[label="Delivered by AWS on the services' side\\nload balancer access logs to S3\\nweb ACL logs to CloudWatch Logs\\nVPC flow logs to CloudWatch Logs/m, kind);
      // The path into the CDE the pipeline library opens from an agent: declared by the build server, drawn red.
      assert.match(dot, /^  \w*[Ww]orker\w* -> declared0 \[class="structure", style=dashed, color="#c5221f", fontcolor="#c5221f", label="a build assumes the role and reads the key onto its agent"\];$/m, kind);
      const stamp = /<g id="stamp" class="stamp">([^]*?)<\/g>/.exec(read(dir, `build-server.${kind}.svg`))[1];
      assert.ok(stamp.includes(`from source revision ${report.system.sourceRevision}, and the templates:`), stamp);
      assert.ok(stamp.includes(`build-server: SHA-256 ${report.system.templateSha256}`), stamp);
    }
  });

  test(`${runtime}: every security-group rule between two drawn nodes is a flow, and every flow is a rule`, () => {
    const result = flowsMatchRules(read(dir, 'build-server.data-flow.svg'), dir);
    assert.deepStrictEqual(result.problems, []);
    console.log(`${runtime}: ${result.rules} rules, ${result.flows} flows, ${result.nodes} nodes compared`);
    assert.ok(result.rules >= 10 && result.flows >= 6, JSON.stringify(result));
  });
}

test('the check of flows against rules fails on a rule removed from the template and on a flow removed from the drawing', () => {
  const svg = read(cdkOut, 'build-server.data-flow.svg');
  const template = JSON.parse(read(cdkOut, 'build-server.template.json'));
  // The rule that lets the load balancer reach the application, a resource of its own: removed from a copy.
  const [ruleId] = Object.entries(template.Resources).find(([, r]) => r.Type === 'AWS::EC2::SecurityGroupIngress' && r.Properties.FromPort === 8080 &&
    /LoadBalancer/.test(JSON.stringify(r.Properties.SourceSecurityGroupId)));
  const { [ruleId]: _, ...rest } = template.Resources;
  const withoutRule = flowsMatchRules(svg, cdkOut, new Map([['build-server', { ...template, Resources: rest }]]));
  assert.ok(withoutRule.problems.some((p) => p.includes(`cites build-server/${ruleId}, which no template has`)), withoutRule.problems.join('\n'));
  // The flow from the load balancer to the application, removed from a copy of the drawing.
  const flow = readSvg(svg).flows.find((f) => f.rules.includes(`build-server/${ruleId}`));
  const withoutFlow = svg.replace(new RegExp(`<g id="${flow.id}" class="edge flow">[^]*?(?=<g id="[^"]*" class="(?:node|edge))`), '');
  assert.notStrictEqual(withoutFlow, svg);
  const missing = flowsMatchRules(withoutFlow, cdkOut);
  assert.ok(missing.problems.some((p) => p.startsWith(`rule build-server/${ruleId} (tcp 8080) connects`) && p.endsWith('and no flow does')), missing.problems.join('\n'));
});

// Chromium runs in the test's own throwaway profile; each check renders the page twice (measure, then screenshot).
const MUST_SHOW = ['ci.example.com', 'Load balancer (internet-facing)', 'EFS file system', 'Internet (clients)'];

for (const kind of ['network', 'data-flow']) {
  test(`in Chromium, the ${kind} diagram draws the host name, the internet-facing load balancer and the file system, and nothing overlaps`, () => {
    const result = browserCheck(read(cdkOut, `build-server.${kind}.svg`), MUST_SHOW);
    console.log(`${kind}: ${result.nodes} nodes, a ${result.image.width}x${result.image.height} screenshot`);
    assert.deepStrictEqual({ missing: result.missing, notDrawn: result.notDrawn, overflows: result.overflows, collisions: result.collisions },
      { missing: [], notDrawn: [], overflows: [], collisions: [] });
  });
}

test('the browser check fails on a name left out, a name drawn white, a text too long for its box and a node moved onto another', () => {
  let svg = read(cdkOut, 'build-server.network.svg');
  // Where a node's first line of text is (rounded boxes are paths, so their text is the surest point).
  const point = (id) => /<text[^>]* x="(-?[\d.]+)" y="(-?[\d.]+)"/.exec(svg.slice(svg.indexOf(`<g id="${id}" class="node`))).slice(1).map(Number);
  const nodes = [...readSvg(svg).nodes.keys()];
  const [lb, internet] = [nodes.find((n) => /LoadBalancer/.test(n)), 'internet'];
  const [dx, dy] = [point(lb)[0] - point(internet)[0] + 10, point(lb)[1] - point(internet)[1] + 10];
  // The host name leaves every text that holds it: the application's node and the DNS record's.
  svg = svg.replace(/>([^<]*)ci\.example\.com</g, '>$1<')
    .replace(/(<text[^>]*)(>EFS file system<)/, '$1 fill="white"$2')
    .replace('>Internet gateway<', '>Internet gateway, with a name far longer than Graphviz measured for it<')
    .replace(`<g id="${internet}" class="node node&#45;internet">`, `<g id="${internet}" class="node node&#45;internet" transform="translate(${dx},${dy})">`);
  const result = browserCheck(svg, MUST_SHOW);
  assert.deepStrictEqual(result.missing, ['ci.example.com']);
  assert.deepStrictEqual(result.notDrawn, ['EFS file system']);
  assert.ok(result.overflows.some((o) => o.startsWith('"Internet gateway, with a name far longer')), result.overflows.join('\n'));
  assert.ok(result.collisions.some((c) => c.includes(lb) && c.includes(internet)), result.collisions.join('\n'));
});

test('docs/pci-dss.md shows the data-flow diagram the main job draws today', () => {
  const shown = path.join(__dirname, '..', '..', 'docs', 'images', 'build-server.data-flow.svg');
  // The stamp names the revision and the moment it was drawn, which a copy committed with the docs cannot match.
  const drawing = (svg) => svg.replace(/<g id="stamp" class="stamp">[^]*?<\/g>/, '');
  assert.strictEqual(drawing(fs.readFileSync(shown, 'utf-8')), drawing(read(cdkOut, 'build-server.data-flow.svg')),
    'docs/images/build-server.data-flow.svg differs from the main job\'s: copy examples/build-server/cdk.out/build-server.data-flow.svg over it');
});
