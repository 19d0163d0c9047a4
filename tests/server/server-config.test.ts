import { join } from "node:path";
import { DEFAULT_PRESET_THRESHOLD, PrecisionGuardEvaluation, UnambiguousEvaluation, get, loadGptCacheConfig, put } from "../../src/index.js";
import { openServerCache } from "../../src/server/server-cache.js";
import { isLoopback, resolveServerSettings } from "../../src/server/server-config.js";
import { tempDir } from "../helpers/fixtures.js";

const FULL = `
embedding: string
server:
  host: 0.0.0.0
  port: 9000
  api_keys:
    - plain-admin-key
    - { key: tenant-key, namespace: tenant-a }
    - { key_env: OPS_KEY, admin: true }
  admin_only: true
  namespaces: [tenant-a, tenant-b]
  upstream:
    base_url: http://127.0.0.1:11434/v1/
    api_key_env: UPSTREAM_KEY
    timeout_ms: 5000
  limits:
    body_limit: 65536
    request_timeout_ms: 2000
    keep_alive_timeout_ms: 1000
`;

describe("the server section of the YAML config", () => {
  it("reads every key into this package's terms, and keeps the section as written", () => {
    const config = loadGptCacheConfig(FULL);
    expect(config.serverOptions).toEqual({
      host: "0.0.0.0",
      port: 9000,
      apiKeys: [
        "plain-admin-key",
        { key: "tenant-key", keyEnv: undefined, namespace: "tenant-a", admin: undefined },
        { key: undefined, keyEnv: "OPS_KEY", namespace: undefined, admin: true },
      ],
      adminOnly: true,
      allowUnauthenticated: undefined,
      namespaces: ["tenant-a", "tenant-b"],
      upstream: { baseURL: "http://127.0.0.1:11434/v1/", apiKey: undefined, apiKeyEnv: "UPSTREAM_KEY", timeoutMs: 5000 },
      limits: { bodyLimit: 65536, requestTimeoutMs: 2000, keepAliveTimeoutMs: 1000 },
    });
    expect(config.server?.port).toBe(9000);
  });

  it("resolves keys from the environment and fills the defaults", () => {
    const settings = resolveServerSettings(loadGptCacheConfig(FULL).serverOptions, { OPS_KEY: "ops", UPSTREAM_KEY: "up" });
    expect([...settings.keys]).toEqual([
      ["plain-admin-key", { namespace: undefined, admin: true }],
      ["tenant-key", { namespace: "tenant-a", admin: false }],
      ["ops", { namespace: undefined, admin: true }],
    ]);
    expect(settings.upstream).toEqual({ baseURL: "http://127.0.0.1:11434/v1", apiKey: "up", replacesCallerKey: true, timeoutMs: 5000 });
    expect(settings.namespaces).toEqual(new Set(["tenant-a", "tenant-b"]));

    const defaults = resolveServerSettings({}, {});
    expect(defaults).toMatchObject({ host: "127.0.0.1", port: 8000, adminOnly: false, allowUnauthenticated: false });
    expect(defaults.keys.size).toBe(0);
    expect(defaults.limits).toEqual({ bodyLimit: 1024 * 1024, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000 });
    expect(defaults.upstream).toEqual({ baseURL: "https://api.openai.com/v1", apiKey: undefined, replacesCallerKey: false, timeoutMs: 600_000 });
    // OpenAI's own variables are the fallback: the caller's key still goes first (it is not a replacement).
    expect(resolveServerSettings({}, { OPENAI_BASE_URL: "http://local/v1", OPENAI_API_KEY: "env-key" }).upstream).toMatchObject({
      baseURL: "http://local/v1",
      apiKey: "env-key",
      replacesCallerKey: false,
    });
  });

  it.each([
    ["server:\n  prot: 80", "Unknown config key in server: prot"],
    ["server:\n  port: eighty", "server.port must be a non-negative integer"],
    ["server:\n  port: 70000", "server.port must be a port number (0 to 65535)"],
    ["server:\n  api_keys: secret", "server.api_keys must be a list of strings or mappings"],
    ["server:\n  api_keys: [{ key: k, namspace: a }]", "Unknown config key in server.api_keys[0]: namspace"],
    ["server:\n  api_keys: [{ namespace: a }]", "server.api_keys[0] must be a mapping with one of key or key_env"],
    ["server:\n  api_keys: [{ key: k, admin: yes please }]", "server.api_keys[0].admin must be true or false"],
    ["server:\n  api_keys: [{ key: k, namespace: 'a b' }]", "server.api_keys[0].namespace must be a namespace name"],
    ["server:\n  namespaces: [a]\n  api_keys: [{ key: k, namespace: b }]", "server.api_keys[0].namespace must be one of server.namespaces (a)"],
    ["server:\n  upstream:\n    base_url: 5", "server.upstream.base_url must be a non-empty string"],
    ["server:\n  upstream:\n    api_key: a\n    api_key_env: B", "server.upstream must be a mapping with at most one of api_key and api_key_env"],
    ["server:\n  limits:\n    body_limit: -1", "server.limits.body_limit must be a positive integer"],
    ["server:\n  limits:\n    max_body: 1", "Unknown config key in server.limits: max_body"],
    ["server: [1, 2]", "server must be a mapping"],
  ])("refuses %j naming the key's path", (yaml, message) => {
    expect(() => loadGptCacheConfig(yaml)).toThrow(message);
  });

  it("refuses an unset key variable, a repeated key and a bad upstream URL when the server starts", () => {
    expect(() => resolveServerSettings({ apiKeys: [{ keyEnv: "MISSING" }] }, {})).toThrow("server.api_keys[0].key_env: the environment variable MISSING is not set.");
    expect(() => resolveServerSettings({ apiKeys: ["k", { key: "k" }] }, {})).toThrow("server.api_keys[1]: the same key is listed twice.");
    expect(() => resolveServerSettings({ upstream: { baseURL: "not a url" } }, {})).toThrow('server.upstream.base_url must be a URL, got "not a url"');
  });

  it("tells loopback addresses from others", () => {
    expect(["127.0.0.1", "127.1.2.3", "localhost", "::1"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "192.168.1.5", "example.com"].some(isLoopback)).toBe(false);
  });
});

