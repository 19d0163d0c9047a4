export * from "./scalar-store-contract.js";
export * from "./eviction-contract.js";
export * from "./vector-index-contract.js";
export * from "./object-store-contract.js";
export * from "./evaluation-contract.js";
export * from "./embedding-contract.js";
export * from "./fake-servers/http.js";
export * from "./fake-servers/openai.js";
