/**
 * Score's placeholders as its reference library reads them (score-spec/score-go, `framework/substitution.go`):
 * `${a.b.c}` names a value by its dot-separated path (`\.` is a dot inside a part), `$$` is a `$`, and `$${...}` is the
 * text `${...}`. A piece of a value is either text or such a reference.
 */
export type ScorePiece = { readonly text: string } | { readonly ref: readonly string[]; readonly source: string };

/** score-go's `placeholderRegEx`: `$$`, `$${...}` or `${...}`. */
const PLACEHOLDER = /\$((?:\$?\{([^}]*)\})|\$)/g;

/** A value's text and references, in order (adjacent text merged). */
export function scorePieces(value: string): ScorePiece[] {
  const pieces: ScorePiece[] = [];
  const text = (t: string) => {
    if (t === '') return;
    const last = pieces[pieces.length - 1];
    if (last && 'text' in last) pieces[pieces.length - 1] = { text: last.text + t };
    else pieces.push({ text: t });
  };
  let at = 0;
  for (const match of value.matchAll(PLACEHOLDER)) {
    text(value.slice(at, match.index));
    at = match.index! + match[0].length;
    // An escaped dollar: the match without its first `$` (score-go's DefaultUnEscaper).
    if (match[1].startsWith('$')) text(match[0].slice(1));
    else pieces.push({ ref: splitRefParts(match[2]), source: match[0] });
  }
  text(value.slice(at));
  return pieces;
}

/** score-go's `SplitRefParts`: parts separated by `.`, where `\.` is a dot within a part. */
function splitRefParts(ref: string): string[] {
  return ref.replace(/\\\./g, '\0').split('.').map((part) => part.replace(/\0/g, '.'));
}
