/**
 * DNS rebinding guard. With no API key the server listens on loopback only, and every caller is an admin
 * (/export, /import, /clear). A web page can still reach it: its own domain, re-pointed at 127.0.0.1, makes
 * the browser send the page's requests to this server, as same-origin requests whose answers the page reads.
 * Such a request names the page's domain in Host, so in that mode only requests addressed to a loopback
 * name or address (localhost, 127.x.x.x, [::1], with any port) are answered; others get 403.
 */
import type { FastifyInstance } from "fastify";
import { HttpProblem } from "./errors.js";
import { isLoopback, type ServerSettings } from "./server-config.js";

/** The host of a Host header without its port: `[::1]:8000` -> `[::1]`, `localhost:80` -> `localhost`. */
function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.indexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

/** True when the server answers only loopback-addressed requests: no API keys, and no allow_unauthenticated. */
function guardsHost(settings: ServerSettings): boolean {
  return settings.keys.size === 0 && !settings.allowUnauthenticated;
}

export function installHostGuard(app: FastifyInstance, settings: ServerSettings): void {
  if (!guardsHost(settings)) return;
  app.addHook("onRequest", (request, _reply, done) => {
    const host = request.headers.host;
    if (typeof host === "string" && isLoopback(hostName(host))) return done();
    done(
      new HttpProblem(
        "SEMCACHE_FORBIDDEN",
        "This server has no API keys, so it answers only requests addressed to localhost, 127.0.0.1 or [::1] (the Host header). " +
          "Configure server.api_keys to serve other names.",
      ),
    );
  });
}
