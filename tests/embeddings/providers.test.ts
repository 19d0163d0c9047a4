import { CohereEmbeddings } from "@langchain/cohere";
import { HuggingFaceInferenceEmbeddings } from "@langchain/community/embeddings/hf";
import type { Embeddings } from "@langchain/core/embeddings";
import { OllamaEmbeddings } from "@langchain/ollama";
import { OpenAIEmbeddings } from "@langchain/openai";
import { CohereClient } from "cohere-ai";
import { cached } from "../../src/adapters/function.js";
import { Cache } from "../../src/presets/cache.js";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { LangChainEmbeddingFunction, type LangChainEmbeddingOptions } from "../../src/core/embedding-source.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { startFakeCohere } from "../../src/testing/fake-servers/cohere.js";
import { startFakeServer, type FakeRequest, type FakeServer } from "../../src/testing/fake-servers/http.js";
import { startFakeHuggingFace } from "../../src/testing/fake-servers/huggingface.js";
import { startFakeOllama } from "../../src/testing/fake-servers/ollama.js";
import { startFakeOpenAI } from "../../src/testing/fake-servers/openai.js";
import { countingModel, tempDir } from "../helpers/fixtures.js";

const DIMENSION = 256;
/** The client-side timeout every case sets (generous for a loopback server; a silent server outlasts it). */
const TIMEOUT_MS = 1000;

/** Texts the fakes answer with a malformed vector (where the fake lets a test choose the vectors). */
const NAN_TEXT = "please answer with a NaN";
const SHORT_TEXT = "please answer with three numbers";
function malformed(text: string): unknown {
  if (text === NAN_TEXT) return Array.from({ length: DIMENSION }, (_, i) => (i === 7 ? Number.NaN : 0.1));
  if (text === SHORT_TEXT) return [0.1, 0.2, 0.3];
  return undefined;
}

interface Sent {
  model: string;
  texts: string[];
}

/** One provider: its fake server, its real LangChain Embeddings class aimed at a URL, and how it sends texts. */
interface Provider {
  name: string;
  model: string;
  /** Starts the provider's fake; `failWith()` returning a status fails every request with it. */
  start(failWith: () => number | undefined): Promise<FakeServer>;
  /** The real Embeddings class aimed at a server, with the client's own timeout where it has one. */
  embeddings(url: string): Embeddings;
  /** Adapter options for a bounded wait (only for clients without a timeout of their own). */
  adapter: LangChainEmbeddingOptions;
  /** Whether the fake serves `malformed()` vectors. */
  malformedVectors: boolean;
  /** The model and texts of an embedding request, read from the provider's own wire format. */
  read(request: FakeRequest): Sent;
}

