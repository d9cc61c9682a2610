"""The S3 section of the benchmark: the same table in S3Proxy (started from the project's test
classpath, as the interop suite starts it), every tool reaching it through one shaping proxy on
loopback that adds a fixed latency to each request and caps each connection's bandwidth, the way
Lambda reaches S3, and counts what each tool asked for.

    ShapingProxy   asyncio, in a thread of the benchmark: HTTP/1.1 requests are parsed only to find
                   where each one starts (Content-Length or chunked bodies), so keep-alive and
                   100-continue pass through untouched; each request waits --s3-latency-ms before it
                   is forwarded; each direction of each connection is paced to --s3-mb-per-s;
                   requests and response bytes are counted.
    s3_bench       generates a fragmented table with delta-rs, puts a copy in S3Proxy per tool run,
                   and runs delta-compactor `run` (whole run, per-phase times from its log),
                   delta-rs `optimize.compact`, and delta-compactor's vacuum dry run with and
                   without the shaping; rows and sum(amount) are checked after every rewrite.
"""
import asyncio
import datetime
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import phases as phase_timings  # bench/phases.py: the report's timings_ms per command

ACCESS_KEY = "bench"
SECRET_KEY = "bench-secret"


class ShapingProxy:
    """A loopback TCP proxy in front of one HTTP server; see the module's docstring."""

    def __init__(self, upstream_port, latency_ms, mb_per_s):
        self.upstream_port = upstream_port
        self.latency = latency_ms / 1000.0
        self.rate = mb_per_s * 1024 * 1024
        self.requests = 0
        self.bytes_down = 0
        self.bytes_up = 0
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(started,), daemon=True)
        self.thread.start()
        started.wait(10)

    def _run(self, started):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        started.set()
        self.loop.run_forever()

    @property
    def endpoint(self):
        return f"http://127.0.0.1:{self.port}"

    def reset(self):
        self.requests = self.bytes_down = self.bytes_up = 0

    def counts(self):
        return {"requests": self.requests, "bytes_down": self.bytes_down, "bytes_up": self.bytes_up}

    def close(self):
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    async def _serve(self, client_reader, client_writer):
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            client_writer.close()
            return
        down = asyncio.ensure_future(self._pipe(up_reader, client_writer, "bytes_down"))
        try:
            await self._requests(client_reader, up_writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            try:
                up_writer.write_eof()
            except (OSError, RuntimeError):
                pass
        try:
            await down
        except ConnectionError:
            pass
        for w in (client_writer, up_writer):
            try:
                w.close()
            except (OSError, RuntimeError):
                pass

    async def _paced_write(self, writer, data, clock, counter):
        """Writes data no faster than the rate since the connection's direction started."""
        setattr(self, counter, getattr(self, counter) + len(data))
        clock["bytes"] += len(data)
        due = clock["start"] + clock["bytes"] / self.rate
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        writer.write(data)
        await writer.drain()

    async def _pipe(self, reader, writer, counter):
        clock = {"start": time.perf_counter(), "bytes": 0}
        while True:
            data = await reader.read(65536)
            if not data:
                break
            await self._paced_write(writer, data, clock, counter)
        try:
            writer.write_eof()
        except (OSError, RuntimeError):
            pass

    async def _requests(self, reader, writer):
        """Forwards requests one by one: each waits the added latency before it goes upstream."""
        clock = {"start": time.perf_counter(), "bytes": 0}
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            self.requests += 1
            await asyncio.sleep(self.latency)
            clock = {"start": time.perf_counter(), "bytes": 0}
            await self._paced_write(writer, head, clock, "bytes_up")
            headers = {}
            for line in head.split(b"\r\n")[1:]:
                if b":" in line:
                    k, v = line.split(b":", 1)
                    headers[k.strip().lower()] = v.strip()
            if headers.get(b"transfer-encoding", b"").lower().endswith(b"chunked"):
                while True:
                    size_line = await reader.readuntil(b"\r\n")
                    size = int(size_line.split(b";")[0], 16)
                    await self._paced_write(writer, size_line, clock, "bytes_up")
                    if size == 0:
                        trailer = await reader.readuntil(b"\r\n")
                        await self._paced_write(writer, trailer, clock, "bytes_up")
                        while trailer != b"\r\n":
                            trailer = await reader.readuntil(b"\r\n")
                            await self._paced_write(writer, trailer, clock, "bytes_up")
                        break
                    body = await reader.readexactly(size + 2)
                    await self._paced_write(writer, body, clock, "bytes_up")
            else:
                remaining = int(headers.get(b"content-length", b"0") or 0)
                while remaining > 0:
                    data = await reader.read(min(65536, remaining))
                    if not data:
                        return
                    remaining -= len(data)
                    await self._paced_write(writer, data, clock, "bytes_up")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class S3ProxyServer:
    """S3Proxy (filesystem backend) on loopback, from the project's test classpath."""

    def __init__(self, root, base):
        classpath = root / "target" / "test-classpath.txt"
        if not classpath.exists():
            subprocess.run([str(root / "mvnw"), "-B", "-q", "dependency:build-classpath",
                            f"-Dmdep.outputFile={classpath}", "-Dmdep.includeScope=test"], cwd=root, check=True)
        self.data = base / "s3proxy-data"
        self.data.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        props = base / "s3proxy.properties"
        props.write_text("\n".join([
            f"s3proxy.endpoint=http://127.0.0.1:{self.port}", "s3proxy.authorization=aws-v2-or-v4",
            f"s3proxy.identity={ACCESS_KEY}", f"s3proxy.credential={SECRET_KEY}", "jclouds.provider=filesystem",
            f"jclouds.filesystem.basedir={self.data}", ""]))
        self.log = open(base / "s3proxy.log", "w")
        self.proc = subprocess.Popen(["java", "-Xmx512m", "-cp", classpath.read_text().strip(), "org.gaul.s3proxy.Main",
                                      "--properties", str(props)], stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=1)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.1)
        else:
            self.close()
            raise SystemExit("S3Proxy did not start: " + (base / "s3proxy.log").read_text()[-3000:])

    def put_table(self, source, bucket):
        """A copy of the local table `source` as s3://bucket/t (the filesystem backend keeps each
        object as a file, so the copy is a directory copy into a new bucket directory)."""
        target = self.data / bucket / "t"
        shutil.rmtree(self.data / bucket, ignore_errors=True)
        shutil.copytree(source, target)
        return f"s3://{bucket}/t"

    def local_path(self, bucket):
        return self.data / bucket / "t"

    def drop(self, bucket):
        shutil.rmtree(self.data / bucket, ignore_errors=True)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def compactor_env(endpoint):
    return dict(os.environ, AWS_ENDPOINT_URL_S3=endpoint, AWS_REGION="us-east-1", AWS_ACCESS_KEY_ID=ACCESS_KEY,
                AWS_SECRET_ACCESS_KEY=SECRET_KEY, COMPACTOR_S3_PATH_STYLE="true")


