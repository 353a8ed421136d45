package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestCasePage_DecisionPath: a decision graph metric's case page lists
// the path it took, node by node with verdict and reason, escaped; a
// walk that stopped at a failing node shows the nodes before it.
func TestCasePage_DecisionPath(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	details := `{"rules":{"metric_type":"dag","dag_leaf":{"score":0.5,"label":"curt"},"dag_path":[` +
		`{"node":"deadline","kind":"check","check":"contains","score":1,"verdict":"yes","reason":"found \"30 days\""},` +
		`{"node":"polite","kind":"judge","question":"Is it <i>polite</i>?","score":0,"verdict":"no","reason":"Curt <script>alert(1)</script>"}]}}`
	errored := models.JSON(`{"kind":"server_error","message":"decision graph node \"receipt\": 503","dag_node":"receipt",` +
		`"dag_path":[{"node":"deadline","kind":"check","check":"contains","score":1,"verdict":"yes","reason":"found"}]}`)
	bad := metric(1, "rules_strict", 0.9, nil, false, "")
	bad.Reason, bad.ErrorDetails = nil, errored
	cr := &models.CaseResult{Position: 0, CaseID: "q", Name: "q", Status: models.StatusError, DurationMS: 10,
		Question: models.JSON(`"How long?"`), ExpectedAnswer: models.JSON(`"30 days"`), Output: models.JSON(`"30 days."`),
		Metadata: models.JSON(`{}`), ResponseMetadata: models.JSON(`{"metric_details":` + details + `}`),
		Metrics: []*models.MetricResult{metric(0, "rules", 0.9, f64(0.5), false, "Decision path deadline=yes → polite=no → score 0.5"), bad}}
	run := &models.Run{Suite: "Rules", Agent: "A", Version: "1", SuiteDigest: "dag",
		StartedAt: t0.Add(7 * time.Hour), FinishedAt: t0.Add(7*time.Hour + time.Second), Cases: []*models.CaseResult{cr}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	r := mustGet(t, MustServe(t, ro, mount).URL+mount+"/runs/"+run.ID.String()+"/cases/0", http.StatusOK)
	paths := mustSelect(t, r.Doc, "table.metrics ol.dag-path")
	if len(paths) != 2 {
		t.Fatalf("%d decision paths, want one per dag metric", len(paths))
	}
	var steps []string
	for _, li := range selectAll(paths[0], "li") {
		steps = append(steps, text(li))
	}
	want := []string{`deadline check contains → yes: found "30 days"`, "polite Is it <i>polite</i>? → no: Curt <script>alert(1)</script>"}
	if strings.Join(steps, "|") != strings.Join(want, "|") {
		t.Errorf("path = %q, want %q", steps, want)
	}
	if len(selectAll(paths[1], "li")) != 1 {
		t.Errorf("the errored walk shows %d nodes, want the one before the failure", len(selectAll(paths[1], "li")))
	}
	if len(selectAll(r.Doc, "table.metrics script")) != 0 || len(selectAll(r.Doc, "table.metrics i")) != 0 {
		t.Error("a stored reason became markup")
	}
}
