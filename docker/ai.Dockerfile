# syntax=docker/dockerfile:1
#
# Showdown AI worker: connects to the backend over WebSocket and answers
# decision queries. Installs the `ai` extra (PyTorch, numba, evaluators).
#
#   docker build -f docker/ai.Dockerfile -t showdown-ai .
#
# PyTorch comes from PyPI with the pin below. On x86-64 the PyPI wheel pulls in
# the CUDA runtime libraries (several GB); production builds should install
# torch from PyTorch's CPU-only wheel index instead (same version pin), e.g. by
# adding that index to the `pip install torch` step.

############################ builder ############################
FROM python:3.11-slim AS builder

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

# A compiler for any dependency without a wheel for this platform (e.g. eval7).
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential \
 && rm -rf /var/lib/apt/lists/*

RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

WORKDIR /src

# 1. PyTorch alone, first: the largest layer, cached across everything else.
#    Keep this pin equal to the one in pyproject.toml's `ai` extra.
RUN --mount=type=cache,target=/root/.cache/pip \
    pip install "torch==2.13.0"

# 2. The rest of `.[ai]`'s dependencies: rebuilt only when pyproject.toml changes.
COPY pyproject.toml ./
COPY docker/requirements.py /tmp/requirements.py
RUN python /tmp/requirements.py pyproject.toml ai > /tmp/requirements.txt
RUN --mount=type=cache,target=/root/.cache/pip \
    pip install -r /tmp/requirements.txt

# 3. The project itself, built as a wheel (installed without deps below).
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
    PATH=/opt/venv/bin:$PATH \
    HOME=/home/showdown \
    MPLBACKEND=Agg \
    MPLCONFIGDIR=/tmp/matplotlib \
    NUMBA_CACHE_DIR=/tmp/numba-cache

RUN groupadd --system --gid 10001 showdown \
 && useradd --system --uid 10001 --gid showdown --create-home --home-dir /home/showdown \
        --shell /usr/sbin/nologin showdown

# The dependency venv (PyTorch included) is an unchanged layer as long as
# pyproject.toml is, so source edits only ship the small wheel layer below.
COPY --from=builder /opt/venv /opt/venv
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    pip install --no-deps --no-index /wheels/*.whl \
 && pip check

WORKDIR /home/showdown
USER 10001:10001

# The worker is a client: no port. The shared secret the backend expects comes
# from the environment (AI_SHARED_SECRET); never bake it into the image.
CMD ["showdown", "worker", "--server", "ws://backend:8000/ws/ai"]
