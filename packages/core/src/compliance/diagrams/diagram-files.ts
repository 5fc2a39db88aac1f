import { type DrawnStack, deploymentGraph } from './deployment-graph';
import { dataFlowDot, networkDot } from './dot';
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

/**
 * The network and data-flow diagrams of each stack named in `of`, drawn from every template in `assembly` that it
 * shares an SSM parameter with (an application with its platform; a platform with every application attached to it
 * in the same cloud assembly): `<stack>.network.dot` and `.svg`, `<stack>.data-flow.dot` and `.svg`. One Graphviz run
 * for all of them.
 */
export function stackDiagrams(of: readonly string[], assembly: readonly DrawnStack[]): Map<string, DiagramFile[]> {
  const sources = of.map((stack) => {
    const graph = deploymentGraph(drawnWith(stack, assembly));
    return KINDS.map((k) => ({ stack, kind: k, dot: k.dot(graph, stack) }));
  }).flat();
  const svgs = renderSvg(sources.map((s) => s.dot));
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
