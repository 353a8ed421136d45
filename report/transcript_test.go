package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/net/html"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// conversationRun is one failed conversation: turn 2's check failed and
// the messages carry markup.
func conversationRun(t *testing.T) *models.Run {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	run := &models.Run{ID: uuid.MustParse("01900000-0000-7000-8000-0000000c0001"), Suite: "Conversations", Agent: "Agent",
		Version: "1", SuiteDigest: "d", Status: models.RunStatusCompleted, StartedAt: at, FinishedAt: at,
		Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
	failing, reason := 2, `output "What is your order number?" does not contain "Friday"`
	zero := 0.0
	meta, err := models.CaseMetadata{Transcript: &models.Transcript{Kind: "scripted", ConversationID: "c", StopReason: models.StopScriptEnd,
		FailingTurn: &failing, Turns: []models.TranscriptTurn{
			{Turn: 1, User: "My order is A-1042 <script>alert(1)</script>", Output: models.JSON(`"Order A-1042 ships."`)},
			{Turn: 2, User: "When will it arrive?", Output: models.JSON(`"What is your order number?"`),
				Checks: []models.TurnCheck{{Name: "turn2.contains", Threshold: 1, Score: &zero, Reason: &reason}}},
		}}}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	c := &models.CaseResult{ID: 1, RunID: run.ID, CaseID: "order", Name: "order", Question: models.MustJSON("My order is A-1042"),
		Output: models.MustJSON("What is your order number?"), Metadata: models.JSON(`{}`), MinimumScores: models.JSON(`{"turn2.contains":1}`),
		ResponseMetadata: meta,
		Metrics:          []*models.MetricResult{{ID: 1, CaseResultID: 1, Name: "turn2.contains", Threshold: 1, Score: &zero, Reason: &reason}}}
	c.Status = c.DeriveStatus()
	run.Cases = []*models.CaseResult{c}
	return run
}

// TestRenderer_Transcript: the text report names the failing turn and
// the stop; the HTML report lists every turn with its checks, the failing
// one marked, every message escaped.
func TestRenderer_Transcript(t *testing.T) {
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cmp := compare.Compare(conversationRun(t), nil, compare.Options{})
	txt, err := r.Bytes(report.FormatText, cmp)
	if err != nil {
		t.Fatal(err)
	}
	if want := `conversation: failing turn 2 of 2 ("When will it arrive?"); the script ended after 2 turns`; !strings.Contains(string(txt), want) {
		t.Errorf("text report lacks %q:\n%s", want, txt)
	}
	page, err := r.Bytes(report.FormatHTML, cmp)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	var items []*html.Node
	var scripts int
	var walk func(n *html.Node, inChat bool)
	walk = func(n *html.Node, inChat bool) {
		if n.Type == html.ElementNode && n.Data == "ol" && strings.Contains(attrOf(n, "class"), "conversation") {
			inChat = true
		}
		if inChat && n.Type == html.ElementNode && n.Data == "li" && n.Parent.Data == "ol" {
			items = append(items, n)
		}
		if inChat && n.Type == html.ElementNode && n.Data == "script" {
			scripts++
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inChat)
		}
	}
	walk(doc, false)
	if len(items) != 2 || scripts != 0 {
		t.Fatalf("%d turns and %d script elements in the conversation, want 2 and 0", len(items), scripts)
	}
	if !strings.Contains(attrOf(items[1], "class"), "gating") || !strings.Contains(nodeText(items[1]), "failing turn") ||
		!strings.Contains(nodeText(items[1]), "turn2.contains") || strings.Contains(nodeText(items[0]), "failing turn") {
		t.Errorf("turn 2 is not the one marked failing with its check: %q / %q", nodeText(items[0]), nodeText(items[1]))
	}
	if !strings.Contains(nodeText(items[0]), "<script>alert(1)</script>") {
		t.Errorf("turn 1 does not show the user's text as written: %q", nodeText(items[0]))
	}
}

func attrOf(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func nodeText(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return b.String()
}

// TestGrid_ComparesTranscripts: an experiment's grid puts each variant's
// transcript beside the others', the failing turn marked.
func TestGrid_ComparesTranscripts(t *testing.T) {
	a, b := conversationRun(t), conversationRun(t)
	b.ID = uuid.MustParse("01900000-0000-7000-8000-0000000c0002")
	for i, r := range []*models.Run{a, b} {
		name := []string{"reference", "candidate"}[i]
		r.Agent = "Agent [" + name + "]"
		r.Metadata = models.MustJSON(map[string]any{report.ExperimentKey: report.ExperimentInfo{ID: "e", Name: "E",
			Variant: name, Variants: []string{"reference", "candidate"}, StartedAt: "2026-12-01T12:00:00Z"}})
	}
	g, err := report.BuildGrid([]*models.Run{a, b}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cell := g.Rows[0].Cells[1]
	if !strings.HasPrefix(cell.Conversation, "failing turn 2 of 2") || len(cell.Turns) != 2 ||
		cell.Turns[1] != "✗ 2. When will it arrive? → What is your order number?" {
		t.Errorf("grid cell: %q %q", cell.Conversation, cell.Turns)
	}
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	var txt, page strings.Builder
	if err := r.RenderGrid(&txt, report.FormatText, g); err != nil {
		t.Fatal(err)
	}
	if err := r.RenderGrid(&page, report.FormatHTML, g); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(txt.String(), "conversation: failing turn 2 of 2"); n != 2 {
		t.Errorf("text grid names the failing turn %d times, want once per variant:\n%s", n, txt.String())
	}
	if strings.Contains(page.String(), "<script>alert(1)") || !strings.Contains(page.String(), "&lt;script&gt;alert(1)") {
		t.Error("the HTML grid does not escape the transcript")
	}
}
