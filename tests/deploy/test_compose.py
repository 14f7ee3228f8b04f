"""Static checks of the production-like deployment: compose.yaml, the Dockerfiles,
nginx.conf and .dockerignore.

Docker is not needed: the files are parsed (PyYAML, and small parsers below for
Dockerfiles, nginx configuration and .dockerignore patterns) and the properties the
stack relies on are asserted one by one, so a broken property fails with a
message naming it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "compose.yaml"
NGINX_CONF = ROOT / "docker" / "nginx.conf"
DOCKERIGNORE = ROOT / ".dockerignore"
REQUIREMENTS_SCRIPT = ROOT / "docker" / "requirements.py"

TORCH_PIN = "torch==2.13.0"
BACKEND_ORIGIN = "http://backend:8000"
AI_SERVER_URL = "ws://backend:8000/ws/ai"

# --------------------------------------------------------------------------- compose


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict), "compose.yaml must be a mapping"
    return data


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found = compose.get("services")
    assert isinstance(found, dict), "compose.yaml has no services mapping"
    return found


def environment(service: dict[str, Any]) -> dict[str, str]:
    """A service's `environment`, in either the mapping or the KEY=VALUE list form."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        pairs = (item.split("=", 1) for item in env)
        return {p[0]: (p[1] if len(p) > 1 else "") for p in pairs}
    return {str(k): "" if v is None else str(v) for k, v in env.items()}


def dependencies(service: dict[str, Any]) -> dict[str, str]:
    """`depends_on` as {service: condition}; the short list form means service_started."""
    deps = service.get("depends_on") or {}
    if isinstance(deps, list):
        return dict.fromkeys(deps, "service_started")
    return {name: (spec or {}).get("condition", "service_started") for name, spec in deps.items()}


def published_host_ports(service: dict[str, Any]) -> list[str]:
    """Host ports a service publishes (empty when it only has container ports)."""
    published = []
    for spec in service.get("ports") or []:
        if isinstance(spec, dict):
            if spec.get("published") not in (None, ""):
                published.append(str(spec["published"]))
            continue
        parts = str(spec).split("/", 1)[0].rsplit(":", 1)
        if len(parts) == 2:  # [ip:]host:container
            host = parts[0].rsplit(":", 1)[-1]
            if host:
                published.append(host)
    return published


def container_ports(service: dict[str, Any]) -> list[int]:
    ports = []
    for spec in service.get("ports") or []:
        if isinstance(spec, dict):
            ports.append(int(spec["target"]))
        else:
            ports.append(int(str(spec).split("/", 1)[0].rsplit(":", 1)[-1]))
    return ports


def healthcheck_text(service: dict[str, Any]) -> str:
    check = service.get("healthcheck") or {}
    assert not check.get("disable"), "healthcheck is disabled"
    test = check.get("test")
    assert test, "no healthcheck test"
    return test if isinstance(test, str) else " ".join(map(str, test))


def test_the_four_services_exist(services: dict[str, dict[str, Any]]) -> None:
    assert {"mongo", "backend", "ai", "frontend"} <= set(services)


def test_mongo_uses_the_official_image_with_a_pinned_major(
    services: dict[str, dict[str, Any]],
) -> None:
    image = services["mongo"].get("image", "")
    repository, _, tag = image.partition(":")
    assert repository in {"mongo", "library/mongo", "docker.io/library/mongo"}, image
    assert tag, f"pin a MongoDB version, got {image!r}"
    assert tag != "latest", f"pin a MongoDB version, got {image!r}"
    assert int(tag.split(".")[0]) >= 8, image


def test_mongo_has_a_ping_healthcheck(services: dict[str, dict[str, Any]]) -> None:
    text = healthcheck_text(services["mongo"])
    assert "mongosh" in text
    assert "ping" in text


def test_mongo_keeps_its_data_on_a_named_volume(compose: dict[str, Any]) -> None:
    named = set(compose.get("volumes") or {})
    mounts = compose["services"]["mongo"].get("volumes") or []
    sources = []
    for mount in mounts:
        if isinstance(mount, dict):
            source, target = mount.get("source"), mount.get("target")
        else:
            source, _, rest = str(mount).partition(":")
            target = rest.split(":", 1)[0]
        if target == "/data/db":
            sources.append(source)
    assert sources, "nothing is mounted at /data/db"
    assert sources[0] in named, f"/data/db must be a top-level named volume, got {sources[0]!r}"


