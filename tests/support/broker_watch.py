"""Counting what is put on the broker: Redis MONITOR, LPUSH/RPUSH onto the given queues."""

import threading
import time

import redis

from tests.services import REDIS_URL


class PushCounter:
    def __init__(self, *queues: str):
        self.queues, self.count = set(queues), 0
        self._stop, self._ready = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        with redis.Redis.from_url(REDIS_URL).monitor() as mon:
            self._ready.set()
            for cmd in mon.listen():
                if self._stop.is_set():
                    return
                words = cmd.get("command", "").split(" ", 2)
                if words[0] in ("LPUSH", "RPUSH") and len(words) > 1 and words[1] in self.queues:
                    self.count += 1

    def __enter__(self):
        self.thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc):
        self._stop.set()
        redis.Redis.from_url(REDIS_URL).ping()  # one more command wakes the listener to see the stop
        self.thread.join(5)
        time.sleep(0)
