import * as fs from 'fs';
import * as path from 'path';

/**
 * `aws/pci-dss-4/pci-dss-4.0.json`: AWS's PCI DSS 4.0 conformance pack and its requirement mapping, the grades, and
 * every PCI DSS v4.0.1 requirement with its testing procedures (`aws/pci-dss-4/README.md` says how it is derived).
 */
export const PCI_DSS_MAPPING_FILE = path.join(__dirname, '..', '..', 'aws', 'pci-dss-4', 'pci-dss-4.0.json');

/** The file's content, read once: the compliance layer types it (`PCI_DSS_MAPPING`), the contract reads its requirements. */
export const PCI_DSS_MAPPING_DATA: { readonly procedures: Record<string, unknown> } = JSON.parse(fs.readFileSync(PCI_DSS_MAPPING_FILE, 'utf-8'));

/** Every requirement number PCI DSS v4.0.1 defines (defined approach, appendices A1 to A3 included). */
export const PCI_DSS_REQUIREMENTS: ReadonlySet<string> = new Set(Object.keys(PCI_DSS_MAPPING_DATA.procedures));
