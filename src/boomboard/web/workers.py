"""The web server's worker processes: AI moves and analyses, each of which
can be stopped while it runs.

A :class:`concurrent.futures.ProcessPoolExecutor` cannot stop a task once it
has started, and numba's compiled search cannot be interrupted from inside,
so a resigned game's search would hold its worker to the end. Here each
worker process is driven by a thread of the server: :meth:`WorkerPool.stop`
on a running call kills that one process (and the thread starts a fresh one,
which loads the compiled code again); the other workers go on untouched.

Every worker ignores Ctrl-C (the server's to handle) and dies with the
server, even after a ``kill -9``: at once by the kernel
(``PR_SET_PDEATHSIG``, Linux) and otherwise within a second, seen by a
thread that watches its parent.

Whatever a call does, it keeps to two limits, and the worker is killed
(and replaced) the moment it passes one: ``cpu_seconds`` of CPU time a call,
held by the kernel (``RLIMIT_CPU``, set afresh before each call: compiled
code that never returns to Python is stopped too), and ``memory_bytes`` of
resident memory, watched by the worker's thread in the server every
:data:`POLL_SECONDS`. The call then fails with :class:`WorkerLimitExceeded`,
which names the limit.
"""

from __future__ import annotations

import heapq
import itertools
import math
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from concurrent.futures import CancelledError, Future

import psutil

from ..core.errors import BoomboardError, ParameterError

try:
    import resource
except ImportError:  # not on Windows: there the CPU limit is not held
    resource = None

# How often a worker's thread checks its call (its answer, a stop, the memory limit).
POLL_SECONDS = 0.05
# The resident memory a web worker may hold: the compiled code of every game
# and the learned agent's model take about 1 GiB, a search's tables the rest.
WORKER_MEMORY_BYTES = 3 * 2**30
# CPU seconds a web call may take besides its search's own time: building the
# agent, and on a game's first move on this machine compiling it (15-30 s).
LOAD_SECONDS = 60.0
# Worker processes of boomboard serve unless --workers says otherwise.
DEFAULT_WORKERS = 2
# Seconds in which a call kind's expected time (:class:`CallTimes`) halves when no call of that kind finishes:
# a slow figure (a first call that compiled for 44 s) soon stops counting.
ESTIMATE_HALF_LIFE = 30.0
# The weight of each finished call in its kind's expected time (the rest is the figure before it).
ESTIMATE_WEIGHT = 0.2
# Call priorities (lower first): a game a person plays, or a person's analysis, goes before an AI-vs-AI game
# someone only watches, whatever waited longer.
FOREGROUND, BACKGROUND = 0, 1


def workers_limit() -> tuple[int, str]:
    """``(most, why)``: the most worker processes this machine holds, one a
    core (at least :data:`DEFAULT_WORKERS`: they wait on each other rather
    than on a person) and :data:`WORKER_MEMORY_BYTES` of memory each, and
    the reason in words."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    memory = psutil.virtual_memory().total
    by_memory = max(1, memory // WORKER_MEMORY_BYTES)
    most = min(max(cores, DEFAULT_WORKERS), by_memory)
    return most, (f"one worker a core of its {cores}, at least {DEFAULT_WORKERS}, and one per "
                  f"{WORKER_MEMORY_BYTES / 2**30:g} GiB of its {memory / 2**30:.1f} GiB of memory")


def check_workers(workers, name: str = "workers") -> int:
    """``workers`` worker processes, checked against :func:`workers_limit`:
    a :class:`ParameterError` naming the limit (and ``name``, the option or
    argument that gave the number) when it is not a count this machine holds."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ParameterError(f"{name} must be a whole number of worker processes, 1 or more, got {workers!r}")
    most, why = workers_limit()
    if workers > most:
        raise ParameterError(f"{name} {workers} is past this machine's limit of {most} ({why})")
    return workers


class WorkerDied(RuntimeError):
    """The worker process ended while it ran the call (not stopped on purpose)."""


class WorkerLimitExceeded(BoomboardError, RuntimeError):
    """A call passed the pool's CPU or memory limit: its worker was killed."""


