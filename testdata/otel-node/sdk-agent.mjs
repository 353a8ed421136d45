// A command agent instrumented by hand with the OpenTelemetry Node SDK:
// it reports no actions; its spans (GenAI conventions) say which tools it
// called.
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { readQuestion, startTracing } from "./tracing.mjs";

const { provider, parent } = startTracing("otel-node-sdk-agent");
const q = await readQuestion();
const tracer = trace.getTracer("sdk-agent");

function tool(name, args, run) {
  return tracer.startActiveSpan(`execute_tool ${name}`, {
    attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.arguments": JSON.stringify(args) },
  }, (span) => {
    try {
      const result = run();
      span.setAttribute("gen_ai.tool.call.result", JSON.stringify(result));
      return result;
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(err.message) });
      return null;
    } finally {
      span.end();
    }
  });
}

const answer = await context.with(parent, () =>
  tracer.startActiveSpan("invoke_agent support", { attributes: { "gen_ai.operation.name": "invoke_agent" } }, (root) => {
    const order = tool("lookup_order", { id: 42 }, () => ({ status: "shipped" }));
    if (q.id === "broken") tool("refund", { id: 42 }, () => { throw new Error("refunds are down"); });
    root.end();
    return `Order 42 is ${order.status}.`;
  }));
await provider.shutdown(); // flush before answering
process.stdout.write(JSON.stringify({ output: answer }) + "\n");
