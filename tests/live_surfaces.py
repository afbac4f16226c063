"""What the hidden-information audit reads from the live streams: for one viewer, the
events its match stream and its own stream send at once (the current revision, the current counts),
as text to compare with the hidden twin's. The viewer is the user logged in on the audit's client
(none: anonymous, refused)."""

from __future__ import annotations

import asyncio
import json

from asgiref.sync import async_to_sync
from django.test import AsyncClient, Client


class Reader:
    """An open stream's events, parsed: {"event":..., "id":..., "data": {...}}, comments skipped.

    A task reads the stream into a queue: a timeout while waiting must not cancel the stream itself
    (cancelling an async generator's __anext__ ends the generator)."""

    def __init__(self, response) -> None:
        assert response.status_code == 200, response.status_code
        assert response["Content-Type"] == "text/event-stream"
        self.response = response
        self.chunks = response.streaming_content
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.pump = asyncio.get_running_loop().create_task(self.read_all())
        self.buffer = ""

    async def read_all(self) -> None:
        async for chunk in self.chunks:
            await self.queue.put(chunk.decode() if isinstance(chunk, bytes) else chunk)
        await self.queue.put(None)

    async def next_event(self, timeout: float = 2.0) -> dict | None:
        """The next event, or None when the stream ended; TimeoutError after `timeout` without one
        (heartbeat comments and the retry line do not count)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            while "\n\n" not in self.buffer:
                left = deadline - asyncio.get_running_loop().time()
                chunk = await asyncio.wait_for(self.queue.get(), max(left, 0.001))
                if chunk is None:
                    return None
                self.buffer += chunk
            block, self.buffer = self.buffer.split("\n\n", 1)
            lines = [line for line in block.splitlines() if not line.startswith(":") and ": " in line]
            fields = dict(line.split(": ", 1) for line in lines)
            if "event" in fields:
                return {"event": fields["event"], "id": fields.get("id"), "data": json.loads(fields["data"])}

    async def nothing_for(self, seconds: float) -> bool:
        try:
            event = await self.next_event(seconds)
        except TimeoutError:
            return True
        raise AssertionError(f"expected no event, got {event}")

    async def close(self) -> None:
        """What the server does when the client goes: cancel the stream, then close the response."""
        self.pump.cancel()
        try:
            await self.pump
        except asyncio.CancelledError:
            pass
        self.response.close()


async def _read(client: AsyncClient, path: str, events: int) -> str:
    response = await client.get(path)
    if response.status_code != 200 or response.get("Content-Type") != "text/event-stream":
        return f"{response.status_code} " + response.content.decode()
    reader = Reader(response)
    try:
        return "200 " + json.dumps([await reader.next_event() for _ in range(events)], sort_keys=True)
    finally:
        await reader.close()


def live_surfaces(client: Client, match_id: int) -> list[str]:
    async def read() -> list[str]:
        live = AsyncClient()
        live.cookies = client.cookies
        return [
            await _read(live, f"/live/match/{match_id}/", 1),
            await _read(live, "/live/me/", 2),
            await _read(live, f"/live/?boards={match_id}", 3),  # a browser's one stream: counts, then the board
        ]

    return async_to_sync(read)()
