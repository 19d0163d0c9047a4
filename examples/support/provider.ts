/**
 * The model provider the examples talk to: OpenAI when OPENAI_API_KEY is set (ChatOpenAI, OpenAI and
 * OpenAIEmbeddings with their defaults), otherwise a local fake OpenAI-wire server (no key, no network)
 * that answers with the example's own `reply` after a simulated network latency.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { ChatOpenAI, OpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { startFakeOpenAI, type FakeOpenAIOptions } from "../../src/testing/index.js";
import { startLatencyProxy } from "./latency-proxy.js";

type ChatFields = NonNullable<ConstructorParameters<typeof ChatOpenAI>[0]>;
type LLMFields = NonNullable<ConstructorParameters<typeof OpenAI>[0]>;
type EmbeddingsFields = NonNullable<ConstructorParameters<typeof OpenAIEmbeddings>[0]>;

export interface ProviderOptions {
  /** What the fake model answers (ignored with a real key). */
  reply: NonNullable<FakeOpenAIOptions["reply"]>;
  /** Milliseconds the fake waits before answering a model call, so a miss costs what a network call would. Default 250. */
  latencyMs?: number;
}

export interface ExampleProvider {
  /** Where the calls go: "fake" (the local server) or "openai". */
  readonly mode: "fake" | "openai";
  /** One line saying where the model calls go, for the example's first line of output. */
  readonly description: string;
  chatModel(fields?: ChatFields): ChatOpenAI;
  llm(fields?: LLMFields): OpenAI;
  embeddings(fields?: EmbeddingsFields): OpenAIEmbeddings;
  /** Chat and completion calls that reached the model so far (a cache hit is not one). */
  modelCalls(): number;
  close(): Promise<void>;
}

/** Counts the model runs that really called the model: LangChain marks the ends its own cache answered. */
class ModelCallCounter extends BaseCallbackHandler {
  name = "model-call-counter";
  calls = 0;

  override async handleLLMEnd(_output: unknown, _runId: string, _parent?: string, _tags?: string[], extra?: Record<string, unknown>) {
    if (extra?.cached !== true) this.calls++;
  }
}

const isModelCall = (path: string) => !path.includes("/embeddings");

/** The provider for this run: the fake unless OPENAI_API_KEY is set. */
export async function openProvider(options: ProviderOptions): Promise<ExampleProvider> {
  if (process.env.OPENAI_API_KEY) {
    const counter = new ModelCallCounter();
    return {
      mode: "openai",
      description: "Model: OpenAI (OPENAI_API_KEY is set).",
      chatModel: (fields) => new ChatOpenAI({ ...fields, callbacks: [counter] }),
      llm: (fields) => new OpenAI({ ...fields, callbacks: [counter] }),
      embeddings: (fields) => new OpenAIEmbeddings(fields),
      modelCalls: () => counter.calls,
      close: async () => undefined,
    };
  }
  const server = await startFakeOpenAI({ reply: options.reply });
  const latencyMs = options.latencyMs ?? 250;
  const proxy = await startLatencyProxy(server.url, latencyMs, isModelCall);
  const connection = { apiKey: "fake-key", configuration: { baseURL: `${proxy.url}/v1` }, maxRetries: 0 };
  return {
    mode: "fake",
    description: `Model: a local fake OpenAI server, ${latencyMs} ms simulated latency per model call (set OPENAI_API_KEY to use OpenAI).`,
    chatModel: (fields) => new ChatOpenAI({ ...connection, ...fields }),
    llm: (fields) => new OpenAI({ ...connection, ...fields }),
    embeddings: (fields) => new OpenAIEmbeddings({ ...connection, ...fields }),
    modelCalls: () => server.modelCalls(),
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

/** The text a fake request asks about: the last user message of a chat, or a completion's prompt. */
export function askedText(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role: string; content: unknown }> | undefined;
  if (!messages) return [body.prompt].flat().join("\n");
  const last = [...messages].reverse().find((message) => message.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
}

/** A fake reply from a table of canned answers: the first whose pattern matches the question, else `fallback`. */
export function cannedReply(answers: ReadonlyArray<readonly [RegExp, string]>, fallback = "I have no canned answer for that.") {
  return (body: Record<string, unknown>): string => {
    const question = askedText(body);
    return answers.find(([pattern]) => pattern.test(question))?.[1] ?? fallback;
  };
}
