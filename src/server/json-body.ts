/**
 * The JSON body parser of every JSON route: Fastify's own (which refuses `__proto__` and `constructor`
 * keys), after one pass over the text that refuses what no route can use and some would crash or
 * mis-store on. The rule, the same on every route, the proxy's included (400 SEMCACHE_VALIDATION):
 * - nesting deeper than MAX_JSON_DEPTH: code that walks a value recursively (partition keys, the
 *   adapters) would overflow the call stack on a body nested thousands deep;
 * - U+0000 in any string: PostgreSQL cannot store it, and it means nothing in a prompt;
 * - a lone surrogate (`"\ud800"`) in any string: UTF-8 cannot encode it, so two different strings would
 *   become one stored key.
 */
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../core/errors.js";

/** Deepest nesting of arrays and objects a body may have (an OpenAI chat body with tool schemas needs about 20). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

const HEX4 = /^[0-9a-fA-F]{4}$/;
const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
const LONE = "A string in the body holds a lone surrogate (\\ud800-\\udfff with no pair), which is not Unicode text.";

/**
 * Why a JSON text is refused, or undefined. Reads the text's structure only; whatever else is wrong with
 * it (a stray comma, a bad escape) is left for the parser to report.
 */
export function jsonTextProblem(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  // A high surrogate waiting for its low half (as a raw character or a \u escape).
  let pendingHigh = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (!inString) {
      if (char === QUOTE) inString = true;
      else if (OPENERS.has(char)) {
        if (++depth > maxDepth) return `The body nests deeper than ${maxDepth} levels.`;
      } else if (CLOSERS.has(char)) depth--;
      continue;
    }
    let unit = char;
    if (char === QUOTE) {
      inString = false;
      if (pendingHigh) return LONE;
      continue;
    }
    if (char === BACKSLASH) {
      unit = text.charCodeAt(++i);
      if (unit === 0x75) {
        const hex = text.slice(i + 1, i + 5);
        if (!HEX4.test(hex)) continue;
        unit = Number.parseInt(hex, 16);
        i += 4;
      }
    }
    if (unit === 0) return "A string in the body holds U+0000 (NUL), which cannot be stored.";
    if (pendingHigh !== isLow(unit)) return LONE;
    pendingHigh = isHigh(unit);
  }
  return undefined;
}


/** Replaces the app's JSON parser with Fastify's own behind `jsonTextProblem`. */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string; // parseAs: "string"
    const problem = jsonTextProblem(text);
    if (problem !== undefined) return done(new ValidationError(problem), undefined);
    parse(request, text, done);
  });
}
