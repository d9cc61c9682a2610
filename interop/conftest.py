"""Shared fixtures: the project's CLI, run as users run it."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMPACTOR = ROOT / "bin" / "compactor"


def run_compactor(*args, cwd=None, env=None):
    """Runs bin/compactor; returns (exit code, stdout, stderr)."""
    proc = subprocess.run(
        [str(COMPACTOR), *args], cwd=cwd, capture_output=True, text=True, timeout=600,
        env=None if env is None else {**os.environ, **env},
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def compactor():
    if not (ROOT / "target" / "cli-lib").is_dir():
        pytest.fail("bin/compactor is not built; run ./mvnw -DskipTests package first")
    return run_compactor


@pytest.fixture
def report_of():
    def parse(stdout):
        return json.loads(stdout)

    return parse


@pytest.fixture(scope="session")
def s3proxy(tmp_path_factory):
    """A real S3 API (S3Proxy, from the project's test classpath) on 127.0.0.1, for this session."""
    import socket
    import time
    import urllib.error
    import urllib.request

    classpath_file = ROOT / "target" / "test-classpath.txt"
    if not classpath_file.exists():
        pytest.fail("target/test-classpath.txt is missing; bin/test writes it (./mvnw dependency:build-classpath)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = tmp_path_factory.mktemp("s3proxy")
    (base / "data").mkdir()
    props = base / "s3proxy.properties"
    props.write_text("\n".join([
        f"s3proxy.endpoint=http://127.0.0.1:{port}", "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=interop", "s3proxy.credential=interop-secret", "jclouds.provider=filesystem",
        f"jclouds.filesystem.basedir={base / 'data'}", ""]))
    log = open(base / "s3proxy.log", "w")
    proc = subprocess.Popen(["java", "-Xmx256m", "-cp", classpath_file.read_text().strip(),
                             "org.gaul.s3proxy.Main", "--properties", str(props)], stdout=log, stderr=subprocess.STDOUT)
    endpoint = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(endpoint + "/", timeout=1)
            break
        except urllib.error.HTTPError:
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("S3Proxy did not start: " + (base / "s3proxy.log").read_text())
    yield {"endpoint": endpoint, "port": port, "access_key": "interop", "secret_key": "interop-secret"}
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture
def s3_table(s3proxy):
    """A factory: a fresh bucket on the session's S3Proxy and, for the table `s3://<bucket>/demo`,
    (uri, the compactor's environment, delta-rs's storage options)."""
    import uuid

    from pyarrow import fs as pafs

    def make(prefix):
        bucket = prefix + "-" + uuid.uuid4().hex[:8]
        pafs.S3FileSystem(access_key=s3proxy["access_key"], secret_key=s3proxy["secret_key"],
                          endpoint_override=f"127.0.0.1:{s3proxy['port']}", scheme="http", region="us-east-1",
                          allow_bucket_creation=True).create_dir(bucket)
        env = {"AWS_ENDPOINT_URL_S3": s3proxy["endpoint"], "AWS_REGION": "us-east-1",
               "AWS_ACCESS_KEY_ID": s3proxy["access_key"], "AWS_SECRET_ACCESS_KEY": s3proxy["secret_key"],
               "COMPACTOR_S3_PATH_STYLE": "true", "COMPACTOR_PROBE_RUNS": "1"}
        delta_rs = {"AWS_ENDPOINT_URL": s3proxy["endpoint"], "AWS_REGION": "us-east-1",
                    "AWS_ACCESS_KEY_ID": s3proxy["access_key"], "AWS_SECRET_ACCESS_KEY": s3proxy["secret_key"],
                    "AWS_ALLOW_HTTP": "true", "aws_conditional_put": "etag"}
        return f"s3://{bucket}/demo", env, delta_rs

    return make
