import { NOOP_PROGRESS_SINK, type ProgressSink } from '../progress/index.js';
import type { RequestMeta } from '../protocol/request-meta.js';
import type { JsonRpcNotification } from '../protocol/wire.types.js';

/** Sends `notifications/progress` when the request carried a progressToken; else does nothing. */
export function progressSinkFor(meta: RequestMeta, notify: (message: JsonRpcNotification) => void): ProgressSink {
  const progressToken = meta.progressToken;
  if (progressToken === undefined) return NOOP_PROGRESS_SINK;
  return (progress, total, message) =>
    notify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: {
        progressToken,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      },
    });
}
