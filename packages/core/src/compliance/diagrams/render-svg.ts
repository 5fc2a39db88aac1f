import { execFileSync } from 'child_process';

/**
 * Draws Graphviz text as SVG with Graphviz itself, compiled to WebAssembly (`@viz-js/viz`, bundled): no program to
 * install and no network. Its API is asynchronous and synthesis is not, so it runs in a child Node.js process, once
 * for all the diagrams of a synthesis. Graphviz lays out the same text the same way, so the same template gives the
 * same bytes and the same SHA-256.
 */
export function renderSvg(dots: readonly string[]): string[] {
  if (dots.length === 0) return [];
  const viz = require.resolve('@viz-js/viz');
  const script = `require(${JSON.stringify(viz)}).instance().then((viz) => {
    const dots = JSON.parse(require('fs').readFileSync(0, 'utf-8'));
    process.stdout.write(JSON.stringify(dots.map((dot) => viz.renderString(dot, { format: 'svg' }))));
  }).catch((e) => { process.stderr.write(String(e && e.message || e)); process.exit(1); });`;
  try {
    const out = execFileSync(process.execPath, ['-e', script], { input: JSON.stringify(dots), maxBuffer: 512 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
    return JSON.parse(out.toString('utf-8'));
  } catch (e: any) {
    throw new Error(`Graphviz (@viz-js/viz) could not draw the diagrams: ${e.stderr?.toString().trim() || e.message}`);
  }
}
