package tracefile

import (
	"reflect"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// Each dialect's input and output attributes read to the user's messages
// and the answer.
func TestSpanText(t *testing.T) {
	tests := []struct {
		name        string
		attrs       map[string]any
		users       []string
		answer      string
		conv        string
		wantPayload bool
	}{
		{"GenAI messages with history", map[string]any{
			"gen_ai.input.messages":  `[{"role":"system","parts":[{"type":"text","content":"be brief"}]},{"role":"user","parts":[{"type":"text","content":"first"}]},{"role":"assistant","parts":[{"type":"text","content":"ok"}]},{"role":"user","parts":[{"type":"text","content":"second"}]}]`,
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"tool_call","name":"x","arguments":{"a":1}},{"type":"text","content":"done"}],"finish_reason":"stop"}]`,
			"gen_ai.conversation.id": "c-1",
		}, []string{"first", "second"}, "done", "c-1", true},
		{"GenAI older prompt as text", map[string]any{"gen_ai.prompt": "plain question", "gen_ai.completion": "plain answer"},
			[]string{"plain question"}, "plain answer", "", true},
		{"GenAI indexed prompt", map[string]any{"gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "sys",
			"gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "indexed question", "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "indexed answer"},
			[]string{"indexed question"}, "indexed answer", "", true},
		{"Vercel prompt object", map[string]any{"ai.prompt": `{"prompt":"vercel question"}`, "ai.response.text": "vercel answer"},
			[]string{"vercel question"}, "vercel answer", "", true},
		{"Vercel prompt messages win over ai.prompt", map[string]any{"ai.prompt": `{"system":"s","messages":[{"role":"user","content":"from prompt"}]}`,
			"ai.prompt.messages": `[{"role":"user","content":[{"type":"text","text":"from messages"}]}]`},
			[]string{"from messages"}, "", "", true},
		{"Vercel prompt with messages", map[string]any{"ai.prompt": `{"system":"s","messages":[{"role":"user","content":"hello there"}]}`},
			[]string{"hello there"}, "", "", true},
		{"OpenInference values", map[string]any{"input.value": "oi question", "output.value": `"oi answer"`, "session.id": "s-9"},
			[]string{"oi question"}, "oi answer", "s-9", true},
		{"OpenInference indexed messages", map[string]any{"llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "llm question",
			"llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "llm answer"},
			[]string{"llm question"}, "llm answer", "", true},
		{"OpenInference JSON input", map[string]any{"input.value": `{"input":"chain question"}`, "output.value": `{"output":"chain answer"}`},
			[]string{"chain question"}, "chain answer", "", true},
		{"GenAI conversation id wins over session id", map[string]any{"session.id": "s", "gen_ai.conversation.id": "g"}, nil, "", "g", false},
		{"malformed JSON is the text itself", map[string]any{"gen_ai.input.messages": `[{"role":"user"`}, []string{`[{"role":"user"`}, "", "", true},
		{"nothing to read", map[string]any{"http.method": "POST", "gen_ai.usage.input_tokens": int64(3)}, nil, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := pcommon.NewMap()
			if err := m.FromRaw(tc.attrs); err != nil {
				t.Fatal(err)
			}
			in, out, conv, bad := spanText(m, false)
			if got := userMessages(in.messages()); !reflect.DeepEqual(got, tc.users) {
				t.Errorf("user messages = %q; want %q", got, tc.users)
			}
			if got := answerText(out.messages()); got != tc.answer {
				t.Errorf("answer = %q; want %q", got, tc.answer)
			}
			if conv != tc.conv || bad {
				t.Errorf("conversation = %q, bad = %v; want %q, false", conv, bad, tc.conv)
			}
			if found := !in.empty() || !out.empty(); found != tc.wantPayload {
				t.Errorf("found input or output = %v; want %v", found, tc.wantPayload)
			}
		})
	}
}
