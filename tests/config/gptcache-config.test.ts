import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  initSimilarCacheFromConfig,
  loadGptCacheConfig,
  similarCacheOptionsFromConfig,
} from "../../src/config/gptcache-config.js";
import { Cache, DistanceEvaluation, ExactMatchEvaluation, KReciprocalEvaluation, StringEmbedding, TimeEvaluation, ValidationError, get, put } from "../../src/index.js";
import { concatAllQueries } from "../../src/processors/context/concat.js";
import { first, randomOne } from "../../src/processors/post.js";
import { getPrompt } from "../../src/processors/pre.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { WinkEmbeddings } from "../../src/embeddings/wink.js";
import { tempDir } from "../helpers/fixtures.js";

const FULL = `
embedding: use
embedding_config:
  batch_size: 32
storage_config:
  data_dir: my_cache
  manager: sqlite,hnswlib
  max_size: 1000
  clean_size: 100
  eviction: lfu
  ttl: 3600
  scalar_params:
    table_prefix: app_
    table_len_config:
      question_question: 500
  vector_params:
    m: 32
    ef: 64
evaluation: distance
pre_function: get_prompt
post_function: first
config:
  similarity_threshold: 0.85
  top_k: 3
  auto_flush: 0
  prompts: ["Answer briefly:"]
server:
  port: 9000
  api_keys: [k1]
`;

describe("loadGptCacheConfig", () => {
  it("reads GPTCache's keys into this package's terms", () => {
    const config = loadGptCacheConfig(FULL);
    expect(config.embedding).toBe("use");
    expect(config.embeddingConfig).toEqual({ batchSize: 32 });
    expect(config.storage).toEqual({
      dataDir: "my_cache",
      manager: "sqlite,hnswlib",
      maxSize: 1000,
      cleanSize: 100,
      eviction: "LFU",
      ttl: 3600,
      scalarParams: { path: undefined, tablePrefix: "app_", tableLenConfig: { question_question: 500 } },
      vectorParams: { dimension: undefined, path: undefined, M: 32, efConstruction: undefined, ef: 64, initialCapacity: undefined },
    });
    expect(config.evaluation).toBe("distance");
    expect(config.preFunction).toBe("get_prompt");
    expect(config.postFunction).toBe("first");
    expect(config.config).toEqual({ similarityThreshold: 0.85, topK: 3, autoFlush: 0, prompts: ["Answer briefly:"] });
    expect(config.server).toEqual({ port: 9000, api_keys: ["k1"] });
  });

  it("accepts an empty document, GPTCache's older key names and its template's empty sections", () => {
    expect(loadGptCacheConfig("").embedding).toBe("use");
    const old = loadGptCacheConfig("model_source: wink\nmodel_config:\nevaluation_kws:\n  time_range: 60\nevaluation: time\nstorage_config:\n  vector_params:\n");
    expect(old.embedding).toBe("wink");
    expect(old.evaluationConfig).toEqual({ time_range: 60 });
    expect(old.storage.vectorParams).toBeUndefined();
  });

  it.each([
    ["storage_config:\n  max_size: -5", "storage_config.max_size must be a positive integer"],
    ["storage_config:\n  max_size: ten", "storage_config.max_size must be a positive integer"],
    ["config:\n  similarity_threshold: 1.5", "config.similarity_threshold must be a number in [0, 1]"],
    ["config:\n  prompts: 3", "config.prompts must be a list of strings"],
    ["storage_config:\n  scalar_params:\n    table_len_config:\n      question_question: 0", "storage_config.scalar_params.table_len_config.question_question must be a positive integer"],
    ["embedding: onnx", "embedding must be one of: use"],
    ["evaluation: magic", "evaluation must be one of: distance"],
    ["storage_config:\n  eviction: random", "storage_config.eviction must be one of: LRU, LFU, FIFO"],
    ["pre_function: nope", "pre_function must be one of: last_content"],
    ["post_function: best", "post_function must be one of: first"],
    ["storage_config: 5", "storage_config must be a mapping"],
    ["- a\n- b", "The config must be a mapping"],
    ["embeding: use", "Unknown config key: embeding"],
    ["storage_config:\n  maxsize: 3", "Unknown config key in storage_config: maxsize"],
    ["config:\n  similarity_threshold: 0.8\n  enable_token_counter: true", "Unknown config key in config: enable_token_counter"],
    ["pre_function: get_prompt\npre_context_function: concat", "pre_function and pre_context_function are alternatives"],
    ["a: [unclosed", "not valid YAML"],
  ])("refuses %j", (yaml, message) => {
    expect(() => loadGptCacheConfig(yaml)).toThrow(ValidationError);
    expect(() => loadGptCacheConfig(yaml)).toThrow(message);
  });
});

