"""A lost response to a Delta log commit PUT (issue 23): a loopback proxy in front of S3Proxy
forwards the PUT of version 31 to S3, then closes the connection without answering. The compactor
must recognise the stored commit as its own, delete nothing it references, and delta-rs must read
every row exactly once afterwards; a re-run converges."""
import re
import socket
import threading

import pyarrow.compute as pc
from deltalake import DeltaTable


def _read_message(sock_file, client=None):
    """Head lines and body of one HTTP/1.1 message (Content-Length bodies only, as the SDK sends);
    answers `Expect: 100-continue` on `client` so the sender does not wait for it."""
    head = []
    while True:
        line = sock_file.readline()
        if not line:
            return None, b""
        head.append(line)
        if line in (b"\r\n", b"\n"):
            break
    length = 0
    for line in head[1:]:
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
        if client is not None and name.strip().lower() == "expect" and value.strip().lower() == "100-continue":
            client.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    return head, sock_file.read(length) if length else b""


class DropCommitResponse:
    """Forwards everything to S3Proxy; the first PUT matching `pattern` is forwarded and its
    response dropped (the client's connection is closed instead)."""

    def __init__(self, upstream_port, pattern):
        self.upstream_port = upstream_port
        self.pattern = re.compile(pattern)
        self.dropped = 0
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        with client, client.makefile("rb") as reader:
            while True:
                head, body = _read_message(reader, client)
                if head is None:
                    return
                request_line = head[0].decode("latin-1")
                headers = [h for h in head[1:-1] if not h.lower().startswith((b"connection:", b"expect:"))]
                with socket.create_connection(("127.0.0.1", self.upstream_port)) as up, up.makefile("rb") as up_reader:
                    up.sendall(head[0] + b"".join(headers) + b"Connection: close\r\n\r\n" + body)
                    response = up_reader.read()
                method, path = request_line.split(" ")[:2]
                if method == "PUT" and self.pattern.search(path) and self.dropped == 0:
                    self.dropped += 1
                    return
                client.sendall(response)
                return

    def close(self):
        self.server.close()


def test_lost_response_to_a_commit_put_leaves_a_table_delta_rs_reads_whole(s3proxy, s3_table, compactor, report_of, tmp_path):
    uri, direct, delta_rs = s3_table("lost")
    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--table-uri", uri, "--json",
                               "--small-file-threshold-mb", "0.0001", env=direct)
    assert code == 0, err
    proxy = DropCommitResponse(s3proxy["port"], r"/_delta_log/0{18}31\.json")
    try:
        through_proxy = dict(direct, AWS_ENDPOINT_URL_S3=f"http://127.0.0.1:{proxy.port}")
        code, out, err = compactor("run", "--work-dir", str(tmp_path), "--table-uri", uri, "--demo-mode", "false",
                                   "--z-order-columns", "", "--json", env=through_proxy)
        assert proxy.dropped == 1
    finally:
        proxy.close()

    assert code == 0, err
    report = report_of(out)
    assert report["version_after"] == 33
    assert {p["status"] for p in report["compaction_partitions"]} == {"committed"}
    table = DeltaTable(uri, storage_options=delta_rs)
    assert table.version() == 33
    rows = table.to_pyarrow_table()
    assert rows.num_rows == 1500
    assert pc.count_distinct(rows["event_id"]).as_py() == 1500
    assert pc.sum(rows["amount"]).as_py() == 73125.0

    code, out, err = compactor("run", "--work-dir", str(tmp_path), "--table-uri", uri, "--demo-mode", "false",
                               "--z-order-columns", "", "--json", env=direct)
    assert code == 0, err
    assert report_of(out)["files_removed"] == 0
    assert DeltaTable(uri, storage_options=delta_rs).version() == 33
