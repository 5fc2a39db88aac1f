// Checks of the network and data-flow diagrams a synth leaves beside each evidence report, made without the code that
// drew them: the drawing is read from the SVG, the rules from the templates, and the picture from a real browser.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const unescapeXml = (s) => s.replace(/&#45;/g, '-').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&quot;/g, '"')
  .replace(/&#39;/g, '\'').replace(/&amp;/g, '&');

/**
 * What an SVG draws: its nodes (each with the security groups or address ranges its tooltip says it stands for), its
 * flows (each with the rules its tooltip cites and its label's lines), and the stacks its title says it is drawn from.
 * Graphviz writes every node, edge and cluster as a sibling `<g id=… class=…>`: each runs to the next.
 */
function readSvg(svg) {
  const nodes = new Map();
  const flows = [];
  for (const part of svg.split(/(?=<g id="[^"]*" class="(?:node|edge|cluster)[^"]*">)/)) {
    const head = /^<g id="([^"]*)" class="([^"]*)">\n<title>([^<]*)<\/title>/.exec(part);
    if (!head) continue;
    const [, id, cls, title] = head.map(unescapeXml);
    const tooltip = unescapeXml(/xlink:title="([^"]*)"/.exec(part)?.[1] ?? '');
    const texts = [...part.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescapeXml(m[1]));
    if (cls.startsWith('node') && !cls.includes('legend')) {
      nodes.set(id, { id, kind: cls.split(' ').find((c) => c.startsWith('node-')), stands: tooltip.replace(/^security groups: /, '').split(' '), texts });
    } else if (cls.includes('flow')) {
      const [from, to] = title.split('->');
      flows.push({ id, from, to, rules: tooltip.replace(/^rules: /, '').split(' ').filter(Boolean), texts });
    }
  }
  const stacks = unescapeXml(/templates of ([^<]+)<\/text>/.exec(svg)?.[1] ?? '').split(', ').filter(Boolean);
  return { nodes, flows, stacks };
}

/** A rule's ports as the diagrams label them: `tcp 443`, `tcp 8080-8081`, `all traffic`. */
function ports(r) {
  if (String(r.IpProtocol) === '-1') return 'all traffic';
  if (r.IpProtocol === 'icmp') return 'icmp';
  return r.FromPort === r.ToPort ? `${r.IpProtocol} ${r.FromPort}` : `${r.IpProtocol} ${r.FromPort}-${r.ToPort}`;
}

/**
 * Every security-group rule in the named stacks' templates (inline or a resource of its own, CDK's no-traffic
 * placeholder aside), with the group and the peer it connects: a group in the same stack, one another stack publishes
 * as an SSM parameter the template reads (`ssm:<name>` when none does), or an address range.
 */
function templateRules(templates) {
  const published = new Map();
  for (const [stack, t] of templates) {
    for (const r of Object.values(t.Resources)) if (r.Type === 'AWS::SSM::Parameter') published.set(r.Properties.Name, [stack, r.Properties.Value]);
  }
  const group = (stack, e) => {
    const name = e && (e.Ref ?? e['Fn::GetAtt']?.[0]);
    const t = templates.get(stack);
    if (!name || !t) return undefined;
    if (t.Resources[name]) return `${stack}/${name}`;
    const parameter = t.Parameters?.[name];
    if (!parameter?.Default) return undefined;
    return published.has(parameter.Default) ? group(...published.get(parameter.Default)) : `ssm:${parameter.Default}`;
  };
  const rules = [];
  const add = (id, stack, groupRef, r, inbound) => {
    if (r.CidrIp === '255.255.255.255/32' && r.IpProtocol === 'icmp') return;
    const side = inbound ? 'Source' : 'Destination';
    const peer = group(stack, r[`${side}SecurityGroupId`]) ?? (r.CidrIp ? `cidr:${typeof r.CidrIp === 'string' ? r.CidrIp : JSON.stringify(r.CidrIp)}` : undefined) ??
      (r.CidrIpv6 ? `cidr:${r.CidrIpv6}` : undefined) ?? (r[`${side}PrefixListId`] ? `prefix-list:${JSON.stringify(r[`${side}PrefixListId`])}` : undefined);
    rules.push({ id, inbound, from: inbound ? peer : groupRef, to: inbound ? groupRef : peer, ports: ports(r) });
  };
  for (const [stack, t] of templates) {
    for (const [id, r] of Object.entries(t.Resources)) {
      const p = r.Properties ?? {};
      if (r.Type === 'AWS::EC2::SecurityGroup') {
        (p.SecurityGroupIngress ?? []).forEach((x, i) => add(`${stack}/${id}#ingress${i}`, stack, `${stack}/${id}`, x, true));
        (p.SecurityGroupEgress ?? []).forEach((x, i) => add(`${stack}/${id}#egress${i}`, stack, `${stack}/${id}`, x, false));
      }
      if (r.Type === 'AWS::EC2::SecurityGroupIngress') add(`${stack}/${id}`, stack, group(stack, p.GroupId), p, true);
      if (r.Type === 'AWS::EC2::SecurityGroupEgress') add(`${stack}/${id}`, stack, group(stack, p.GroupId), p, false);
    }
  }
  return rules;
}

