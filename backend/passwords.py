"""Password hashes for guest accounts that keep their name (docs/accounts.md).

scrypt from the standard library (hashlib.scrypt, OpenSSL's): memory-hard, no
new dependency. A hash is stored as `scrypt$<n>$<r>$<p>$<salt>$<key>` (salt and
key in base64), so the cost can be raised later and old hashes still verify.
Hashing takes tens of milliseconds of CPU: the async helpers run it in a
thread, so the event loop (and every table on it) never waits for it.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import hmac
import secrets

SCHEME = "scrypt"
N, R, P = 2**14, 8, 1  # 16 MiB of memory per hash (128 * N * r bytes)
SALT_BYTES = 16
KEY_BYTES = 32
MAX_MEMORY = 64 * 1024 * 1024
PASSWORD_MIN = 8
PASSWORD_MAX = 128


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _derive(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=MAX_MEMORY, dklen=KEY_BYTES
    )


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(SALT_BYTES)
    key = _derive(password, salt, N, R, P)
    return f"{SCHEME}${N}${R}${P}${_b64(salt)}${_b64(key)}"


def verify_password(password: str, stored: str) -> bool:
    """True if `password` gives `stored`; False for a wrong password or a malformed hash."""
    try:
        scheme, n, r, p, salt, key = stored.split("$")
        if scheme != SCHEME:
            return False
        expected = base64.b64decode(key)
        derived = _derive(password, base64.b64decode(salt), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(derived, expected)


async def hash_password_async(password: str) -> str:
    return await asyncio.to_thread(hash_password, password)


async def verify_password_async(password: str, stored: str) -> bool:
    return await asyncio.to_thread(verify_password, password, stored)


@functools.cache
def _unknown_hash() -> str:
    return hash_password(secrets.token_urlsafe(16))


async def prepare_unknown_hash() -> None:
    """Hash the stand-in password now (at start-up), not in the first sign-in it serves."""
    await asyncio.to_thread(_unknown_hash)


def verify_unknown(password: str) -> bool:
    """As long as checking a real password, and always False: for a name without one."""
    verify_password(password, _unknown_hash())
    return False


async def verify_unknown_async(password: str) -> bool:
    return await asyncio.to_thread(verify_unknown, password)
