// A worker agent on Mastra, traced with its own observability: the OTel
// exporter of @mastra/otel-exporter sends Mastra's spans (invoke_agent,
// chat, agent_step, execute_tool under the GenAI conventions) to
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. Mastra keeps its own trace ids, so each
// call names the case's trace and parent span from its traceparent
// (tracingOptions). The model is the OpenAI-compatible server at
// MODEL_BASE_URL. With --generation-chat the exporter is told (through its
// own test hook) that @mastra/observability emits no model inference
// spans, as with an older pairing of the packages: the whole generation is
// then the "chat" span and each model call an agent_step.
process.env.MASTRA_TELEMETRY_DISABLED = "1"; // no product analytics from a test
const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
const { Agent } = await import("@mastra/core/agent");
const { Mastra } = await import("@mastra/core/mastra");
const { createTool } = await import("@mastra/core/tools");
const { Observability } = await import("@mastra/observability");
const { OtelExporter, __setObservabilityFeaturesForTest } = await import("@mastra/otel-exporter");
const { history, serve, tools } = await import("./worker.mjs");

if (process.argv.includes("--generation-chat")) __setObservabilityFeaturesForTest(new Set());
const observability = new Observability({
  configs: {
    otel: {
      serviceName: "mastra-agent",
      exporters: [new OtelExporter({ provider: { custom: { endpoint: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, protocol: "http/protobuf" } } })],
    },
  },
});
const support = new Agent({
  id: "support",
  name: "support",
  instructions: "Answer questions about orders with the tools.",
  model: createOpenAICompatible({ name: "scripted", baseURL: process.env.MODEL_BASE_URL, apiKey: "none" }).chatModel("scripted-model"),
  tools: Object.fromEntries(tools.map((t) => [t.name, createTool({ id: t.name, description: t.description, inputSchema: t.schema, execute: async (a) => t.run(a) })])),
});
const mastra = new Mastra({ agents: { support }, observability, logger: false });

await serve(async (q) => {
  const [, traceId, parentSpanId] = (q.traceparent ?? "").split("-");
  const result = await mastra.getAgent("support").generate(history(q), {
    maxSteps: 5,
    tracingOptions: traceId ? { traceId, parentSpanId } : undefined,
  });
  return result.text;
}, () => observability.flush());
