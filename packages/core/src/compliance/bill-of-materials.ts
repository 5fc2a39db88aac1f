import { createHash } from 'crypto';
import { nameUuid } from './oscal-assessment-results';
import type { BillOfMaterials, DeployedVulnerability, ReportedSystem } from './report-model';
import type { SoftwareComponent } from '../contract/software-component';
import { pinnedByPlaceholder } from '../contract/spec-validation';

/** The CycloneDX version the bill of materials is written in. */
export const CYCLONEDX_SPEC_VERSION = '1.6';

/** The bill of materials' file name, beside the template and the report. */
export function bomFileName(stackName: string): string {
  return `${stackName}.cyclonedx.json`;
}

const refOf = (c: { name: string; version: string }) => `${c.name}@${c.version}`;

/**
 * The bill of materials of what a stack deploys, as a CycloneDX JSON document (its text) and how the report names it:
 * every component the application states, the images the framework deploys, and the tools that wrote it, each with a
 * package URL (`pkg:generic` where none is stated) and its SHA-256 where known; the dependency graph; every known
 * vulnerability with what it affects and its acceptance. Its serial number is the OSCAL document's kind of name-based
 * UUID, of the stack and the template's SHA-256, so the same build writes the same bytes.
 */
export function billOfMaterials(system: ReportedSystem, components: SoftwareComponent[],
  vulnerabilities: DeployedVulnerability[] = []): { text: string; reference: BillOfMaterials } {
  const placeholderDigests = components.filter((c) => pinnedByPlaceholder(c.version)).map((c) => `${c.name}:${c.version}`);
  const byName = new Map(components.map((c) => [c.name, c]));
  const needed = new Set(components.flatMap((c) => c.dependsOn ?? []));
  const document = {
    bomFormat: 'CycloneDX',
    specVersion: CYCLONEDX_SPEC_VERSION,
    serialNumber: `urn:uuid:${nameUuid(`${system.stack}/${system.templateSha256}/bom`)}`,
    version: 1,
    metadata: {
      timestamp: system.generatedAt,
      tools: { components: [{ type: 'application', name: '@fw/core', version: system.versions.framework }] },
      component: { 'type': 'application', 'bom-ref': system.stack, 'name': system.stack, 'version': system.templateSha256 },
    },
    components: components.map((c) => ({
      'type': c.type,
      'bom-ref': refOf(c),
      'name': c.name,
      'version': c.version,
      'purl': c.purl ?? `pkg:generic/${encodeURIComponent(c.name)}@${encodeURIComponent(c.version)}`,
      ...c.sha256 ? { hashes: [{ alg: 'SHA-256', content: c.sha256 }] } : {},
      ...pinnedByPlaceholder(c.version) ? { properties: [{ name: 'fw:placeholder-digest', value: 'true' }] } : {},
    })),
    // The stack deploys what nothing else in it needs; each component needs what it names.
    dependencies: [
      { ref: system.stack, dependsOn: components.filter((c) => !needed.has(c.name)).map(refOf) },
      ...components.map((c) => ({ ref: refOf(c), dependsOn: (c.dependsOn ?? []).map((name) => refOf(byName.get(name)!)) })),
    ],
    ...vulnerabilities.length ? { vulnerabilities: vulnerabilities.map((v) => vulnerability(v, byName.get(v.component))) } : {},
  };
  const text = JSON.stringify(document, undefined, 1) + '\n';
  return {
    text,
    reference: {
      file: bomFileName(system.stack),
      sha256: createHash('sha256').update(text).digest('hex'),
      components: components.length,
      placeholderDigests,
    },
  };
}

/**
 * A known vulnerability as CycloneDX states one: the publisher's rating, what it affects, the release that fixes it,
 * and, as the analysis, its acceptance or that it has none. Its exploitability is not stated: the framework reads no
 * advisory's code path.
 */
function vulnerability(v: DeployedVulnerability, affected: SoftwareComponent | undefined) {
  const accepted = v.accepted;
  const acceptance = accepted
    ? `Accepted in acceptedAdvisories: ${accepted.reason}${accepted.until ? ` (until ${accepted.until})` : ''}` +
      `${accepted.owner ? `; by ${accepted.owner}` : ''}${accepted.reference ? `; recorded in ${accepted.reference}` : ''}.`
    : 'Deployed without an acceptance (a profile that only warns).';
  return {
    'bom-ref': `vulnerability:${v.id}`,
    'id': v.id,
    ...v.url ? { source: { url: v.url } } : {},
    'ratings': [{ severity: v.severity.toLowerCase() }],
    'recommendation': `Upgrade ${v.component} to ${v.fixedIn} or later.`,
    'analysis': { detail: acceptance },
    ...affected && affected.version === v.version
      ? { affects: [{ ref: refOf(affected), versions: [{ version: v.version, status: 'affected' }] }] } : {},
    'properties': [
      { name: 'fw:accepted', value: String(accepted !== undefined) },
      ...accepted?.until ? [{ name: 'fw:accepted-until', value: accepted.until }] : [],
      ...(v.underminesRequirements ?? []).map((r) => ({ name: 'fw:undermines-pci-dss-requirement', value: r })),
    ],
  };
}
