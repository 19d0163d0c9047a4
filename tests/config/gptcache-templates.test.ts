/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
/**
 * GPTCache's own config files (cache_config_template.yml, both versions, and the configs of its docs) written
 * out as GPTCache ships them: those that map start the server here and answer /put and /get, the others are
 * refused naming what to add, and the notes say what ran as something else.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { loadGptCacheConfig, similarCacheOptionsFromConfig, type GptCacheConfig } from "../../src/config/gptcache-config.js";
import { isInstalled } from "../../src/config/read-context.js";
import { MissingDependencyError, SemcacheError, UnknownKindError, ValidationError } from "../../src/core/errors.js";
import { OnnxEmbeddings } from "../../src/embeddings/onnx.js";
import { TimmImageEmbeddings } from "../../src/embeddings/timm.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { TransformersEmbeddings } from "../../src/embeddings/transformers.js";
import { TransformersImageEmbeddings } from "../../src/embeddings/transformers-image.js";
import { WinkEmbeddings } from "../../src/embeddings/wink.js";
import { lastContentWithoutPrompt } from "../../src/processors/pre.js";
import { randomOne } from "../../src/processors/post.js";
import { openServerCache } from "../../src/server/server-cache.js";
import { CrossEncoderEvaluation } from "../../src/similarity/cross-encoder.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { EmbeddingDistanceEvaluation } from "../../src/similarity/embedding-distance.js";
import { KReciprocalEvaluation } from "../../src/similarity/k-reciprocal.js";
import { LLMJudgeEvaluation } from "../../src/similarity/llm-judge.js";
import { OnnxModelEvaluation } from "../../src/similarity/onnx.js";
import { PrecisionGuardEvaluation } from "../../src/similarity/precision-guard.js";
import { RerankEvaluation } from "../../src/similarity/rerank.js";
import { SequenceMatchEvaluation } from "../../src/similarity/sequence-match.js";
import type { TimeEvaluation } from "../../src/similarity/time.js";
import { UnambiguousEvaluation } from "../../src/similarity/unambiguous.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { startFakeCohere } from "../../src/testing/fake-servers/cohere.js";
import { startFakeOpenAI } from "../../src/testing/fake-servers/openai.js";
import { tempDir } from "../helpers/fixtures.js";
import { testUrl, uniquePrefix } from "../helpers/server-stores.js";
import { serve } from "../server/helpers.js";
import { GPTCACHE_TEMPLATE as TEMPLATE } from "../fixtures/gptcache-configs.js";

const MODELS = fileURLToPath(new URL("../fixtures/tiny-models/", import.meta.url));



/** The template's first version (model_src, model_config, evaluation_kws, config.threshold). */
const FIRST_TEMPLATE = `# For \`model_src\`, \`evaluation\`, \`post_function\`, \`pre_function\`,
# \`storage_config\` options, Check README for more.

model_src:
    onnx
model_config:
    # Set model kws here including \`model\`, \`api_key\` if needed
storage_config:
    data_dir:
        gptcache_data
    manager:
        sqlite,faiss
    vector_params:
        # Set vector storage related params here
evaluation: 
    distance
evaluation_kws:
    # Set evaluation metric kws here
pre_function:
    get_prompt
post_function:
    first
config:
    threshold: 0.8
    # Set other config here
`;

/** As on a machine without faiss-node (and with everything else). */
const withoutFaiss = (name: string) => name !== "faiss-node";
const everything = (_name: string) => true;

const ONNX_NOTE = /^embedding: onnx runs as use here \(the offline Universal Sentence Encoder, 512-d\): no local ONNX model is configured/;
const FAISS_NOTE = /^storage_config\.manager: "sqlite,faiss" runs as "sqlite,hnswlib" here: faiss runs as hnswlib \(the in-process HNSW index, saved in the data dir\) since faiss-node is not installed \(npm install faiss-node to use FAISS\)\.$/;

/** Starts the server a config describes, in process, over a fresh data dir; `close` stops it and removes the dir. */
async function serveConfig(config: GptCacheConfig) {
  const dir = tempDir();
  const opened = await openServerCache({ config, dataDir: join(dir.path, "data") });
  const served = await serve(opened.cache);
  const put = async (prompt: string, answer: string) => expect((await served.post("/put", { prompt, answer })).statusCode).toBe(200);
  const get = async (prompt: string) => (await served.post("/get", { prompt })).json().answer as string | null;
  return {
    ...opened,
    put,
    get,
    close: async () => {
      await served.close();
      dir.cleanup();
    },
  };
}

