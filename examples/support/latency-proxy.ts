/**
 * A loopback HTTP proxy that holds each matching request for a while before passing it on, so a local fake
 * model costs what a call over the network would. (A custom `fetch` in the client's configuration would do
 * the same, but it would also change the model's llmKey, which is what SemanticCache partitions on.)
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface LatencyProxy {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  close(): Promise<void>;
}

export async function startLatencyProxy(target: string, delayMs: number, delays: (path: string) => boolean): Promise<LatencyProxy> {
  const { hostname, port } = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forward = () => {
      const upstream = request({ hostname, port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on("error", () => outgoing.destroy());
      incoming.pipe(upstream);
    };
    if (delays(incoming.url ?? "")) setTimeout(forward, delayMs);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
