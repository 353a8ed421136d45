package monitor

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
	"github.com/agentevals-go/agentevals/tracefile"
)

func TestAppendQuestion(t *testing.T) {
	q := []byte(`{"id": "new"}`)
	for _, tc := range []struct {
		name, suite string
		ids         []string
		err         error
	}{
		{"after the last question", `{"suite": "s", "questions": [{"id": "a"}, {"id": "b"}]}`, []string{"a", "b", "new"}, nil},
		{"into an empty array", `{"suite": "s", "questions": []}`, []string{"new"}, nil},
		{"questions before other keys", "{\"questions\": [\n  {\"id\": \"a\"}\n],\n\"suite\": \"s\"}\n", []string{"a", "new"}, nil},
		{"a suite of a golden set only", "{\"suite\": \"s\", \"golden_set\": \"g.jsonl\"}\n", []string{"new"}, nil},
		{"an empty object", `{}`, []string{"new"}, nil},
		{"YAML", "suite: s\nquestions: []\n", nil, ErrNotJSONSuite},
		{"an array", `[{"id": "a"}]`, nil, ErrNotJSONSuite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := AppendQuestion([]byte(tc.suite), q)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Questions []struct{ ID string }
			}
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			var ids []string
			for _, q := range doc.Questions {
				ids = append(ids, q.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tc.ids, ",") {
				t.Errorf("ids %v, want %v\n%s", ids, tc.ids, out)
			}
			if head := tc.suite[:strings.Index(tc.suite, "{")+1]; !strings.HasPrefix(string(out), head) {
				t.Errorf("the file's own bytes should be kept:\n%s", out)
			}
		})
	}
}

func TestDraftWrite(t *testing.T) {
	d := Draft{Question: "Order 1042 please, mail jane@example.com", Answer: "Order 1042 ships, jane@example.com",
		Actions: []score.Action{{Name: "lookup_order", Arguments: json.RawMessage(`{"order": 1042, "email": "jane@example.com"}`)}, {Name: "noop"}},
		Source:  DraftSource{RunID: "r", CaseID: "c", TraceIDs: []string{"t"}}}
	for _, tc := range []struct {
		name   string
		policy sanitize.Policy
		want   []string
		absent []string
	}{
		{"PII pass", sanitize.Policy{PII: true}, []string{"[EMAIL]", `"order":1042`, `"review":true`, `"mode":"in_order"`, `"arguments":"partial"`}, []string{"jane@example.com"}},
		{"kept", sanitize.Policy{}, []string{"jane@example.com", `"order":1042`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := d.Write("production-c", []json.RawMessage{json.RawMessage(`{"type": "tool_used", "tools": ["lookup_order"]}`)}, tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			var q map[string]json.RawMessage
			if err := json.Unmarshal(raw, &q); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, raw)
			}
			var flat strings.Builder
			for _, k := range []string{"question", "expected_answer", "expected_actions", "checks", "metadata"} {
				b, _ := json.Marshal(json.RawMessage(q[k]))
				flat.Write(b)
			}
			for _, w := range tc.want {
				if !strings.Contains(flat.String(), w) {
					t.Errorf("want %s in\n%s", w, flat.String())
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(string(raw), a) {
					t.Errorf("%s should be redacted:\n%s", a, raw)
				}
			}
			if !strings.Contains(string(q["expected_actions"]), `{"name":"noop"}`) && !strings.Contains(flat.String(), `{"name":"noop"}`) {
				t.Errorf("a call without arguments should expect none:\n%s", raw)
			}
		})
	}
}

func TestDraftNeedsAMessage(t *testing.T) {
	for _, d := range []Draft{{}, {Turns: []DraftTurn{{User: "hi"}, {User: " "}}}} {
		if err := d.check("trace x"); err == nil || !strings.Contains(err.Error(), "nothing to ask") {
			t.Errorf("%+v: err = %v, want nothing to ask", d, err)
		}
	}
	if err := (Draft{Turns: []DraftTurn{{User: "hi"}}}).check("x"); err != nil {
		t.Error(err)
	}
}

// TestDraft_Conversation: traces sharing a conversation id are one case
// whose turns the window keeps in its metadata, so the case drafted from
// the file and the one read back from its saved row are conversations.
func TestDraft_Conversation(t *testing.T) {
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	start := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	for i, msg := range []string{"Where is order 7?", "And order 8?"} {
		sp := spans.AppendEmpty()
		sp.SetTraceID(pcommon.TraceID{byte(i + 1), 7})
		sp.SetSpanID(pcommon.SpanID{byte(i + 1), 1})
		sp.SetName("invoke_agent shop")
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i) * time.Minute)))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i)*time.Minute + time.Second)))
		sp.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
		sp.Attributes().PutStr("gen_ai.conversation.id", "conv-1")
		sp.Attributes().PutStr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+msg+`"}]}]`)
		sp.Attributes().PutStr("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"Answer `+strconv.Itoa(i+1)+`"}]}]`)
	}
	line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "conv.jsonl")
	if err := os.WriteFile(f, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := tracefile.Open(f, tracefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	d, err := DraftFromTrace(c, f)
	if err != nil {
		t.Fatal(err)
	}
	want := []DraftTurn{{User: "Where is order 7?", Agent: "Answer 1"}, {User: "And order 8?", Agent: "Answer 2"}}
	if d.Question != "" || !slices.Equal(d.Turns, want) || d.Source.ConversationID != "conv-1" {
		t.Fatalf("draft %+v", d)
	}
	raw, err := d.Write("conv", nil, sanitize.Policy{PII: true})
	if err != nil {
		t.Fatal(err)
	}
	doc := append(append([]byte(`{"suite":"s","agent":{"name":"a","command":["true"]},"questions":[`), raw...), "]}"...)
	s, err := suite.Parse("s.json", t.TempDir(), doc, score.Builtins())
	if err != nil {
		t.Fatalf("the drafted conversation should validate: %v\n%s", err, doc)
	}
	if cv := s.Cases[0].Conversation; cv == nil || len(cv.Turns) != 2 || cv.Turns[1].Content != "And order 8?" {
		t.Errorf("the question should be a conversation of two turns: %+v", cv)
	}

	m, err := Load(write(t, `{"monitor":"shop","agent":"shop","checks":[{"type":"error_spans"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	w, err := m.Read([]string{f}, tracefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	run := w.Suite.Plan(w.Suite.Calculated(false))
	back, err := DraftFromCase(run, run.Cases[0])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Turns, want) || back.Source.ConversationID != "conv-1" {
		t.Errorf("read back from the row: %+v", back)
	}
}
