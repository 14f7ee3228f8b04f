# syntax=docker/dockerfile:1
#
# Showdown backend: FastAPI server (tables, lobby, AI gateway). Installs the
# `server` extra only: no PyTorch, no embedded database (compose provides MongoDB
# and passes MONGODB_URL).
#
#   docker build -f docker/backend.Dockerfile -t showdown-backend .

############################ builder ############################
FROM python:3.11-slim AS builder

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

WORKDIR /src

# 1. Dependencies of `.[server]` in their own layer: rebuilt only when
#    pyproject.toml changes, not on every source edit.
COPY pyproject.toml ./
COPY docker/requirements.py /tmp/requirements.py
RUN python /tmp/requirements.py pyproject.toml server > /tmp/requirements.txt
RUN --mount=type=cache,target=/root/.cache/pip \
    pip install -r /tmp/requirements.txt

# 2. The project itself, built as a wheel (installed without deps below).
#    README.md* : the readme is optional for the build.
COPY README.md* ./
COPY holdem ./holdem
COPY protocol ./protocol
COPY backend ./backend
COPY ai ./ai
COPY showdown ./showdown
RUN --mount=type=cache,target=/root/.cache/pip \
    pip wheel --no-deps --wheel-dir /wheels .

############################ runtime ############################
FROM python:3.11-slim AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH

RUN groupadd --system --gid 10001 showdown \
 && useradd --system --uid 10001 --gid showdown --create-home --home-dir /home/showdown \
        --shell /usr/sbin/nologin showdown

# The dependency venv is an unchanged layer as long as pyproject.toml is.
COPY --from=builder /opt/venv /opt/venv
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-deps --no-index /wheels/*.whl \
 && pip check

WORKDIR /home/showdown
USER 10001:10001

EXPOSE 8000

# slim has no curl: probe with the standard library.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status == 200 else 1)"]

# --no-worker: in compose the AI workers are their own service (scale with
# `docker compose up --scale ai=N`); MONGODB_URL, SECRET_KEY and AI_SHARED_SECRET
# come from the environment.
CMD ["showdown", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-worker"]
