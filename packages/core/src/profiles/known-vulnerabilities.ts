import type { IConstruct } from 'constructs';
import { sourceDate } from './source-date';
import type { AcceptedAdvisory } from '../context/accepted-advisory';
import { didYouMean } from '../context/did-you-mean';
import type { KnownVulnerability } from '../contract/known-vulnerability';
import { UserError } from '../errors';
import { warn } from '../warnings';

/**
 * One open known vulnerability as messages show it: id, component, pinned version, severity, fixed release; an
 * acceptance it still has is one whose `until` has passed.
 */
function shown(v: KnownVulnerability, acceptance?: AcceptedAdvisory): string {
  const lapsed = acceptance?.until ? ` (accepted until ${acceptance.until}, which has passed)` : '';
  return `${v.id} (${v.component} ${v.version}, ${v.severity}, fixed in ${v.fixedIn})${lapsed}`;
}

/**
 * Compares what the application declares with what `acceptedAdvisories` accepts: an accepted id it does not declare
 * is refused everywhere; each declared one not accepted, or accepted until a day that has passed, is refused where the
 * profile refuses known vulnerabilities and a warning elsewhere.
 */
export function checkKnownVulnerabilities(scope: IConstruct, plugin: string, declared: KnownVulnerability[],
  accepted: Record<string, AcceptedAdvisory>, refused: boolean, profile: string, day = sourceDate().toISOString().slice(0, 10)): void {
  const ids = declared.map((v) => v.id);
  const unknown = Object.keys(accepted).filter((id) => !ids.includes(id));
  if (unknown.length > 0) {
    throw new UserError(`acceptedAdvisories names ${unknown.map((id) => {
      const near = didYouMean(id, ids);
      return `${JSON.stringify(id)}${near ? ` (did you mean ${near}?)` : ''}`;
    }).join(', ')}, which ${plugin} does not declare; allowed: ${ids.length > 0 ? ids.join(', ') : 'none (it declares no known vulnerability)'}.`, scope);
  }
  const open = declared.filter((v) => !accepted[v.id] || (accepted[v.id].until !== undefined && accepted[v.id].until! < day));
  if (open.length === 0) return;
  const list = open.map((v) => shown(v, accepted[v.id])).join('; ');
  const how = 'accept each with its reason in the context key acceptedAdvisories, for example ' +
    `{"${open[0].id}": {"reason": "<mitigation and ticket>", "until": "<YYYY-MM-DD>"}}, or move the pins past them`;
  if (refused) {
    throw new UserError(`${plugin} installs releases under published advisories, which ${profile} does not deploy unaccepted: ` +
      `${list}. To deploy anyway, ${how}.`, scope);
  }
  warn(scope, 'knownVulnerabilities', `${plugin} installs releases under published advisories: ${list}. ${profile} deploys ` +
    `them; PRODUCTION refuses them until you ${how}.`);
}
