import * as fs from 'fs';
import * as path from 'path';

/**
 * `aws/pci-dss-4/pci-dss-4.0.json`: AWS's PCI DSS 4.0 conformance pack and its requirement mapping, the grades, and
 * every PCI DSS v4.0.1 requirement with its testing procedures (`aws/pci-dss-4/README.md` says how it is derived).
 */
export const PCI_DSS_MAPPING_FILE = path.join(__dirname, '..', '..', 'aws', 'pci-dss-4', 'pci-dss-4.0.json');

let data: { readonly procedures: Record<string, unknown> } | undefined;
let requirements: ReadonlySet<string> | undefined;

/**
 * The file's content, read once, on first use (157 KB of JSON, which a deployment without compliance controls or packs
 * never needs: docs/benchmarks.md): the compliance layer types it (`PCI_DSS_MAPPING`), the contract reads its
 * requirements.
 */
export function pciDssMappingData(): { readonly procedures: Record<string, unknown> } {
  return data ??= JSON.parse(fs.readFileSync(PCI_DSS_MAPPING_FILE, 'utf-8'));
}

/** Every requirement number PCI DSS v4.0.1 defines (defined approach, appendices A1 to A3 included). */
export function pciDssRequirements(): ReadonlySet<string> {
  return requirements ??= new Set(Object.keys(pciDssMappingData().procedures));
}
