import type { SignIn } from '../contract/auth-mode';

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

/** The principal requirements' titles (PCI DSS v4.0.1), which head the report's sections. */
export const PRINCIPAL_TITLES: Record<string, string> = {
  1: 'Install and maintain network security controls',
  2: 'Apply secure configurations to all system components',
  3: 'Protect stored account data',
  4: 'Protect cardholder data with strong cryptography during transmission over open, public networks',
  5: 'Protect all systems and networks from malicious software',
  6: 'Develop and maintain secure systems and software',
  7: 'Restrict access to system components and cardholder data by business need to know',
  8: 'Identify users and authenticate access to system components',
  9: 'Restrict physical access to cardholder data',
  10: 'Log and monitor all access to system components and cardholder data',
  11: 'Test security of systems and networks regularly',
  12: 'Support information security with organizational policies and programs',
  A1: 'Additional requirements for multi-tenant service providers',
  A2: 'Additional requirements for entities using SSL/early TLS for card-present POS POI terminal connections',
  A3: 'Designated entities supplemental validation',
};

export const RESPONSIBILITY: Record<string, Responsibility> = {
  1: {
    framework: 'Security groups that admit only the load balancer (and named applications), private subnets, closed default security group, WAF in front.',
    customer: 'The network diagram and data flows, the review of the rule sets every six months, the controls between your networks and this VPC.',
  },
  2: {
    framework: 'The configurations of the services it creates, as the template shows them (encryption, network, the plugin\'s ' +
      'declared hardening); the accounts and passwords an application\'s image starts with are not in the template.',
    customer: 'Configuration standards for everything else, the inventory of system components, changing every vendor default ' +
      '(an application\'s default administrator among them) before it serves anyone.',
    others: 'AWS: the hardening of the hosts and services underneath.',
  },
  3: {
    framework: 'Encryption at rest under customer-managed keys, card numbers masked in its log groups, retention set per profile.',
    customer: 'Deciding what account data is stored and for how long (the data-retention policy), never storing sensitive authentication data, key custodians.',
  },
  4: {
    framework: 'TLS 1.2 or later on every listener, HTTP only redirecting to HTTPS; from the load balancer to the application ' +
      'the traffic is HTTP inside the VPC, unless the application serves TLS itself.',
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
    framework: 'The plugin\'s authorisation model where it declares one (for the build server: a permission matrix by group); IAM ' +
      'roles written for the calls each part makes (no check measures their privilege).',
    customer: 'Approving each person\'s access, and reviewing accounts and privileges at the required intervals.',
    others: 'The identity provider: the groups it asserts.',
  },
  8: {
    framework: 'Who signs users in is each application\'s (its authMode): see its own report.',
    customer: 'The user lifecycle (joiners, movers, leavers) and password or passphrase policy where not delegated.',
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

/** What of the stack changes who answers: who signs its users in (`authMode`); undefined for a stack of no application. */
export interface StackFacts {
  readonly signIn?: SignIn;
}

/** Requirement 8 (and 7's groups) by who signs users in: only what that mode puts in the template is the framework's. */
const SIGNED_IN_BY: Record<SignIn, Partial<Record<string, Responsibility>>> = {
  'load-balancer': {
    8: {
      framework: 'The load balancer signs every user in through your identity provider (OIDC) before a request reaches the ' +
        'application (its listener rule\'s authenticate action); the application\'s own accounts behind it are not in the template.',
      customer: 'The user lifecycle (joiners, movers, leavers), the application\'s own accounts, and password policy where not delegated.',
      others: 'The identity provider: multi-factor authentication and its enforcement.',
    },
  },
  'application': {
    8: {
      framework: 'The application signs users in through your identity provider (OIDC), as its plugin configures it (the client ' +
        'and its secret by reference are in the template; the sessions and any local account are the application\'s).',
      customer: 'The user lifecycle (joiners, movers, leavers), any local account the application keeps besides, and password policy where not delegated.',
      others: 'The identity provider: multi-factor authentication and its enforcement.',
    },
  },
  'nobody': {
    7: {
      framework: 'The plugin\'s authorisation model where it declares one; IAM roles written for the calls each part makes (no ' +
        'check measures their privilege). Nobody signs users in before the application (authMode none).',
      customer: 'Approving each person\'s access in the application itself, and reviewing accounts and privileges at the required intervals.',
    },
    8: {
      framework: 'Nothing: nobody signs users in before the application (authMode none). The application signs users in itself, ' +
        'if at all, and the template shows nothing of its accounts, passwords or sessions.',
      customer: 'Every account of the application: its default administrator changed before it serves anyone, no shared ' +
        'accounts, authentication and multi-factor authentication as 8.3 and 8.4 ask, session timeouts.',
    },
  },
};

/** Who answers for `requirement` in this stack: the table above, with what its sign-in changes. */
export function responsibilityOf(requirement: string, facts: StackFacts): Responsibility {
  return (facts.signIn ? SIGNED_IN_BY[facts.signIn][requirement] : undefined) ?? RESPONSIBILITY[requirement];
}
