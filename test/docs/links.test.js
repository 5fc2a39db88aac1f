// The documentation's relative links: every `[text](path)` and `[text](path#anchor)` in README.md and docs/**/*.md
// names a file (or directory) that exists and, for a Markdown file, a heading it has; and every file under docs/ is
// reached from README.md through such links. Each problem names the file, the line and the link.
// Run: node --test test/docs/*.test.js
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');

/** README.md and every Markdown file under docs/, as paths relative to `dir`. */
function markdownFiles(dir) {
  const found = ['README.md'];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.md')) found.push(child);
    }
  };
  if (fs.existsSync(path.join(dir, 'docs'))) walk('docs');
  return found;
}

/** Every file under docs/ (any kind), relative to `dir`. */
function docsFiles(dir) {
  const found = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else found.push(child);
    }
  };
  if (fs.existsSync(path.join(dir, 'docs'))) walk('docs');
  return found;
}

/** The links of a Markdown text outside fenced blocks and code spans: `{ line, text, target }`, line 1-based. */
function linksOf(markdown) {
  const links = [];
  let fence = false;
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) {
      fence = !fence;
      return;
    }
    if (fence) return;
    // A code span's content is not a link (a link's label may hold code spans).
    const spans = [...raw.matchAll(/`[^`]*`/g)].map((m) => [m.index, m.index + m[0].length]);
    for (const m of raw.matchAll(/\[((?:`[^`]*`|[^\]`])*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (spans.some(([from, to]) => m.index >= from && m.index < to)) continue;
      links.push({ line: i + 1, text: m[1], target: m[2] });
    }
  });
  return links;
}

/** The anchors GitHub gives a Markdown text's headings (lower case, punctuation dropped, spaces to `-`, `-1` for a repeat). */
function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    const m = !fence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const external = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/**
 * Checks the documentation under `dir`: `dead` lists each relative link whose file or heading does not exist
 * ("docs/a.md:3: [text](target): ..."), `orphans` each file under docs/ that no link reached from README.md names.
 */
function checkLinks(dir) {
  const dead = [];
  const texts = new Map();
  const read = (rel) => {
    if (!texts.has(rel)) texts.set(rel, fs.readFileSync(path.join(dir, rel), 'utf-8'));
    return texts.get(rel);
  };
  const edges = new Map();
  for (const file of markdownFiles(dir)) {
    if (!fs.existsSync(path.join(dir, file))) continue;
    const targets = [];
    for (const { line, text, target } of linksOf(read(file))) {
      if (external(target)) continue;
      const [filePart, anchor] = target.split('#');
      const resolved = filePart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(filePart)));
      const where = `${file}:${line}: [${text}](${target})`;
      if (resolved.startsWith('..') || !fs.existsSync(path.join(dir, resolved))) {
        dead.push(`${where}: no file ${resolved}`);
        continue;
      }
      targets.push(resolved);
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor)) {
        dead.push(`${where}: no heading #${anchor} in ${resolved}`);
      }
    }
    edges.set(file, targets);
  }
  const reached = new Set(['README.md']);
  const queue = ['README.md'];
  while (queue.length > 0) {
    for (const next of edges.get(queue.shift()) ?? []) {
      if (reached.has(next)) continue;
      reached.add(next);
      if (edges.has(next)) queue.push(next);
    }
  }
  const orphans = docsFiles(dir).filter((f) => !reached.has(f))
    .map((f) => `${f}: no link from README.md or from a document reached from it`);
  return { dead, orphans };
}

// Required by doc-files.test.js for markdownFiles: the tests run only when node runs this file.
if (require.main === module) {
  test('every relative link in README.md and docs/ names an existing file and heading', () => {
    const { dead } = checkLinks(root);
    assert.deepStrictEqual(dead, [], `dead links:\n${dead.join('\n')}`);
  });

  test('every file in docs/ is reached from README.md', () => {
    const { orphans } = checkLinks(root);
    assert.deepStrictEqual(orphans, [], `unlinked files:\n${orphans.join('\n')}`);
  });

  test('the check reports a planted dead link, a missing heading and an orphan, naming file, line and link', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-links-'));
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      fs.writeFileSync(path.join(dir, 'README.md'), '# fw\n\nSee [the topic](docs/topic.md) and [the code](https://example.com/x).\n');
      fs.writeFileSync(path.join(dir, 'docs', 'topic.md'), [
        '# A topic', '', '## Its part', '',
        'Back to [the README](../README.md), [its part](#its-part), `[not a link](nowhere.md)`.',
        '', '```', '[in a block](nowhere.md)', '```',
        'A [dead link](gone.md) and [a missing heading](topic.md#no-such-part).', '',
      ].join('\n'));
      fs.writeFileSync(path.join(dir, 'docs', 'orphan.md'), '# Nobody links here\n');
      assert.deepStrictEqual(checkLinks(dir), {
        dead: [
          'docs/topic.md:10: [dead link](gone.md): no file docs/gone.md',
          'docs/topic.md:10: [a missing heading](topic.md#no-such-part): no heading #no-such-part in docs/topic.md',
        ],
        orphans: ['docs/orphan.md: no link from README.md or from a document reached from it'],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('headings become the anchors GitHub gives them', () => {
    assert.deepStrictEqual([...anchorsOf([
      '# The built-in build server (`applicationId` `jenkins`)', "## The plugin tool's checksum is not pinned yet",
      '## PCI DSS v4.0.1', '## Tests', '## Tests', '```', '# not a heading', '```',
    ].join('\n'))], [
      'the-built-in-build-server-applicationid-jenkins', 'the-plugin-tools-checksum-is-not-pinned-yet', 'pci-dss-v401',
      'tests', 'tests-1',
    ]);
  });
}

module.exports = { checkLinks, linksOf, anchorsOf, markdownFiles };
