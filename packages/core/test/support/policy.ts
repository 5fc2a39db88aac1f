/**
 * Enough of IAM's policy evaluation to ask a resource policy what it says of one request: the condition operators the
 * framework's policies use, intrinsic functions rendered with fixed pseudo-parameters (`Ref` of a resource becomes
 * `<LogicalId>`). Explicit deny wins, then allow, else nothing is said.
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html
 */

const PSEUDO: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::AccountId': '123456789012', 'AWS::Region': 'eu-west-1', 'AWS::URLSuffix': 'amazonaws.com' };

/** A template value as text: pseudo-parameters filled in, `Ref` and `Fn::GetAtt` of resources as `<Id>` and `<Id.Attr>`. */
export function render(value: any): any {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(render);
  if (value.Ref !== undefined) return PSEUDO[value.Ref] ?? `<${value.Ref}>`;
  if (value['Fn::GetAtt']) return `<${value['Fn::GetAtt'].join('.')}>`;
  if (value['Fn::Join']) return value['Fn::Join'][1].map(render).join(value['Fn::Join'][0]);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v)]));
}

export type Request = Record<string, string | undefined>;
export type Decision = 'Deny' | 'Allow' | 'None';

const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);

function conditionHolds(operator: string, key: string, expected: string | string[], request: Request): boolean {
  const values = ([] as string[]).concat(expected);
  const actual = request[key];
  if (operator === 'Null') return (actual === undefined) === (values[0] === 'true');
  const negated = operator.includes('Not');
  const base = operator.replace('Not', '');
  if (actual === undefined) return negated; // a missing key matches no value
  const matches = values.some((v) => (base === 'ArnLike' || base === 'StringLike' ? glob(v).test(actual) : v === actual));
  if (!['ArnLike', 'ArnEquals', 'StringEquals', 'StringLike', 'Bool'].includes(base)) throw new Error(`operator ${operator} is not modelled`);
  return negated ? !matches : matches;
}

function statementApplies(statement: any, action: string, request: Request): boolean {
  const actions = ([] as string[]).concat(statement.Action);
  if (!actions.some((a) => glob(a).test(action))) return false;
  return Object.entries<Record<string, any>>(statement.Condition ?? {}).every(([operator, keys]) =>
    Object.entries(keys).every(([key, expected]) => conditionHolds(operator, key, expected, request)));
}

/** What `policy` (a rendered policy document) says of `action` for `request`. */
export function decide(policy: any, action: string, request: Request): Decision {
  const applying = policy.Statement.filter((s: any) => statementApplies(s, action, request));
  if (applying.some((s: any) => s.Effect === 'Deny')) return 'Deny';
  return applying.some((s: any) => s.Effect === 'Allow') ? 'Allow' : 'None';
}
