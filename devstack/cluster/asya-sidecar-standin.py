#!/usr/bin/env python3
"""A stand-in for Asya's sidecar (its image is on no registry here), written by kubeairunway for the
cluster mode's tests: it does what the real sidecar does first and proves the pod's wiring — finds the
runtime's Unix socket in ASYA_SOCKET_DIR (the emptyDir both containers mount), sends it one message in
the runtime's protocol (a JSON document per line) and prints the reply. It consumes no queue: the broker
is not reachable from pods here. Then it waits until the kubelet stops it."""
import json
import os
import signal
import socket
import sys
import time

socket_path = os.path.join(os.environ.get("ASYA_SOCKET_DIR", "/var/run/asya"), "asya-runtime.sock")
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

deadline = time.monotonic() + 300
while not os.path.exists(socket_path):
    if time.monotonic() > deadline:
        sys.exit(f"asya-sidecar stand-in: no runtime socket at {socket_path} after 300 s")
    time.sleep(0.5)

message = {"actor": os.environ.get("ASYA_ACTOR_NAME"), "queue": os.environ.get("ASYA_QUEUE_NAME")}
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
    conn.connect(socket_path)
    conn.sendall(json.dumps(message).encode() + b"\n")
    reply = conn.makefile("rb").readline().decode().strip()
print(f"asya-sidecar stand-in: runtime replied {reply}", flush=True)

while True:
    signal.pause()
