/**
 * The `openai` client the SDK examples wrap: OpenAI itself when OPENAI_API_KEY is set, otherwise a real client
 * aimed at a local fake OpenAI-wire server (no key, no network) that answers after a simulated network latency.
 */
import OpenAI from "openai";
import { startFakeOpenAI, type FakeOpenAIOptions } from "../../src/testing/index.js";
import { startLatencyProxy } from "./latency-proxy.js";
import { outcome } from "./print.js";

export interface ExampleClient {
  readonly mode: "fake" | "openai";
  /** One line saying where the calls go, for the example's first line of output. */
  readonly description: string;
  /** A plain `new OpenAI()` (aimed at the fake server when there is no key). */
  readonly client: OpenAI;
  /** Calls that reached the provider so far, of every kind (null with a real key: OpenAI does not tell). */
  providerCalls(): number | null;
  close(): Promise<void>;
}

const isModelCall = (path: string) => !path.includes("/embeddings") && !path.includes("/files/");

export async function openClient(options: FakeOpenAIOptions & { latencyMs?: number } = {}): Promise<ExampleClient> {
  if (process.env.OPENAI_API_KEY) {
    return {
      mode: "openai",
      description: "Model: OpenAI (OPENAI_API_KEY is set).",
      client: new OpenAI(),
      providerCalls: () => null,
      close: async () => undefined,
    };
  }
  const { latencyMs = 250, ...fake } = options;
  const server = await startFakeOpenAI(fake);
  const proxy = await startLatencyProxy(server.url, latencyMs, isModelCall);
  return {
    mode: "fake",
    description: `Model: a local fake OpenAI server, ${latencyMs} ms simulated latency per call (set OPENAI_API_KEY to use OpenAI).`,
    client: new OpenAI({ apiKey: "fake-key", baseURL: `${proxy.url}/v1`, maxRetries: 0 }),
    providerCalls: () => server.modelCalls() + server.mediaCalls(),
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

/** The cache's verdict on an SDK result (or chunk): its hit marker, or none when the model answered. */
export function verdict(result: { semcache?: object } | null | undefined): string {
  return outcome({ semcache: result?.semcache });
}
