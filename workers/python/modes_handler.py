"""A handler whose behaviour is chosen by the job input, for tests and benchmarks of the worker loop.

input.mode:
  echo (default)  returns {"echo": input}
  fail            raises ValueError(input.message)
  progress        posts {"pct": 50}, waits input.holdS seconds (default 0.5), returns {"done": true}
  stream          yields each of input.chunks, input.gapS seconds apart
  until-stopped   loops until the job is stopped (cancel, timeout), then writes input.marker (a file path)
  sleep           sleeps input.seconds, returns {"slept": seconds, "worker": <worker id>}
"""

import os
import time

import worker_loop


def handler(job):
    data = job["input"]
    mode = data.get("mode", "echo")
    if mode == "fail":
        raise ValueError(data.get("message", "handler failed"))
    if mode == "progress":
        worker_loop.progress_update(job, {"pct": 50})
        time.sleep(float(data.get("holdS", 0.5)))
        return {"done": True}
    if mode == "until-stopped":
        deadline = time.time() + 30
        while not worker_loop.stopped(job) and time.time() < deadline:
            time.sleep(0.02)
        # Written whole, then renamed: a reader never sees it half-written.
        with open(data["marker"] + ".tmp", "w") as f:
            f.write("stopped" if worker_loop.stopped(job) else "not stopped")
        os.replace(data["marker"] + ".tmp", data["marker"])
        return {"finished": True}
    if mode == "sleep":
        seconds = float(data.get("seconds", 0.2))
        time.sleep(seconds)
        return {"slept": seconds, "worker": os.environ.get(worker_loop.PREFIX + "_POD_ID")}
    return {"echo": data}


def stream_handler(job):
    for chunk in job["input"].get("chunks", []):
        time.sleep(float(job["input"].get("gapS", 0)))
        yield chunk


if __name__ == "__main__":
    # A generator function decides streaming up front, so streaming jobs get their own worker.
    streaming = os.environ.get("HANDLER_STREAM") == "1"
    worker_loop.start({
        "handler": stream_handler if streaming else handler,
        "concurrency": int(os.environ.get("HANDLER_CONCURRENCY", "1")),
        "refresh_worker": os.environ.get("HANDLER_REFRESH") == "1",
    })
