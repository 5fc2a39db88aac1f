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
  // Where the profile refuses known vulnerabilities, an acceptance names who answers for it and where it is recorded.
  const unowned = refused ? declared.filter((v) => !open.includes(v) && (!accepted[v.id].owner || !accepted[v.id].reference)) : [];
  if (open.length === 0 && unowned.length === 0) return;
  const list = open.map((v) => shown(v, accepted[v.id])).join('; ');
  const how = open.length === 0 ? '' : 'accept each in the context key acceptedAdvisories, for example ' +
    `{"${open[0].id}": {"reason": "<what narrows it here>", "until": "<YYYY-MM-DD>", "owner": "<who accepted the risk>", ` +
    '"reference": "<ticket or risk-register entry>"}}, or move the pins past them';
  if (refused) {
    throw new UserError([
      ...open.length ? [`${plugin} installs releases under published advisories, which ${profile} does not deploy unaccepted: ` +
        `${list}. To deploy anyway, ${how}.`] : [],
      ...unowned.length ? [`acceptedAdvisories: ${profile} needs the owner and the reference of each acceptance, which ` +
        `${unowned.map((v) => `${v.id} lacks (${[...accepted[v.id].owner ? [] : ['owner'], ...accepted[v.id].reference ? [] : ['reference']].join(' and ')})`).join('; ')}; ` +
        'give each as {"reason": ..., "owner": "<who accepted the risk>", "reference": "<ticket or risk-register entry>"}.'] : [],
    ].join(' '), scope);
  }
  warn(scope, 'knownVulnerabilities', `${plugin} installs releases under published advisories: ${list}. ${profile} deploys ` +
    `them; PRODUCTION refuses them until you ${how}.`);
}
