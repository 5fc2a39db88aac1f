/**
 * Who answers for each principal requirement of PCI DSS v4.0.1 when an application runs on this framework, in our
 * words (the standard's text is not reproduced): what the synthesised template and the plugin's configuration give,
 * what stays with the customer (you), and what AWS or the identity provider answer for. The evidence report lists every
 * principal requirement with it, whether or not the stack touches it, so that none is silently missing.
 */
export interface Responsibility {
  /** What the template and the plugin's configuration give, checked at synth where a rule can see it. */
  readonly framework: string;
  /** What only you can do or show. */
  readonly customer: string;
  /** What AWS (physical and infrastructure controls) or the identity provider answer for. @default - nothing */
  readonly others?: string;
}

export const RESPONSIBILITY: Record<string, Responsibility> = {
  1: {
    framework: 'Security groups that admit only the load balancer (and named applications), private subnets, closed default security group, WAF in front.',
    customer: 'The network diagram and data flows, the review of the rule sets every six months, the controls between your networks and this VPC.',
  },
  2: {
    framework: 'Hardened configurations of the services it creates (no default passwords, least-privilege roles, the build server\'s hardening).',
    customer: 'Configuration standards for everything else, the inventory of system components, changing vendor defaults you introduce.',
    others: 'AWS: the hardening of the hosts and services underneath.',
  },
  3: {
    framework: 'Encryption at rest under customer-managed keys, card numbers masked in its log groups, retention set per profile.',
    customer: 'Deciding what account data is stored and for how long (the data-retention policy), never storing sensitive authentication data, key custodians.',
  },
  4: {
    framework: 'TLS 1.2 or later on every listener, HTTP only redirecting to HTTPS, on a platform HTTPS between applications inside the VPC.',
    customer: 'The inventory of trusted keys and certificates, and what your users\' clients send.',
  },
  5: {
    framework: 'Nothing: the template installs no anti-malware.',
    customer: 'Anti-malware on the EC2 instances, or the documented evaluation that a component is not at risk; its logs.',
  },
  6: {
    framework: 'Pinned versions with a test against published advisories, the WAF in front of public applications, digests for images in PRODUCTION.',
    customer: 'Secure development of your own plugins and pipelines, patching within the required time, the change-control records.',
  },
  7: {
    framework: 'The plugin\'s authorisation model (for the build server: a permission matrix by group), least-privilege IAM roles.',
    customer: 'Approving each person\'s access, and reviewing accounts and privileges at the required intervals.',
    others: 'The identity provider: the groups it asserts.',
  },
  8: {
    framework: 'Sign-in through your identity provider (OIDC), session timeouts, no shared or default accounts in what it configures.',
    customer: 'The user lifecycle (joiners, movers, leavers) and password or passphrase policy where not delegated.',
    others: 'The identity provider: multi-factor authentication and its enforcement.',
  },
  9: {
    framework: 'Nothing: no physical component.',
    customer: 'Physical security of your offices and of any media holding account data.',
    others: 'AWS: the physical security of its data centres.',
  },
  10: {
    framework: 'Audit logs of the load balancer, WAF, VPC and application, kept a year in PRODUCTION, encrypted; the build server\'s daily review job and alarms.',
    customer: 'Reviewing the logs and alarms, acting on them, time synchronisation of what you add.',
  },
  11: {
    framework: 'Nothing beyond the evidence report: no vulnerability scanning, penetration testing or intrusion detection.',
    customer: 'Internal and external vulnerability scans (external by an ASV), penetration tests, intrusion detection, change detection.',
  },
  12: {
    framework: 'Nothing: policies and programmes are organisational.',
    customer: 'The information security policy, risk assessments, awareness training, third-party service provider management, incident response.',
  },
  A1: {
    framework: 'Nothing specific: one platform serves one organisation.',
    customer: 'Applies only if you are a multi-tenant service provider: then the separation between your customers\' environments is yours to show.',
  },
  A2: {
    framework: 'Its load balancers offer TLS 1.2 or later only (ListenerTls12): nothing it deploys uses SSL or early TLS.',
    customer: 'Card-present point-of-sale terminals that still connect over SSL or early TLS, and their risk mitigation, if you have any.',
  },
  A3: {
    framework: 'Nothing beyond what requirements 1 to 12 list: the supplemental validation is a programme.',
    customer: 'Applies only if a payment brand or acquirer designates you: the compliance programme, scope validation, logical access reviews and incident detection it asks for.',
  },
};