def worker_init(parent: int) -> None:
    """Set up a worker process (see the module's description)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="boomboard-parent-watch", daemon=True).start()


def _limit_cpu(seconds: float | None) -> None:
    """Let this process use at most ``seconds`` more CPU time (None: no limit
    but its hard one): past it the kernel sends SIGXCPU, which ends it."""
    if resource is None:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = hard
    if seconds is not None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        soft = math.ceil(usage.ru_utime + usage.ru_stime + seconds)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _worker_main(conn, parent: int, warm_up, cpu_seconds: float | None = None) -> None:
    worker_init(parent)
    if resource is not None:
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)  # the CPU limit ends the process, whatever it runs
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # and leaves no core file behind
    if warm_up is not None:
        try:
            warm_up()
        except Exception:
            pass
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        _limit_cpu(cpu_seconds)
        try:
            reply = ("ok", function(*args))
        except BaseException as error:  # noqa: BLE001 - sent back to the caller
            reply = ("error", error)
        _limit_cpu(None)
        try:
            conn.send(reply)
        except Exception as problem:  # an unpicklable result or exception
            conn.send(("error", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]} ({problem})")))


class CallTimes:
    """How long each kind of call (a function, by name) is expected to take:
    a moving mean of the calls that finished, which halves every
    :data:`ESTIMATE_HALF_LIFE` seconds in which none of that kind finishes,
    so that one slow call (a compile, a machine busy for a while) is soon
    forgotten. A kind never timed is expected to take no time."""

    def __init__(self):
        self._times: dict[str, tuple[float, float]] = {}  # kind -> (mean seconds, time.monotonic() last updated)

    def expected(self, kind: str) -> float:
        mean, updated = self._times.get(kind, (0.0, 0.0))
        return mean * 0.5 ** ((time.monotonic() - updated) / ESTIMATE_HALF_LIFE)

    def finished(self, kind: str, seconds: float) -> None:
        mean = self.expected(kind)
        self._times[kind] = (mean + ESTIMATE_WEIGHT * (seconds - mean), time.monotonic())


def call_kind(function) -> str:
    """The name :class:`CallTimes` times ``function``'s calls under."""
    return f"{getattr(function, '__module__', '')}.{getattr(function, '__qualname__', repr(function))}"


class _Call:
    __slots__ = ("function", "args", "future", "stop", "priority", "order", "started")

    def __init__(self, function, args, priority: int, order: int):
        self.function, self.args = function, args
        self.priority, self.order = priority, order
        self.future: Future = Future()
        self.stop = threading.Event()
        self.started: float | None = None  # time.monotonic() when a worker took it

    def __lt__(self, other: _Call) -> bool:  # the pool's queue: by priority, then first come first served
        return (self.priority, self.order) < (other.priority, other.order)


