/**
 * The few version ranges this package states for its optional packages: `^1.2.3`, `>=1.2.3`, `<2.0.0`, and
 * space-separated conjunctions of them. Prerelease tags are ignored (1.2.3-beta counts as 1.2.3), since the
 * check only guards against a major version that changed an API.
 */

type Version = [number, number, number];

function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The upper bound of a caret range: the next version that changes the first non-zero part. */
function caretLimit([major, minor, patch]: Version): Version {
  if (major > 0) return [major + 1, 0, 0];
  if (minor > 0) return [0, minor + 1, 0];
  return [0, 0, patch + 1];
}

function satisfiesComparator(version: Version, comparator: string): boolean {
  const match = /^(\^|>=|<=|>|<|=)?(.+)$/.exec(comparator);
  const bound = match && parseVersion(match[2]);
  if (!match || !bound) throw new Error(`unsupported version range part "${comparator}"`);
  const order = compare(version, bound);
  switch (match[1]) {
    case "^":
      return order >= 0 && compare(version, caretLimit(bound)) < 0;
    case ">=":
      return order >= 0;
    case "<=":
      return order <= 0;
    case ">":
      return order > 0;
    case "<":
      return order < 0;
    default:
      return order === 0;
  }
}

/** True when `version` (e.g. "1.18.2") is inside `range` (e.g. "^1.18.0" or ">=0.3.0 <2.0.0"). */
export function satisfiesRange(version: string, range: string): boolean {
  const parsed = parseVersion(version);
  if (!parsed) return false;
  return range.trim().split(/\s+/).every((comparator) => satisfiesComparator(parsed, comparator));
}