def test_backend_waits_for_a_healthy_mongo(services: dict[str, dict[str, Any]]) -> None:
    assert dependencies(services["backend"]).get("mongo") == "service_healthy"


def test_backend_gets_the_mongodb_url(services: dict[str, dict[str, Any]]) -> None:
    url = environment(services["backend"]).get("MONGODB_URL", "")
    # The replica set's members (tests/deploy/test_compose_cluster.py checks them).
    assert re.fullmatch(r"mongodb://mongo:27017(,[\w-]+:27017)*/\w+(\?replicaSet=\w+)?", url), url


@pytest.mark.parametrize("name", ["SECRET_KEY", "AI_SHARED_SECRET"])
def test_backend_secrets_come_from_the_environment(
    services: dict[str, dict[str, Any]], name: str
) -> None:
    value = environment(services["backend"]).get(name, "")
    assert re.fullmatch(rf"\$\{{{name}:?-.+\}}", value), (
        f"{name} must be overridable as ${{{name}:-default}}, got {value!r}"
    )


def test_ai_and_backend_share_the_ai_secret(services: dict[str, dict[str, Any]]) -> None:
    backend = environment(services["backend"]).get("AI_SHARED_SECRET")
    assert backend
    assert environment(services["ai"]).get("AI_SHARED_SECRET") == backend


def test_backend_healthcheck_probes_healthz(services: dict[str, dict[str, Any]]) -> None:
    text = healthcheck_text(services["backend"])
    assert "127.0.0.1:8000/healthz" in text or "localhost:8000/healthz" in text, text
    assert "curl" not in text, "python:3.11-slim has no curl"


def test_ai_is_scalable(services: dict[str, dict[str, Any]]) -> None:
    ai = services["ai"]
    assert "container_name" not in ai, "a fixed container_name breaks --scale ai=N"
    assert published_host_ports(ai) == [], "a fixed host port breaks --scale ai=N"


def test_ai_waits_for_a_healthy_backend_and_restarts(
    services: dict[str, dict[str, Any]],
) -> None:
    ai = services["ai"]
    assert dependencies(ai).get("backend") == "service_healthy"
    assert ai.get("restart") == "unless-stopped"


def test_ai_worker_connects_to_the_backend_service(
    services: dict[str, dict[str, Any]],
) -> None:
    ai = services["ai"]
    command = ai.get("command")
    if command is None:  # falls back to the image's CMD
        command = cmd_of(dockerfile(dockerfile_path(ai)).stages[-1])
    words = command.split() if isinstance(command, str) else list(command)
    assert words[:2] == ["showdown", "worker"], words
    assert AI_SERVER_URL in words, words


def test_frontend_publishes_the_port_nginx_listens_on(
    services: dict[str, dict[str, Any]],
) -> None:
    frontend = services["frontend"]
    assert published_host_ports(frontend), "the frontend is the stack's entry point"
    listen = [int(d.args[0].split(":")[-1]) for d in nginx_server().find("listen")]
    assert set(container_ports(frontend)) <= set(listen), (container_ports(frontend), listen)
    assert "backend" in dependencies(frontend)


def test_only_the_frontend_publishes_ports(services: dict[str, dict[str, Any]]) -> None:
    exposed = {name for name, svc in services.items() if published_host_ports(svc)}
    assert exposed == {"frontend"}, "mongo/backend/ai stay on the compose network"


# --------------------------------------------------------------------------- Dockerfiles


@dataclass
class Instruction:
    keyword: str
    args: str


@dataclass
class Dockerfile:
    path: Path
    stages: list[list[Instruction]] = field(default_factory=list)

    def all(self) -> list[Instruction]:
        return [ins for stage in self.stages for ins in stage]


def dockerfile(path: Path) -> Dockerfile:
    """Split a Dockerfile into stages of instructions (continuations joined, comments
    dropped)."""
    logical: list[str] = []
    current = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if current and line.startswith("#"):  # comment inside a continuation
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    if current.strip():
        logical.append(current)
    parsed = Dockerfile(path)
    for line in logical:
        keyword, _, args = line.partition(" ")
        ins = Instruction(keyword.upper(), args.strip())
        if ins.keyword == "FROM":
            parsed.stages.append([])
        assert parsed.stages, f"{path.name}: instruction before FROM: {line}"
        parsed.stages[-1].append(ins)
    return parsed


