import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  initSimilarCacheFromConfig,
  loadGptCacheConfig,
  similarCacheOptionsFromConfig,
} from "../../src/config/gptcache-config.js";
import {
  Cache,
  DEFAULT_PRESET_THRESHOLD,
  DistanceEvaluation,
  ExactMatchEvaluation,
  KReciprocalEvaluation,
  PrecisionGuardEvaluation,
  StringEmbedding,
  TimeEvaluation,
  UnambiguousEvaluation,
  UnknownKindError,
  ValidationError,
  get,
  put,
} from "../../src/index.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { managerFactory, SCALAR_KINDS } from "../../src/presets/manager-factory.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { RedisScalarStore } from "../../src/stores/scalar/redis.js";
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
  sync_interval_ms: 100
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
  max_question_length: 2000
  auto_flush: 0
  prompts: ["Answer briefly:"]
server:
  port: 9000
  api_keys: [k1]
`;

describe("loadGptCacheConfig", () => {
  it("passes a vector database's url and collection through vector_params, and refuses wrong types with the path", () => {
    const config = loadGptCacheConfig("storage_config:\n  manager: postgres,chroma\n  vector_params:\n    url: http://127.0.0.1:8001\n    collection: answers\n");
    expect(config.storage?.vectorParams).toMatchObject({ url: "http://127.0.0.1:8001", collection: "answers" });
    expect(() => loadGptCacheConfig("storage_config:\n  manager: sqlite,chroma\n  vector_params:\n    url: 5\n")).toThrow(/storage_config\.vector_params\.url/);
    expect(() => loadGptCacheConfig("storage_config:\n  vector_params:\n    url: http://x\n")).toThrow(
      "storage_config.vector_params: url does not apply to the usearch vector store (it takes dimension, top_k, path,",
    );
    expect(() => loadGptCacheConfig("storage_config:\n  sync_interval_ms: -1\n")).toThrow(/storage_config\.sync_interval_ms/);
  });

  it("reads GPTCache's keys into this package's terms", () => {
    const config = loadGptCacheConfig(FULL);
    expect(config.embedding).toBe("use");
    expect(config.embeddingConfig).toEqual({ batchSize: 32, worker: undefined });
    expect(config.storage).toEqual({
      dataDir: "my_cache",
      manager: "sqlite,hnswlib",
      maxSize: 1000,
      cleanSize: 100,
      eviction: "LFU",
      ttlSeconds: 3600,
      syncIntervalMs: 100,
      scalarParams: { path: undefined, tablePrefix: "app_", tableLenConfig: { question: 500 } },
      vectorParams: { dimension: undefined, path: undefined, M: 32, efConstruction: undefined, ef: 64, initialCapacity: undefined },
    });
    expect(config.evaluation).toBe("distance");
    expect(config.preFunction).toBe("get_prompt");
    expect(config.postFunction).toBe("first");
    expect(config.config).toEqual({ similarityThreshold: 0.85, topK: 3, maxQuestionLength: 2000, autoFlush: 0, prompts: ["Answer briefly:"] });
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
    ["embedding: magic", "embedding must be one of: use"],
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

describe("server-store settings in storage_config.scalar_params", () => {
  const storage = (scalarParams: string, manager = "postgres,hnswlib", env: NodeJS.ProcessEnv = {}) =>
    loadGptCacheConfig(`storage_config:\n  manager: ${manager}\n  ttl: 60\n  scalar_params:\n${scalarParams.replace(/^/gm, "    ")}\n`, env).storage;

  it("reads the SQL connection and pool settings, leaving unset keys out, and they build the store", () => {
    const { manager, scalarParams, ttlSeconds } = storage("url: postgres://app:secret@db.internal:5433/cache\npool_size: 4\nconnect_timeout_ms: 2000\ntable_prefix: run1_\ntable_len_config:\n  answer_answer: 9000");
    expect(scalarParams).toStrictEqual({
      url: "postgres://app:secret@db.internal:5433/cache",
      poolSize: 4,
      connectTimeoutMs: 2000,
      tablePrefix: "run1_",
      tableLenConfig: { question: undefined, answer: 9000, sessionId: undefined, depName: undefined, depData: undefined },
    });
    const store = managerFactory(manager, { scalarParams, ttlSeconds, vectorParams: { dimension: 4 } }).scalar;
    expect(store).toBeInstanceOf(PostgresScalarStore);
    expect(store).toMatchObject({ target: "postgres://app:***@db.internal:5433/cache", tableLen: { answer: 9000 } });
  });

  it("reads host fields, and GPTCache's sql_url with its SQLAlchemy driver dropped", () => {
    const fields = storage("host: 127.0.0.1\nport: 3307\nuser: root\npassword: pw\ndatabase: test", "mariadb,hnswlib").scalarParams;
    expect(fields).toStrictEqual({ host: "127.0.0.1", port: 3307, user: "root", password: "pw", database: "test" });
    expect(managerFactory("mariadb,hnswlib", { scalarParams: fields, vectorParams: { dimension: 4 } }).scalar).toMatchObject({ target: "mysql://root@127.0.0.1:3307/test" });
    expect(storage("sql_url: postgresql+psycopg2://u:p@h:5432/db").scalarParams).toStrictEqual({ url: "postgresql://u:p@h:5432/db" });
    expect(storage("sql_url: mysql+pymysql://root@h/db", "mysql").scalarParams).toStrictEqual({ url: "mysql://root@h/db" });
  });

  it("reads the Redis settings (url from the environment, namespace, numeric database, its own ttl)", () => {
    const { scalarParams, ttlSeconds } = storage("url_env: MY_REDIS\nnamespace: team_a\nmax_reports: 50\nconnect_timeout_ms: 700", "redis,hnswlib", { MY_REDIS: "redis://:pw@10.0.0.5:6380" });
    expect(scalarParams).toStrictEqual({ url: "redis://:pw@10.0.0.5:6380", namespace: "team_a", maxReports: 50, connectTimeoutMs: 700 });
    const store = managerFactory("redis", { scalarParams, ttlSeconds }).scalar;
    expect(store).toBeInstanceOf(RedisScalarStore);
    expect(store).toMatchObject({ namespace: "team_a", target: "redis://:***@10.0.0.5:6380" });
    expect(storage("host: 127.0.0.1\ndatabase: 2\nttl: 5", "redis").scalarParams).toStrictEqual({ host: "127.0.0.1", database: "2", ttlSeconds: 5 });
  });

  it("reads max_reports for every store kind and passes it to the sqlite and memory stores (0 keeps none)", () => {
    for (const kind of ["memory", "sqlite", "postgres", "mysql", "redis", "mongodb"]) {
      expect(storage("max_reports: 0", kind).scalarParams).toMatchObject({ maxReports: 0 });
    }
    const { scalarParams } = storage("max_reports: 25", "sqlite,hnswlib");
    expect(managerFactory("sqlite", { scalarParams, dataDir: "./unused" }).scalar).toMatchObject({ maxReports: 25 });
    expect(managerFactory("memory", { scalarParams }).scalar).toMatchObject({ maxReports: 25 });
    expect(() => storage("max_reports: -1", "sqlite")).toThrow("storage_config.scalar_params.max_reports must be a non-negative integer");
  });

  it.each([
    ["namespace: a", "postgres", "storage_config.scalar_params: namespace does not apply to the postgres store (it takes url,"],
    ["pool_size: 3\ntable_prefix: x_", "redis", "storage_config.scalar_params: pool_size, table_prefix do not apply to the redis store"],
    ["host: db", "sqlite,hnswlib", "storage_config.scalar_params: host does not apply to the sqlite store (it takes path, sql_url, table_prefix, table_name, table_len_config, max_reports, timeout_ms)"],
    ["sql_url: redis://h", "redis", "sql_url does not apply to the redis store"],
    ["url: redis://h\nurl_env: X", "redis", "storage_config.scalar_params: set one of url, sql_url and url_env, not url and url_env"],
    ["url_env: SEMCACHE_SURELY_UNSET_VARIABLE", "postgres", "storage_config.scalar_params.url_env names SEMCACHE_SURELY_UNSET_VARIABLE, which is not set"],
    ["url: mysql://root@h/db", "postgres", "storage_config.scalar_params.url: postgres: url must start with postgres:// or postgresql://"],
    ["sql_url: sqlite:///./sqlite.db", "mysql", "storage_config.scalar_params.sql_url: mysql: url must start with mysql://"],
    ["port: 70000", "postgres", "storage_config.scalar_params.port must be an integer from 1 to 65535"],
    ["port: \"5432\"", "postgres", "storage_config.scalar_params.port must be an integer from 1 to 65535"],
    ["pool_size: 0", "postgres", "storage_config.scalar_params.pool_size must be a positive integer"],
    ["connect_timeout_ms: fast", "mongodb", "storage_config.scalar_params.connect_timeout_ms must be a positive integer"],
    ["database: [0]", "redis", "storage_config.scalar_params.database must be a non-empty string or a non-negative integer"],
    ["namespace: 5", "redis", "storage_config.scalar_params.namespace must be a non-empty string"],
    ["pool: 3", "postgres", "Unknown config key in storage_config.scalar_params: pool"],
  ])("refuses %j with manager %s", (yaml, manager, message) => {
    expect(() => storage(yaml, manager)).toThrow(ValidationError);
    expect(() => storage(yaml, manager)).toThrow(message);
  });

  it("refuses an unknown store kind naming the kinds, and leaves a kind registered in SCALAR_KINDS to its factory", () => {
    expect(() => storage("url: x://y", "cassandra,hnswlib")).toThrow(UnknownKindError);
    expect(() => storage("url: x://y", "cassandra,hnswlib")).toThrow('Unknown scalar store kind "cassandra". Known kinds: sqlite, memory, postgres, postgresql,');
    SCALAR_KINDS.cassandra = () => ({}) as never;
    try {
      const { manager, scalarParams } = storage("url: x://y", "cassandra,hnswlib");
      expect({ manager, scalarParams }).toStrictEqual({ manager: "cassandra,hnswlib", scalarParams: { url: "x://y" } });
      // Its keys are not checked per kind, but a key no store takes is still refused.
      expect(() => storage("keyspace_hint: ks", "cassandra,hnswlib")).toThrow("Unknown config key in storage_config.scalar_params: keyspace_hint");
    } finally {
      delete SCALAR_KINDS.cassandra;
    }
  });
});

describe("similarCacheOptionsFromConfig", () => {
  it("resolves names to components", () => {
    const options = similarCacheOptionsFromConfig(loadGptCacheConfig(FULL));
    expect(options.embedding).toBeInstanceOf(UniversalSentenceEncoderEmbeddings);
    expect((options.embedding as UniversalSentenceEncoderEmbeddings).batchSize).toBe(32);
    // A config file runs the model on a worker thread unless it says otherwise.
    expect((options.embedding as UniversalSentenceEncoderEmbeddings).worker).toBe(true);
    const inProcess = similarCacheOptionsFromConfig(loadGptCacheConfig("embedding_config:\n  worker: false"));
    expect((inProcess.embedding as UniversalSentenceEncoderEmbeddings).worker).toBe(false);
    expect(options.evaluation).toBeInstanceOf(DistanceEvaluation);
    expect(options.preEmbeddingFunc).toBe(getPrompt);
    expect(options.postProcessMessagesFunc).toBe(first);
    expect(options).toMatchObject({ dataDir: "my_cache", manager: "sqlite,hnswlib", maxSize: 1000, cleanSize: 100, eviction: "LFU", ttlSeconds: 3600, syncIntervalMs: 100 });
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
    expect((timed.evaluation as TimeEvaluation).timeRangeSeconds).toBe(60);
    const mutual = similarCacheOptionsFromConfig(loadGptCacheConfig("evaluation: kreciprocal\nevaluation_config:\n  top_k: 4\npre_context_function: concat"));
    expect(mutual.evaluation).toBeInstanceOf(KReciprocalEvaluation);
    expect((mutual.evaluation as KReciprocalEvaluation).topK).toBe(4);
    expect(mutual.preEmbeddingFunc).toBe(concatAllQueries);
  });

  it("leaves the judge to initSimilarCache when the file names none (the preset's with the \"use\" embedding)", () => {
    for (const yaml of ["server:\n  api_keys: [k]\n", "config:\n  similarity_threshold: 0.7\n", "embedding: use\nembedding_config:\n  batch_size: 16\n", "embedding: wink\n"]) {
      expect(similarCacheOptionsFromConfig(loadGptCacheConfig(yaml)).evaluation).toBeUndefined();
    }
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("evaluation_config:\n  time_range: 60\n"))).toThrow(
      "evaluation_config (time_range) needs an `evaluation` it applies to.",
    );
  });

  it("refuses evaluation settings that do not apply", () => {
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("evaluation: distance\nevaluation_config:\n  max_distance: 4"))).toThrow(
      'evaluation_config: max_distance and positive set GPTCache\'s distance scale; here "distance" scores the cosine similarity on [0, 1]',
    );
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("evaluation: time\nevaluation_config:\n  time_range: soon"))).toThrow(
      "evaluation_config.time_range must be a positive number",
    );
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("embedding: wink\nembedding_config:\n  batch_size: 8"))).toThrow(
      'embedding_config: batch_size does not apply to the "wink" embedding (it takes no settings).',
    );
    expect(() => similarCacheOptionsFromConfig(loadGptCacheConfig("embedding: string\nembedding_config:\n  worker: true"))).toThrow(
      'embedding_config: worker does not apply to the "string" embedding (it takes no settings).',
    );
    expect(() => loadGptCacheConfig("embedding_config:\n  worker: sometimes")).toThrow(/embedding_config\.worker/);
  });
});

describe("initSimilarCacheFromConfig", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  /** True for initSimilarCache's preset judge: the precision guard weighed by UnambiguousEvaluation. */
  const isPreset = (evaluation: SimilarityEvaluation) => evaluation instanceof UnambiguousEvaluation && evaluation.inner instanceof PrecisionGuardEvaluation;

  it("sets up a working semantic cache from a YAML file (a threshold alone keeps the preset judge)", async () => {
    const file = join(dir.path, "cache.yaml");
    writeFileSync(file, `storage_config:\n  data_dir: ${JSON.stringify(join(dir.path, "data"))}\n  max_size: 100\n  scalar_params:\n    table_prefix: app_\n  vector_params:\n    m: 8\n    ef: 32\nconfig:\n  similarity_threshold: 0.8\n`);
    const c = await initSimilarCacheFromConfig(file, { cache: new Cache() });
    expect(c.config.similarityThreshold).toBe(0.8);
    expect(isPreset(c.similarityEvaluation)).toBe(true);
    expect(c.embeddingFunc.dimension).toBe(512);
    expect(c.dataManager.scalar).toMatchObject({ tables: { question: "app_question" } });
    expect(c.dataManager.vector).toMatchObject({ kind: "usearch", connectivity: 8, expansionSearch: 32 });
    await put("Is it safe to take aspirin?", "Mostly, at the usual dose.", { cacheObj: c });
    expect(await get("Is aspirin safe to take?", { cacheObj: c })).toBe("Mostly, at the usual dose.");
    expect(await get("Is it not safe to take aspirin?", { cacheObj: c })).toBeNull();
    expect(await get("Which programming language should I learn first?", { cacheObj: c })).toBeNull();
    await c.close();
  });

  it("keeps the preset judge and threshold for a file with only a server section, so a negation misses", async () => {
    const file = join(dir.path, "server-only.yaml");
    writeFileSync(file, "server:\n  api_keys: [k1]\n");
    const c = await initSimilarCacheFromConfig(file, { cache: new Cache(), dataDir: dir.path });
    expect(isPreset(c.similarityEvaluation)).toBe(true);
    expect(c.config.similarityThreshold).toBe(DEFAULT_PRESET_THRESHOLD);
    await put("Is it safe to take aspirin?", "Mostly, at the usual dose.", { cacheObj: c });
    expect(await get("Is it safe to take aspirin?", { cacheObj: c })).toBe("Mostly, at the usual dose.");
    expect(await get("Is it not safe to take aspirin?", { cacheObj: c })).toBeNull();
    await c.close();
  });

  it("changes only what the file names: the USE batched differently keeps the preset judge, a named judge replaces it", async () => {
    let opened = 0;
    const open = async (yaml: string) => {
      const file = join(dir.path, "named.yaml");
      writeFileSync(file, yaml);
      // A data dir each: the index is made for one embedding's dimension.
      const c = await initSimilarCacheFromConfig(file, { cache: new Cache(), dataDir: join(dir.path, `data${++opened}`) });
      const { similarityEvaluation, config } = c;
      await c.close();
      return { evaluation: similarityEvaluation, threshold: config.similarityThreshold };
    };
    const batched = await open("embedding: use\nembedding_config:\n  batch_size: 16\n  worker: false\n");
    expect(isPreset(batched.evaluation)).toBe(true);
    expect(batched.threshold).toBe(DEFAULT_PRESET_THRESHOLD);
    // Another embedding (wink: its judge is initSimilarCache's default for it, the cosine) is in tests/presets/similar-cache.test.ts.
    const named = await open("evaluation: distance\nconfig:\n  similarity_threshold: 0.85\n");
    expect(named.evaluation).toBeInstanceOf(DistanceEvaluation);
    expect(named.threshold).toBe(0.85);
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
