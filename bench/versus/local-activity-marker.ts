// A local activity leaves no ActivityTask* events: the SDK records one MarkerRecorded event
// ("core_local_activity") when the workflow task that ran it completes. Its `data` detail is the
// JSON of sdk-core's LocalActivityMarkerData (coresdk/external_data): activity type, attempt, the
// wall-clock time it was first scheduled, and its completion time as the workflow perceived it.
import { defaultPayloadConverter, type Payload } from '@temporalio/common';

export const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

export interface LocalActivityMarker {
  activityType: string;
  attempt: number;
  /** Epoch ms; undefined when the marker does not carry it. */
  scheduledMs: number | undefined;
  completedMs: number | undefined;
}

type JsonTimestamp = { seconds?: number | string; nanos?: number } | string | null | undefined;

function jsonTimestampMs(ts: JsonTimestamp): number | undefined {
  if (ts === null || ts === undefined) return undefined;
  if (typeof ts === 'string') {
    const ms = Date.parse(ts);
    return Number.isNaN(ms) ? undefined : ms;
  }
  if (ts.seconds === undefined) return undefined;
  return Number(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

export function readLocalActivityMarker(markerName: string | null | undefined, details: Record<string, { payloads?: Payload[] | null }> | null | undefined): LocalActivityMarker | undefined {
  if (markerName !== LOCAL_ACTIVITY_MARKER) return undefined;
  const payload = details?.data?.payloads?.[0];
  let data: Record<string, unknown> = {};
  try {
    if (payload) data = (defaultPayloadConverter.fromPayload(payload) as Record<string, unknown>) ?? {};
  } catch {
    // An unreadable marker still says a local activity ran; its times then come from the workflow task.
  }
  const pick = (snake: string, camel: string) => data[snake] ?? data[camel];
  return {
    activityType: String(pick('activity_type', 'activityType') ?? 'local activity'),
    attempt: Number(pick('attempt', 'attempt') ?? 1),
    scheduledMs: jsonTimestampMs(pick('original_schedule_time', 'originalScheduleTime') as JsonTimestamp),
    completedMs: jsonTimestampMs(pick('complete_time', 'completeTime') as JsonTimestamp),
  };
}
