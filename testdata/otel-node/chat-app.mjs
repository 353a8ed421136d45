// A chat web app built on the Vercel AI SDK, evaluated over HTTP with no
// adapter: POST /api/chat takes UI messages and streams the UI message
// response (the AI SDK's chat transport); POST /v1/chat/completions takes
// OpenAI chat messages and answers with a chat completion. The model is
// the OpenAI-compatible server at MODEL_BASE_URL; spans go to
// OTEL_EXPORTER_OTLP_ENDPOINT (set once, when the app starts) in the trace
// of each request's traceparent header. It prints its port on stdout.
import http from "node:http";
import { createOpenAICompatible } from "ai6-openai-compatible";
import { context, propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { convertToModelMessages, generateText, stepCountIs, streamText, tool } from "ai6";
import { z } from "zod";

const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ "service.name": "chat-app" }),
  spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter())],
});
provider.register({ propagator: new W3CTraceContextPropagator() });

const model = createOpenAICompatible({ name: "scripted", baseURL: process.env.MODEL_BASE_URL, apiKey: "none" }).chatModel("scripted-model");
const tools = {
  lookup_order: tool({
    description: "Look an order up by id.",
    inputSchema: z.object({ id: z.number() }),
    execute: async ({ id }) => ({ id, status: "shipped" }),
  }),
};
const settings = { model, tools, stopWhen: stepCountIs(4), experimental_telemetry: { isEnabled: true, functionId: "chat-app" } };

async function readJSON(req) {
  let body = "";
  for await (const chunk of req) body += chunk;
  return JSON.parse(body);
}

const server = http.createServer(async (req, res) => {
  const parent = propagation.extract(context.active(), req.headers);
  try {
    const body = await readJSON(req);
    if (req.method === "POST" && req.url === "/api/chat") {
      const messages = await convertToModelMessages(body.messages);
      const result = context.with(parent, () => streamText({ ...settings, messages }));
      result.pipeUIMessageStreamToResponse(res);
      return;
    }
    if (req.method === "POST" && req.url === "/v1/chat/completions") {
      const result = await context.with(parent, () => generateText({ ...settings, messages: body.messages }));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({
        id: "chat-app", object: "chat.completion", created: Math.floor(Date.now() / 1000), model: body.model,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: result.text } }],
        usage: { prompt_tokens: result.totalUsage.inputTokens, completion_tokens: result.totalUsage.outputTokens, total_tokens: result.totalUsage.totalTokens },
      }));
      return;
    }
    res.writeHead(404).end("no such route " + req.url);
  } catch (err) {
    res.writeHead(400, { "Content-Type": "text/plain" }).end(String(err?.stack ?? err));
  }
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\n"));
process.on("SIGTERM", async () => { await provider.shutdown(); process.exit(0); });
