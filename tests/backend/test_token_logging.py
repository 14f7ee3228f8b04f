"""No token in the server's log: a real `showdown serve`, its real log lines read back."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import httpx
from backend_testlib import TIMEOUT, WsClient, signed_in

from backend.db.embedded import free_port


async def test_tokens_never_reach_the_log(mongo_url: str, tmp_path: Path) -> None:
    port = free_port()
    log_path = tmp_path / "serve.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHOWDOWN_")}
    env.update(
        MONGODB_URL=mongo_url,
        SHOWDOWN_MONGODB_DB="logtest" + os.urandom(4).hex(),
        SHOWDOWN_LOG_LEVEL="INFO",
        SHOWDOWN_LOG_FORMAT="json",
        SHOWDOWN_FRONTEND_DIR=str(tmp_path),
    )
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "showdown.cli", "serve", "--port", str(port)),
            *("--data-dir", str(tmp_path / "data"), "--no-worker"),
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
        )
    try:
        assert process.stdout is not None
        async with asyncio.timeout(60):
            while "running at" not in (line := (await process.stdout.readline()).decode()):
                assert line, f"showdown serve exited; see {log_path}"
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base) as http:
            login = (await http.post("/api/auth/guest", json={"name": "Alice"})).json()
            auth = {"Authorization": f"Bearer {login['token']}"}
            table = (await http.post("/api/tables", json={}, headers=auth)).json()
            url = f"ws://127.0.0.1:{port}/ws/tables/{table['table_id']}"
            # The web client's way: the token in the first message.
            client = await signed_in(f"{url}?last_seq=1", login["token"])
            await client.wait_type("welcome")
            await client.close()
            # A client that still puts it in the URL: refused, and not logged either.
            stale = await WsClient.connect(f"{url}?token={login['token']}")
            assert (await stale.wait_type("error"))["code"] == "unauthorized"
            await stale.close()
            renewed = await http.post(
                "/api/auth/refresh", json={"refresh_token": login["refresh_token"]}
            )
            assert renewed.status_code == 200
            assert (await http.post("/api/auth/logout", headers=auth)).status_code == 204
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), TIMEOUT * 3)
    text = log_path.read_text(encoding="utf-8")
    assert '"WebSocket /ws/tables/' in text  # the connects were logged ...
    assert "token=[redacted]" in text  # ... the refused one with its token blanked
    secrets = [login["token"], renewed.json()["token"]]
    secrets += [
        t.split(".", 1)[1] for t in (login["refresh_token"], renewed.json()["refresh_token"])
    ]
    secrets += [login["token"].split(".")[2]]  # not even the signature alone
    for secret in secrets:
        assert secret not in text
