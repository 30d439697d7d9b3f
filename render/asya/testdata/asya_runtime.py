#!/usr/bin/env python3
"""Stand-in for Asya's asya_runtime.py, written by kubeairunway.

Serves the Unix socket the asya-sidecar connects to, marks itself ready, and answers each
newline-delimited JSON message with the result of ASYA_HANDLER (echo when unset).
"""
import importlib
import json
import os
import signal
import socket
import sys

SOCKET_DIR = os.environ.get("ASYA_SOCKET_DIR", "/var/run/asya")
SOCKET_PATH = os.path.join(SOCKET_DIR, "asya-runtime.sock")
READY_PATH = os.path.join(SOCKET_DIR, "runtime-ready")


def load_handler():
    spec = os.environ.get("ASYA_HANDLER", "")
    if not spec:
        return lambda payload: payload
    module_name, _, function_name = spec.rpartition(".")
    return getattr(importlib.import_module(module_name), function_name)


def serve(handler):
    if os.path.exists(SOCKET_PATH):
        os.unlink(SOCKET_PATH)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(SOCKET_PATH)
    server.listen(8)
    open(READY_PATH, "w").close()
    while True:
        connection, _ = server.accept()
        with connection, connection.makefile("rwb") as stream:
            for line in stream:
                try:
                    reply = {"ok": True, "result": handler(json.loads(line))}
                except Exception as error:  # one bad message must not stop the runtime
                    reply = {"ok": False, "error": repr(error)}
                stream.write(json.dumps(reply).encode() + b"\n")
                stream.flush()


if __name__ == "__main__":
    # As a container's PID 1 a signal without a handler is ignored: without this, every deletion of the
    # pod would wait out its grace period (timeout.gracefulShutdown) before the kubelet kills it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.path.insert(0, os.getcwd())
    serve(load_handler())
