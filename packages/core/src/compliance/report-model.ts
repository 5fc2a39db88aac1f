import type { CheckGrade, PCI_DSS_MAPPING, TestingProcedure } from './pci-dss-401/mapping';
import type { Responsibility } from './responsibility';
import type { AcceptedAdvisory } from '../context/accepted-advisory';
import type { SignIn } from '../contract/auth-mode';
import type { ComplianceControl } from '../contract/compliance-control';
import type { DefaultCredential } from '../contract/default-credential';
import type { KnownVulnerability } from '../contract/known-vulnerability';
import type { OutboundConnection } from '../contract/outbound-connection';
import type { PciDssScope } from '../contract/pci-dss-scope';
import type { SoftwareComponent } from '../contract/software-component';

// The evidence report's shape: what evidence-report.ts writes and the OSCAL document and the coverage check read.

/** A control as the report lists it: declared by a plugin, with the plugin's name. */
export interface SourcedControl extends ComplianceControl {
  readonly source: string;
}

/**
 * How far the report's evidence goes toward a requirement, from the testing procedures it shows
 * (`procedure-coverage.ts`): `configuration-shown` (every procedure that examines configuration is shown for these
 * resources; never a verdict, the rest is the assessor's), `partial`, `supporting`, `after-deploy` (only AWS Config in
 * the deployed account can see it), `not-addressed`. Above every coverage, `exposed`: the stack deploys components
 * under published advisories, which `EXPOSED_REQUIREMENTS` cannot be read past.
 */
export type Coverage = 'configuration-shown' | 'partial' | 'supporting' | 'after-deploy' | 'not-addressed' | 'exposed';

/** Every coverage evidence can earn, lowest first. */
export const COVERAGE_ORDER: readonly Coverage[] = ['not-addressed', 'after-deploy', 'supporting', 'partial', 'configuration-shown'];

/** One testing procedure of a requirement and how far the report's checks show it. */
export interface ProcedureEvidence extends TestingProcedure {
  /** `shown`: a passing check graded `full` shows what it examines; `in part`: a `partial` one; `not shown`: the assessor's. */
  readonly shown: 'shown' | 'in part' | 'not shown';
  /** The rules that show it. */
  readonly by: string[];
}

/**
 * The requirement a deployed component under a published advisory exposes, whatever else is shown toward it: 6.3.3,
 * which in v4.0.1 puts critical vulnerabilities (as the entity ranks them under 6.3.1) on a one-month clock from the
 * fix's release and all others on the entity's own defined time frame. 6.3.1 (identifying and ranking) and 6.3.2 (the
 * inventory) are not exposed by it: the advisory comparison and the bill of materials are evidence toward them.
 */
export const EXPOSED_REQUIREMENTS: readonly string[] = ['6.3.3'];

/** A check that fails on a resource with the failure acknowledged: listed, and earning nothing toward the requirement. */
export interface Deviation {
  readonly requirement: string;
  readonly rule: string;
  readonly resource: string;
  /** The acknowledgement's reason. */
  readonly reason: string;
}

/** A known vulnerability the application deploys, with its acceptance when `acceptedAdvisories` gives one. */
export interface DeployedVulnerability extends KnownVulnerability {
  /** @default - not accepted (only a profile that warns deploys it so) */
  readonly accepted?: AcceptedAdvisory;
}

/** What the user stated about the application's place in their assessment (`pciDssScope`, `pciDssMultiTenantProvider`). */
export interface Applicability {
  /** @default - not stated */
  readonly scope?: PciDssScope;
  /** @default - not stated */
  readonly multiTenantProvider?: boolean;
  /** What the application deploys under published advisories. @default - none declared */
  readonly knownVulnerabilities?: DeployedVulnerability[];
  /**
   * Whether AWS's conformance pack is deployed for this stack elsewhere (by its platform), so that AWS Config evaluates
   * the rules the report lists as after deployment. @default - only if this stack deploys it
   */
  readonly conformancePackElsewhere?: boolean;
  /** What the stack deploys, for the bill of materials: the plugin's components and the framework's images. @default - none */
  readonly components?: SoftwareComponent[];
  /** The deployment's configuration as resolved (context keys with defaults applied), hashed into the report. @default - not named */
  readonly resolvedContext?: object;
  /** Deviations the configuration states rather than a check finds (paths that skip the load balancer's sign-in). @default - none */
  readonly statedDeviations?: Deviation[];
  /** Who signs the application's users in (its `authMode`), which decides what requirement 8 can say. @default - not an application's stack */
  readonly signIn?: SignIn;
  /** The issuer of the identity provider the application signs its users in with itself, for the diagrams. @default - none */
  readonly identityProvider?: string;
  /** The connections the application declares it opens outside the stacks (`outboundConnections()`). @default - none */
  readonly outboundConnections?: OutboundConnection[];
  /** The accounts its image starts with at a vendor's published password (`defaultCredentials()`). @default - none */
  readonly defaultCredentials?: DefaultCredential[];
}

/** The bill of materials written beside the report (CycloneDX), as the report references it. */
/** A diagram beside the report, by its SHA-256. */
export interface DiagramReference {
  readonly title: string;
  /** The file in the cloud assembly, beside the template. */
  readonly file: string;
  /** The PCI DSS v4.0.1 requirement it supports: 1.2.3 (network diagram) or 1.2.4 (data-flow diagram). */
  readonly requirement: string;
  readonly sha256: string;
}

