package adapter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/suite"
)

func TestAnswerBuffer(t *testing.T) {
	long := strings.Repeat("é", 10) // 20 bytes
	for _, tc := range []struct {
		name, in   string
		wantOutput string // the parsed output string
		cut        bool
	}{
		{"short JSON", `{"output": "hi", "metadata": {"output": "x"}}`, "hi", false},
		{"long JSON output", `{"metadata": {"a": "` + long + `"}, "output": "` + long + `", "actions": []}`, "ééééé", true},
		{"escapes are never split", `{"output": "abcdefgh\u00e9\n\"zz"}`, "abcdefgh\u00e9\n", true},
		{"nested output keys are not the answer", `{"metadata": {"output": "` + long + `"}, "output": "ok"}`, "ok", false},
		{"plain text", "  " + long + "\n", "ééééé", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAnswerBuffer(10, 1<<20)
			for _, chunk := range splitEvery(tc.in, 3) { // arbitrary write boundaries
				a.Write([]byte(chunk))
			}
			resp, err := ParseReply(a.Buf, true)
			if err != nil {
				t.Fatalf("parseReply(%s): %v", a.Buf, err)
			}
			var out string
			if err := json.Unmarshal(resp.Output, &out); err != nil || out != tc.wantOutput {
				t.Errorf("output = %s, want %q", resp.Output, tc.wantOutput)
			}
			tr := a.Truncation()
			if (tr != nil) != tc.cut {
				t.Fatalf("truncation = %v, want cut %v", tr, tc.cut)
			}
			if tc.cut && (tr["reply_bytes"] != int64(len(tc.in)) || len(tr["reply_sha256"].(string)) != 64) {
				t.Errorf("truncation = %v", tr)
			}
		})
	}
}

func splitEvery(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// TestCommandAgent_LongAnswerIsCapped: a 3 MB answer is kept to the cap,
// scored on what was kept, and the metadata says so.
func TestCommandAgent_LongAnswerIsCapped(t *testing.T) {
	cfg := shAgent(t, suite.AgentCommand, `cat >/dev/null; printf '{"output":"'; head -c 3000000 /dev/zero | tr '\0' a; printf '"}'`)
	cfg.MaxAnswerBytes = 1000
	a := mustAgent(t, cfg, Options{})
	resp, err := a.Answer(t.Context(), agent.Question{ID: "q", Question: []byte(`"hi"`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(resp.Output); got != 1002 { // 1000 bytes and the quotes
		t.Errorf("output is %d bytes, want 1002", got)
	}
	tr, _ := resp.Metadata["output_truncated"].(map[string]any)
	if tr == nil || tr["reply_bytes"] != int64(3000013) {
		t.Errorf("output_truncated = %v", resp.Metadata["output_truncated"])
	}
}

// TestWorkerAgent_LongAnswerIsCapped: worker replies are read through the
// same cap, line by line, and the next reply is unaffected.
func TestWorkerAgent_LongAnswerIsCapped(t *testing.T) {
	cfg := shAgent(t, suite.AgentWorker, `while IFS= read -r l; do printf '{"output":"'; head -c 300000 /dev/zero | tr '\0' a; printf '"}\n'; done`)
	cfg.MaxAnswerBytes = 1000
	a := mustAgent(t, cfg, Options{})
	for i := range 2 {
		resp, err := a.Answer(t.Context(), agent.Question{ID: "q", Question: []byte(`"hi"`)})
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		tr, _ := resp.Metadata["output_truncated"].(map[string]any)
		if len(resp.Output) != 1002 || tr == nil || tr["reply_bytes"] != int64(300013) {
			t.Errorf("answer %d: %d bytes, output_truncated %v", i, len(resp.Output), resp.Metadata["output_truncated"])
		}
	}
}
