# syntax=docker/dockerfile:1
#
# Showdown frontend: the React app built by Vite, served by an unprivileged
# nginx that also proxies the API and the WebSockets to the backend
# (docker/nginx.conf), so the browser sees a single origin.
#
#   docker build -f docker/frontend.Dockerfile -t showdown-frontend .

############################ build ############################
FROM node:20-slim AS build

WORKDIR /app

# Dependencies first: rebuilt only when the manifest or the lockfile changes.
COPY frontend/package.json frontend/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund

COPY frontend/ ./
RUN npm run build

############################ runtime ############################
# nginx-unprivileged: listens on 8080, pid and temp files under /tmp.
FROM nginxinc/nginx-unprivileged:1.27-alpine AS runtime

COPY docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/dist /usr/share/nginx/html

# uid 101 is the image's `nginx` user.
USER 101

EXPOSE 8080