export interface BillOfMaterials {
  /** The file in the cloud assembly, beside the report. */
  readonly file: string;
  /** The SHA-256 of its bytes. */
  readonly sha256: string;
  /** How many components it lists. */
  readonly components: number;
  /** Images pinned by a placeholder digest (all zeros): not an image anyone reviewed. */
  readonly placeholderDigests: string[];
}

/** One resource a rule looked at, and what it found. */
export interface Evaluation {
  readonly rule: string;
  readonly resource: string;
  readonly type: string;
  /**
   * What the rule found on the resource: `passes`, `acknowledged` (it fails, with the reason accepted), or `fails`
   * (synth fails). A rule that passes shows what the template says, not that a requirement is met.
   */
  readonly result: 'passes' | 'acknowledged' | 'fails';
  readonly checks: string;
  readonly reason?: string;
  /** How far the check goes toward the requirement this evaluation is listed under, and why. */
  readonly grade: CheckGrade;
  readonly gradeReason: string;
  /** The requirement's testing procedures the check shows (fully when `full`, in part when `partial`). */
  readonly procedures: string[];
}

export interface RequirementEvidence {
  readonly requirement: string;
  readonly coverage: Coverage;
  /** The check or control that earned the coverage, or what the coverage rests on. */
  readonly coverageBy: string;
  readonly evaluations: Evaluation[];
  readonly controls: SourcedControl[];
  /** AWS Config rules of AWS's pack for this requirement that only see the deployed account (on its resource types). */
  readonly afterDeploy: string[];
  /** The requirement's testing procedures (PCI DSS v4.0.1), each with how far this report shows it. */
  readonly procedures: ProcedureEvidence[];
}

/** Which system the report is about: the template as written in the cloud assembly, and what judged it. */
export interface ReportedSystem {
  readonly stack: string;
  /** The account and region, or `resolved at deploy` for an environment-agnostic stack. */
  readonly account: string;
  readonly region: string;
  /** The template's file in the cloud assembly and the SHA-256 of its bytes there. */
  readonly templateFile: string;
  readonly templateSha256: string;
  /** The versions of what built and checked the template. */
  readonly versions: { readonly framework: string; readonly cdkNag: string; readonly awsCdkLib: string };
  /** When the report was written (ISO 8601): `SOURCE_DATE_EPOCH` when set, for reproducible builds. */
  readonly generatedAt: string;
  /**
   * The SHA-256 of the resolved configuration (context keys with defaults applied, as canonical JSON), so that two
   * reports of the same template under different settings are told apart. @default - not named (a stack checked with Compliance.check)
   */
  readonly resolvedContextSha256?: string;
  /** The resolved configuration as hashed (canonical JSON), beside the report; none without one. */
  readonly resolvedContextFile?: string;
  /**
   * The revision of the source that was synthesised: `FW_SOURCE_REVISION`, else the deployment project's git commit
   * (`sourceRevision`), else `not stated`.
   */
  readonly sourceRevision: string;
}

/** One principal requirement: who answers for it, and how many of its requirements this report has evidence for. */
export interface PrincipalRequirement extends Responsibility {
  readonly requirement: string;
  readonly title: string;
  /** Whether its requirements apply, as the user stated (only A1 can be `false`), and why. */
  readonly applicable: boolean;
  readonly applicability: string;
  /** The requirements under it that the stack's resources or the plugin's controls touch (listed below in the report). */
  readonly evidencedRequirements: number;
}

export interface EvidenceReport {
  readonly standard: string;
  readonly stack: string;
  readonly system: ReportedSystem;
  /** The application's role toward the cardholder data environment, as the user stated it, and whether A1 applies. */
  readonly scope: {
    readonly stated: PciDssScope | 'not stated';
    /** A platform's: the widest scope its applications in the same cloud assembly state, and which. @default - none */
    readonly derived?: { readonly scope: PciDssScope; readonly from: string[] };
    readonly statement: string;
    readonly multiTenantProvider: boolean | 'not stated';
  };
  /** Every principal requirement, 1 to 12 and A1 to A3, with who answers for it: none is silently missing. */
  readonly principals: PrincipalRequirement[];
  readonly notice: string;
  /** What evaluates the deployed account after deployment, as far as this stack enables it. */
  readonly afterDeployment: { readonly configConformancePack: string; readonly securityHubStandard: string };
  readonly mapping: typeof PCI_DSS_MAPPING.provenance;
  readonly requirements: RequirementEvidence[];
  /** What the application deploys under published advisories, each with its acceptance (PCI DSS 6.3.1, 6.3.3). */
  readonly knownVulnerabilities: DeployedVulnerability[];
  /** The accounts the image starts with at its vendor's published password: the first thing to change (2.2.2). */
  readonly defaultCredentials: DefaultCredential[];
  /** The connections the application declares it opens outside the stacks, drawn in the diagrams (1.2.3, 1.2.4). */
  readonly outboundConnections: OutboundConnection[];
  /** Every acknowledged failure of a check, by requirement: each earns nothing toward it. */
  readonly deviations: Deviation[];
  /** The bill of materials of what the stack deploys (6.3.2), when the application states it. @default - none */
  readonly billOfMaterials?: BillOfMaterials;
  /**
   * The network (1.2.3) and data-flow (1.2.4) diagrams drawn from the templates, each SVG with its Graphviz source.
   * @default - none (a stack checked with Compliance.check outside a synthesis)
   */
  readonly diagrams?: DiagramReference[];
  /** Every acknowledgement in the stack, of every pack, with its reason. */
  readonly acknowledgements: { readonly resource: string; readonly rule: string; readonly reason: string }[];
}
