package dashboard

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// TestCasePage_RebuiltPromptAndRawReply: for a judge metric of a built-in
// type the case page shows the prompt rebuilt from the stored case (both
// readings of a position-swapped metric, escaped, said to be rebuilt) and
// the stored raw replies; a custom llm_judge gets no rebuilt prompt, as its
// rubric is not in the row.
func TestCasePage_RebuiltPromptAndRawReply(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	reply := "{\"reason\": \"Says <script>alert(1)</script> 30 days.\", \"score\": 0.8}"
	details := `{"semantic_accuracy":{"judge":{"provider":"openai","model":"gpt-4.1-mini"},"metric_type":"semantic_accuracy",` +
		`"position_swap":{"scores":[0.8,0.8],"spread":0},"raw_reply":` + quoteJSON(reply) + `,"raw_reply_answer_first":"{\"reason\":\"second\",\"score\":0.8}"},` +
		`"house_style":{"judge":{"provider":"openai","model":"gpt-4.1-mini"},"metric_type":"llm_judge","raw_reply":"{\"reason\":\"fine\",\"score\":1}"}}`
	cr := &models.CaseResult{Position: 0, CaseID: "q", Name: "q", Status: models.StatusPassed, DurationMS: 10,
		Question: models.JSON(`"How long is the <b>refund</b> window?"`), ExpectedAnswer: models.JSON(`"30 days"`),
		Output:           models.JSON(`"30 days </pre><script>alert(2)</script>"`),
		Metadata:         models.JSON(`{"important_facts":["30 days"],"context":["Refunds within 30 days."]}`),
		ResponseMetadata: models.JSON(`{"metric_details":` + details + `}`),
		Metrics: []*models.MetricResult{metric(0, "semantic_accuracy", 0.5, f64(0.8), true, "Same."),
			metric(1, "house_style", 0.5, f64(1), true, "fine")}}
	run := &models.Run{Suite: "Judged", Agent: "A", Version: "1", SuiteDigest: "dp",
		StartedAt: t0.Add(6 * time.Hour), FinishedAt: t0.Add(6*time.Hour + time.Second), Cases: []*models.CaseResult{cr}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	r := mustGet(t, MustServe(t, ro, mount).URL+mount+"/runs/"+run.ID.String()+"/cases/0", http.StatusOK)

	prompts := mustSelect(t, r.Doc, "table.metrics details.judge-prompt")
	if len(prompts) != 1 {
		t.Fatalf("%d rebuilt prompts, want 1 (none for llm_judge)", len(prompts))
	}
	if got := text(prompts[0]); !strings.Contains(got, "Rebuilt from the stored question and answer with this version's prompt template") {
		t.Errorf("prompt details do not say they are rebuilt: %q", got)
	}
	stored := score.StoredCase{Question: json.RawMessage(cr.Question), ExpectedAnswer: json.RawMessage(cr.ExpectedAnswer),
		Output: json.RawMessage(cr.Output), Metadata: json.RawMessage(cr.Metadata)}
	systems, users := selectAll(prompts[0], "pre.judge-system"), selectAll(prompts[0], "pre.judge-user")
	if len(systems) != 2 || len(users) != 2 {
		t.Fatalf("%d system and %d user messages, want both readings", len(systems), len(users))
	}
	for i, answerFirst := range []bool{false, true} {
		want, _ := score.RebuildPrompt("semantic_accuracy", stored, answerFirst)
		if got := text(systems[i]); got != want.System {
			t.Errorf("reading %d: system message = %q, want %q", i, got, want.System)
		}
		if got := text(users[i]); got != want.User {
			t.Errorf("reading %d: user message = %q, want %q", i, got, want.User)
		}
	}
	if !strings.Contains(want0User(stored), `"Refunds within 30 days."`) {
		t.Error("the rebuilt prompt lacks the stored retrieval context")
	}
	replies := text(mustSelect(t, r.Doc, "table.metrics")[0])
	for _, want := range []string{reply, `{"reason":"second","score":0.8}`, `{"reason":"fine","score":1}`} {
		if !strings.Contains(replies, want) {
			t.Errorf("metrics table lacks the raw reply %q", want)
		}
	}
	if len(selectAll(r.Doc, "table.metrics script")) != 0 || len(selectAll(r.Doc, "table.metrics b")) != 0 {
		t.Error("stored text became markup")
	}
}

func want0User(c score.StoredCase) string {
	p, _ := score.RebuildPrompt("semantic_accuracy", c, false)
	return p.User
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
