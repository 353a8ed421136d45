// A command agent built on the Vercel AI SDK with telemetry on: the SDK
// emits its own spans (ai.generateText, ai.toolCall, …); the agent reports
// no actions. The model is the OpenAI-compatible server at MODEL_BASE_URL.
import { createOpenAICompatible } from "ai6-openai-compatible";
import { context } from "@opentelemetry/api";
import { generateText, stepCountIs, tool } from "ai6";
import { z } from "zod";
import { readQuestion, startTracing } from "./tracing.mjs";

const { provider, parent } = startTracing("otel-vercel-agent");
const q = await readQuestion();
const model = createOpenAICompatible({ name: "scripted", baseURL: process.env.MODEL_BASE_URL, apiKey: "none" }).chatModel("scripted-model");

const result = await context.with(parent, () => generateText({
  model,
  prompt: typeof q.question === "string" ? q.question : JSON.stringify(q.question),
  tools: {
    lookup_order: tool({
      description: "Look an order up by id.",
      inputSchema: z.object({ id: z.number() }),
      execute: async ({ id }) => ({ id, status: "shipped" }),
    }),
  },
  stopWhen: stepCountIs(4),
  experimental_telemetry: { isEnabled: true, functionId: "support" },
}));
await provider.shutdown();
process.stdout.write(JSON.stringify({ output: result.text }) + "\n");