def delta_rs_options(endpoint):
    return {"AWS_ENDPOINT_URL": endpoint, "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_ALLOW_HTTP": "true", "aws_conditional_put": "etag"}


DELTA_RS_S3 = """
import json, sys
from deltalake import DeltaTable
m = DeltaTable(sys.argv[1], storage_options=json.loads(sys.argv[2])).optimize.compact(target_size=int(sys.argv[3]))
print(m["numFilesRemoved"], m["numFilesAdded"])
"""

# bin/compactor's log lines on stderr: "HH:mm:ss.SSS LEVEL Logger: message", local time.
LOG_LINE = re.compile(r"^(\d\d):(\d\d):(\d\d)\.(\d{3}) \w+ \w+: (.*)$")

# (phase name, the log line that ends it), in the order a run logs them.
PHASES = (("start, load, inspect", ("inspected:",)),
          ("probe before", ("read latency before",)),
          ("compaction", ("compaction progress",)),
          ("probe after (with the reload)", ("read latency after",)),
          ("vacuum dry run", ("vacuum plan:",)))


def phases(stderr, started, ended):
    """Seconds per phase of one `run`, from its log's timestamps: each phase ends at the last line
    starting with its marker (compaction logs one per partition); phases that did not happen are
    left out; "report, telemetry, exit" runs to the process's end."""
    events = []
    day = datetime.datetime.fromtimestamp(started).replace(hour=0, minute=0, second=0, microsecond=0)
    for line in stderr.splitlines():
        m = LOG_LINE.match(line)
        if m:
            h, mi, sec, ms = (int(g) for g in m.groups()[:4])
            at = (day + datetime.timedelta(hours=h, minutes=mi, seconds=sec, milliseconds=ms)).timestamp()
            if at < started - 3600:  # the run crossed midnight
                at += 86400
            events.append((at, m.group(5)))
    out, previous = [], started
    for name, markers in PHASES:
        hits = sorted(at for at, text in events if text.startswith(markers))
        if hits:
            out.append((name, max(0.0, hits[-1] - previous)))
            previous = hits[-1]
    out.append(("report, telemetry, exit", max(0.0, ended - previous)))
    return out


def timed(cmd, env=None):
    started = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    ended = time.time()
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    return started, ended, proc


