// An OpenAI Agents SDK tracing processor that re-emits the SDK's spans as
// OpenTelemetry spans under the GenAI conventions, through whatever tracer
// provider the program registered. The SDK exports no OpenTelemetry of its
// own; install this processor with setTraceProcessors([...]) (instead of the
// SDK's own exporter) or addTraceProcessor(...) (beside it):
//
//   agent span      → "invoke_agent {name}"  gen_ai.operation.name invoke_agent
//   generation span → "chat {model}"         gen_ai.operation.name chat, gen_ai.usage.*
//   response span   → "chat {model}"         (the Responses API) the same
//   function span   → "execute_tool {name}"  gen_ai.tool.name, .call.arguments, .call.result
//   any other span  → "{type}" (turn, task, handoff, guardrail, …), structure only
//
// Each SDK trace becomes a span "invoke_workflow {name}" in the OpenTelemetry
// context that was active when the trace started, so a run inside
// context.with(parent, …) joins the caller's trace. A span with an error
// gets status ERROR and error.type.
import { context, SpanStatusCode, trace } from "@opentelemetry/api";

export class OpenTelemetryTracingProcessor {
  #tracer;
  #open = new Map(); // SDK trace or span id → OpenTelemetry span

  constructor(tracer = trace.getTracer("openai-agents-otel")) {
    this.#tracer = tracer;
  }

  async onTraceStart(t) {
    const span = this.#tracer.startSpan(`invoke_workflow ${t.name}`, {
      attributes: { "gen_ai.operation.name": "invoke_workflow", "gen_ai.conversation.id": t.groupId ?? undefined },
    }, context.active());
    this.#open.set(t.traceId, span);
  }

  async onTraceEnd(t) {
    this.#open.get(t.traceId)?.end();
    this.#open.delete(t.traceId);
  }

  async onSpanStart(s) {
    const parent = this.#open.get(s.parentId ?? s.traceId);
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    const span = this.#tracer.startSpan(s.spanData.type, { startTime: s.startedAt ? new Date(s.startedAt) : undefined }, ctx);
    this.#open.set(s.spanId, span);
  }

  async onSpanEnd(s) {
    const span = this.#open.get(s.spanId);
    if (!span) return;
    this.#open.delete(s.spanId);
    const { name, attributes } = describe(s.spanData);
    span.updateName(name);
    span.setAttributes(attributes);
    if (s.error) {
      span.setAttribute("error.type", s.error.data?.name ?? "Error");
      span.setStatus({ code: SpanStatusCode.ERROR, message: s.error.message });
    }
    span.end(s.endedAt ? new Date(s.endedAt) : undefined);
  }

  async shutdown() {}
  async forceFlush() {}
}

// describe names an SDK span and gives its GenAI attributes.
function describe(d) {
  switch (d.type) {
    case "agent":
      return { name: `invoke_agent ${d.name}`, attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": d.name } };
    case "function":
      return {
        name: `execute_tool ${d.name}`,
        attributes: defined({
          "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": d.name, "gen_ai.tool.type": "function",
          "gen_ai.tool.call.arguments": text(d.input), "gen_ai.tool.call.result": text(d.output),
        }),
      };
    case "generation": {
      const response = d.output?.[0];
      const model = d.model ?? response?.model ?? "";
      return { name: `chat ${model}`.trim(), attributes: chatAttributes(model, response?.id, d.usage, response?.usage) };
    }
    case "response": {
      const response = d._response;
      const model = response?.model ?? "";
      return { name: `chat ${model}`.trim(), attributes: chatAttributes(model, d.response_id, response?.usage) };
    }
    default:
      return { name: d.name ? `${d.type} ${d.name}` : d.type, attributes: { "openai.agents.span.type": d.type } };
  }
}

// chatAttributes reads a model call's usage from the first usage record that
// has it: the SDK's own (input_tokens) or the API's (prompt_tokens).
function chatAttributes(model, responseID, ...usages) {
  const usage = usages.find((u) => u && (u.input_tokens ?? u.prompt_tokens) !== undefined) ?? {};
  return defined({
    "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": model || undefined,
    "gen_ai.response.id": responseID,
    "gen_ai.usage.input_tokens": usage.input_tokens ?? usage.prompt_tokens,
    "gen_ai.usage.output_tokens": usage.output_tokens ?? usage.completion_tokens,
  });
}

function text(v) {
  if (v === undefined || v === null) return undefined;
  return typeof v === "string" ? v : JSON.stringify(v);
}

function defined(attrs) {
  return Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined && v !== null));
}
