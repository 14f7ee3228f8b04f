"""Static checks of compose.yaml's cluster (docs/cluster.md): MongoDB as a replica set with
its init step, NATS, the backend scalable as nodes on the bus behind nginx, ai scalable.

Docker is not here: the file is parsed with PyYAML and each property the cluster
design relies on is asserted, so a broken one fails with a message naming it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
Service = dict[str, Any]


@pytest.fixture(scope="module")
def services() -> dict[str, Service]:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    found = compose["services"]
    assert isinstance(found, dict)
    return found


def env(service: Service) -> dict[str, str]:
    values = service.get("environment") or {}
    if isinstance(values, list):
        return dict(item.split("=", 1) for item in values)
    return {str(k): str(v) for k, v in values.items()}


def words(command: str | list[object] | None) -> list[str]:
    return command.split() if isinstance(command, str) else [str(w) for w in command or []]


def replica_set_of(service: Service) -> str:
    command = words(service["command"])
    return command[command.index("--replSet") + 1]


def members(services: dict[str, Service]) -> dict[str, Service]:
    """The services running mongod as a member of a replica set."""
    return {name: s for name, s in services.items() if "--replSet" in words(s.get("command"))}


def initiated(services: dict[str, Service]) -> tuple[str, list[str]]:
    """The replica set the init step initiates and its members' host:port."""
    script = " ".join(words(services["mongo-init"]["command"]))
    assert "rs.initiate" in script, "mongo-init does not initiate the replica set"
    name = re.search(r'_id:\s*"(\w+)",\s*members', script)
    assert name, script
    return name[1], re.findall(r'host:\s*"([\w-]+:\d+)"', script)


def test_mongo_runs_as_a_replica_set_of_three(services: dict[str, Service]) -> None:
    found = members(services)
    assert len(found) == 3, f"a replica set that survives a member's death: {sorted(found)}"
    names = {replica_set_of(s) for s in found.values()}
    assert len(names) == 1, names
    for name, service in found.items():
        assert service["image"].startswith("mongo:8"), name
        assert "--bind_ip_all" in words(service["command"]), f"{name}: unreachable by peers"
        assert any(str(v).endswith(":/data/db") for v in service.get("volumes", [])), name
        assert service.get("healthcheck"), f"{name}: mongo-init waits for it to be healthy"


def test_the_init_step_initiates_every_member_once_and_waits_for_a_primary(
    services: dict[str, Service],
) -> None:
    init = services["mongo-init"]
    replica_set, hosts = initiated(services)
    [member_set] = {replica_set_of(s) for s in members(services).values()}
    assert replica_set == member_set
    assert sorted(hosts) == sorted(f"{name}:27017" for name in members(services))
    script = " ".join(words(init["command"]))
    assert "rs.status()" in script, "initiate only once: a restarted stack finds it initiated"
    assert "primary" in script, "the backend must start on a set with a primary"
    assert init.get("restart") == "no", "a one-shot step"
    deps = init["depends_on"]
    assert {name: deps[name]["condition"] for name in deps} == dict.fromkeys(
        members(services), "service_healthy"
    )


def test_every_client_gets_the_replica_set_url(services: dict[str, Service]) -> None:
    replica_set, hosts = initiated(services)
    for name in ("backend", "ai"):
        url = urlsplit(env(services[name])["MONGODB_URL"])
        assert url.scheme == "mongodb", name
        assert sorted(url.netloc.split(",")) == sorted(hosts), f"{name}: give every member"
        assert parse_qs(url.query)["replicaSet"] == [replica_set], name


def test_nats_runs_from_the_official_image_unpublished(services: dict[str, Service]) -> None:
    nats = services["nats"]
    repository, _, tag = nats["image"].partition(":")
    assert repository in {"nats", "library/nats", "docker.io/library/nats"}, nats["image"]
    assert tag and tag != "latest", "pin the bus's version"
    assert not nats.get("ports"), "only the backend nodes talk to the bus"


def test_the_bus_url_reaches_the_backend(services: dict[str, Service]) -> None:
    backend = services["backend"]
    assert env(backend)["NATS_URL"] == "nats://nats:4222", "set: each backend is a cluster node"
    assert float(env(backend)["LEASE_TTL"]) > 0
    assert "nats" in backend["depends_on"]
    condition = backend["depends_on"]["mongo-init"]["condition"]
    assert condition == "service_completed_successfully", "start on an initiated replica set"


def test_backend_scales_as_nodes(services: dict[str, Service]) -> None:
    backend = services["backend"]
    assert "container_name" not in backend, "a fixed container_name breaks --scale backend=N"
    assert not backend.get("ports"), "a fixed host port breaks --scale backend=N"
    assert "NODE_ID" not in env(backend), "one fixed node id for every replica"
    assert backend.get("restart") == "unless-stopped", "a killed node comes back (its tables moved)"


def test_nginx_spreads_over_the_backend_replicas() -> None:
    """Any node accepts a client (it relays to the table's owner): nginx needs no table
    routing, only to resolve `backend` at request time, to every replica's address."""
    conf = (ROOT / "docker" / "nginx.conf").read_text(encoding="utf-8")
    assert re.search(r"^\s*resolver 127\.0\.0\.11\b", conf, re.M), "Docker's DNS, per request"
    assert re.search(r"set \$backend http://backend:8000;", conf)
    assert "upstream" not in conf, "a static upstream resolves the replicas once, at start"


def test_ai_stays_scalable(services: dict[str, Service]) -> None:
    ai = services["ai"]
    assert "container_name" not in ai and not ai.get("ports")
    assert "ws://backend:8000/ws/ai" in words(ai["command"])