describe("GPTCache's cache_config_template.yml", () => {
  it("loads as GPTCache ships it: onnx runs as the offline USE, faiss as hnswlib without faiss-node, each said in a note", () => {
    const config = loadGptCacheConfig(TEMPLATE, {}, withoutFaiss);
    expect(config.notes).toEqual([expect.stringMatching(ONNX_NOTE), expect.stringMatching(FAISS_NOTE)]);
    expect(config).toMatchObject({
      embedding: "use",
      storage: { dataDir: "gptcache_data", manager: "sqlite,hnswlib" },
      evaluation: "distance",
      preFunction: "get_prompt",
      postFunction: "first",
      config: { similarityThreshold: 0.8 },
    });
    expect(config.storage.vectorParams).toBeUndefined();
    // With faiss-node installed, faiss is what runs, and only the embedding gets a note.
    const withFaiss = loadGptCacheConfig(TEMPLATE, {}, everything);
    expect(withFaiss.storage.manager).toBe("sqlite,faiss");
    expect(withFaiss.notes).toEqual([expect.stringMatching(ONNX_NOTE)]);
    // On this machine, whichever holds here.
    expect(loadGptCacheConfig(TEMPLATE, {}).storage.manager).toBe(isInstalled("faiss-node") && isInstalled("@langchain/community") ? "sqlite,faiss" : "sqlite,hnswlib");
  });

  it("loads its first version (model_src, model_config, evaluation_kws, config.threshold) the same way", () => {
    const first = loadGptCacheConfig(FIRST_TEMPLATE, {}, withoutFaiss);
    const current = loadGptCacheConfig(TEMPLATE, {}, withoutFaiss);
    expect(first).toEqual(current);
  });

  it("starts the server, which answers /put and /get with the USE, hnswlib and the cosine at 0.8", async () => {
    const server = await serveConfig(loadGptCacheConfig(TEMPLATE, {}, withoutFaiss));
    try {
      expect(server.stores).toBe("sqlite,hnswlib");
      expect(server.cache.embeddingFunc.dimension).toBe(512);
      expect(server.cache.similarityEvaluation).toBeInstanceOf(DistanceEvaluation);
      expect(server.cache.config.similarityThreshold).toBe(0.8);
      await server.put("What is the capital of France?", "Paris");
      expect(await server.get("What is the capital of France?")).toBe("Paris");
      expect(await server.get("Which city is the capital of France?")).toBe("Paris");
      expect(await server.get("How do I bake sourdough bread at home?")).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe("the configs of GPTCache's docs", () => {
  const OPENAI = `embedding: openai
embedding_config:
  model: text-embedding-ada-002
storage_config:
  manager: sqlite,faiss
evaluation: distance
config:
  similarity_threshold: 0.8
`;

  it("embedding: openai needs a key and @langchain/openai, and with them starts against an OpenAI-compatible server", async () => {
    expect(() => loadGptCacheConfig(OPENAI, {}, everything)).toThrow(
      new ValidationError("embedding: openai needs OPENAI_API_KEY (or embedding_config.api_key) and the @langchain/openai package."),
    );
    expect(() => loadGptCacheConfig(OPENAI, { OPENAI_API_KEY: "sk-test" }, (name) => name !== "@langchain/openai")).toThrow(MissingDependencyError);
    expect(() => loadGptCacheConfig(OPENAI, { OPENAI_API_KEY: "sk-test" }, (name) => name !== "@langchain/openai")).toThrow(
      'embedding: openai needs the optional package "@langchain/openai": npm install @langchain/openai',
    );
    const loaded = loadGptCacheConfig(OPENAI, { OPENAI_API_KEY: "sk-test" }, withoutFaiss);
    expect(loaded.embeddingConfig).toEqual({ model: "text-embedding-ada-002", apiKey: "sk-test" });
    // Built without loading @langchain/openai (that happens at start), named for the startup line.
    expect(similarCacheOptionsFromConfig(loaded).embedding?.constructor.name).toBe("OpenAIEmbeddings");

    const fake = await startFakeOpenAI({ embeddingDimension: 64 });
    const yaml = OPENAI.replace("  model: text-embedding-ada-002\n", `  model: text-embedding-ada-002\n  api_base: ${fake.baseURL}\n`);
    const server = await serveConfig(loadGptCacheConfig(yaml, { OPENAI_API_KEY: "sk-test" }, withoutFaiss));
    try {
      expect(server.cache.embeddingFunc.dimension).toBe(64);
      await server.put("What is the capital of France?", "Paris");
      expect(await server.get("what is the capital of france")).toBe("Paris");
      expect(await server.get("How do I bake sourdough bread?")).toBeNull();
    } finally {
      await server.close();
      await fake.close();
    }
  });

  it("embedding: cohere, and any LangChain Embeddings by module and class, start against their servers", async () => {
    expect(() => loadGptCacheConfig("embedding: cohere\n", {})).toThrow("embedding: cohere needs COHERE_API_KEY (or embedding_config.api_key) and the @langchain/cohere package.");
    const cohere = await startFakeCohere({ dimension: 32 });
    const openai = await startFakeOpenAI({ embeddingDimension: 48 });
    const configs = [
      `embedding: cohere\nembedding_config:\n  model: embed-english-v3.0\n  api_key: test\n  base_url: ${cohere.environment}\n`,
      `embedding: langchain\nembedding_config:\n  module: "@langchain/openai"\n  class: OpenAIEmbeddings\n  params:\n    model: text-embedding-3-small\n    apiKey: test\n    configuration: { baseURL: "${openai.baseURL}" }\n  batch_size: 16\n`,
    ];
    try {
      for (const [i, yaml] of configs.entries()) {
        const server = await serveConfig(loadGptCacheConfig(yaml, {}));
        try {
          expect(server.cache.embeddingFunc.dimension).toBe([32, 48][i]);
          await server.put("Who wrote Pride and Prejudice?", "Jane Austen.");
          expect(await server.get("who wrote pride and prejudice")).toBe("Jane Austen.");
          expect(await server.get("Which river flows through Cairo?")).toBeNull();
        } finally {
          await server.close();
        }
      }
    } finally {
      await cohere.close();
      await openai.close();
    }
  });

  it("embedding: huggingface (distilbert-base-uncased) loads, and stops the start naming the model files to download", async () => {
    const yaml = "embedding: huggingface\nembedding_config:\n  model: distilbert-base-uncased\n";
    const config = loadGptCacheConfig(yaml, {});
    expect(config).toMatchObject({ embedding: "transformers", embeddingConfig: { model: "distilbert-base-uncased" }, notes: [] });
    expect(similarCacheOptionsFromConfig(config).embedding).toBeInstanceOf(TransformersEmbeddings);
    const dir = tempDir();
    try {
      await expect(openServerCache({ config, dataDir: dir.path })).rejects.toThrow(/the model "distilbert-base-uncased" is not available locally: .*distilbert-base-uncased[/\\]config\.json does not exist/);
    } finally {
      dir.cleanup();
    }
    // A model on disk runs (sbert and sentence-transformers read the same way). The tiny test model knows too few
    // words to embed the start's warm-up text, so it is asked directly.
    const local = similarCacheOptionsFromConfig(loadGptCacheConfig(`embedding: sbert\nembedding_config:\n  model: tiny-bert\n  local_model_path: ${JSON.stringify(MODELS)}\n`, {}));
    const embeddings = local.embedding as TransformersEmbeddings;
    expect(embeddings.options).toMatchObject({ model: "tiny-bert", localModelPath: MODELS });
    expect(await embeddings.embedQuery("what is the capital of france")).toHaveLength(16);
  });

  it('manager: "sqlite,milvus" with host, port and dimension maps to the milvus store (a Milvus server is needed to start)', () => {
    const config = loadGptCacheConfig(
      'embedding: onnx\nstorage_config:\n  manager: "sqlite,milvus"\n  vector_params:\n    host: localhost\n    port: 19530\n    dimension: 768\n    collection_name: gptcache\n',
      {},
    );
    expect(config.storage).toMatchObject({ manager: "sqlite,milvus", vectorParams: { url: "http://localhost:19530", collection: "gptcache" } });
    expect(config.notes).toEqual([
      expect.stringMatching(ONNX_NOTE),
      "storage_config.vector_params.dimension (768) is not used: the index takes the embedding's dimension, as GPTCache's loader sets it.",
    ]);
    expect(() => loadGptCacheConfig('storage_config:\n  manager: "sqlite,milvus"\n  vector_params:\n    local_mode: true\n', {})).toThrow(
      "storage_config.vector_params.local_mode: an embedded Milvus (Milvus Lite) does not run here: run a Milvus server and set host and port (or url).",
    );
  });

  it('manager: "postgresql,pgvector" with SQLAlchemy URLs maps to postgres and pgvector, the driver dropped', () => {
    const url = "postgresql+psycopg2://postgres:postgres@127.0.0.1:5432/postgres";
    const config = loadGptCacheConfig(
      `storage_config:\n  manager: "postgresql,pgvector"\n  scalar_params:\n    sql_url: ${url}\n  vector_params:\n    url: ${url}\n    dimension: 512\n`,
      {},
    );
    expect(config.storage).toMatchObject({
      manager: "postgres,pgvector",
      scalarParams: { url: "postgresql://postgres:postgres@127.0.0.1:5432/postgres" },
      vectorParams: { url: "postgresql://postgres:postgres@127.0.0.1:5432/postgres" },
    });
  });

  it("evaluation: onnx runs as the preset judge over the default embedding, with GPTCache's processors", () => {
    const yaml = `embedding: onnx
storage_config:
  manager: sqlite,faiss
evaluation: onnx
pre_function: last_content_without_prompt
post_function: random_one
config:
  similarity_threshold: 0.8
  prompts: ["Answer briefly: "]
`;
    const config = loadGptCacheConfig(yaml, {}, withoutFaiss);
    expect(config.evaluation).toBe("preset");
    expect(config.notes).toEqual([
      expect.stringMatching(ONNX_NOTE),
      expect.stringMatching(FAISS_NOTE),
      expect.stringMatching(/^evaluation: onnx runs as preset here \(the precision guard, a pair model fitted on the Universal Sentence Encoder\): no local pair model is configured/),
    ]);
    const options = similarCacheOptionsFromConfig(config);
    // Left unset, initSimilarCache sets the preset judge (here at the file's threshold).
    expect(options.evaluation).toBeUndefined();
    expect(options.embedding).toBeInstanceOf(UniversalSentenceEncoderEmbeddings);
    expect(options.preEmbeddingFunc).toBe(lastContentWithoutPrompt);
    expect(options.postProcessMessagesFunc).toBe(randomOne);
    expect(options.config).toMatchObject({ similarityThreshold: 0.8, prompts: ["Answer briefly: "] });
  });

  it("evaluation: kreciprocal takes GPTCache's kws", () => {
    const yaml = "embedding: onnx\nevaluation: kreciprocal\nevaluation_config:\n  top_k: 3\n  max_distance: 4.0\n  positive: false\n";
    const evaluation = similarCacheOptionsFromConfig(loadGptCacheConfig(yaml, {})).evaluation as KReciprocalEvaluation;
    expect(evaluation).toBeInstanceOf(KReciprocalEvaluation);
    expect([evaluation.topK, evaluation.maxDistance, evaluation.positive]).toEqual([3, 4, false]);
  });

  it("a Redis config with GPTCache's scalar_params and eviction_manager maps, saying the eviction is the data manager's", () => {
    const config = loadGptCacheConfig(
      "storage_config:\n  manager: redis,faiss\n  eviction_manager: redis\n  scalar_params:\n    redis_host: 127.0.0.1\n    redis_port: 6379\n    global_key_prefix: gptcache\n",
      {},
      withoutFaiss,
    );
    expect(config.storage).toMatchObject({ manager: "redis,hnswlib", scalarParams: { host: "127.0.0.1", port: 6379, namespace: "gptcache" } });
    expect(config.notes).toEqual([
      expect.stringMatching(/^storage_config\.manager: "redis,faiss" runs as "redis,hnswlib" here/),
      "storage_config.eviction_manager: redis is not needed here: the data manager evicts (max_size, clean_size, eviction) in whichever store holds the entries.",
    ]);
    expect(() => loadGptCacheConfig("storage_config:\n  manager: redis,faiss\n  scalar_params:\n    maxmemory: 2mb\n", {})).toThrow(
      "storage_config.scalar_params: maxmemory configure the Redis server's own eviction (GPTCache's redis eviction manager): set maxmemory and maxmemory-policy on the Redis server",
    );
  });

  describe("with PostgreSQL", () => {
    const url = testUrl("postgres");
    if (url === undefined) return;
    it("starts a postgresql config written with GPTCache's sql_url and table_name", async () => {
      const tableName = uniquePrefix("tpl").slice(0, -1);
      const sqlUrl = url.replace(/^postgres(ql)?:/, "postgresql+psycopg2:");
      const yaml = `embedding: onnx\nstorage_config:\n  manager: postgresql,faiss\n  scalar_params:\n    sql_url: ${sqlUrl}\n    table_name: ${tableName}\nevaluation: distance\nconfig:\n  similarity_threshold: 0.8\n`;
      const server = await serveConfig(loadGptCacheConfig(yaml, {}, withoutFaiss));
      try {
        expect(server.stores).toBe("postgres,hnswlib");
        await server.put("What is the capital of France?", "Paris");
        expect(await server.get("Which city is the capital of France?")).toBe("Paris");
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const { rows } = await client.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = $1", [`${tableName}_question`]);
        await client.end();
        expect(rows[0].n).toBe(1);
      } finally {
        await server.close();
        const store = new PostgresScalarStore({ url, tablePrefix: `${tableName}_` });
        await store.drop();
        await store.close();
      }
    });
  });
});

describe("every GPTCache component name maps here or is refused naming what to add", () => {
  const env = { OPENAI_API_KEY: "sk-test", COHERE_API_KEY: "co-test" };
  const load = (yaml: string, installed = everything) => loadGptCacheConfig(yaml, env, installed);

  it.each([
    ["onnx", "use"],
    ["huggingface", "transformers"],
    ["sbert", "transformers"],
    ["sentence-transformers", "transformers"],
    ["openai", "openai"],
    ["cohere", "cohere"],
    ["fasttext", "wink"],
    ["vit", "image"],
    ["use", "use"],
    ["wink", "wink"],
    ["string", "string"],
  ])("embedding: %s runs as %s", (name, kind) => {
    expect(load(`embedding: ${name}\n`).embedding).toBe(kind);
  });

  it.each([
    ["data2vecaudio", "embedding: data2vecaudio embeds audio, which no built-in embedding here does: pass your own embedding function in code"],
    ["uform", "embedding: uform (UForm's multimodal model) does not run here: for text use huggingface or sbert"],
    ["rwkv", "embedding: rwkv (a language model's hidden states) does not run here"],
    ["paddlenlp", "embedding: paddlenlp runs PaddlePaddle models, which do not run in Node: use huggingface with a transformers.js (ONNX) export"],
    ["timm", "embedding: timm needs embedding_config.model: a local image model folder in transformers.js's layout"],
    ["langchain", 'embedding: langchain needs embedding_config.module and class naming a LangChain Embeddings, e.g. module: "@langchain/ollama"'],
    ["magic", "embedding must be one of: use, wink, string, onnx, huggingface, sbert"],
  ])("embedding: %s is refused", (name, message) => {
    expect(() => load(`embedding: ${name}\n`)).toThrow(ValidationError);
    expect(() => load(`embedding: ${name}\n`)).toThrow(message);
  });

  it("builds the embedding each name runs as", () => {
    const build = (yaml: string) => similarCacheOptionsFromConfig(load(yaml)).embedding;
    expect(build("embedding: fasttext\nembedding_config:\n  model: en\n")).toBeInstanceOf(WinkEmbeddings);
    expect(build("embedding: vit\nembedding_config:\n  model: ./my-vit\n")).toBeInstanceOf(TransformersImageEmbeddings);
    expect(build("embedding: onnx\nembedding_config:\n  model: GPTCache/paraphrase-albert-onnx\n")).toBeInstanceOf(UniversalSentenceEncoderEmbeddings);
    const local = load(`embedding: onnx\nembedding_config:\n  model_path: ${join(MODELS, "embedder.onnx")}\n`);
    expect(local).toMatchObject({ embedding: "onnx", embeddingConfig: { modelPath: join(MODELS, "embedder.onnx"), tokenizerPath: join(MODELS, "tokenizer.json") }, notes: [] });
  });

  it("refuses what an embedding cannot use, naming the file, key or package", () => {
    expect(() => load("embedding: onnx\nembedding_config:\n  model_path: /nonexistent/model.onnx\n")).toThrow("embedding_config.model_path: /nonexistent/model.onnx does not exist.");
    expect(() => load("embedding: onnx\nembedding_config:\n  model: some-org/some-model\n")).toThrow('embedding_config.model: "some-org/some-model" is not a local folder');
    expect(() => load(`embedding: onnx\nembedding_config:\n  model_path: ${join(MODELS, "embedder.onnx")}\n`, (name) => name !== "onnxruntime-node")).toThrow(
      'embedding: onnx needs the optional package "onnxruntime-node"',
    );
    expect(() => load("embedding: sbert\n", (name) => name !== "@huggingface/transformers")).toThrow('embedding: sbert needs the optional package "@huggingface/transformers"');
    expect(() => load("embedding: fasttext\nembedding_config:\n  dim: 300\n")).toThrow("embedding_config.dim: the word vectors here are 100-d, not 300.");
    expect(() => load("embedding: use\nembedding_config:\n  api_key: x\n")).toThrow('embedding_config: api_key does not apply to the "use" embedding (it takes batch_size, worker, workers).');
    expect(() => load('embedding: langchain\nembedding_config:\n  module: "@langchain/nope"\n  class: X\n', (name) => name !== "@langchain/nope")).toThrow(
      'embedding: langchain needs the optional package "@langchain/nope"',
    );
  });

  it.each([
    ["distance", DistanceEvaluation, []],
    ["np", DistanceEvaluation, ["evaluation: np runs as distance here (the cosine similarity on [0, 1]): GPTCache's numpy norm ranks candidates the same way, on [0, 2]."]],
    ["numpy", DistanceEvaluation, ["evaluation: numpy runs as distance here (the cosine similarity on [0, 1]): GPTCache's numpy norm ranks candidates the same way, on [0, 2]."]],
    ["kreciprocal", KReciprocalEvaluation, []],
    ["cohere", RerankEvaluation, []],
    ["precision_guard", PrecisionGuardEvaluation, []],
  ])("evaluation: %s builds %p", (name, Class, notes) => {
    const config = load(`evaluation: ${name}\n`);
    expect(config.notes).toEqual(notes);
    expect(similarCacheOptionsFromConfig(config).evaluation).toBeInstanceOf(Class);
  });

  it("builds the evaluations that take settings: local pair models, time, sequence_match, and this package's judges", () => {
    const build = (yaml: string) => similarCacheOptionsFromConfig(load(yaml)).evaluation;
    const pairModel = (file: string) => `  model_path: ${join(MODELS, file)}\n  tokenizer_path: ${join(MODELS, "tokenizer.json")}\n`;
    expect(build(`evaluation: onnx\nevaluation_config:\n${pairModel("pair-classifier.onnx")}`)).toBeInstanceOf(OnnxModelEvaluation);
    const crossEncoder = build(`evaluation: sbert_crossencoder\nevaluation_config:\n${pairModel("cross-encoder.onnx")}  max_length: 64\n`);
    expect(crossEncoder).toBeInstanceOf(CrossEncoderEvaluation);
    expect((crossEncoder as CrossEncoderEvaluation).files).toMatchObject({ modelPath: join(MODELS, "cross-encoder.onnx"), maxLength: 64 });
    expect(build(`evaluation: cross_encoder\nevaluation_config:\n  model: ${join(MODELS, "tiny-bert")}\n`)).toBeInstanceOf(CrossEncoderEvaluation);
    const timed = build("evaluation: time\nevaluation_config:\n  time_range: 60\n  evaluation: kreciprocal\n  evaluation_config:\n    top_k: 2\n") as TimeEvaluation;
    expect([timed.timeRangeSeconds, (timed.inner as KReciprocalEvaluation).topK]).toEqual([60, 2]);
    const rounds = similarCacheOptionsFromConfig(load("embedding: wink\nevaluation: sequence_match\nevaluation_config:\n  weights: [0.6, 0.3, 0.1]\n"));
    expect(rounds.evaluation).toBeInstanceOf(SequenceMatchEvaluation);
    expect((rounds.evaluation as SequenceMatchEvaluation).weights).toEqual([0.6, 0.3, 0.1]);
    expect(build("evaluation: cohere\nevaluation_config:\n  model: rerank-english-v2.0\n")).toMatchObject({ model: "rerank-english-v2.0" });
    expect(build("evaluation: embedding_distance\nevaluation_config:\n  embedding: wink\n")).toBeInstanceOf(EmbeddingDistanceEvaluation);
    expect(build('evaluation: llm_judge\nevaluation_config:\n  module: "@langchain/openai"\n  class: ChatOpenAI\n  params: { model: gpt-4o-mini, temperature: 0 }\n')).toBeInstanceOf(LLMJudgeEvaluation);
    const weighed = build("evaluation: unambiguous\nevaluation_config:\n  temperature: 0.05\n  evaluation: precision_guard\n") as UnambiguousEvaluation;
    expect([weighed.constructor, weighed.inner.constructor]).toEqual([UnambiguousEvaluation, PrecisionGuardEvaluation]);
    // preset: left to initSimilarCache, which sets it with its own threshold.
    expect(build("evaluation: preset\n")).toBeUndefined();
  });

  it.each([
    ["embedding: wink\nevaluation: onnx\n", "evaluation: onnx needs a local pair model: evaluation_config.model (a folder with tokenizer.json and onnx/model.onnx) or evaluation_config.model_path and tokenizer_path"],
    ["evaluation: sbert_crossencoder\n", "evaluation: sbert_crossencoder needs a local pair model: evaluation_config.model (a folder with tokenizer.json and onnx/model.onnx) or evaluation_config.model_path and tokenizer_path (an ONNX export of cross-encoder/quora-distilroberta-base), and the onnxruntime-node package."],
    ["evaluation: sbert_crossencoder\nevaluation_config:\n  model: /nonexistent/cross-encoder\n", "evaluation_config.model: /nonexistent/cross-encoder/model.onnx does not exist."],
    ["evaluation: sequence_match\n", "evaluation: sequence_match needs evaluation_config.weights"],
    ["embedding: string\nevaluation: kreciprocal\n", "evaluation: kreciprocal compares vectors; the string embedding has none."],
    ["embedding: wink\nevaluation: preset\n", "evaluation: preset was fitted on the Universal Sentence Encoder's cosines: use it with embedding: use (the wink embedding is configured)."],
    ["evaluation: distance\nevaluation_config:\n  max_distance: 4.0\n", 'evaluation_config: max_distance and positive set GPTCache\'s distance scale; here "distance" scores the cosine similarity on [0, 1]'],
    ["evaluation: time\nevaluation_config:\n  evaluation: magic\n", "evaluation_config.evaluation_config.evaluation must be one of: distance, np, numpy, exact"],
    ["evaluation: llm_judge\n", "evaluation: llm_judge needs evaluation_config.module and class naming a LangChain chat model"],
    ["evaluation: magic\n", "evaluation must be one of: distance, np, numpy, exact, time, kreciprocal, onnx, cross_encoder, sbert_crossencoder, sequence_match, cohere"],
  ])("refuses %j", (yaml, message) => {
    expect(() => load(yaml)).toThrow(ValidationError);
    expect(() => load(yaml)).toThrow(message);
  });

  it("refuses evaluation: cohere without a key", () => {
    expect(() => loadGptCacheConfig("evaluation: cohere\n", {})).toThrow("evaluation: cohere needs COHERE_API_KEY (or evaluation_config.api_key), or base_url: a compatible rerank server.");
  });

  it.each([
    ["sqlite,faiss", "sqlite,hnswlib"],
    ["sqlite,hnswlib", "sqlite,hnswlib"],
    ["postgresql,milvus", "postgres,milvus"],
    ["mysql,chromadb", "mysql,chroma"],
    ["mariadb,qdrant", "mariadb,qdrant"],
    ["mongo,weaviate", "mongodb,weaviate"],
    ["redis,redis", "redis,redis"],
    ["sqlite,usearch", "sqlite,usearch"],
    ["sqlite,lancedb", "sqlite,lancedb"],
    ["postgresql,pgvector", "postgres,pgvector"],
    ["duckdb,docarray", "sqlite,hnswlib"],
    ["sqlite,faiss,local", "sqlite,hnswlib,local"],
  ])("manager: %s runs as %s", (manager, kinds) => {
    expect(load(`storage_config:\n  manager: ${manager}\n`, withoutFaiss).storage.manager).toBe(kinds);
  });

  it("says what a mapped store runs as, and reads GPTCache's scalar_params names", () => {
    expect(load("storage_config:\n  manager: duckdb,docarray\n").notes).toEqual([
      'storage_config.manager: "duckdb,docarray" runs as "sqlite,hnswlib" here: duckdb runs as sqlite (an embedded database file in the data dir); docarray runs as hnswlib (the in-process index, saved in the data dir).',
    ]);
    const mongo = load("storage_config:\n  manager: mongo,chromadb\n  scalar_params:\n    mongo_host: db\n    mongo_port: 27018\n    dbname: cache\n    username: u\n    password: p\n  vector_params:\n    url: http://chroma:8000\n    collection_name: answers\n");
    expect(mongo.storage).toMatchObject({
      scalarParams: { host: "db", port: 27018, database: "cache", user: "u", password: "p" },
      vectorParams: { url: "http://chroma:8000", collection: "answers" },
    });
    expect(mongo.notes).toEqual([]);
    const sqlite = load("storage_config:\n  manager: sqlite,hnswlib\n  scalar_params:\n    sql_url: sqlite:///./cache/sqlite.db\n    table_name: gptcache\n  vector_params:\n    index_path: ./cache/index.bin\n    max_elements: 5000\n    top_k: 3\n");
    expect(sqlite.storage).toMatchObject({ scalarParams: { path: "./cache/sqlite.db", tablePrefix: "gptcache_" }, vectorParams: { path: "./cache/index.bin", initialCapacity: 5000 } });
    expect(sqlite.config.topK).toBe(3);
    expect(sqlite.notes).toEqual(["storage_config.vector_params.top_k (3) is read as config.top_k: how many candidates a search returns."]);
    const exact = load("embedding: string\nstorage_config:\n  manager: map\n");
    expect([exact.storage.manager, exact.notes]).toEqual(["sqlite", ["storage_config.manager: map runs as sqlite here (an exact-match store in the data dir)."]]);
    const redis = load("storage_config:\n  manager: sqlite,redis\n  vector_params:\n    host: cache.internal\n    user: app\n    password: s3cret\n    namespace: gpt\n");
    expect(redis.storage.vectorParams).toEqual({ url: "redis://app:s3cret@cache.internal:6379", keyPrefix: "gpt" });
  });

  it.each([
    ["sqlserver,faiss", "storage_config.manager: GPTCache's sqlserver store (SQL Server) is not supported here; use one of: sqlite, memory, postgres, postgresql, mysql, mariadb, redis, mongodb, mongo, duckdb."],
    ["oracle,faiss", "GPTCache's oracle store (Oracle) is not supported here"],
    ["dynamo,faiss", "GPTCache's dynamo store (DynamoDB) is not supported here"],
    ["sqlite,pinecone", "GPTCache's pinecone store (Pinecone) is not supported here"],
    ["map", "storage_config.manager: map is GPTCache's exact-match map; use it with embedding: string"],
  ])("refuses manager: %s", (manager, message) => {
    expect(() => load(`storage_config:\n  manager: ${manager}\n`)).toThrow(ValidationError);
    expect(() => load(`storage_config:\n  manager: ${manager}\n`)).toThrow(message);
  });

  it("refuses unknown store kinds by name, and settings a store does not take", () => {
    expect(() => load("storage_config:\n  manager: sqlite,annoy\n")).toThrow(UnknownKindError);
    expect(() => load("storage_config:\n  manager: sqlite,annoy\n")).toThrow('Unknown vector store kind "annoy". Known kinds: hnswlib, flat,');
    expect(() => load("storage_config:\n  manager: sqlite,milvus\n  vector_params:\n    index_params: { metric_type: L2 }\n")).toThrow(
      "storage_config.vector_params: index_params does not apply to the milvus vector store (it takes dimension, top_k, url, collection, collection_name, host, port,",
    );
    expect(() => load("storage_config:\n  manager: duckdb,faiss\n  scalar_params:\n    sql_url: duckdb:///./duck.db\n")).toThrow(
      'storage_config.scalar_params.sql_url: an SQLite URL reads sqlite:///PATH, got "duckdb:///./duck.db".',
    );
    expect(() => load("config:\n  similarity_threshold: 0.8\n  threshold: 0.7\n")).toThrow("similarity_threshold and threshold are the same setting");
    expect(() => load("pre_context_function: summarization\n")).toThrow("pre_context_function: summarization needs a model: set it in code with summarizeContext({ model }) (preEmbeddingFunc).");
  });

  it("refusals are this package's errors, never a crash", () => {
    for (const yaml of ["embedding: data2vecaudio\n", "evaluation: onnx\nembedding: wink\n", "storage_config:\n  manager: oracle,faiss\n"]) {
      expect(() => load(yaml)).toThrow(SemcacheError);
    }
  });
});

describe("GPTCache's rwkv, paddlenlp, uform, timm and spacy run local exports of their models", () => {
  const load = (yaml: string) => loadGptCacheConfig(yaml, {}, everything);
  const build = (yaml: string) => similarCacheOptionsFromConfig(load(yaml)).embedding;
  const folder = (name: string) => join(MODELS, name);

  it("rwkv: an ONNX export of a recurrent model in a folder, mean-pooled (or pooling: last)", async () => {
    const config = load(`embedding: rwkv\nembedding_config:\n  model: ${folder("tiny-gru")}\n`);
    expect(config).toMatchObject({ embedding: "onnx", embeddingConfig: { modelPath: join(folder("tiny-gru"), "model.onnx"), tokenizerPath: join(folder("tiny-gru"), "tokenizer.json") } });
    expect(config.notes).toEqual([`embedding: rwkv runs as onnx here (${join(folder("tiny-gru"), "model.onnx")} with onnxruntime-node, the mean over the text's tokens).`]);
    const mean = build(`embedding: rwkv\nembedding_config:\n  model: ${folder("tiny-gru")}\n`) as OnnxEmbeddings;
    expect([mean.constructor, mean.pooling]).toEqual([OnnxEmbeddings, "mean"]);
    expect(await mean.embedQuery("capital of france")).toHaveLength(12);
    const last = build(`embedding: rwkv\nembedding_config:\n  model_path: ${join(folder("tiny-gru"), "model-without-mask.onnx")}\n  pooling: last\n`) as OnnxEmbeddings;
    expect(last.pooling).toBe("last");
    expect(await last.embedQuery("capital of france")).toHaveLength(12);
  });

  it("paddlenlp and uform (text): a bilingual ONNX export in a folder", async () => {
    const ernie = build(`embedding: paddlenlp\nembedding_config:\n  model: ${folder("tiny-bilingual")}\n`) as OnnxEmbeddings;
    expect(ernie).toBeInstanceOf(OnnxEmbeddings);
    expect(await ernie.embedQuery("我爱猫")).toEqual(await ernie.embedQuery("I love cat"));
    expect(build(`embedding: uform\nembedding_config:\n  model: ${folder("tiny-bilingual")}\n  embedding_type: text\n`)).toBeInstanceOf(OnnxEmbeddings);
  });

  it("timm: a folder in timm's layout runs TimmImageEmbeddings; another folder a transformers.js image model", async () => {
    const timm = build(`embedding: timm\nembedding_config:\n  model: ${folder("tiny-timm")}\n  device: cpu\n  batch_size: 4\n`) as TimmImageEmbeddings;
    expect(timm).toBeInstanceOf(TimmImageEmbeddings);
    expect([timm.modelPath, timm.configPath, timm.batchSize]).toEqual([join(folder("tiny-timm"), "model.onnx"), join(folder("tiny-timm"), "config.json"), 4]);
    await timm.init();
    expect(timm.dimension).toBe(8);
    expect(load(`embedding: timm\nembedding_config:\n  model: ${folder("tiny-clip-vision")}\n`).embedding).toBe("image");
    expect(build("embedding: timm\nembedding_config:\n  model: ./my-vit\n")).toBeInstanceOf(TransformersImageEmbeddings);
  });

  it("a BPE tokenizer.json (RWKV's kind) needs @huggingface/transformers too, checked at load", () => {
    const yaml = `embedding: rwkv\nembedding_config:\n  model_path: ${join(folder("tiny-gru"), "model.onnx")}\n  tokenizer_path: ${join(folder("tiny-gru"), "tokenizer-bpe.json")}\n`;
    expect(() => loadGptCacheConfig(yaml, {}, (name) => name !== "@huggingface/transformers")).toThrow('embedding: rwkv needs the optional package "@huggingface/transformers"');
    expect(load(yaml).embeddingConfig).toMatchObject({ tokenizerPath: join(folder("tiny-gru"), "tokenizer-bpe.json") });
    expect(() => loadGptCacheConfig(`embedding: rwkv\nembedding_config:\n  model: ${folder("tiny-gru")}\n`, {}, (name) => name !== "@huggingface/transformers")).not.toThrow();
  });

  it("spacy runs as wink (averaged English word vectors), with a note", () => {
    const config = load("embedding: spacy\nembedding_config:\n  model: en_core_web_md\n");
    expect(config.embedding).toBe("wink");
    expect(config.notes).toEqual(["embedding: spacy runs as wink here (averaged English word vectors, 100-d, offline): spaCy's models do not run in Node."]);
  });

  it.each([
    ["rwkv", "", "to run sgugger/rwkv-430M-pile here, export it to ONNX and set embedding_config.model: ./folder"],
    ["rwkv", "  model: RWKV/rwkv-4-169m-pile\n", "to run RWKV/rwkv-4-169m-pile here, export it to ONNX"],
    ["paddlenlp", "  model: ernie-3.0-medium-zh\n", "to run ernie-3.0-medium-zh here, export it to ONNX"],
    ["uform", `  model: ${folder("tiny-bilingual")}\n  embedding_type: image\n`, "embedding_config.embedding_type: image: UForm's image encoder does not run here"],
    ["rwkv", `  model: ${folder("tiny-gru")}\n  pooling: max\n`, "embedding_config.pooling must be one of: mean, last"],
    ["rwkv", `  model: ${folder("tiny-gru")}\n  embedding_type: text\n`, 'embedding_type does not apply to the "rwkv" embedding'],
    ["timm", `  model: ${folder("tiny-timm")}\n  device: cuda\n`, 'embedding_config.device: image models run on the CPU here (onnxruntime-node), not "cuda"'],
    ["timm", `  model: ${folder("tiny-timm")}\n  dtype: q8\n`, 'dtype does not apply to the "timm" embedding (a timm model folder)'],
    ["spacy", "  model: de_core_news_sm\n", 'only English word vectors are available here (spaCy\'s en_* models), not "de_core_news_sm"'],
  ])("embedding: %s refuses %p", (name, settings, message) => {
    const yaml = `embedding: ${name}\n${settings ? `embedding_config:\n${settings}` : ""}`;
    expect(() => load(yaml)).toThrow(ValidationError);
    expect(() => load(yaml)).toThrow(message);
  });
});
