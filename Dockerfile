# syntax=docker/dockerfile:1
# Build stage: compiles TypeScript and the better-sqlite3 native addon.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: no compiler, no dev dependencies, not root.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    DATABASE_URL=sqlite:/data/receiver.db \
    QUEUE_URL=file:/data/events.ndjson \
    ADMIN_HOST=0.0.0.0 \
    API_HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY migrations ./migrations
# The operator console's stylesheet and chart script (uPlot itself comes from node_modules).
COPY assets ./assets
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# 8080 faces the gateway; 9464 (health, readiness, metrics) and 8081 (the internal API, off
# without API_TOKEN) stay inside your network.
EXPOSE 8080 8081 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.ADMIN_PORT || 9464) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# The main thread's heap limits, as `npm start` sets them (docs/operations.md, "Memory"): V8 takes
# them only when node starts.
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=512", "dist/main.js"]