def s3_bench(args, work, root, py, generate, rows_and_sum, table_bytes):
    """Returns (markdown text, summary rows)."""
    source = work / "s3-source"
    print(f"bench: generating the S3 table: {args.s3_files} files over {args.s3_partitions} partitions", flush=True)
    subprocess.run([py, str(generate), str(source), "--files", str(args.s3_files), "--partitions",
                    str(args.s3_partitions), "--file-mb", str(args.s3_file_mb)], check=True)
    files, size = table_bytes(source)
    expected = rows_and_sum(source)
    mb = size / 1048576
    base = work / "s3"
    base.mkdir(parents=True, exist_ok=True)
    server = S3ProxyServer(root, base)
    proxy = ShapingProxy(server.port, args.s3_latency_ms, args.s3_mb_per_s)
    compactor = str(root / "bin" / "compactor")
    target = 128 * 1024 * 1024
    runs = {"delta-compactor run": [], "delta-rs optimize.compact": [], "delta-compactor vacuum (dry run)": [],
            "delta-compactor vacuum (dry run), no shaping": []}
    run_phases = []
    try:
        # Untimed, on a copy of its own: bin/compactor records its class-data archive on the first
        # table command after a build, at exit; and S3Proxy (a JVM) compiles its GET, PUT and
        # multipart paths during the first compaction it serves. Without this the first timed run
        # (always ours) met a cold S3Proxy that the first delta-rs run, after it, never met.
        uri = server.put_table(source, "warm-up")
        timed([compactor, "run", "--demo-mode", "false", "--table-uri", uri, "--z-order-columns", "",
               "--target-file-size-mb", "128", "--work-dir", str(base / "work"), "--json"],
              env=compactor_env(f"http://127.0.0.1:{server.port}"))
        server.drop("warm-up")
        for i in range(args.repeat):
            bucket = f"ours-{i}"
            uri = server.put_table(source, bucket)
            proxy.reset()
            t0, t1, proc = timed([compactor, "run", "--demo-mode", "false", "--table-uri", uri, "--z-order-columns", "",
                                  "--target-file-size-mb", "128", "--work-dir", str(base / "work"), "--json"],
                                 env=compactor_env(proxy.endpoint))
            counts = proxy.counts()
            (base / f"delta-compactor-run-{i + 1}.log").write_text(proc.stderr)
            report = json.loads(proc.stdout)
            assert report["compacted"], report["steps"]
            phase_timings.note("s3", "run", report)
            got = rows_and_sum(server.local_path(bucket))
            assert got == expected, f"delta-compactor changed the data on S3: {got} != {expected}"
            run_phases.append(phases(proc.stderr, t0, t1))
            runs["delta-compactor run"].append(dict(counts, wall=t1 - t0, step=report["compaction_duration_ms"] / 1000,
                                                    probe=report.get("latency_probe_used_ms"),
                                                    probe_bytes=report.get("latency_probe_downloaded_bytes"),
                                                    probe_step=next(f"{x['status']}: {x['detail']}" for x in report["steps"]
                                                                    if x["step"] == "probe"),
                                                    files_after=report["files_after"]))
            print(f"bench: s3 run {i + 1} delta-compactor run: {t1 - t0:.1f} s (compaction step "
                  f"{report['compaction_duration_ms'] / 1000:.1f} s), {counts['requests']} requests, "
                  f"{counts['bytes_down'] / 1048576:.1f} MB down; phases "
                  + ", ".join(f"{n} {s:.1f} s" for n, s in run_phases[-1]), flush=True)
            # The vacuum dry run on the compacted table, with and without the shaping.
            for name, endpoint in (("delta-compactor vacuum (dry run)", proxy.endpoint),
                                   ("delta-compactor vacuum (dry run), no shaping", f"http://127.0.0.1:{server.port}")):
                proxy.reset()
                t0, t1, proc = timed([compactor, "vacuum", "--table-uri", uri, "--work-dir", str(base / "work"), "--json"],
                                     env=compactor_env(endpoint))
                counts = proxy.counts()
                report = json.loads(proc.stdout)
                phase_timings.note("s3", name.replace("delta-compactor ", ""), report)
                runs[name].append(dict(counts, wall=t1 - t0, candidates=report["candidate_files_count"]))
                print(f"bench: s3 run {i + 1} {name}: {t1 - t0:.1f} s, {counts['requests']} requests", flush=True)
            server.drop(bucket)

            bucket = f"delta-rs-{i}"
            uri = server.put_table(source, bucket)
            proxy.reset()
            t0, t1, proc = timed([py, "-c", DELTA_RS_S3, uri, json.dumps(delta_rs_options(proxy.endpoint)), str(target)])
            counts = proxy.counts()
            got = rows_and_sum(server.local_path(bucket))
            assert got == expected, f"delta-rs changed the data on S3: {got} != {expected}"
            runs["delta-rs optimize.compact"].append(dict(counts, wall=t1 - t0,
                                                          files_after=table_bytes(server.local_path(bucket))[0]))
            print(f"bench: s3 run {i + 1} delta-rs optimize.compact: {t1 - t0:.1f} s, {counts['requests']} requests, "
                  f"{counts['bytes_down'] / 1048576:.1f} MB down", flush=True)
            server.drop(bucket)
    finally:
        proxy.close()
        server.close()
        shutil.rmtree(source, ignore_errors=True)

    def med(name, key):
        return statistics.median(r[key] for r in runs[name])

    def span(name, key):
        values = [r[key] for r in runs[name]]
        return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"

    ours, rs = "delta-compactor run", "delta-rs optimize.compact"
    lines = ["#### S3 (S3Proxy behind a shaping proxy)", "",
             f"Input: {files} files, {mb:.1f} MB over {args.s3_partitions} partitions, {expected[0]} rows, written by "
             f"delta-rs and served by S3Proxy (filesystem backend) on loopback. Every tool reaches it through the same "
             f"proxy on loopback (bench/s3bench.py), which adds {args.s3_latency_ms:g} ms to each request and paces each "
             f"connection to {args.s3_mb_per_s:g} MB/s each way, and counts requests and response bytes. Each tool "
             f"compacted its own copy (target 128 MB); rows and sum(amount) checked equal after every run. "
             f"{args.repeat} runs each, median shown (min-max in brackets).",
             "",
             "| tool | wall s | compaction step s | requests | MB downloaded | downloaded / table | files after | vs delta-rs (time) |",
             "|---|---|---|---|---|---|---|---|"]
    rs_wall = med(rs, "wall")
    for name in (ours, rs):
        step = span(name, "step") if name == ours else "-"
        ratio = f"{rs_wall / med(name, 'wall'):.2f}x"
        if name == ours:
            ratio += f" (step: {rs_wall / med(name, 'step'):.2f}x)"
        lines.append(f"| {name} | {span(name, 'wall')} | {step} | {med(name, 'requests'):.0f} | "
                     f"{med(name, 'bytes_down') / 1048576:.1f} | {med(name, 'bytes_down') / size:.2f} | "
                     f"{runs[name][0]['files_after']} | {ratio} |")
    lines += ["", "Phases of delta-compactor's `run` (from its log's timestamps; median seconds):", "",
              "| phase | s | share of the run |", "|---|---|---|"]
    total = med(ours, "wall")
    for n in [name for name, _ in PHASES] + ["report, telemetry, exit"]:
        values = [dict(p)[n] for p in run_phases if n in dict(p)]
        if not values:
            # e.g. the probe after compaction when the one before was skipped for its budget
            lines.append(f"| {n} | not run | - |")
            continue
        lines.append(f"| {n} | {statistics.median(values):.2f} | {statistics.median(values) / total * 100:.0f}% |")
    probe_ms = [r["probe"] for r in runs[ours] if r["probe"] is not None]
    probe_bytes = [r["probe_bytes"] for r in runs[ours] if r["probe_bytes"] is not None]
    lines += ["", f"The probe's own accounting (report): "
              + (f"{statistics.median(probe_ms) / 1000:.2f} s used, {statistics.median(probe_bytes) / 1048576:.1f} MB "
                 f"downloaded." if probe_ms else "none measured.")
              + f" The first run's probe step: {runs[ours][0]['probe_step']}",
              "", "| vacuum dry run | wall s | requests | vs no shaping (time) |", "|---|---|---|---|"]
    base_wall = med("delta-compactor vacuum (dry run), no shaping", "wall")
    for name in ("delta-compactor vacuum (dry run)", "delta-compactor vacuum (dry run), no shaping"):
        lines.append(f"| {name} | {span(name, 'wall')} | {med(name, 'requests'):.0f} | "
                     f"{med(name, 'wall') / base_wall:.2f}x |")
    lines.append("")
    lines += phase_timings.table("s3")
    summary = [("S3 whole run vs optimize.compact", f"{rs_wall / total:.2f}x",
                f"{args.s3_latency_ms:g} ms/request, {args.s3_mb_per_s:g} MB/s per connection; downloaded "
                f"{med(ours, 'bytes_down') / size:.2f}x the table (delta-rs {med(rs, 'bytes_down') / size:.2f}x)"),
               ("S3 compaction step vs optimize.compact", f"{rs_wall / med(ours, 'step'):.2f}x",
                "the report's compaction_duration_ms vs delta-rs's whole process")]
    return "\n".join(lines) + "\n", summary
