// A worker agent on the Vercel AI SDK 7: telemetry is @ai-sdk/otel's
// OpenTelemetry integration registered once with registerTelemetry, and
// turned on per call with the telemetry option. Its spans follow the GenAI
// conventions (invoke_agent, chat, execute_tool). The model is the
// OpenAI-compatible server at MODEL_BASE_URL.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { OpenTelemetry } from "@ai-sdk/otel";
import { context } from "@opentelemetry/api";
import { generateText, registerTelemetry, stepCountIs, tool } from "ai";
import { startTracing } from "./tracing.mjs";
import { aiSdkTools, history, serve } from "./worker.mjs";

const { provider } = startTracing("ai-sdk-7-agent");
registerTelemetry(new OpenTelemetry());
const model = createOpenAICompatible({ name: "scripted", baseURL: process.env.MODEL_BASE_URL, apiKey: "none" }).chatModel("scripted-model");
const tools = aiSdkTools(tool);

await serve(async (q, parent) => {
  const result = await context.with(parent, () => generateText({
    model, tools, messages: history(q), stopWhen: stepCountIs(5),
    telemetry: { isEnabled: true, functionId: "support" },
  }));
  return result.text;
}, () => provider.forceFlush());
