package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// revision is one version of the simulated shop agent: how often it skips
// the order lookup and answers from memory, and how often its tool fails.
type revision struct {
	skipTool, toolError float64
}

// revisions are the agent's versions: the reference and a regressed one
// whose prompt change makes it guess without looking the order up.
var revisions = map[string]revision{
	"reference": {skipTool: 0.02, toolError: 0.02},
	"regressed": {skipTool: 0.30, toolError: 0.15},
}

// answer is one simulated request to the agent, instrumented with the
// GenAI semantic conventions through the OpenTelemetry SDK's tracer: the
// root invoke_agent span, a model call, the order lookup tool (unless the
// revision skips it) and the model call that answers.
func answer(tr trace.Tracer, rng *rand.Rand, rev revision, start time.Time, n int) {
	at := func(ms int) trace.SpanEventOption {
		return trace.WithTimestamp(start.Add(time.Duration(ms) * time.Millisecond))
	}
	order := 1000 + rng.IntN(9000)
	question := fmt.Sprintf("Where is my order %d?", order)
	if n%10 == 0 { // some customers leave an address: production input holds personal data
		question += fmt.Sprintf(" Write to customer%d@example.com.", n)
	}
	in := messages("user", question)
	ctx, root := tr.Start(context.Background(), "invoke_agent shop", at(0), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.agent.name", "shop"),
		attribute.String("gen_ai.input.messages", in), attribute.String("app.request", fmt.Sprint(n))))
	_, chat := tr.Start(ctx, "chat shop-model", at(10), trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.input.messages", in), attribute.Int("gen_ai.usage.input_tokens", 80+rng.IntN(40)),
		attribute.Int("gen_ai.usage.output_tokens", 10+rng.IntN(10))))
	chat.End(at(200 + rng.IntN(200)))
	d := rev.decide(order)
	ms := 420
	if d.called {
		args, _ := json.Marshal(map[string]int{"order": order})
		_, tool := tr.Start(ctx, "execute_tool lookup_order", at(ms), trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", string(args))))
		if d.failed {
			tool.SetStatus(codes.Error, "order service timed out")
		} else {
			tool.SetAttributes(attribute.String("gen_ai.tool.call.result", `{"status":"packed"}`))
		}
		tool.End(at(ms + 30 + rng.IntN(50)))
		ms += 100
	}
	reply := d.reply
	_, chat2 := tr.Start(ctx, "chat shop-model", at(ms), trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.input.messages", in), attribute.String("gen_ai.output.messages", messages("assistant", reply)),
		attribute.Int("gen_ai.usage.input_tokens", 150+rng.IntN(50)), attribute.Int("gen_ai.usage.output_tokens", 12)))
	chat2.End(at(ms + 300 + rng.IntN(300)))
	root.SetAttributes(attribute.String("gen_ai.output.messages", messages("assistant", reply)))
	root.End(at(ms + 650))
}

// decision is what the revision does with one order: whether it looks
// the order up, whether the lookup fails, and its reply.
type decision struct {
	called, failed bool
	reply          string
}

// decide depends on the order number and the revision alone, so the same
// request asked again (by evalrun run) gets the same behaviour it got in
// production.
func (rev revision) decide(order int) decision {
	switch {
	case unit(order, "skip") < rev.skipTool:
		return decision{reply: fmt.Sprintf("Order %d ships tomorrow.", order)}
	case unit(order, "error") < rev.toolError:
		return decision{called: true, failed: true, reply: "Sorry, I cannot see your order right now."}
	}
	return decision{called: true, reply: fmt.Sprintf("Order %d is packed and ships today.", order)}
}

// unit is a number in [0, 1) drawn from the order number and a salt.
func unit(order int, salt string) float64 {
	h := sha256.Sum256(fmt.Appendf(nil, "%s:%d", salt, order))
	return float64(binary.BigEndian.Uint64(h[:8])>>11) / (1 << 53)
}

func messages(role, text string) string {
	b, _ := json.Marshal([]map[string]any{{"role": role, "parts": []map[string]string{{"type": "text", "content": text}}}})
	return string(b)
}
