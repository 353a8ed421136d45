// A worker agent on the OpenAI Agents SDK, which exports no OpenTelemetry:
// its spans reach evalrun through the tracing processor of
// openai-agents-otel.mjs, which re-emits them as GenAI spans through the
// OpenTelemetry Node SDK. The model is the Chat Completions API of the
// OpenAI-compatible server at MODEL_BASE_URL, or with --responses its
// Responses API (the SDK's default).
import { Agent, assistant, OpenAIProvider, Runner, setTraceProcessors, setTracingDisabled, tool, user } from "@openai/agents";
import { context } from "@opentelemetry/api";
import { OpenTelemetryTracingProcessor } from "./openai-agents-otel.mjs";
import { startTracing } from "./tracing.mjs";
import { history, serve, tools } from "./worker.mjs";

const { provider } = startTracing("openai-agents-agent");
setTracingDisabled(false);
setTraceProcessors([new OpenTelemetryTracingProcessor()]);

const agent = new Agent({
  name: "support",
  instructions: "Answer questions about orders with the tools.",
  model: "scripted-model",
  tools: tools.map((t) => tool({ name: t.name, description: t.description, parameters: t.schema, execute: async (a) => t.run(a) })),
});
const runner = new Runner({
  modelProvider: new OpenAIProvider({ baseURL: process.env.MODEL_BASE_URL, apiKey: "none", useResponses: process.argv.includes("--responses") }),
  workflowName: "support",
});

await serve(async (q, parent) => {
  // The SDK's own input items: an assistant turn is an output message.
  const input = history(q).map((m) => (m.role === "assistant" ? assistant(m.content) : user(m.content)));
  const result = await context.with(parent, () => runner.run(agent, input));
  return result.finalOutput;
}, () => provider.forceFlush());