/** The templates the drawing says it is drawn from, read from the cloud assembly (or from `templates` when given). */
function templatesOf(outdir, drawing, templates) {
  return new Map(drawing.stacks.map((s) => [s, templates?.get(s) ?? JSON.parse(fs.readFileSync(path.join(outdir, `${s}.template.json`), 'utf-8'))]));
}

/**
 * The data-flow diagram against its templates: every security-group rule between two drawn nodes is a flow between
 * them that cites it and labels its ports, and every flow cites rules that exist and connect exactly those two nodes.
 * Returns the problems (none when they agree) and how many rules and flows were compared.
 */
function flowsMatchRules(svg, outdir, templates) {
  const drawing = readSvg(svg);
  const rules = templateRules(templatesOf(outdir, drawing, templates));
  const nodeOf = (ref, inbound) => {
    const candidates = [...drawing.nodes.values()].filter((n) => n.stands.includes(ref));
    // The whole internet is two nodes: clients coming in, and what the VPC reaches going out.
    return (candidates.length > 1 ? candidates.filter((n) => n.kind !== (inbound ? 'node-egress' : 'node-internet')) : candidates)[0]?.id;
  };
  const problems = [];
  let compared = 0;
  for (const r of rules) {
    const from = nodeOf(r.from, r.inbound);
    const to = nodeOf(r.to, r.inbound);
    if (!from || !to) continue;
    compared++;
    const flow = drawing.flows.find((f) => f.from === from && f.to === to);
    if (!flow) problems.push(`rule ${r.id} (${r.ports}) connects ${from} to ${to}, and no flow does`);
    else if (!flow.rules.includes(r.id)) problems.push(`the flow ${flow.id} does not cite rule ${r.id}`);
    else if (!flow.texts.join(', ').split(', ').includes(r.ports)) problems.push(`the flow ${flow.id} does not label ${r.ports} (rule ${r.id}): ${flow.texts.join(' / ')}`);
  }
  for (const f of drawing.flows) {
    if (f.rules.length === 0) problems.push(`the flow ${f.id} cites no rule`);
    for (const id of f.rules) {
      const r = rules.find((x) => x.id === id);
      if (!r) problems.push(`the flow ${f.id} cites ${id}, which no template has`);
      else if (nodeOf(r.from, r.inbound) !== f.from || nodeOf(r.to, r.inbound) !== f.to) problems.push(`the flow ${f.id} cites ${id}, which connects other nodes`);
    }
  }
  return { problems, rules: compared, flows: drawing.flows.length, nodes: drawing.nodes.size };
}

// --- In a real browser ----------------------------------------------------------------------------------------------

/** Debian's Chromium, which scripts/setup.sh installs (`chromium`, with `fonts-liberation`, Helvetica's metrics). */
function chromium() {
  const found = spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf-8' }).stdout.trim();
  if (!found) throw new Error('No Chromium on this machine: scripts/setup.sh installs Debian\'s (apt-get install chromium fonts-liberation)');
  return found;
}

/**
 * Measures the SVG as Chromium lays it out with real fonts: each node's shape and text boxes and each edge label's,
 * and where each `mustShow` text is, in CSS pixels of a page that holds only the SVG.
 */
const MEASURE = `
const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; };
const nodes = [...document.querySelectorAll('g.node')].map((g) => ({
  id: g.id, shape: box(g.querySelector('polygon, path, ellipse')), texts: [...g.querySelectorAll('text')].map((t) => ({ text: t.textContent, box: box(t) })),
}));
const labels = [...document.querySelectorAll('g.edge text')].map((t) => ({ text: t.textContent, box: box(t) }));
const clusters = [...document.querySelectorAll('g.cluster')].map((g) => ({
  id: g.id, shape: box(g.querySelector('polygon, path')), texts: [...g.querySelectorAll('text')].map((t) => ({ text: t.textContent, box: box(t) })),
}));
const svg = document.querySelector('svg').getBoundingClientRect();
document.getElementById('result').textContent = JSON.stringify({ nodes, labels, clusters, width: svg.width, height: svg.height });
`;

