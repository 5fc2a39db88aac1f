import { deploymentGraph } from './deployment-graph';
import { dataFlowDot, networkDot } from './dot';
import type { DrawnStack } from './graph-model';
import { renderSvg } from './render-svg';
import type { CfnTemplate } from './templates';

/** One file of a stack's diagrams, as the evidence report cites it. */
export interface DiagramFile {
  readonly title: string;
  readonly file: string;
  readonly text: string;
  /** The PCI DSS v4.0.1 requirement the diagram supports. */
  readonly requirement: '1.2.3' | '1.2.4';
}

/** The diagrams' kinds: the file name's part, the requirement, and the title. */
const KINDS = [
  { name: 'network', requirement: '1.2.3', title: 'The network diagram', dot: networkDot },
  { name: 'data-flow', requirement: '1.2.4', title: 'The data-flow diagram', dot: dataFlowDot },
] as const;

/** Where a drawing comes from, stamped under it: when it was drawn and the source revision synthesised. */
export interface DiagramProvenance {
  readonly generatedAt: string;
  readonly sourceRevision: string;
}

/**
 * The network and data-flow diagrams of each stack named in `of`, drawn from every template in `assembly` that it
 * shares an SSM parameter with (an application with its platform; a platform with every application attached to it
 * in the same cloud assembly): `<stack>.network.dot` and `.svg`, `<stack>.data-flow.dot` and `.svg`. One Graphviz run
 * for all of them. Each SVG is stamped with its provenance and the SHA-256 of every template it was drawn from.
 */
export function stackDiagrams(of: readonly string[], assembly: readonly DrawnStack[], provenance: DiagramProvenance): Map<string, DiagramFile[]> {
  const sources = of.map((stack) => {
    const drawn = drawnWith(stack, assembly);
    const graph = deploymentGraph(drawn);
    const stamp = [`Drawn ${provenance.generatedAt} from source revision ${provenance.sourceRevision}, and the templates:`,
      ...drawn.map((s) => `${s.stack}: SHA-256 ${s.templateSha256 ?? 'not stated'}`)];
    return KINDS.map((k) => ({ stack, kind: k, dot: k.dot(graph, stack), stamp }));
  }).flat();
  const svgs = renderSvg(sources.map((s) => s.dot)).map((svg, i) => stamped(svg, sources[i].stamp));
  const files = new Map<string, DiagramFile[]>(of.map((s) => [s, []]));
  sources.forEach(({ stack, kind, dot }, i) => {
    files.get(stack)!.push(
      { title: `${kind.title} (SVG)`, file: `${stack}.${kind.name}.svg`, text: svgs[i], requirement: kind.requirement },
      { title: `${kind.title}'s source (Graphviz)`, file: `${stack}.${kind.name}.dot`, text: dot, requirement: kind.requirement },
    );
  });
  return files;
}

/** The stack first, then every stack of the assembly that reads an SSM parameter it writes, or writes one it reads. */
export function drawnWith(stack: string, assembly: readonly DrawnStack[]): DrawnStack[] {
  const self = assembly.find((s) => s.stack === stack);
  if (!self) return [];
  const writes = (t: CfnTemplate) => new Set(Object.values(t.Resources ?? {}).filter((r) => r.Type === 'AWS::SSM::Parameter')
    .map((r) => r.Properties?.Name).filter((n) => typeof n === 'string'));
  const reads = (t: CfnTemplate) => Object.values(t.Parameters ?? {}).filter((p) => p.Type.startsWith('AWS::SSM::Parameter::Value<'))
    .map((p) => p.Default).filter((n): n is string => !!n);
  const mine = writes(self.template);
  const mineRead = reads(self.template);
  const linked = assembly.filter((other) => other !== self &&
    (reads(other.template).some((n) => mine.has(n)) || mineRead.some((n) => writes(other.template).has(n))));
  return [self, ...linked];
}

/** The SVG's canvas: Graphviz writes its size in points and the same view box. */
const CANVAS = /<svg width="([\d.]+)pt" height="([\d.]+)pt"\n viewBox="0.00 0.00 ([\d.]+) ([\d.]+)"/;
const STAMP_LINE = 12;

/**
 * The SVG with `lines` written under the drawing, in a group `id="stamp"` of its own: the canvas grows by their height
 * and the drawing does not move, so a copy compared without the stamp (the docs' image) is the same drawing.
 */
export function stamped(svg: string, lines: readonly string[]): string {
  const canvas = CANVAS.exec(svg);
  if (!canvas) throw new Error('Graphviz wrote an SVG without the size and view box the stamp extends: the diagrams cannot be stamped.');
  const [, width, height, , viewHeight] = canvas;
  const extra = STAMP_LINE * lines.length + 8;
  const grown = `<svg width="${width}pt" height="${(Number(height) + extra).toFixed(0)}pt"\n viewBox="0.00 0.00 ${canvas[3]} ${(Number(viewHeight) + extra).toFixed(2)}"`;
  const text = lines.map((l, i) => `<text x="8" y="${(Number(viewHeight) + STAMP_LINE * (i + 1)).toFixed(2)}" font-family="monospace" font-size="9">${escapeXml(l)}</text>`);
  return svg.replace(CANVAS, grown).replace(/<\/svg>\s*$/, `<g id="stamp" class="stamp">\n${text.join('\n')}\n</g>\n</svg>\n`);
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
