/** A scenario's command-line options: `--name value` pairs and bare `--flag`s. */
export function parseArgs(argv: readonly string[] = process.argv.slice(2)): {
  value(name: string): string | undefined;
  number(name: string, fallback: number): number;
  flag(name: string): boolean;
} {
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 && at + 1 < argv.length && !argv[at + 1].startsWith("--") ? argv[at + 1] : undefined;
  };
  return {
    value,
    number(name, fallback) {
      const text = value(name);
      if (text === undefined) return fallback;
      const parsed = Number(text.replace(/_/g, "").replace(/k$/i, "000"));
      if (!Number.isFinite(parsed)) throw new RangeError(`--${name} must be a number, got ${text}`);
      return parsed;
    },
    flag: (name) => argv.includes(`--${name}`),
  };
}