def dockerfile_path(service: dict[str, Any]) -> Path:
    build = service.get("build")
    assert isinstance(build, dict), "expected build: {context, dockerfile}"
    context = ROOT / str(build.get("context", "."))
    return context / str(build.get("dockerfile", "Dockerfile"))


def cmd_of(stage: list[Instruction]) -> list[str]:
    cmds = [ins.args for ins in stage if ins.keyword == "CMD"]
    assert cmds, "final stage has no CMD"
    words: list[str] = json.loads(cmds[-1])  # exec form
    return words


def run_text(df: Dockerfile) -> str:
    return "\n".join(ins.args for ins in df.all() if ins.keyword == "RUN")


def installed_extras(df: Dockerfile) -> list[list[str]]:
    """The extras each `requirements.py PYPROJECT EXTRA... > file` step resolves."""
    calls = re.findall(r"requirements\.py\s+pyproject\.toml\s+([^>]*)>", run_text(df))
    return [call.split() for call in calls]


def copy_sources(df: Dockerfile) -> list[str]:
    """Build-context paths COPY/ADD read (not those copied from another stage)."""
    sources = []
    for ins in df.all():
        if ins.keyword not in {"COPY", "ADD"}:
            continue
        words = ins.args.split()
        if any(w.startswith("--from=") for w in words):
            continue
        paths = [w for w in words if not w.startswith("--")]
        sources.extend(paths[:-1])
    return sources


BUILT_SERVICES = ["backend", "ai", "frontend"]


@pytest.fixture(scope="module")
def dockerfiles(services: dict[str, dict[str, Any]]) -> dict[str, Dockerfile]:
    return {name: dockerfile(dockerfile_path(services[name])) for name in BUILT_SERVICES}


@pytest.mark.parametrize("name", BUILT_SERVICES)
def test_service_is_built_from_its_dockerfile_in_docker_dir(
    services: dict[str, dict[str, Any]], name: str
) -> None:
    path = dockerfile_path(services[name])
    assert path.is_file(), f"{path} does not exist"
    assert path == ROOT / "docker" / f"{name}.Dockerfile"
    assert (ROOT / services[name]["build"].get("context", ".")).resolve() == ROOT


@pytest.mark.parametrize("name", BUILT_SERVICES)
def test_dockerfile_is_multi_stage(dockerfiles: dict[str, Dockerfile], name: str) -> None:
    assert len(dockerfiles[name].stages) >= 2


@pytest.mark.parametrize("name", BUILT_SERVICES)
def test_final_stage_runs_as_a_non_root_user(dockerfiles: dict[str, Dockerfile], name: str) -> None:
    users = [ins.args for ins in dockerfiles[name].stages[-1] if ins.keyword == "USER"]
    assert users, "the final stage sets no USER (would run as root)"
    user = users[-1].split(":", 1)[0]
    assert user not in {"root", "0", ""}, users[-1]


@pytest.mark.parametrize("name", ["backend", "ai"])
def test_python_images_use_python_311_slim(dockerfiles: dict[str, Dockerfile], name: str) -> None:
    final_from = dockerfiles[name].stages[-1][0].args.split()[0]
    assert final_from == "python:3.11-slim"


def test_backend_dockerfile_installs_the_server_extra_only(
    dockerfiles: dict[str, Dockerfile],
) -> None:
    text = "\n".join(ins.args for ins in dockerfiles["backend"].all()).lower()
    for forbidden in ("torch", "secantus", "embedded-db"):
        assert forbidden not in text, f"backend image must not install {forbidden!r}"
    assert not re.search(r"\[[^\]]*\bai\b[^\]]*\]", text), "backend image installs the ai extra"
    assert installed_extras(dockerfiles["backend"]) == [["server"]]


def test_backend_dockerfile_serves_without_a_worker(dockerfiles: dict[str, Dockerfile]) -> None:
    final = dockerfiles["backend"].stages[-1]
    cmd = cmd_of(final)
    assert cmd[:2] == ["showdown", "serve"], cmd
    assert "--no-worker" in cmd
    assert cmd[cmd.index("--host") + 1] == "0.0.0.0"
    assert cmd[cmd.index("--port") + 1] == "8000"
    assert any(ins.keyword == "EXPOSE" and "8000" in ins.args.split() for ins in final)
    checks = [ins.args for ins in final if ins.keyword == "HEALTHCHECK"]
    assert checks, "no HEALTHCHECK"
    assert "/healthz" in checks[-1]
    assert "python" in checks[-1]
    assert "curl" not in checks[-1]


