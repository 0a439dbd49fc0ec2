"""A worker loop for the service's serverless workers, standard library only.

It speaks the worker pull protocol (job-take, job-done, job-stream, ping, job-stop) against the
service or the local emulator, reading its settings from the environment the platform gives a
worker. Usage, in handler.py:

    import worker_loop

    def handler(job):                      # job = {"id": ..., "input": {...}, ...}
        worker_loop.progress_update(job, {"pct": 50})   # optional: shows in /status as IN_PROGRESS
        return {"echo": job["input"]}      # or raise, or `yield` chunks (a generator streams)

    worker_loop.start({"handler": handler, "concurrency": 1})

A handler that runs long can check `worker_loop.stopped(job)`: it turns true when the job was
cancelled or timed out (the service says so through job-stop). A generator is closed at its next
`yield` once its job is stopped. No result is posted for a stopped job.

Environment (prefix P from WORKER_ENV_PREFIX, default GPUCLOUD): P_WEBHOOK_GET_JOB,
P_WEBHOOK_POST_OUTPUT, P_WEBHOOK_POST_STREAM, P_WEBHOOK_PING, P_PING_INTERVAL (ms, default 10000),
P_AI_API_KEY, P_POD_ID, P_ENDPOINT_ID. Without P_WEBHOOK_GET_JOB the handler runs once on
`--test_input '{"input": {...}}'` and the result is printed.
"""

import asyncio
import inspect
import json
import os
import socket
import sys
import threading
import time
import traceback
import http.client
import urllib.parse

PREFIX = os.environ.get("WORKER_ENV_PREFIX", "GPUCLOUD")
TAKE_TIMEOUT_S = 90
POST_TIMEOUT_S = 30
# The loop exits when job-take cannot reach the service for this long (seconds).
GIVE_UP_S = int(os.environ.get("WORKER_LOOP_GIVE_UP_S", "60"))

_stopped_lock = threading.Lock()
_stopped_ids = set()
_in_progress = {}
_config = {}


def _env(name, default=None):
    return os.environ.get(PREFIX + "_" + name, default)


def stopped(job):
    """True once the service asked this worker to stop the job (cancelled, timed out)."""
    with _stopped_lock:
        return job["id"] in _stopped_ids


def progress_update(job, output):
    """A partial output, shown by /status while the job is IN_PROGRESS."""
    if stopped(job):
        return
    _post(_job_url("WEBHOOK_POST_OUTPUT", job["id"]) + "&isStream=false", {"status": "IN_PROGRESS", "output": output})


def _log(message, **fields):
    record = {"level": "INFO", "message": message}
    record.update(fields)
    line = json.dumps(record) if _env("ENDPOINT_ID") else message + (" " + json.dumps(fields) if fields else "")
    print(line, file=sys.stderr, flush=True)


def _with_query(url):
    # The platform's URLs carry "?...": more parameters are appended with "&".
    return url if "?" in url else url + "?"


def _job_url(name, job_id):
    worker_id = _env("POD_ID", "")
    url = _env(name, "").replace("$" + PREFIX + "_POD_ID", worker_id).replace("$ID", job_id)
    return _with_query(url)


_local = threading.local()


def _connection(parts, timeout):
    """One keep-alive connection per thread and server (a new one after any failure)."""
    key = (parts.scheme, parts.netloc)
    conns = _local.__dict__.setdefault("conns", {})
    conn = conns.get(key)
    if conn is None:
        cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        conn = cls(parts.netloc, timeout=timeout)
        conns[key] = conn
    conn.timeout = timeout
    if conn.sock is not None:
        conn.sock.settimeout(timeout)
    return conn


