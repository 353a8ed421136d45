// A worker agent on the Vercel AI SDK 6 (the ai6 alias of ai@6): telemetry
// is the per-call experimental_telemetry option, and the SDK's own spans
// (ai.generateText, ai.generateText.doGenerate, ai.toolCall) carry the
// calls. The model is the OpenAI-compatible server at MODEL_BASE_URL.
import { context } from "@opentelemetry/api";
import { generateText, stepCountIs, tool } from "ai6";
import { createOpenAICompatible } from "ai6-openai-compatible";
import { startTracing } from "./tracing.mjs";
import { aiSdkTools, history, serve } from "./worker.mjs";

const { provider } = startTracing("ai-sdk-6-agent");
const model = createOpenAICompatible({ name: "scripted", baseURL: process.env.MODEL_BASE_URL, apiKey: "none" }).chatModel("scripted-model");
const tools = aiSdkTools(tool);

await serve(async (q, parent) => {
  const result = await context.with(parent, () => generateText({
    model, tools, messages: history(q), stopWhen: stepCountIs(5),
    experimental_telemetry: { isEnabled: true, functionId: "support" },
  }));
  return result.text;
}, () => provider.forceFlush());
