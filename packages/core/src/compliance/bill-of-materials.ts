import { createHash } from 'crypto';
import { nameUuid } from './oscal-assessment-results';
import type { BillOfMaterials, ReportedSystem } from './report-model';
import type { SoftwareComponent } from '../contract/software-component';
import { pinnedByPlaceholder } from '../contract/spec-validation';

/** The CycloneDX version the bill of materials is written in. */
export const CYCLONEDX_SPEC_VERSION = '1.5';

/** The bill of materials' file name, beside the template and the report. */
export function bomFileName(stackName: string): string {
  return `${stackName}.cyclonedx.json`;
}

/**
 * The bill of materials of what a stack deploys, as a CycloneDX JSON document (its text) and how the report names it:
 * every component the application states, the images the framework deploys, and the tools that wrote it. Its serial
 * number is the OSCAL document's kind of name-based UUID, of the stack and the template's SHA-256, so the same build
 * writes the same bytes.
 */
export function billOfMaterials(system: ReportedSystem, components: SoftwareComponent[]): { text: string; reference: BillOfMaterials } {
  const placeholderDigests = components.filter((c) => pinnedByPlaceholder(c.version)).map((c) => `${c.name}:${c.version}`);
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
      'bom-ref': `${c.name}@${c.version}`,
      'name': c.name,
      'version': c.version,
      ...c.purl ? { purl: c.purl } : {},
      ...pinnedByPlaceholder(c.version) ? { properties: [{ name: 'fw:placeholder-digest', value: 'true' }] } : {},
    })),
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
