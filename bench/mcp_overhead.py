"""What the MCP entrance costs over the REST gateway, against a running Mnemo.

The same tool calls, one at a time, through ``POST /api/v1/assistant/tools/{name}/invoke`` and
through ``tools/call`` on ``/mcp`` (the official MCP client, one session), with the same token:

    .venv/bin/python bench/mcp_overhead.py --base http://127.0.0.1:8000 --token TOKEN [--calls 200]

Prints medians and p95 per entrance and tool, and the MCP/REST ratio, as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

CALLS = [
    ("search_memory", {"query": "Where does my sister live?"}),
    ("memory_recall", {"namespace": "tool-send_email"}),
]


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
    }


async def measure(base: str, token: str, calls: int) -> dict:
    headers = {"Authorization": f"Token {token}"}  # both entrances accept it
    results: dict[str, dict] = {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as rest:
        await rest.post(
            f"{base}/api/v1/assistant/tools/remember/invoke",
            json={"arguments": {"text": "My sister Ana lives in Lisbon.", "dedup_policy": "skip_if_near"}},
        )
        for name, arguments in CALLS:
            samples = []
            for _ in range(calls):
                started = time.perf_counter()
                url = f"{base}/api/v1/assistant/tools/{name}/invoke"
                response = await rest.post(url, json={"arguments": arguments})
                samples.append(time.perf_counter() - started)
                assert response.status_code == 200, response.text
            results.setdefault(name, {})["rest"] = summary(samples)
    http = httpx2.AsyncClient(headers=headers, timeout=60)
    async with (
        http,
        streamable_http_client(f"{base}/mcp", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        for name, arguments in CALLS:
            samples = []
            for _ in range(calls):
                started = time.perf_counter()
                result = await session.call_tool(name, arguments)
                samples.append(time.perf_counter() - started)
                assert not result.is_error, result
            results[name]["mcp"] = summary(samples)
    for entry in results.values():
        entry["mcp_over_rest_p50"] = round(entry["mcp"]["p50_ms"] / entry["rest"]["p50_ms"], 2)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.base, args.token, args.calls)), indent=2))


if __name__ == "__main__":
    main()