describe("similarCacheOptionsFromConfig", () => {
  it("resolves names to components", () => {
    const options = similarCacheOptionsFromConfig(loadGptCacheConfig(FULL));
    expect(options.embedding).toBeInstanceOf(UniversalSentenceEncoderEmbeddings);
    expect((options.embedding as UniversalSentenceEncoderEmbeddings).batchSize).toBe(32);
    expect(options.evaluation).toBeInstanceOf(DistanceEvaluation);
    expect(options.preEmbeddingFunc).toBe(getPrompt);
    expect(options.postProcessMessagesFunc).toBe(first);
    expect(options).toMatchObject({ dataDir: "my_cache", manager: "sqlite,hnswlib", maxSize: 1000, cleanSize: 100, eviction: "LFU", ttl: 3600 });
  });

  it("makes the string embedding an exact-match store, and builds wrapped evaluations", () => {
    const exact = similarCacheOptionsFromConfig(loadGptCacheConfig("embedding: string\npost_function: random_one"));
    expect(exact.embedding).toBeInstanceOf(StringEmbedding);
    expect(exact.evaluation).toBeInstanceOf(ExactMatchEvaluation);
    expect(exact.manager).toBe("sqlite");
    expect(exact.postProcessMessagesFunc).toBe(randomOne);

    const timed = similarCacheOptionsFromConfig(loadGptCacheConfig("embedding: wink\nevaluation: time\nevaluation_config:\n  time_range: 60"));
    expect(timed.embedding).toBeInstanceOf(WinkEmbeddings);
    expect(timed.evaluation).toBeInstanceOf(TimeEvaluation);
    expect((timed.evaluation as TimeEvaluation).timeRange).toBe(60);
    const mutual = similarCacheOptionsFromConfig(loadGptCacheConfig("evaluation: kreciprocal\nevaluation_config:\n  top_k: 4\npre_context_function: concat"));
    expect(mutual.evaluation).toBeInstanceOf(KReciprocalEvaluation);
    expect((mutual.evaluation as KReciprocalEvaluation).topK).toBe(4);
    expect(mutual.preEmbeddingFunc).toBe(concatAllQueries);
  });

  it("refuses evaluation settings that do not apply", () => {
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("evaluation: distance\nevaluation_config:\n  max_distance: 4"))).toThrow(
      "Unknown config key in evaluation_config: max_distance",
    );
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("evaluation: time\nevaluation_config:\n  time_range: soon"))).toThrow(
      "evaluation_config.time_range must be a positive number",
    );
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("embedding: wink\nembedding_config:\n  batch_size: 8"))).toThrow(
      "embedding_config.batch_size applies to the \"use\" embedding only",
    );
  });
});

describe("initSimilarCacheFromConfig", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it("sets up a working semantic cache from a YAML file", async () => {
    const file = join(dir.path, "cache.yaml");
    writeFileSync(file, `storage_config:\n  data_dir: ${JSON.stringify(join(dir.path, "data"))}\n  max_size: 100\n  scalar_params:\n    table_prefix: app_\n  vector_params:\n    m: 8\n    ef: 32\nconfig:\n  similarity_threshold: 0.8\n`);
    const c = await initSimilarCacheFromConfig(file, { cache: new Cache() });
    expect(c.config.similarityThreshold).toBe(0.8);
    expect(c.embeddingFunc.dimension).toBe(512);
    expect(c.dataManager.scalar).toMatchObject({ tables: { question: "app_question" } });
    expect(c.dataManager.vector).toMatchObject({ M: 8, ef: 32 });
    await put("How can I lose weight quickly?", "Eat less, move more.", { cacheObj: c });
    expect(await get("What is the fastest way to lose weight?", { cacheObj: c })).toBe("Eat less, move more.");
    expect(await get("Which programming language should I learn first?", { cacheObj: c })).toBeNull();
    await c.close();
  });

  it("sets up an exact-match cache, with options overriding the file", async () => {
    const file = join(dir.path, "exact.yaml");
    writeFileSync(file, "embedding: string\nstorage_config:\n  data_dir: /nonexistent/never-used\n");
    const c = await initSimilarCacheFromConfig(file, { cache: new Cache(), dataDir: dir.path });
    await put("What is 2 + 2?", "4", { cacheObj: c });
    expect(await get("What is 2 + 2?", { cacheObj: c })).toBe("4");
    expect(await get("What is 2+2?", { cacheObj: c })).toBeNull();
    await c.close();
  });

  it("names a missing file and a bad key", async () => {
    await expect(initSimilarCacheFromConfig(join(dir.path, "missing.yaml"))).rejects.toThrow(/Cannot read the config file .*missing\.yaml/);
    const file = join(dir.path, "bad.yaml");
    writeFileSync(file, "storage_config:\n  clean_size: 0\n");
    await expect(initSimilarCacheFromConfig(file, { cache: new Cache() })).rejects.toThrow("storage_config.clean_size must be a positive integer");
  });
});