def test_ai_dockerfile_pins_torch_like_pyproject(dockerfiles: dict[str, Dockerfile]) -> None:
    runs = run_text(dockerfiles["ai"])
    assert TORCH_PIN in runs
    ai_extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["ai"]
    assert TORCH_PIN in ai_extra, "pyproject.toml's ai extra and the ai image disagree on torch"
    assert installed_extras(dockerfiles["ai"]) == [["ai"]]
    assert "secantus" not in runs


def requirements_for(*extras: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(REQUIREMENTS_SCRIPT), str(ROOT / "pyproject.toml"), *extras],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.split()


def test_requirements_script_keeps_torch_out_of_the_server_set() -> None:
    server = requirements_for("server")
    assert any(req.startswith("fastapi") for req in server)
    assert any(req.startswith("pokerkit") for req in server), "base dependencies included"
    assert not any(req.startswith(("torch", "secantus")) for req in server), server
    ai = requirements_for("ai")
    assert TORCH_PIN in ai
    assert not any(req.startswith("secantus") for req in ai), ai


def test_frontend_dockerfile_builds_with_node_and_serves_with_nginx(
    dockerfiles: dict[str, Dockerfile],
) -> None:
    df = dockerfiles["frontend"]
    assert df.stages[0][0].args.split()[0].startswith("node:20")
    assert "nginx" in df.stages[-1][0].args.split()[0]
    runs = run_text(df)
    assert "npm ci" in runs
    assert "npm run build" in runs
    copies = [ins.args.split() for ins in df.stages[-1] if ins.keyword == "COPY"]
    assert ["docker/nginx.conf", "/etc/nginx/conf.d/default.conf"] in copies
    assert any(c[0].startswith("--from=") and c[-2].endswith("/dist") for c in copies), copies


# --------------------------------------------------------------------------- nginx


@dataclass
class Directive:
    name: str
    args: list[str]
    block: list[Directive] | None = None

    def find(self, name: str) -> list[Directive]:
        return [d for d in self.block or [] if d.name == name]


def parse_nginx(text: str) -> Directive:
    """A minimal nginx configuration parser: directives, arguments and blocks."""
    tokens = re.findall(r'"[^"]*"|\'[^\']*\'|[{};]|[^\s{};]+', re.sub(r"#[^\n]*", "", text))
    root = Directive("root", [], [])
    stack = [root]
    words: list[str] = []
    for token in tokens:
        if token == "{":
            node = Directive(words[0], words[1:], [])
            assert stack[-1].block is not None
            stack[-1].block.append(node)
            stack.append(node)
            words = []
        elif token == ";":
            assert stack[-1].block is not None
            stack[-1].block.append(Directive(words[0], words[1:]))
            words = []
        elif token == "}":
            assert not words, f"unterminated directive {words}"
            stack.pop()
        else:
            words.append(token.strip("\"'"))
    assert len(stack) == 1, "unbalanced braces in nginx.conf"
    return root


def nginx_root() -> Directive:
    return parse_nginx(NGINX_CONF.read_text(encoding="utf-8"))


def nginx_server() -> Directive:
    servers = nginx_root().find("server")
    assert len(servers) == 1
    return servers[0]


def location(path: str) -> Directive:
    """The location block serving `path` (exact match first, then longest prefix)."""
    blocks = nginx_server().find("location")
    for block in blocks:
        if block.args == ["=", path]:
            return block
    prefixes = [b for b in blocks if len(b.args) == 1 and path.startswith(b.args[0])]
    assert prefixes, f"no location serves {path}"
    return max(prefixes, key=lambda b: len(b.args[0]))


def proxy_target(block: Directive) -> str:
    passes = block.find("proxy_pass")
    assert passes, f"location {block.args} does not proxy"
    target = passes[0].args[0]
    if target.startswith("$"):
        sets = {d.args[0]: d.args[1] for d in nginx_server().find("set")}
        target = sets[target]
    return target


def header(block: Directive, name: str) -> str | None:
    for d in block.find("proxy_set_header"):
        if d.args[0].lower() == name.lower():
            return d.args[1]
    return None


