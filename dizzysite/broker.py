"""The embedded broker: kombu's filesystem transport without its torn reads.

kombu's `filesystem://` `_put` creates the message file, then locks and writes it; `_get` takes files
without the lock (celery/kombu#1551, open). A reader that comes between the two reads an empty file,
`json.loads` raises, and the worker stops with "Unrecoverable error: JSONDecodeError". The exchange
tables under `control_folder` have the same gap when one is first written ("wb" truncates, then locks).

Here every file a reader may see is whole:
- a message is written under `<data folder>/tmp/` and `os.replace`d into the data folder (one
  filesystem, so the name appears with all its bytes or not at all);
- a reader claims a message with `os.rename` into `<data folder>/claimed/`, also on the same filesystem
  (kombu moves it to the system's temporary folder, a copy when that is another filesystem, which two
  readers can both make of one message);
- a message that still cannot be decoded is moved to `<data folder>/bad/` and logged, and the reader
  goes on with the next one: it never stops the worker;
- an exchange table is changed under a lock file of its own and replaced whole, so readers need no lock.

Use it with `CELERY_BROKER_URL=filesystem://` and `broker_transport = "dizzysite.broker:Transport"`
(dizzysite/settings.py does), the same transport options as kombu's.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

TMP = "tmp"
CLAIMED = "claimed"
BAD = "bad"


def write_whole(path: Path, data: bytes) -> None:
    """`data` at `path`, appearing all at once: written beside it in tmp/, then renamed over it."""
    tmp_folder = path.parent / TMP
    tmp_folder.mkdir(exist_ok=True)
    tmp = tmp_folder / f"{path.name}.{uuid.uuid4().hex}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


class Channel(filesystem.Channel):
    """kombu's filesystem channel with whole-file writes and claims, and bad messages set aside."""

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = Path(self.data_folder_out) / name
        try:
            write_whole(path, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"Cannot add file {str(path)!r} to directory") from exc

    def _get(self, queue: str) -> Any:
        folder = Path(self.data_folder_in)
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(folder)):
            if name.partition(".")[2] != wanted:
                continue
            claimed = self._claim(folder, name)
            if claimed is None:
                continue  # another reader took it first
            try:
                payload = claimed.read_bytes()
            except OSError as exc:
                raise ChannelError(f"Cannot read file {str(claimed)!r} from queue.") from exc
            try:
                message = loads(bytes_to_str(payload))
            except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
                self._set_aside(claimed, exc)
                continue
            self._done(claimed)
            return message
        raise Empty()

    def _claim(self, folder: Path, name: str) -> Path | None:
        """The message moved where no other reader looks; None if it is gone (another reader's)."""
        claimed_folder = folder / CLAIMED
        claimed_folder.mkdir(exist_ok=True)
        try:
            os.rename(folder / name, claimed_folder / name)
        except FileNotFoundError:
            return None
        return claimed_folder / name

    def _done(self, claimed: Path) -> None:
        if self.store_processed:
            os.replace(claimed, Path(self.processed_folder) / claimed.name)
        else:
            claimed.unlink(missing_ok=True)

    def _set_aside(self, claimed: Path, error: Exception) -> None:
        bad_folder = claimed.parent.parent / BAD
        bad_folder.mkdir(exist_ok=True)
        os.replace(claimed, bad_folder / claimed.name)
        logger.error("undecodable broker message moved to %s: %s", bad_folder / claimed.name, error)

    # --- exchange tables: read without a lock, changed under a lock file and replaced whole -------

    def get_table(self, exchange: str) -> list[filesystem.exchange_queue_t]:
        file = self._exchange_file(exchange)
        try:
            table = loads(bytes_to_str(file.read_bytes()))
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc
        return [filesystem.exchange_queue_t(*q) for q in table]

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str, queue: str) -> None:
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")

        def add(queues: list) -> list:
            return queues if entry in queues else [entry, *queues]

        self._change_table(exchange, add)

    def _delete(self, queue: str, exchange: str, routing_key: str, pattern: str, *args: Any, **kwargs: Any) -> None:
        virtual.Channel._delete(self, queue, exchange, routing_key, pattern, *args, **kwargs)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._change_table(exchange, lambda queues: [q for q in queues if q != entry])

    def _change_table(self, exchange: str, change) -> None:
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        try:
            with open(f"{file}.lock", "ab") as lock_file:
                filesystem.lock(lock_file, filesystem.LOCK_EX)
                try:
                    queues = self.get_table(exchange)
                    changed = change(queues)
                    if changed != queues or not file.exists():
                        write_whole(file, str_to_bytes(dumps(changed)))
                finally:
                    filesystem.unlock(lock_file)
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc


class Transport(filesystem.Transport):
    Channel = Channel
    # Its own state, not kombu's filesystem transport's (the class attribute is shared otherwise).
    global_state = virtual.BrokerState()

    @property
    def default_connection_params(self) -> dict:
        """No host: a folder has none, and kombu's "No hostname was supplied" warning at every start
        of `make run` only alarmed newcomers (virtual transports default to localhost)."""
        return {"port": self.default_port}