def _request(method, url, body=None, timeout=POST_TIMEOUT_S):
    """Returns (status, body bytes); raises OSError when the server cannot be reached."""
    parts = urllib.parse.urlsplit(url)
    target = parts.path + ("?" + parts.query if parts.query else "")
    headers = {"Authorization": _env("AI_API_KEY", ""), "Content-Type": "application/json", "User-Agent": "worker_loop/1"}
    data = None if body is None else json.dumps(body).encode("utf-8")
    try:
        return _send(parts, timeout, method, target, data, headers)
    except (http.client.HTTPException, OSError):
        # A kept-alive connection the server closed meanwhile: one attempt on a fresh one.
        return _send(parts, timeout, method, target, data, headers)


def _send(parts, timeout, method, target, data, headers):
    conn = _connection(parts, timeout)
    try:
        conn.request(method, target, body=data, headers=headers)
        res = conn.getresponse()
        return res.status, res.read()
    except (http.client.HTTPException, OSError):
        conn.close()
        _local.conns.pop((parts.scheme, parts.netloc), None)
        raise


def _post(url, body):
    """POSTs a result; 5xx and connection failures are tried 3 times in all."""
    for attempt in range(3):
        try:
            status, _ = _request("POST", url, body)
            if status < 500:
                return status
        except (http.client.HTTPException, OSError) as err:
            _log("post failed", url=url, error=str(err))
        time.sleep(0.2 * (attempt + 1))
    return None


def _error_text(err):
    return json.dumps({
        "error_type": str(type(err)),
        "error_message": str(err),
        "error_traceback": traceback.format_exc(),
        "hostname": socket.gethostname(),
        "worker_id": _env("POD_ID", ""),
    })


def _call(handler, job):
    result = handler(job)
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    return result


def _run_job(job):
    handler = _config["handler"]
    job_id = job["id"]
    done_url = _job_url("WEBHOOK_POST_OUTPUT", job_id)
    try:
        if inspect.isgeneratorfunction(handler) or inspect.isasyncgenfunction(handler):
            _run_generator(handler, job, done_url)
            return
        try:
            result = _call(handler, job)
        except Exception as err:  # the handler's failure is the job's error
            body = {"error": _error_text(err)}
        else:
            if isinstance(result, dict) and "error" in result:
                rest = {k: v for k, v in result.items() if k != "error"}
                body = {"output": rest, "error": str(result["error"])}
            elif result == {}:
                body = {}
            else:
                body = {"output": result}
        _final(job, done_url + "&isStream=false", body)
    finally:
        with _stopped_lock:
            _in_progress.pop(job_id, None)
            _stopped_ids.discard(job_id)


def _iterate(handler, job):
    gen = handler(job)
    if inspect.isasyncgen(gen):
        loop = asyncio.new_event_loop()
        try:
            while True:
                try:
                    yield loop.run_until_complete(gen.__anext__())
                except StopAsyncIteration:
                    return
        finally:
            loop.close()
    else:
        try:
            yield from gen
        finally:
            gen.close()


def _run_generator(handler, job, done_url):
    stream_url = _job_url("WEBHOOK_POST_STREAM", job["id"])
    chunks = []
    try:
        for chunk in _iterate(handler, job):
            if stopped(job):
                return
            _post(stream_url + "&isStream=false", {"output": chunk})
            chunks.append(chunk)
    except Exception as err:
        _final(job, done_url + "&isStream=true", {"error": "handler: %s \ntraceback: %s" % (err, traceback.format_exc())})
        return
    _final(job, done_url + "&isStream=true", {"output": chunks if _config.get("return_aggregate_stream") else []})


def _final(job, url, body):
    """Posts a job's result, unless the job was stopped (the service has already ended it)."""
    if stopped(job):
        return
    if _config.get("refresh_worker"):
        # Asks the platform to replace this worker once the job is done.
        body = dict(body, stopPod=True)
    _post(url, body)