const PROVIDERS: Provider[] = [
  {
    name: "OpenAIEmbeddings",
    model: "text-embedding-3-small",
    start: (failWith) => startFakeOpenAI({ embeddingDimension: DIMENSION, fail: () => failWith() }),
    embeddings: (url) =>
      new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "test", configuration: { baseURL: `${url}/v1` }, timeout: TIMEOUT_MS, maxRetries: 0 }),
    adapter: {},
    malformedVectors: false,
    read: (request) => ({ model: String(request.json?.model), texts: request.json?.input as string[] }),
  },
  {
    name: "HuggingFaceInferenceEmbeddings",
    model: "BAAI/bge-small-en-v1.5",
    start: (failWith) => startFakeHuggingFace({ dimension: DIMENSION, vector: malformed, fail: () => failWith() }),
    embeddings: (url) =>
      new HuggingFaceInferenceEmbeddings({
        model: "BAAI/bge-small-en-v1.5",
        endpointUrl: `${url}/models/BAAI/bge-small-en-v1.5/pipeline/feature-extraction`,
        maxRetries: 0,
      }),
    // @langchain/community's class builds its InferenceClient itself and passes it no signal or timeout.
    adapter: { timeoutMs: TIMEOUT_MS },
    malformedVectors: true,
    read: (request) => ({
      model: /^\/models\/(.+)\/pipeline\/feature-extraction$/.exec(request.path)?.[1] ?? "",
      texts: request.json?.inputs as string[],
    }),
  },
  {
    name: "CohereEmbeddings",
    model: "embed-english-v3.0",
    start: (failWith) => startFakeCohere({ dimension: DIMENSION, vector: malformed, fail: () => failWith() }),
    // CohereEmbeddings has no base URL option (@langchain/cohere dist/client.js: `new CohereClient({ token })`
    // unless a `client` is given), so the test hands it a cohere-ai client aimed at the fake.
    embeddings: (url) =>
      new CohereEmbeddings({
        model: "embed-english-v3.0",
        client: new CohereClient({ token: "test", environment: url, timeoutInSeconds: TIMEOUT_MS / 1000, maxRetries: 0 }),
        maxRetries: 0,
      }),
    adapter: {},
    malformedVectors: true,
    read: (request) => ({ model: String(request.json?.model), texts: request.json?.texts as string[] }),
  },
  {
    name: "OllamaEmbeddings",
    model: "nomic-embed-text",
    start: (failWith) => startFakeOllama({ dimension: DIMENSION, vector: malformed, fail: () => failWith() }),
    embeddings: (url) =>
      new OllamaEmbeddings({
        model: "nomic-embed-text",
        baseUrl: url,
        maxRetries: 0,
        fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }),
      }),
    adapter: {},
    malformedVectors: true,
    read: (request) => ({ model: String(request.json?.model), texts: request.json?.input as string[] }),
  },
];

const QUESTIONS = ["What is the capital of France?", "How do I bake sourdough bread at home?", "Who wrote Pride and Prejudice?"];
const ANSWERS = ["Paris.", "Feed a starter, knead, proof overnight, bake hot.", "Jane Austen."];
const REWORDED = "what is the capital city of France";
const UNRELATED = "Which river flows through Cairo?";

/** A server that accepts every request and never answers (until the client gives up or it closes). */
function startSilentServer(): Promise<FakeServer> {
  return startFakeServer({
    "POST /*": (request) => new Promise((resolve) => request.signal.addEventListener("abort", resolve, { once: true })),
  });
}

interface Reply {
  answer: string;
  fromCache: boolean;
  score?: number;
}

/** The model behind the cache (counting its calls) and a cached function asking it through the pipeline. */
function asker(cache: Cache) {
  const model = countingModel((prompt) => `model answer to ${prompt}`, 0);
  const ask = cached(async (prompt: string): Promise<Reply> => ({ answer: await model.call(prompt), fromCache: false }), {
    requestOptions: { cacheObj: cache },
    answerOf: (reply) => reply.answer,
    fromCache: (hit) => ({ answer: hit.answer, fromCache: true, score: hit.score }),
  });
  return { ask, model };
}