class WorkerPool:
    """``workers`` processes (spawned), each running one call at a time, within
    ``cpu_seconds`` of CPU time a call and ``memory_bytes`` of resident memory
    (None: no such limit). Waiting calls start by priority (:data:`FOREGROUND`
    before :data:`BACKGROUND`), then in the order they came."""

    def __init__(self, workers: int, warm_up=None, cpu_seconds: float | None = None,
                 memory_bytes: int | None = None):
        for name, value in (("cpu_seconds", cpu_seconds), ("memory_bytes", memory_bytes)):
            if value is not None and not 0 < value < float("inf"):
                raise ParameterError(f"{name} must be a positive number or None, got {value!r}")
        self.cpu_seconds, self.memory_bytes = cpu_seconds, memory_bytes
        self._context = multiprocessing.get_context("spawn")
        self._calls: queue.PriorityQueue[_Call] = queue.PriorityQueue()
        self._order = itertools.count()
        self._warm_up = warm_up
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._processes: dict[int, multiprocessing.Process] = {}  # the slot -> its process
        self._running: dict[Future, _Call] = {}  # every call not done: waiting (not started) or running
        self.workers = workers
        self.times = CallTimes()
        self._threads = [threading.Thread(target=self._drive, args=(slot,), daemon=True,
                                          name=f"boomboard-worker-{slot}") for slot in range(workers)]
        for thread in self._threads:
            thread.start()

    def submit(self, function, *args, priority: int = FOREGROUND) -> Future:
        if self._closed.is_set():
            raise RuntimeError("the worker pool is closed")
        call = _Call(function, args, priority, next(self._order))
        with self._lock:
            self._running[call.future] = call
        call.future.add_done_callback(self._forget)
        self._calls.put(call)
        return call.future

    def _forget(self, future: Future) -> None:
        with self._lock:
            self._running.pop(future, None)

    def expected_wait(self, priority: int = FOREGROUND) -> float:
        """Seconds until a call submitted now at ``priority`` is expected to
        start: each worker is free once its running call has had its kind's
        expected time (:class:`CallTimes`), and the calls waiting ahead of
        it (its priority or before) go to the first worker free, in turn.
        Only work actually queued or running counts: with a worker free, 0."""
        now = time.monotonic()
        with self._lock:
            calls = list(self._running.values())
        free = [max(self.times.expected(call_kind(call.function)) - (now - call.started), 0.0)
                for call in calls if call.started is not None]
        free += [0.0] * max(self.workers - len(free), 0)
        heapq.heapify(free)
        for call in sorted(call for call in calls if call.started is None and call.priority <= priority
                           and not call.future.done()):
            heapq.heapreplace(free, free[0] + self.times.expected(call_kind(call.function)))
        return free[0]

    def stop(self, future: Future) -> None:
        """Stop a call: one still waiting never starts; one running has its
        worker process killed (a fresh one takes its place)."""
        if future.cancel():
            return
        with self._lock:
            call = self._running.get(future)
        if call is not None:
            call.stop.set()

    def processes(self) -> list[multiprocessing.Process]:
        with self._lock:
            return list(self._processes.values())

    def close(self) -> None:
        """Kill every worker at once; calls not finished are cancelled."""
        self._closed.set()
        for _ in self._threads:  # one wake-up call for each slot's thread, ahead of every waiting call
            self._calls.put(_Call(None, (), FOREGROUND - 1, next(self._order)))
        for process in self.processes():
            _kill(process)
        with self._lock:
            calls = list(self._running.values())
        for call in calls:
            call.future.cancel() or call.stop.set()
        # A slot's thread may have been starting a fresh worker meanwhile: wait for
        # the threads (they end within a poll), then for every worker to be gone.
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=10)
        for process in self.processes():
            _kill(process, wait=10)

    # -- a slot's thread ---------------------------------------------------------------
    def _start(self, slot: int):
        conn, child = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(child, os.getpid(), self._warm_up,
                                                                  self.cpu_seconds),
                                        daemon=True, name=f"boomboard-worker-{slot}")
        process.start()
        child.close()
        with self._lock:
            self._processes[slot] = process
        return process, conn

    def _drive(self, slot: int) -> None:
        process, conn = self._start(slot)  # at once: it loads the compiled code before the first call
        while not self._closed.is_set():
            call = self._calls.get()
            if call.function is None or self._closed.is_set():
                break
            if not call.future.set_running_or_notify_cancel():
                continue  # cancelled while it waited
            if process is None or not process.is_alive():
                process, conn = self._start(slot)
            call.started = time.monotonic()
            try:
                conn.send((call.function, call.args))
            except Exception as problem:  # an argument that cannot be pickled, or a dead worker
                call.future.set_exception(problem if not isinstance(problem, OSError)
                                          else WorkerDied(f"the worker process ended: {problem}"))
                continue
            while True:
                held = self._over_memory(process)
                if call.stop.is_set() or self._closed.is_set() or held is not None:
                    _kill(process)
                    conn.close()
                    # A fresh worker takes the killed one's place at once, before the caller hears of
                    # the stop: a pool is never a worker short while it waits for a next call.
                    process, conn = (None, None) if self._closed.is_set() else self._start(slot)
                    call.future.set_exception(CancelledError() if held is None else WorkerLimitExceeded(
                        f"stopped at {held / 2**20:,.0f} MiB of memory: past this server's limit of "
                        f"{self.memory_bytes / 2**20:,.0f} MiB a worker"))
                    break
                try:
                    if conn.poll(POLL_SECONDS):
                        kind, value = conn.recv()
                        self.times.finished(call_kind(call.function), time.monotonic() - call.started)
                        if kind == "ok":
                            call.future.set_result(value)
                        else:
                            call.future.set_exception(value)
                        break
                except (EOFError, OSError):
                    call.future.set_exception(self._death(process))
                    process = None
                    break
            if process is None and conn is not None:
                conn.close()
                conn = None
        if process is not None:
            _kill(process)

    def _over_memory(self, process) -> int | None:
        """The bytes ``process`` holds, if past the memory limit."""
        if self.memory_bytes is None or process is None:
            return None
        try:
            held = psutil.Process(process.pid).memory_info().rss
        except (psutil.Error, OSError):
            return None
        return held if held > self.memory_bytes else None

    def _death(self, process) -> Exception:
        """What the caller of a call is told when its worker ended on its own."""
        code = None
        if process is not None:
            process.join(timeout=5)  # its pipe closed first: its exit code follows
            code = process.exitcode
        if resource is not None and code == -signal.SIGXCPU:
            return WorkerLimitExceeded(f"stopped at this server's limit of {self.cpu_seconds:g} s of CPU time "
                                       f"a call")
        return WorkerDied(f"the worker process ended (exit code {code})")


def _kill(process, wait: float = 1.0) -> None:
    try:
        if process.is_alive():
            process.kill()
        process.join(timeout=wait)
    except (OSError, ValueError, AssertionError):
        pass