def _ping_loop():
    interval = max(1, int(_env("PING_INTERVAL", "10000")) // 1000)
    url = _with_query(_env("WEBHOOK_PING", "").replace("$" + PREFIX + "_POD_ID", _env("POD_ID", "")))
    while True:
        time.sleep(interval)
        with _stopped_lock:
            ids = ",".join(_in_progress)
        query = ("&job_id=" + ids if ids else "") + "&worker_version=worker_loop-1"
        try:
            _request("GET", url + query, timeout=10)
        except (http.client.HTTPException, OSError):
            pass


def _stop_loop(take_url):
    url = take_url.replace("/job-take-batch/", "/job-stop/").replace("/job-take/", "/job-stop/")
    while True:
        try:
            status, body = _request("GET", url, timeout=TAKE_TIMEOUT_S)
        except (http.client.HTTPException, OSError):
            time.sleep(1)
            continue
        if status == 200:
            ids = json.loads(body or b"{}").get("jobsToStop", [])
            with _stopped_lock:
                for job_id in ids:
                    if job_id in _in_progress:
                        _stopped_ids.add(job_id)
            _log("jobs stopped", jobs=ids)
        elif status != 204:
            time.sleep(1)


def _take(url, free, busy):
    if _config.get("concurrency", 1) > 1:
        url = url.replace("/job-take/", "/job-take-batch/") + "&batch_size=%d" % free
    url += "&job_in_progress=%d" % (1 if busy else 0)
    status, body = _request("GET", url, timeout=TAKE_TIMEOUT_S)
    if status == 200:
        taken = json.loads(body)
        return taken if isinstance(taken, list) else [taken]
    if status == 429:
        time.sleep(5)
    elif status not in (204, 400):
        _log("job-take answered %d" % status, body=body[:200].decode("utf-8", "replace"))
        time.sleep(1)
    return []


def _serve():
    concurrency = max(1, int(_config.get("concurrency", 1)))
    take_url = _with_query(_env("WEBHOOK_GET_JOB").replace("$ID", _env("POD_ID", "")))
    threading.Thread(target=_ping_loop, daemon=True).start()
    threading.Thread(target=_stop_loop, args=(take_url,), daemon=True).start()
    slots = threading.Semaphore(concurrency)
    _log("worker started", worker_id=_env("POD_ID", ""), concurrency=concurrency)
    unreachable_since = None
    while True:
        slots.acquire()
        with _stopped_lock:
            busy = len(_in_progress)
        free = concurrency - busy
        try:
            jobs = _take(take_url, free, busy > 0)
            unreachable_since = None
        except (http.client.HTTPException, OSError) as err:
            unreachable_since = unreachable_since or time.time()
            if time.time() - unreachable_since > GIVE_UP_S:
                # The service (e.g. an emulator that was killed) is gone: do not poll it forever.
                _log("job-take failed for %d s, exiting" % GIVE_UP_S, error=str(err))
                sys.exit(1)
            _log("job-take failed", error=str(err))
            time.sleep(1)
            jobs = []
        slots.release()
        for job in jobs:
            slots.acquire()
            with _stopped_lock:
                _in_progress[job["id"]] = job

            def run(job=job):
                try:
                    _run_job(job)
                finally:
                    slots.release()

            if concurrency == 1:
                # One job at a time: run it here, on this thread's kept-alive connection.
                run()
            else:
                threading.Thread(target=run, daemon=True).start()


def _test_once(argv):
    text = argv[argv.index("--test_input") + 1] if "--test_input" in argv else '{"input": {}}'
    job = json.loads(text)
    job.setdefault("id", "local-test")
    handler = _config["handler"]
    if inspect.isgeneratorfunction(handler) or inspect.isasyncgenfunction(handler):
        print(json.dumps({"output": list(_iterate(handler, job))}))
    else:
        print(json.dumps({"output": _call(handler, job)}))


def start(config):
    """Runs the worker: pulls jobs forever (or runs once locally without the platform's environment)."""
    if not callable(config.get("handler")):
        raise TypeError("start() needs {'handler': <function>}, got %r" % (config.get("handler"),))
    _config.update(config)
    if not _env("WEBHOOK_GET_JOB"):
        _test_once(sys.argv)
        return
    try:
        _serve()
    except KeyboardInterrupt:
        pass