function runChromium(args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-chromium-'));
  try {
    const run = spawnSync(chromium(), ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-device-scale-factor=1',
      '--disable-dev-shm-usage', '--no-first-run', `--user-data-dir=${dir}`, ...args], { encoding: 'utf-8', maxBuffer: 256 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`chromium ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    return run.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Renders `svg` in headless Chromium: the layout measured in the page, then a screenshot of it. A `mustShow` text is
 * drawn when a text element holds it and the screenshot has dark pixels where that element is. Nothing overlaps past
 * `tolerance` pixels: no node's or cluster's text leaves its shape, no two nodes' shapes meet, no edge label lies on a
 * node.
 */
function browserCheck(svg, mustShow, tolerance = 2) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-diagram-'));
  try {
    const inline = svg.replace(/^<\?xml[^>]*>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/, '');
    const page = path.join(dir, 'diagram.html');
    fs.writeFileSync(page, `<!doctype html><html><body style="margin:0;background:#fff">${inline}<pre id="result" style="display:none"></pre><script>${MEASURE}</script></body></html>`);
    const dom = runChromium(['--dump-dom', `file://${page}`]);
    const layout = JSON.parse(unescapeXml(/<pre id="result"[^>]*>([^<]*)<\/pre>/.exec(dom)[1]));
    const [width, height] = [Math.ceil(layout.width), Math.ceil(layout.height)];
    const png = path.join(dir, 'diagram.png');
    runChromium([`--screenshot=${png}`, `--window-size=${width},${height}`, `file://${page}`]);
    const image = decodePng(fs.readFileSync(png));
    const texts = [...layout.nodes.flatMap((n) => n.texts), ...layout.labels];
    const missing = [];
    const notDrawn = [];
    for (const wanted of mustShow) {
      const t = texts.find((x) => x.text.includes(wanted));
      if (!t) missing.push(wanted);
      else if (darkPixels(image, t.box) < 15) notDrawn.push(wanted);
    }
    return { missing, notDrawn, ...overlaps(layout, tolerance), nodes: layout.nodes.length, image: { width: image.width, height: image.height } };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function overlaps(layout, tolerance) {
  const inside = (a, b) => a.x >= b.x - tolerance && a.y >= b.y - tolerance && a.x + a.w <= b.x + b.w + tolerance && a.y + a.h <= b.y + b.h + tolerance;
  const meet = (a, b) => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > tolerance && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > tolerance;
  const beyond = (a, b) => Math.max(b.x - a.x, b.y - a.y, a.x + a.w - b.x - b.w, a.y + a.h - b.y - b.h).toFixed(1);
  const overflows = [...layout.nodes, ...layout.clusters].flatMap((n) => n.texts.filter((t) => t.text.trim() && !inside(t.box, n.shape))
    .map((t) => `"${t.text}" leaves ${n.id} by ${beyond(t.box, n.shape)} px`));
  const collisions = [];
  layout.nodes.forEach((a, i) => layout.nodes.slice(i + 1).forEach((b) => { if (meet(a.shape, b.shape)) collisions.push(`${a.id} and ${b.id}`); }));
  for (const l of layout.labels) for (const n of layout.nodes) if (meet(l.box, n.shape)) collisions.push(`the label "${l.text}" and ${n.id}`);
  return { overflows, collisions };
}

/** How many pixels in a box (CSS pixels, device scale 1) are dark: drawn, not the white page. */
function darkPixels(image, box) {
  let dark = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(image.height, Math.ceil(box.y + box.h)); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(image.width, Math.ceil(box.x + box.w)); x++) {
      const i = (y * image.width + x) * 4;
      if (0.299 * image.rgba[i] + 0.587 * image.rgba[i + 1] + 0.114 * image.rgba[i + 2] < 128) dark++;
    }
  }
  return dark;
}

/** A PNG as Chromium writes it (8-bit RGB or RGBA, not interlaced), as RGBA bytes. */
function decodePng(buffer) {
  let at = 8;
  let width = 0; let height = 0; let colourType = 0;
  const data = [];
  while (at < buffer.length) {
    const length = buffer.readUInt32BE(at);
    const type = buffer.toString('ascii', at + 4, at + 8);
    const body = buffer.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      [width, height, colourType] = [body.readUInt32BE(0), body.readUInt32BE(4), body[9]];
      if (body[8] !== 8 || ![2, 6].includes(colourType) || body[12] !== 0) throw new Error(`a PNG this decoder does not read: depth ${body[8]}, colour type ${colourType}, interlace ${body[12]}`);
    }
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const channels = colourType === 6 ? 4 : 3;
  const raw = zlib.inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x];
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      pixels[y * stride + x] = (value + [0, a, b, (a + b) >> 1, paeth][filter]) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4, 255);
  for (let i = 0; i < width * height; i++) for (let ch = 0; ch < channels; ch++) rgba[i * 4 + ch] = pixels[i * channels + ch];
  return { width, height, rgba };
}

module.exports = { readSvg, templateRules, flowsMatchRules, browserCheck };
