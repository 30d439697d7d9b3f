# syntax=docker/dockerfile:1
# One image for every kubeairunway process: `kubeairunway run` with --core, --watcher, --providers or
# --webhook (see deploy/). The TypeScript sources run through tsx (bin/kubeairunway.js), as in
# development, so there is no compile step: the first stage installs the production dependencies, the
# second adds the sources that .dockerignore lets through and runs as a non-root user.
#
#   docker build -t ghcr.io/kubeairunway/kubeairunway:v0.1.0 .

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only (tsx among them: it runs the sources). Install scripts stay off, as in
# development (package.json "allowScripts"): esbuild, @swc/core and protobufjs load their prebuilt
# platform packages, and the Temporal worker's native bridge ships prebuilt for linux glibc.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
# Sources and package.json only; tests, golden files, tools' caches and local state are excluded by
# .dockerignore. Owned by root and read-only to the process.
COPY . .
# The image's `node` user, by number, so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# Temporal workers and the webhook stop cleanly on SIGTERM (kubeairunway handles it itself: node runs as
# PID 1 here, which gets no default signal handling).
ENTRYPOINT ["node", "/app/bin/kubeairunway.js"]
CMD ["--help"]
