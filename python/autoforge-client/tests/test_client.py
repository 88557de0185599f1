import http.server
import json
import socket
import threading
import unittest

from support import SKIP_SERVER, HAVE_SERVER, server  # noqa: F401  (sets the import path)

from autoforge_client import AutoForgeClient, AutoForgeEnv, AutoForgeError, OpenEnvWebSocket, make_uid, parse_uid


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Flaky(http.server.BaseHTTPRequestHandler):
    """Answers 429 (with Retry-After) to the first ``fails`` requests, then 200."""

    fails = 2
    seen = 0

    def do_GET(self):  # noqa: N802
        type(self).seen += 1
        if type(self).seen <= type(self).fails:
            body = json.dumps({"error": {"code": "session_cap", "message": "full"}}).encode()
            self.send_response(429)
            self.send_header("retry-after", "1")
        else:
            body = json.dumps({"status": "healthy"}).encode()
            self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve_flaky(port: int, fails: int) -> http.server.HTTPServer:
    handler = type("Handler", (Flaky,), {"fails": fails, "seen": 0})
    httpd = http.server.HTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


class RetryTest(unittest.TestCase):
    def test_retries_429_with_retry_after_then_succeeds(self):
        httpd = serve_flaky(free_port(), fails=2)
        try:
            waits = []
            client = AutoForgeClient(f"http://127.0.0.1:{httpd.server_port}", sleep=waits.append)
            self.assertEqual(client.health(), {"status": "healthy"})
            self.assertEqual(waits, [1.0, 1.0])
            self.assertEqual(client.retries, 2)
        finally:
            httpd.shutdown()
            httpd.server_close()

    def test_gives_up_on_429_after_max_retries_with_the_server_code(self):
        httpd = serve_flaky(free_port(), fails=10)
        try:
            client = AutoForgeClient(f"http://127.0.0.1:{httpd.server_port}", max_retries=3, sleep=lambda s: None)
            with self.assertRaises(AutoForgeError) as caught:
                client.health()
            self.assertEqual((caught.exception.code, caught.exception.status), ("session_cap", 429))
            self.assertEqual(client.retries, 3)
        finally:
            httpd.shutdown()
            httpd.server_close()

    def test_retries_a_refused_connection_until_the_server_is_up(self):
        port = free_port()
        started = []

        def sleep(seconds):
            # The server comes up during the second wait.
            if len(started) == 0 and seconds > 0.1:
                started.append(serve_flaky(port, fails=0))

        client = AutoForgeClient(f"http://127.0.0.1:{port}", backoff=0.1, sleep=sleep)
        try:
            self.assertEqual(client.health(), {"status": "healthy"})
            self.assertEqual(client.retries, 2)
        finally:
            for httpd in started:
                httpd.shutdown()
                httpd.server_close()
            httpd.server_close()

    def test_refused_after_max_retries_is_connection_refused(self):
        client = AutoForgeClient(f"http://127.0.0.1:{free_port()}", max_retries=2, sleep=lambda s: None)
        with self.assertRaises(AutoForgeError) as caught:
            client.health()
        self.assertEqual(caught.exception.code, "connection_refused")


class UidTest(unittest.TestCase):
    def test_uid_round_trip_and_fallbacks(self):
        uid = make_uid("env-a", "env-a/task-1", "0f3c")
        self.assertEqual(parse_uid(uid), ("env-a", "env-a|env-a/task-1", "0f3c"))
        self.assertEqual(parse_uid("plain"), ("plain", "plain", None))
        self.assertEqual(parse_uid("e|t|x|u"), ("e", "e|t|x", "u"))
        with self.assertRaises(ValueError):
            make_uid("a|b", "t", "u")


@unittest.skipUnless(HAVE_SERVER, SKIP_SERVER)
class ServerTest(unittest.TestCase):
    def setUp(self):
        self.info = server()
        self.client = AutoForgeClient(self.info["url"])

    def test_health_and_tasks(self):
        self.assertEqual(self.client.health()["status"], "healthy")
        self.assertEqual([t["id"] for t in self.client.all_tasks()], [t["id"] for t in self.info["tasks"]])

    def test_env_reset_step_reward_verdict_trajectory(self):
        task = self.info["tasks"][0]
        env = AutoForgeEnv(client=self.client, user={"kind": "scripted"})
        first = env.reset(task_id=task["id"], seed=3)
        self.assertFalse(first.done)
        self.assertIsNone(first.reward)
        self.assertEqual(first.observation["messages"][-1]["role"], "user")
        result = first
        for _ in range(100):
            if result.done:
                break
            result = env.act(env.expert())[-1]
        self.assertTrue(result.done)
        self.assertEqual(result.reward, 1)
        self.assertEqual(env.verdict()["mask"], 1)
        self.assertEqual(env.trajectory("openai")["messages"], env.messages)
        self.assertEqual(env.reward()["components"], {"state": 1, "outputs": 1})
        env.close()

    def test_errors_carry_the_server_code_and_location(self):
        with self.assertRaises(AutoForgeError) as caught:
            self.client.openenv_reset(task_id="nope")
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.location), ("unknown_task", 404, "/body/task_id"))

    def test_a_whole_episode_over_ws_matches_the_same_episode_over_http(self):
        task = self.info["tasks"][2]
        user = {"kind": "scripted", "errorRate": 0.5}
        with OpenEnvWebSocket(self.info["url"]) as ws:
            result = ws.reset(task_id=task["id"], seed=11, user=user)
            ws_messages = list(result.observation["messages"])
            while not result.done:
                message = self.client.expert(ws.episode_id)
                calls = message.get("tool_calls") or []
                action = {"type": "message", "content": message["content"]} if not calls else {
                    "tool_name": calls[0]["function"]["name"], "arguments": calls[0]["function"]["arguments"], "tool_call_id": calls[0]["id"]}
                result = ws.step(action)
                ws_messages.extend(result.observation["messages"])
            ws_reward = result.reward
            self.assertEqual(ws.state()["done"], True)
        env = AutoForgeEnv(client=self.client, user=user)
        result = env.reset(task_id=task["id"], seed=11)
        while not result.done:
            result = env.act(env.expert())[-1]
        self.assertEqual((result.reward, env.messages), (ws_reward, ws_messages))
        env.close()

    def test_ws_errors_are_raised_with_openenvs_codes(self):
        with OpenEnvWebSocket(self.info["url"]) as ws:
            with self.assertRaises(AutoForgeError) as caught:
                ws.step({"tool_name": "x"})
            self.assertEqual(caught.exception.code, "VALIDATION_ERROR")

    def test_mcp_tools(self):
        tools = self.client.mcp("tools/list")["tools"]
        self.assertTrue(all({"name", "description", "inputSchema"} <= set(t) for t in tools))


if __name__ == "__main__":
    unittest.main()
