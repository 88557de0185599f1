"""OpenEnv's ``/ws`` from the standard library: one connection, one episode (a minimal RFC 6455
client: masked text frames out, text frames in, ping answered, close)."""

import base64
import hashlib
import json
import os
import socket
import struct
import urllib.parse
from typing import Any, Dict, Optional

from .client import AutoForgeError
from .env import StepResult

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class OpenEnvWebSocket:
    """A WebSocket episode on ``autoforge serve`` (``ws://host:port/ws``).

    Args:
        url: the server's base URL (``http://127.0.0.1:8080``).
        token: the bearer token. Default none.
        timeout: seconds per message. Default 60.
    """

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60.0):
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        self._sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET /ws HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if token is not None:
            lines.append(f"Authorization: Bearer {token}")
        self._sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self._sock.recv(4096)
            if not chunk:
                raise AutoForgeError("transport", "the server closed the connection during the WebSocket handshake")
            head += chunk
        head, self._buffer = head.split(b"\r\n\r\n", 1)
        status = head.split(b"\r\n", 1)[0].decode()
        if " 101 " not in status + " ":
            code = int(status.split()[1]) if len(status.split()) > 1 else 0
            self._sock.close()
            raise AutoForgeError("unauthorized" if code == 401 else "http_error", f"/ws: {status}", code)
        accept = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
        if f"sec-websocket-accept: {accept}".lower() not in head.decode().lower():
            raise AutoForgeError("transport", "/ws: bad Sec-WebSocket-Accept")
        self.episode_id: Optional[str] = None

    # ── OpenEnv messages ──────────────────────────────────────────────────────
    def reset(self, **data: Any) -> StepResult:
        """``{"type": "reset", "data": {task_id, seed, user}}``."""
        answer = self._request({"type": "reset", "data": data})
        self.episode_id = answer["observation"]["episode_id"]
        return StepResult(answer["observation"], answer.get("reward"), bool(answer.get("done")))

    def step(self, action: Dict[str, Any]) -> StepResult:
        answer = self._request({"type": "step", "data": action})
        return StepResult(answer["observation"], answer.get("reward"), bool(answer.get("done")))

    def state(self) -> Dict[str, Any]:
        return self._request({"type": "state"})

    def mcp(self, method: str, params: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        return self._request({"type": "mcp", "data": {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}})

    def close(self) -> None:
        """Ends the episode and the connection (the server closes its session)."""
        try:
            self._send(0x1, json.dumps({"type": "close"}).encode())
            self._send(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        finally:
            self._sock.close()

    def __enter__(self) -> "OpenEnvWebSocket":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ── frames ────────────────────────────────────────────────────────────────
    def _request(self, message: Dict[str, Any]) -> Dict[str, Any]:
        self._send(0x1, json.dumps(message).encode())
        answer = json.loads(self._receive())
        if answer.get("type") == "error":
            data = answer.get("data", {})
            raise AutoForgeError(str(data.get("code", "EXECUTION_ERROR")), str(data.get("message", "")))
        return answer["data"]

    def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        self._sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise AutoForgeError("transport", "/ws: the server closed the connection")
            self._buffer += chunk
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def _receive(self) -> str:
        parts = []
        while True:
            b0, b1 = self._read(2)
            length = b1 & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8))
            payload = self._read(length)
            opcode = b0 & 0x0F
            if opcode == 0x9:
                self._send(0xA, payload)
                continue
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                raise AutoForgeError("closed", f"/ws: closed by the server ({code} {payload[2:].decode(errors='replace')})")
            if opcode in (0x1, 0x0):
                parts.append(payload)
                if b0 & 0x80:
                    return b"".join(parts).decode("utf-8")
