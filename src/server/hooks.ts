/**
 * What happens around every route: who is calling (per route, from its `access`), its metrics series, the
 * 404/405 answers, and a graceful close. Per-route hooks are attached as routes are declared, so the hot
 * path reads no route options and builds no label strings.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from "fastify";
import { HttpProblem } from "./errors.js";
import type { RouteSeries } from "./metrics.js";
import type { ServerState } from "./state.js";

type Hook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

function append(existing: RouteOptions["onRequest"], hook: Hook): Hook[] {
  return [...((existing === undefined ? [] : [existing].flat()) as Hook[]), hook];
}

/** Counts a route's answers in its series (one per method the route answers). */
function metricsHook(state: ServerState, url: string): Hook {
  const byMethod = new Map<string, RouteSeries>();
  // The series kept belong to the Metrics they came from: the warm-up answers into metrics of its own.
  let metrics = state.metrics;
  return (request, reply, done) => {
    if (metrics !== state.metrics) {
      metrics = state.metrics;
      byMethod.clear();
    }
    let series = byMethod.get(request.method);
    if (!series) {
      series = state.metrics.series(request.method, url);
      byMethod.set(request.method, series);
    }
    state.metrics.observe(series, reply.statusCode, reply.elapsedTime / 1000);
    done();
  };
}

export function installHooks(app: FastifyInstance, state: ServerState): void {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const access = route.config?.access;
    if (access) {
      route.onRequest = append(route.onRequest, (request, _reply, done) => {
        try {
          request.caller = state.auth.identify(request, access);
          done();
        } catch (error) {
          done(error as Error);
        }
      });
    }
    route.onResponse = append(route.onResponse, metricsHook(state, route.url));
    if (/[*:]/.test(route.url)) return;
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?", 1)[0];
    const allowed = methodsByPath.get(path);
    const problem = allowed
      ? new HttpProblem("SEMCACHE_METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}; use ${[...allowed].sort().join(", ")}.`, { allow: [...allowed].sort().join(", ") })
      : new HttpProblem("SEMCACHE_NOT_FOUND", `No route ${request.method} ${path}. The API is described at /docs.`);
    state.metrics.observe(state.metrics.series(request.method, "unmatched"), problem.statusCode, reply.elapsedTime / 1000);
    throw problem;
  });

  // Closing: requests in flight finish; new ones get 503; every connection is let go, not kept alive.
  app.addHook("onRequest", (_request, reply, done) => {
    if (!state.closing) return done();
    void reply.header("connection", "close");
    done(new HttpProblem("SEMCACHE_UNAVAILABLE", "The server is shutting down."));
  });
  let reaper: NodeJS.Timeout | undefined;
  app.addHook("preClose", (done) => {
    state.closing = true;
    // Node closes idle connections once, when close starts; a connection whose response ends later would
    // otherwise stay open (and hold the close) until its keep-alive timeout.
    reaper = setInterval(() => app.server.closeIdleConnections(), 50);
    reaper.unref();
    done();
  });
  app.addHook("onClose", (_instance, done) => {
    clearInterval(reaper);
    done();
  });
}
