import { URL, fileURLToPath } from "node:url";

/** Jest runs the TypeScript sources as native ESM (swc strips the types, tsc checks them). */
export default {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      {
        // Keeps `with { type: "json" }`: Jest deprecates JSON imports without it.
        jsc: { parser: { syntax: "typescript" }, target: "es2022", experimental: { keepImportAttributes: true } },
        module: { type: "es6" },
      },
    ],
    // light-my-request (behind `app.inject`) and @fastify/static (behind /docs) `require` these ES-only
    // packages; compiled to CommonJS they load, so route tests need no socket.
    "/node_modules/(cookie|content-disposition)/.+\\.js$": [
      "@swc/jest",
      {
        jsc: { parser: { syntax: "ecmascript" }, target: "es2022" },
        module: { type: "commonjs" },
      },
    ],
  },
  transformIgnorePatterns: ["/node_modules/(?!(cookie|content-disposition)/)"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["<rootDir>/tests/**/*.test.ts"],
  // An absolute path: the docs' snippet runner reuses this config with another rootDir.
  setupFilesAfterEnv: [fileURLToPath(new URL("./tests/setup/stop-model-worker.ts", import.meta.url))],
  testTimeout: 30000,
};