describe("openServerCache with a config file", () => {
  it("keeps the preset judge and threshold when the file has only a server section, so a negation misses", async () => {
    const dir = tempDir();
    const messages: string[] = [];
    const config = loadGptCacheConfig("server:\n  api_keys: [k1]\n");
    const { cache, server, dataDir, stores } = await openServerCache({ config, dataDir: join(dir.path, "data"), onProgress: (message) => messages.push(message) });
    try {
      expect(server).toMatchObject({ apiKeys: ["k1"] });
      expect({ dataDir, stores }).toEqual({ dataDir: join(dir.path, "data"), stores: "sqlite,usearch" });
      expect(cache.similarityEvaluation).toBeInstanceOf(UnambiguousEvaluation);
      expect((cache.similarityEvaluation as UnambiguousEvaluation).inner).toBeInstanceOf(PrecisionGuardEvaluation);
      expect(cache.config.similarityThreshold).toBe(DEFAULT_PRESET_THRESHOLD);
      expect(messages).toEqual(["loading the embedding model (UniversalSentenceEncoderEmbeddings)", expect.stringMatching(/^embedding model ready in \d+ ms$/)]);
      await put("Is it safe to take aspirin?", "Mostly, at the usual dose.", { cacheObj: cache });
      expect(await get("Is it safe to take aspirin?", { cacheObj: cache })).toBe("Mostly, at the usual dose.");
      expect(await get("Is it not safe to take aspirin?", { cacheObj: cache })).toBeNull();
    } finally {
      await cache.close();
      dir.cleanup();
    }
  });
});
