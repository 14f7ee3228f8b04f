"""The socket's Origin check (scheme, host and port; forwarded headers only from trusted
proxies) and the security headers on the app's responses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from backend_testlib import RunningServer, WsClient, create_table, guest
from websockets.exceptions import InvalidStatus

from backend.security_headers import APP_CSP


async def opens(server: RunningServer, path: str, token: str, origin: str, **headers: str) -> bool:
    """Whether a browser-like handshake with this Origin (and headers) gets to `welcome`."""
    try:
        conn = await websockets.connect(
            server.ws_url(path),
            origin=origin,  # type: ignore[arg-type]
            additional_headers=headers,
        )
    except InvalidStatus as refused:
        if refused.response.status_code != 403:
            raise
        return False
    client = WsClient(conn)
    await client.send({"type": "auth", "token": token})
    await client.wait_type("welcome")
    await client.close()
    return True


async def test_origin_is_compared_by_scheme_host_and_port(server_factory: Any) -> None:
    server = await server_factory(allowed_origins=["https://app.example"])
    token, _ = await guest(server, "Alice")
    path = f"/ws/tables/{(await create_table(server, token))['table_id']}"
    own = f"127.0.0.1:{server.port}"
    assert await opens(server, path, token, f"http://{own}")
    assert await opens(server, path, token, "https://app.example")
    assert await opens(server, path, token, "https://APP.example:443")
    assert not await opens(server, path, token, f"https://{own}")  # another scheme
    assert not await opens(server, path, token, f"http://127.0.0.1:{server.port + 1}")
    assert not await opens(server, path, token, "http://app.example")  # not https
    assert not await opens(server, path, token, "https://app.example:8443")
    assert not await opens(server, path, token, "null")
    # A client cannot vouch for its own host: forwarded headers from it are ignored.
    forged = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}
    assert not await opens(server, path, token, "https://evil.example", **forged)


async def test_forwarded_headers_count_from_a_trusted_proxy(server_factory: Any) -> None:
    server = await server_factory(trusted_proxies=["127.0.0.0/8"])
    token, _ = await guest(server, "Alice")
    path = f"/ws/tables/{(await create_table(server, token))['table_id']}"
    proxied = {"X-Forwarded-Host": "poker.example", "X-Forwarded-Proto": "https"}
    assert await opens(server, path, token, "https://poker.example", **proxied)
    assert not await opens(server, path, token, "http://poker.example", **proxied)
    assert not await opens(server, path, token, f"http://127.0.0.1:{server.port}", **proxied)


@pytest.fixture
def built_app(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><div id=root></div>")
    (tmp_path / "app.js").write_text("console.log(1)")
    return tmp_path


async def test_security_headers_on_the_app_and_the_api(
    server_factory: Any, built_app: Path
) -> None:
    server = await server_factory(frontend_dir=built_app)
    async with httpx.AsyncClient(base_url=server.http) as http:
        for path in ("/", "/app.js", "/tables/x", "/api/tables", "/healthz", "/nope.js"):
            response = await http.get(path)
            headers = response.headers
            assert headers["content-security-policy"] == APP_CSP, path
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "same-origin"
        csp = (await http.get("/")).headers["content-security-policy"]
        for directive in ("frame-ancestors 'none'", "script-src 'self'", "connect-src 'self'"):
            assert directive in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        docs = await http.get("/docs")
        assert docs.status_code == 200 and "cdn.jsdelivr.net" in docs.text
        docs_csp = docs.headers["content-security-policy"]
        assert "https://cdn.jsdelivr.net" in docs_csp and "frame-ancestors 'none'" in docs_csp


async def test_a_clusters_page_may_open_its_sockets_at_any_node(
    server_factory: Any, built_app: Path
) -> None:
    """A page served by one node opens a table's socket at its owner (close 4010,
    docs/cluster.md §3): the owner allows the other nodes' origins, and every node's page
    may connect to the others (connect-src), and to nothing else."""
    peer = "http://127.0.0.1:8101"
    server = await server_factory(
        frontend_dir=built_app, cluster_urls=[peer, "https://n2.example:8443", "ftp://x"]
    )
    token, _ = await guest(server, "Alice")
    path = f"/ws/tables/{(await create_table(server, token))['table_id']}"
    assert await opens(server, path, token, peer)
    assert not await opens(server, path, token, "http://127.0.0.1:8102")
    async with httpx.AsyncClient(base_url=server.http) as http:
        csp = (await http.get("/")).headers["content-security-policy"]
    assert "connect-src 'self' ws://127.0.0.1:8101 wss://n2.example:8443;" in csp
