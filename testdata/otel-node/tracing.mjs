// The OpenTelemetry setup both agents share: the Node SDK's tracer
// provider exporting every span at once with the OTLP/HTTP protobuf
// exporter, which reads OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (set by
// evalrun --traces), and the case's trace context read from TRACEPARENT.
import { context, propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";

export function startTracing(service) {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const parent = propagation.extract(context.active(), { traceparent: process.env.TRACEPARENT ?? "" });
  return { provider, parent };
}

export async function readQuestion() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  return JSON.parse(input);
}
