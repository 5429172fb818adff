# doppel serve in a container: both services, the fake cloud and the control API on port 8200.
#   docker build -t doppel .            (from a checkout; builds the package the way npm publishes it)
#   docker run --rm -p 8200:8200 doppel
# Bound to 0.0.0.0 inside the container, so the control API asks for a token: pass --root-token or
# --control-token (see the README's "In a container" section).
FROM node:24-slim AS pack
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && npm pack --pack-destination /tmp && mv /tmp/doppel-*.tgz /tmp/doppel.tgz

FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=pack /tmp/doppel.tgz /tmp/doppel.tgz
RUN npm install --omit=dev --no-audit --no-fund /tmp/doppel.tgz msw && rm /tmp/doppel.tgz && npm cache clean --force
USER node
EXPOSE 8200
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8200/_doppel/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/app/node_modules/.bin/doppel"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8200"]
