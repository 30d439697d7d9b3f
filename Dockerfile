# syntax=docker/dockerfile:1
# One image for every kubeairunway process: `kubeairunway run` with --core, --watcher, --providers or
# --webhook (see deploy/). It runs compiled JavaScript, not TypeScript: the build stage compiles the
# sources with `npm run build` (dist/, with the core worker's prebuilt workflow bundle, so no worker runs
# webpack at start); the runtime stage holds the production dependencies (no tsx, no compiler), dist/,
# package.json and the entry point, and runs as a non-root user.
#
#   docker build -t ghcr.io/kubeairunway/kubeairunway:v$(node -p 'require("./package.json").version') .
#
# NODE_IMAGE is the runtime's base; BUILD_IMAGE (the same by default) the one the two npm stages run on,
# which needs npm. Without a registry, bases made from Debian's packages serve (docs/operations.md,
# "The image without a registry": what the project's own tests build and run).

ARG NODE_IMAGE=node:20-bookworm-slim
ARG BUILD_IMAGE=${NODE_IMAGE}

FROM ${BUILD_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only. Install scripts stay off, as in development (package.json
# "allowScripts"): @swc/core and protobufjs load their prebuilt platform packages, and the Temporal
# worker's native bridge ships prebuilt for linux glibc.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

FROM ${BUILD_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Every dependency: the build runs tsc and the workflow bundler through tsx.
RUN npm ci --ignore-scripts --no-audit --no-fund
# The sources, configs and build script that .dockerignore lets through (no tests).
COPY . .
RUN npm run build

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# A small young generation (V8's default grows to 3 x 16 MiB per isolate, and the worker has two): the
# controller allocates in short bursts, so a larger one only raises resident memory (measured with
# `npm run bench -- --ours-only`: 341 -> 279 MiB after a burst of 100). The bench runs ours with the
# same flag (bench/versus/controller-processes.ts).
ENV NODE_OPTIONS=--max-semi-space-size=4
# Two malloc arenas instead of glibc's eight per core: the Temporal SDK's native threads allocate in
# arenas of their own, which keep freed memory. Measured with the bench: resident memory after deleting
# everything 26-35 % above its start before, 16 % with it (the bench runs ours with the same setting).
ENV MALLOC_ARENA_MAX=2
# A fixed mmap threshold (128 KiB): glibc otherwise raises it after each large free, up to 32 MiB, and
# later large buffers (watch and gRPC payloads in a burst) come from the arenas, which keep them. Trim
# the heap top past 128 KiB free. Measured with the bench, 1,000 deployments created and deleted:
# resident memory after deleting everything 69 % → 30 % above start, with 1,000 Running 379 → 294 MiB.
ENV MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
# package.json: the compiled code finds the product's root and version by it. bin/kubeairunway.js runs
# dist/ here because tsx is not installed. All owned by root and read-only to the process.
COPY package.json ./
COPY bin ./bin
COPY --from=build /app/dist ./dist
# The image's `node` user, by number, so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# Temporal workers and the webhook stop cleanly on SIGTERM (kubeairunway handles it itself: node runs as
# PID 1 here, which gets no default signal handling).
ENTRYPOINT ["node", "/app/bin/kubeairunway.js"]
CMD ["--help"]
