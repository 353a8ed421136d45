// The worker protocol every framework agent speaks: one question per line
// on stdin, one reply per line on stdout. Each question line carries the
// case's "traceparent"; the agent runs inside that trace, and the spans are
// flushed before the reply, so the case's trace is complete when it
// answers. Every framework agent offers the same two tools from here.
import { createInterface } from "node:readline";
import { context, propagation } from "@opentelemetry/api";
import { z } from "zod";

// serve answers every question line with answer(question, parentContext)
// and calls flush() before writing the reply.
export async function serve(answer, flush) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    const parent = propagation.extract(context.active(), { traceparent: q.traceparent ?? "" });
    const output = await answer(q, parent);
    await flush();
    process.stdout.write(JSON.stringify({ output }) + "\n");
  }
}

// history is the conversation so far as OpenAI chat messages: every turn's
// messages, or the single question.
export function history(q) {
  if (Array.isArray(q.messages) && q.messages.length > 0) return q.messages;
  return [{ role: "user", content: typeof q.question === "string" ? q.question : JSON.stringify(q.question) }];
}

// The two tools every agent offers, each as its name, description, input
// schema and function; order 7's parcel cannot be tracked (the tool
// throws), for a failing call.
export const tools = [
  {
    name: "lookup_order", description: "Look an order up by id.", schema: z.object({ id: z.number() }),
    run: ({ id }) => ({ id, status: "shipped", carrier: "DHL" }),
  },
  {
    name: "track_parcel", description: "Track an order's parcel with its carrier.", schema: z.object({ order_id: z.number(), carrier: z.string() }),
    run: ({ order_id, carrier }) => {
      if (order_id === 7) throw new Error(`no parcel found for order ${order_id}`);
      return { order_id, carrier, eta: "Friday" };
    },
  },
];

// aiSdkTools is the tools as a Vercel AI SDK tool set, made with that
// major's tool helper.
export function aiSdkTools(tool) {
  return Object.fromEntries(tools.map((t) => [t.name, tool({ description: t.description, inputSchema: t.schema, execute: async (a) => t.run(a) })]));
}
