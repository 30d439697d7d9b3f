// The shared ConfigMap `asya-runtime` (key asya_runtime.py) that every actor's runtime container runs.
// One per namespace and owned by no actor: deleting one actor must not take the script from the others.
//
// The script is a small stand-in for upstream Asya's asya_runtime.py (which is not vendored here): it
// keeps the same contract with the sidecar and the probes (a Unix socket in ASYA_SOCKET_DIR, then a
// `runtime-ready` file) and calls ASYA_HANDLER ("package.module.function") on each message, one JSON
// document per line. Replace RUNTIME_SCRIPT with upstream's to run real Asya sidecars.

import { RUNTIME_CONFIG_MAP, RUNTIME_SCRIPT_KEY } from '../../api/asya/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';

export const RUNTIME_SCRIPT = `#!/usr/bin/env python3
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
                stream.write(json.dumps(reply).encode() + b"\\n")
                stream.flush()


if __name__ == "__main__":
    # As a container's PID 1 a signal without a handler is ignored: without this, every deletion of the
    # pod would wait out its grace period (timeout.gracefulShutdown) before the kubelet kills it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.path.insert(0, os.getcwd())
    serve(load_handler())
`;

/** The ConfigMap in `namespace` (left out offline, where the namespace may be unknown). */
export function renderRuntimeConfigMap(namespace: string | undefined): AnyObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: RUNTIME_CONFIG_MAP,
      ...(namespace ? { namespace } : {}),
      labels: { 'app.kubernetes.io/name': RUNTIME_CONFIG_MAP, 'app.kubernetes.io/part-of': 'asya' },
    },
    data: { [RUNTIME_SCRIPT_KEY]: RUNTIME_SCRIPT },
  };
}
