/** Our PCI DSS v4.0.1 pack's name, the prefix of its finding ids: apart from its rules, which read the mapping. */
export const PCI_DSS_401_PACK = 'PCI.DSS.401';
