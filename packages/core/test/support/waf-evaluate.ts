/**
 * Evaluates a web ACL statement from a template (CloudFormation's property names) against one request, for the
 * statements the framework writes: AND, OR, NOT, byte match (EXACTLY, STARTS_WITH) and regex match on the path, the
 * method or a header, with NONE, LOWERCASE, URL_DECODE and NORMALIZE_PATH (AWS WAF Developer Guide, "Text transformation
 * options"). Anything else throws: a statement it cannot read is never taken as a miss.
 */
export interface WafRequest {
  readonly method: string;
  /** The path as the client sends it, before any decoding. */
  readonly path: string;
  readonly headers?: Record<string, string>;
}

function transform(value: string, transformations: Array<{ Type: string }>): string {
  for (const { Type } of [...transformations].sort((a: any, b: any) => a.Priority - b.Priority)) {
    if (Type === 'NONE') continue;
    else if (Type === 'LOWERCASE') value = value.toLowerCase();
    else if (Type === 'URL_DECODE') value = decodeURIComponent(value);
    else if (Type === 'NORMALIZE_PATH') value = normalizePath(value);
    else throw new Error(`transformation ${Type} not evaluated`);
  }
  return value;
}

/** `//` to `/`, `/./` dropped, `/x/../` resolved, as NORMALIZE_PATH does. */
function normalizePath(path: string): string {
  const out: string[] = [];
  for (const segment of path.replace(/\/+/g, '/').split('/')) {
    if (segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out.join('/') || '/';
}

function field(request: WafRequest, fieldToMatch: any): string {
  if (fieldToMatch.UriPath) return request.path.split('?')[0];
  if (fieldToMatch.Method) return request.method;
  if (fieldToMatch.SingleHeader) return request.headers?.[fieldToMatch.SingleHeader.Name.toLowerCase()] ?? '';
  throw new Error(`field ${JSON.stringify(fieldToMatch)} not evaluated`);
}

export function matches(statement: any, request: WafRequest): boolean {
  if (statement.AndStatement) return statement.AndStatement.Statements.every((s: any) => matches(s, request));
  if (statement.OrStatement) return statement.OrStatement.Statements.some((s: any) => matches(s, request));
  if (statement.NotStatement) return !matches(statement.NotStatement.Statement, request);
  if (statement.ByteMatchStatement) {
    const { FieldToMatch, PositionalConstraint, SearchString, TextTransformations } = statement.ByteMatchStatement;
    const value = transform(field(request, FieldToMatch), TextTransformations);
    if (PositionalConstraint === 'EXACTLY') return value === SearchString;
    if (PositionalConstraint === 'STARTS_WITH') return value.startsWith(SearchString);
    throw new Error(`positional constraint ${PositionalConstraint} not evaluated`);
  }
  if (statement.RegexMatchStatement) {
    const { FieldToMatch, RegexString, TextTransformations } = statement.RegexMatchStatement;
    return new RegExp(RegexString).test(transform(field(request, FieldToMatch), TextTransformations));
  }
  throw new Error(`statement ${Object.keys(statement).join(', ')} not evaluated`);
}
