-- Tracing (OpenTelemetry, off by default): where a trace continues after a commit.
-- outbox.trace_context: the W3C trace context (traceparent, tracestate as JSON) of the span that
-- stored the event, so the relay's publish, maybe much later or on another replica, is linked to
-- it and the message carries the notification's trace. NULL with tracing off, and for rows
-- written before this migration. Adding a nullable column without a default rewrites no row.
ALTER TABLE outbox ADD COLUMN trace_context TEXT;
-- commands.trace_context: the W3C trace context of the internal API request that created the
-- command, so its resends and net-cancels (the worker's, later or on another replica) are linked
-- to the command's first span.
ALTER TABLE commands ADD COLUMN trace_context TEXT;
