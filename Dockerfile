# One image build for every service; docker-compose.yml picks a target per service.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY entities/package.json entities/
COPY jobs/package.json jobs/
COPY workers/package.json workers/
COPY api/package.json api/
COPY web/package.json web/
RUN npm install --no-audit --no-fund

FROM deps AS source
COPY tsconfig.base.json tsconfig.json ./
COPY entities entities
COPY jobs jobs
COPY workers workers
COPY api api
COPY web web

FROM source AS web-build
RUN npm run build -w web

# Migrations and demo data, run once before api and workers start.
FROM source AS migrate
ENV NODE_ENV=production
CMD ["sh", "-c", "node --import tsx workers/src/cli/main.ts migrate && node --import tsx workers/src/cli/main.ts seed"]

FROM source AS api
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
EXPOSE 3000
CMD ["node", "--import", "tsx", "api/src/main.ts"]

FROM source AS workers
ENV NODE_ENV=production
CMD ["node", "--import", "tsx", "workers/src/main.ts"]

FROM nginx:1.27-alpine AS web
COPY docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=web-build /app/web/dist /usr/share/nginx/html