@pytest.mark.parametrize(
    "path", ["/api/tables", "/healthz", "/readyz", "/docs", "/openapi.json", "/ws/table/1"]
)
def test_nginx_proxies_backend_paths(path: str) -> None:
    target = proxy_target(location(path))
    assert target.rstrip("/") == BACKEND_ORIGIN, (
        f"{path} proxied to {target}; it must keep the URI (no path part)"
    )


@pytest.mark.parametrize("path", ["/", "/tables/42", "/assets/index.js"])
def test_nginx_does_not_proxy_the_spa(path: str) -> None:
    assert not location(path).find("proxy_pass")


def test_nginx_spa_falls_back_to_index_html() -> None:
    try_files = location("/tables/42").find("try_files")
    assert try_files, "client-side routes need try_files"
    assert try_files[0].args[-1] == "/index.html"


def test_nginx_upgrades_websockets_with_a_long_read_timeout() -> None:
    ws = location("/ws/table/1")
    assert ws.args == ["/ws/"]
    assert header(ws, "Upgrade") == "$http_upgrade"
    connection = header(ws, "Connection")
    if connection == "$connection_upgrade":
        maps = [
            m
            for m in nginx_root().find("map")
            if m.args == ["$http_upgrade", "$connection_upgrade"]
        ]
        assert maps, "$connection_upgrade is used but never mapped"
    else:
        assert (connection or "").lower() == "upgrade", connection
    versions = ws.find("proxy_http_version") or nginx_server().find("proxy_http_version")
    assert versions, "WebSockets need proxy_http_version 1.1"
    assert versions[0].args == ["1.1"]
    timeouts = ws.find("proxy_read_timeout")
    assert timeouts, "the 60 s default read timeout drops idle table sockets"
    match = re.fullmatch(r"(\d+)(s|m|h)?", timeouts[0].args[0])
    assert match, timeouts[0].args
    seconds = int(match[1]) * {None: 1, "s": 1, "m": 60, "h": 3600}[match[2]]
    assert seconds >= 600


# --------------------------------------------------------------------------- .dockerignore


def dockerignore_patterns() -> list[tuple[bool, re.Pattern[str]]]:
    """(negated, regex) per .dockerignore line, in order (Go filepath.Match plus **)."""
    patterns = []
    for raw in DOCKERIGNORE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line.lstrip("!").strip().strip("/")
        regex = ""
        i = 0
        while i < len(line):
            if line.startswith("**/", i):
                regex += "(?:.*/)?"
                i += 3
            elif line.startswith("**", i):
                regex += ".*"
                i += 2
            elif line[i] == "*":
                regex += "[^/]*"
                i += 1
            elif line[i] == "?":
                regex += "[^/]"
                i += 1
            elif line[i] == "[":
                end = line.index("]", i)
                regex += line[i : end + 1]
                i = end + 1
            else:
                regex += re.escape(line[i])
                i += 1
        patterns.append((negated, re.compile(regex)))
    return patterns


def ignored(path: str) -> bool:
    """Whether the build context leaves out `path` (or a directory above it)."""
    parts = path.strip("/").split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    excluded = False
    for negated, regex in dockerignore_patterns():
        if any(regex.fullmatch(c) for c in candidates):
            excluded = not negated
    return excluded


@pytest.mark.parametrize(
    "path",
    [
        ".git",
        ".venv",
        "frontend/node_modules",
        "frontend/dist",
        ".data",
        ".mypy_cache",
        ".pytest_cache",
        "holdem/__pycache__",
        ".env",
    ],
)
def test_dockerignore_excludes(path: str) -> None:
    assert ignored(path), f".dockerignore lets {path} into the build context"


def test_dockerignore_keeps_every_copied_source(dockerfiles: dict[str, Dockerfile]) -> None:
    for name, df in dockerfiles.items():
        for source in copy_sources(df):
            plain = source.rstrip("*")  # optional-file globs like README.md*
            assert not ignored(plain), f"{name}: COPY {source} is excluded by .dockerignore"


def test_copied_sources_exist(dockerfiles: dict[str, Dockerfile]) -> None:
    frontend_ready = (ROOT / "frontend" / "package.json").is_file()
    missing = []
    for df in dockerfiles.values():
        for source in copy_sources(df):
            if "*" in source:
                continue  # optional by design
            if source.startswith("frontend/") and not frontend_ready:
                continue  # the frontend app has not landed yet
            if not (ROOT / source).exists():
                missing.append(f"{df.path.name}: {source}")
    assert not missing, missing