describe.each(PROVIDERS)("$name as the cache's embedding (real class, fake server)", (provider) => {
  let server: FakeServer;
  let failStatus: number | undefined;
  let dir: ReturnType<typeof tempDir>;
  const caches: Cache[] = [];

  beforeAll(async () => {
    server = await provider.start(() => failStatus);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    failStatus = undefined;
    server.requests.length = 0;
    dir = tempDir();
  });
  afterEach(async () => {
    await Promise.all(caches.splice(0).map((cache) => cache.close()));
    dir.cleanup();
  });

  /** A semantic cache (sqlite + hnswlib in a temp dir, cosine distance) with `embeddingFunc` as given. */
  async function openCache(embeddingFunc: Embeddings | LangChainEmbeddingFunction, errors: Error[] = []): Promise<Cache> {
    const cache = new Cache();
    caches.push(cache);
    return cache.init({
      embeddingFunc,
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: new DistanceEvaluation(),
      onError: (error) => errors.push(error),
    });
  }

  const sent = () => server.requests.map((request) => provider.read(request));

  testEmbeddingFunction({ name: provider.name, create: () => new LangChainEmbeddingFunction(provider.embeddings(server.url)) });

  it("answers a reworded question from imported entries and asks the model for an unrelated one", async () => {
    const cache = await openCache(provider.embeddings(server.url));
    await cache.importData(QUESTIONS, ANSWERS);
    const { ask, model } = asker(cache);

    expect(await ask(REWORDED)).toMatchObject({ answer: "Paris.", fromCache: true });
    expect(await ask(UNRELATED)).toEqual({ answer: `model answer to ${UNRELATED}`, fromCache: false });
    expect(model.calls).toBe(1);
    // One batch for the import, one request per lookup; the miss's save reuses its lookup's vector.
    expect(sent()).toEqual([
      { model: provider.model, texts: QUESTIONS },
      { model: provider.model, texts: [REWORDED] },
      { model: provider.model, texts: [UNRELATED] },
    ]);
    expect(cache.report.errors).toBe(0);
    expect(cache.embeddingFunc.dimension).toBe(DIMENSION);
  });

  it("gives a question the same vector imported or looked up (a rewrite to the same words scores 1)", async () => {
    const cache = await openCache(provider.embeddings(server.url));
    await cache.importData(QUESTIONS, ANSWERS);
    const { ask } = asker(cache);
    // Another key text (so no exact match), the same words (so the fakes embed it identically).
    const reply = await ask("what is the CAPITAL of france");
    expect(reply.fromCache).toBe(true);
    expect(reply.score).toBeCloseTo(1, 5);

    const fn = new LangChainEmbeddingFunction(provider.embeddings(server.url));
    const [imported] = await fn.embedBatch([QUESTIONS[0], QUESTIONS[1]]);
    expect(await fn.embed(QUESTIONS[0])).toEqual(imported);
  });

  it("fails open when the provider answers 500 during a lookup, and hits again once it is back", async () => {
    const errors: Error[] = [];
    const cache = await openCache(provider.embeddings(server.url), errors);
    await cache.importData(QUESTIONS, ANSWERS);
    const { ask, model } = asker(cache);

    failStatus = 500;
    expect(await ask(REWORDED)).toEqual({ answer: `model answer to ${REWORDED}`, fromCache: false });
    expect(model.calls).toBe(1);
    expect(cache.report.errors).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => EmbeddingError.isInstance(error) && error.message.startsWith(`${provider.name} failed`))).toBe(true);

    failStatus = undefined;
    expect(await ask(REWORDED)).toMatchObject({ answer: "Paris.", fromCache: true });
    expect(model.calls).toBe(1);
  });

  it("fails open when the provider never answers (bounded by a timeout)", async () => {
    const silent = await startSilentServer();
    try {
      const errors: Error[] = [];
      const cache = await openCache(new LangChainEmbeddingFunction(provider.embeddings(silent.url), provider.adapter), errors);
      const { ask, model } = asker(cache);
      expect(await ask(REWORDED)).toEqual({ answer: `model answer to ${REWORDED}`, fromCache: false });
      expect(model.calls).toBe(1);
      expect(silent.requests.length).toBeGreaterThan(0);
      expect(cache.report.errors).toBeGreaterThan(0);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((error) => EmbeddingError.isInstance(error))).toBe(true);
    } finally {
      await silent.close();
    }
  });

  it("probes the dimension once, on init()", async () => {
    const fn = new LangChainEmbeddingFunction(provider.embeddings(server.url));
    await Promise.all([fn.init(), fn.init()]);
    await fn.init();
    expect(fn.dimension).toBe(DIMENSION);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses bytes with a ValidationError before calling the provider", async () => {
    const fn = new LangChainEmbeddingFunction(provider.embeddings(server.url));
    await expect(fn.embed(new TextEncoder().encode("audio bytes"))).rejects.toThrow(ValidationError);
    await expect(fn.embedBatch(["text", new Uint8Array([1, 2])])).rejects.toThrow(ValidationError);
    expect(server.requests).toHaveLength(0);
  });

  const malformedTitle = "turns a NaN or a wrong-length vector from the provider into EmbeddingError";
  (provider.malformedVectors ? it : it.skip)(
    provider.malformedVectors ? malformedTitle : `${malformedTitle} (skipped: the OpenAI fake always serves good vectors; see the dimensions test)`,
    async () => {
      const fn = new LangChainEmbeddingFunction(provider.embeddings(server.url));
      const warn = console.warn;
      console.warn = () => undefined; // cohere-ai warns about the null (a NaN in JSON), then passes it on
      try {
        await expect(fn.embed(NAN_TEXT)).rejects.toThrow(EmbeddingError);
      } finally {
        console.warn = warn;
      }
      await fn.embed(QUESTIONS[0]);
      await expect(fn.embed(SHORT_TEXT)).rejects.toThrow(`${provider.name} returned a 3-d vector; it embeds to ${DIMENSION}-d.`);
    },
  );
});

