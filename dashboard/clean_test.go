package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestServer_ControlCharactersAndJSON: terminal control sequences in
// untrusted text are stripped on every page (no tofu boxes), and JSON shown
// to people reads "<script>", escaped by html/template, not \u003cscript\u003e.
func TestServer_ControlCharactersAndJSON(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	esc := "\x1b[31mred\x1b[0m\x1b]0;title\x07\x07"
	run := &models.Run{Suite: "Esc " + esc, Agent: "Agent" + esc, Version: "1", SuiteDigest: "esc",
		StartedAt: t0, FinishedAt: t0.Add(1e9), Metadata: models.JSON(`{"note":"\u001b[1mbold"}`)}
	run.Cases = []*models.CaseResult{{Position: 0, CaseID: "c1", Name: "Title " + esc, Status: models.StatusFailed, DurationMS: 5,
		Question: models.MustJSON("Question " + esc + "\nsecond line"), Output: models.MustJSON("Output " + esc),
		Actions: models.JSON(`[{"group":"g","name":"\u003cscript\u003ealert(1)\u003c/script\u003e","arguments":{"q":"a\u0026b"}}]`),
		Metrics: []*models.MetricResult{metric(0, "exact_match", 1, f64(0), false, "Reason "+esc)}}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	ts := MustServe(t, ro, mount)
	id := run.ID.String()
	for _, p := range []string{"/", "/runs/" + id, "/runs/" + id + "/cases/0", "/compare?a=" + id + "&b=" + id} {
		r := mustGet(t, ts.URL+mount+p, http.StatusOK)
		if strings.ContainsAny(r.Body, "\x1b\x07") || strings.Contains(r.Body, "[31m") {
			t.Errorf("%s: control sequences reach the page", p)
		}
		if !strings.Contains(text(r.Doc), "Esc red") {
			t.Errorf("%s: the suite name is not shown without its control sequences", p)
		}
	}
	r := mustGet(t, ts.URL+mount+"/runs/"+id+"/cases/0", http.StatusOK)
	for _, want := range []string{"Title red", "Question red\nsecond line", "Output red", "Reason red"} {
		if !strings.Contains(text(r.Doc), want) {
			t.Errorf("case page lacks %q", want)
		}
	}
	if !strings.Contains(r.Body, "&lt;script&gt;alert(1)&lt;/script&gt;") || strings.Contains(r.Body, `\u003c`) ||
		!strings.Contains(r.Body, "a&amp;b") {
		t.Errorf("observed actions are not readable, escaped text:\n%s", r.Body)
	}
	if n := len(selectAll(r.Doc, "script")); n != 0 {
		t.Errorf("%d script elements on the case page", n)
	}
}
