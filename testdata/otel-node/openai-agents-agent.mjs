// A worker agent on the OpenAI Agents SDK, which exports no OpenTelemetry:
// its spans reach evalrun through the tracing processor of
// openai-agents-otel.mjs, which re-emits them as GenAI spans through the
// OpenTelemetry Node SDK. The model is the Chat Completions API of the
// OpenAI-compatible server at MODEL_BASE_URL.
import { Agent, OpenAIProvider, Runner, setTraceProcessors, setTracingDisabled, tool } from "@openai/agents";
import { context } from "@opentelemetry/api";
import { z } from "zod";
import { OpenTelemetryTracingProcessor } from "./openai-agents-otel.mjs";
import { startTracing } from "./tracing.mjs";
import { history, lookupOrder, serve, toolDescriptions, trackParcel } from "./worker.mjs";

const { provider } = startTracing("openai-agents-agent");
setTracingDisabled(false);
setTraceProcessors([new OpenTelemetryTracingProcessor()]);

const agent = new Agent({
  name: "support",
  instructions: "Answer questions about orders with the tools.",
  model: "scripted-model",
  tools: [
    tool({ name: "lookup_order", description: toolDescriptions.lookup_order, parameters: z.object({ id: z.number() }), execute: async (a) => lookupOrder(a) }),
    tool({ name: "track_parcel", description: toolDescriptions.track_parcel, parameters: z.object({ order_id: z.number(), carrier: z.string() }), execute: async (a) => trackParcel(a) }),
  ],
});
const runner = new Runner({
  modelProvider: new OpenAIProvider({ baseURL: process.env.MODEL_BASE_URL, apiKey: "none", useResponses: false }),
  workflowName: "support",
});

await serve(async (q, parent) => {
  const result = await context.with(parent, () => runner.run(agent, history(q)));
  return result.finalOutput;
}, () => provider.forceFlush());