describe("OpenAIEmbeddings with another `dimensions` than the index", () => {
  it("fails with EmbeddingError (a model change, not a silent mix of vector sizes)", async () => {
    const server = await startFakeOpenAI({ embeddingDimension: DIMENSION });
    try {
      const resized = new OpenAIEmbeddings({ apiKey: "test", dimensions: 32, configuration: { baseURL: server.baseURL }, maxRetries: 0 });
      const fn = new LangChainEmbeddingFunction(resized, { dimension: DIMENSION });
      await expect(fn.embed("hello")).rejects.toThrow(`OpenAIEmbeddings returned a 32-d vector; it embeds to ${DIMENSION}-d.`);
      expect(server.requests[0].json?.dimensions).toBe(32);
    } finally {
      await server.close();
    }
  });
});

describe("CohereEmbeddings: query and document embeddings differ, the cache uses one kind", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeCohere({ dimension: DIMENSION });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const cohere = () =>
    new CohereEmbeddings({ model: "embed-english-v3.0", client: new CohereClient({ token: "test", environment: server.url, maxRetries: 0 }), maxRetries: 0 });
  const inputTypes = () => server.requests.map((request) => request.json?.input_type);

  it("embeds one text differently as a query and as a document (as Cohere v3 does)", async () => {
    const embeddings = cohere();
    const query = await embeddings.embedQuery(QUESTIONS[0]);
    const [document] = await embeddings.embedDocuments([QUESTIONS[0]]);
    expect(inputTypes()).toEqual(["search_query", "search_document"]);
    const similarity = cosineSimilarity(Float32Array.from(query), Float32Array.from(document));
    expect(similarity).toBeGreaterThan(0.9);
    expect(similarity).toBeLessThan(0.999);
  });

  it.each([
    ["documents (default)", {}, "search_document"],
    ["queries", { embedAs: "queries" as const }, "search_query"],
  ])("embeds lookups and imports alike with embedAs %s", async (_, options, inputType) => {
    const fn = new LangChainEmbeddingFunction(cohere(), options);
    const looked = await fn.embed(QUESTIONS[0]);
    const [imported] = await fn.embedBatch(QUESTIONS);
    expect(looked).toEqual(imported);
    expect(new Set(inputTypes())).toEqual(new Set([inputType]));
  });

  it("is refused by the fake without input_type for a v3 model, as by Cohere", async () => {
    const client = new CohereClient({ token: "test", environment: server.url, maxRetries: 0 });
    await expect(client.embed({ model: "embed-english-v3.0", texts: ["x"] })).rejects.toMatchObject({ statusCode: 400 });
    const v2 = await client.embed({ model: "embed-english-v2.0", texts: ["x"] });
    expect(v2.responseType).toBe("embeddings_floats");
  });
});
