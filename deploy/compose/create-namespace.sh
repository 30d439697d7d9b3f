#!/bin/sh
# Creates the Temporal namespace kubeairunway uses, once the server answers. The server image does not
# create one by itself.
set -eu
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"

attempt=0
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; do
  attempt=$((attempt + 1))
  if [ "$attempt" -ge 60 ]; then
    echo "Temporal at $TEMPORAL_ADDRESS is not healthy after 60 attempts" >&2
    exit 1
  fi
  sleep 2
done

if temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" >/dev/null 2>&1; then
  echo "namespace $NAMESPACE exists"
else
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" --retention 7d
  echo "namespace $NAMESPACE created"
fi
