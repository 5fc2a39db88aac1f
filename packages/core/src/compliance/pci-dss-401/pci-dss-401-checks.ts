import type { CfnResource } from 'aws-cdk-lib';
import { NagMessageLevel, NagPack, type NagPackProps } from 'cdk-nag';
import { PCI_DSS_VERSION } from './mapping';
import { PCI_DSS_401_PACK, PCI_DSS_401_RULES } from './pci-dss-401-rules';
import { RULE_IMPLEMENTATIONS } from './rule-implementations';

/**
 * PCI DSS v4.0.1 at synth: for each AWS Config rule of AWS's PCI DSS 4.0 conformance pack that a template can show,
 * the cdk-nag rule that reads the same property, or ours, and our rules for what the framework's resources need
 * beyond the pack. Each finding names the requirements (`aws/pci-dss-4/pci-dss-4.0.json`).
 */
export class PciDss401Checks extends NagPack {
  public readonly name = PCI_DSS_401_PACK;

  constructor(props?: NagPackProps) {
    super(undefined, props);
    this.packName = PCI_DSS_401_PACK;
  }

  protected checkResource(node: CfnResource): void {
    for (const rule of PCI_DSS_401_RULES) {
      const config = rule.configRules.length ? ` AWS Config checks the same after deployment (${rule.configRules.join(', ')}).` : '';
      this.applyRule({
        info: `Fails: ${rule.checks} (PCI DSS v${PCI_DSS_VERSION} requirements ${rule.requirements.join(', ')}).`,
        explanation: `Acknowledge it on the resource, with the reason it is acceptable, through Compliance.acknowledge.${config}`,
        level: NagMessageLevel.ERROR,
        rule: RULE_IMPLEMENTATIONS[rule.name],
        node,
      });
    }
  }
}
